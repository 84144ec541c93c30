"""Where memreview's own files are: the sample workspace and the themes shipped with it, and
the user's settings file.

An installed memreview carries them inside the package (``memreview/sample_workspace``,
``memreview/themes``: setup.py copies them there from the repository when it builds); run from
the repository, or installed editable, they are the repository's top-level folders.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

from platformdirs import user_config_dir

_REPO = Path(__file__).resolve().parent.parent


def shipped_dir(name: str) -> Path:
    """The shipped folder ``name`` (``sample_workspace`` or ``themes``): inside the installed
    package when it is there, else at the repository's top level."""
    inside = Path(str(files("memreview").joinpath(name)))
    return inside if inside.is_dir() else _REPO / name


def user_config_file() -> Path:
    """The user's settings file: ``$MEMREVIEW_CONFIG``, else ``config.yaml`` in the user's
    config directory (platformdirs)."""
    env = os.environ.get("MEMREVIEW_CONFIG")
    if env:
        return Path(env)
    return Path(user_config_dir("memreview")) / "config.yaml"
