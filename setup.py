"""The build step of a normal (non-editable) install: the repository's ``sample_workspace/`` and
``themes/`` are the source, copied into the built package as ``memreview/sample_workspace`` and
``memreview/themes`` so that an installed memreview finds them with importlib.resources
(memreview/shipped.py). An editable install reads them from the repository itself."""

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


setup(cmdclass={"build_py": BuildWithData})
