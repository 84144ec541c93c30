"""memreview: review what your agents propose to change in their memory."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

__version__ = "0.1.0"


def names_imported_on_use(package: str, where: dict[str, str]) -> Callable[[str], object]:
    """A package's ``__getattr__``: name ``n`` is ``package.<where[n]>.n``, that module
    imported when ``n`` is first used (a package whose names live in heavy modules stays
    quick to import)."""

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)  # found at once next time
        return value

    return __getattr__
