"""The build step of a normal (non-editable) install, which pyproject.toml can't declare:

- the repository's ``sample_workspace/`` and ``themes/`` are the source, copied into the built
  package as ``memreview/sample_workspace`` and ``memreview/themes`` so that an installed
  memreview finds them with importlib.resources (memreview/shipped.py);
- the catalogues' ``.po`` files are compiled to ``.mo`` beside them (Babel; memreview/i18n.py
  reads a ``.mo`` when there is one, else the ``.po``).

An editable install reads all of them from the repository itself."""

from __future__ import annotations

import shutil
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
    """Each ``memreview/locale/*/LC_MESSAGES/*.po`` as a ``.mo`` in the built package."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in (ROOT / "memreview" / "locale").glob("*/LC_MESSAGES/*.po"):
        with po.open("rb") as fp:
            catalog = read_po(fp, locale=po.parent.parent.name)
        mo = build_lib / po.relative_to(ROOT).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as fp:
            write_mo(fp, catalog, use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithData})
