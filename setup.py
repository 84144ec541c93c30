"""The build step of a normal (non-editable) install, which pyproject.toml can't declare:

- the repository's ``sample_workspace/`` and ``themes/`` are the source, copied into the built
  package as ``memreview/sample_workspace`` and ``memreview/themes`` so that an installed
  memreview finds them with importlib.resources (memreview/shipped.py);
- the catalogues' ``.po`` files are compiled to ``.mo`` beside them (``memreview.i18n.compile_po``, Babel; memreview/i18n.py
  reads a ``.mo`` when there is one, else the ``.po``).

An editable install reads all of them from the repository itself."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = ("sample_workspace", "themes")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in SHIPPED:
            dest = Path(self.build_lib) / "memreview" / name
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(ROOT / name, dest, ignore=shutil.ignore_patterns(".memreview"))
        compile_catalogues(Path(self.build_lib))


def compile_catalogues(build_lib: Path) -> None:
    """Each ``memreview/locale/*/LC_MESSAGES/*.po`` as a ``.mo`` in the built package,
    compiled by memreview's own ``i18n.compile_po`` (the source tree's: it imports nothing
    but the standard library and Babel, a build requirement)."""
    sys.path.insert(0, str(ROOT))
    from memreview.i18n import compile_po

    for po in (ROOT / "memreview" / "locale").glob("*/LC_MESSAGES/*.po"):
        mo = build_lib / po.relative_to(ROOT).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        mo.write_bytes(compile_po(po.read_bytes(), po.parent.parent.name))


setup(cmdclass={"build_py": BuildWithData})
