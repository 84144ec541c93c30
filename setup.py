"""The build step pyproject.toml can't declare: the catalogues' `.po` files are compiled to
`.mo` beside them in the built package (memreview/i18n.py reads a `.mo` when there is one,
else the `.po`, so an editable install works without this step)."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogues(build_py):
    def run(self):
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in Path("memreview/locale").glob("*/LC_MESSAGES/*.po"):
            with po.open("rb") as fp:
                catalog = read_po(fp, locale=po.parent.parent.name)
            mo = Path(self.build_lib) / po.with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            with mo.open("wb") as fp:
                write_mo(fp, catalog, use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithCatalogues})
