"""Extract the interface's texts and bring the catalogues up to date.

    python -m memreview.locale.catalog          # write memreview.pot, update each .po
    python -m memreview.locale.catalog --check  # exit 1: a text untranslated or a .po stale

Texts are what the code passes to `_()`, `ngettext()`, `N_()` and `Nn_()`
(memreview/i18n.py). Each `.po` keeps its translations; a new text is added untranslated, a
text the code no longer has is dropped. No file locations are written: moving code does not touch the catalogues.
"""

from __future__ import annotations

import sys
from datetime import UTC
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

LOCALE = Path(__file__).resolve().parent
PACKAGE = LOCALE.parent
ROOT = PACKAGE.parent
KEYWORDS = {"_": None, "ngettext": (1, 2), "N_": None, "Nn_": (1, 2)}


def extract() -> Catalog:
    """Every text of the code, in a template catalogue."""
    template = Catalog(project="memreview", version="", fuzzy=False)
    for _file, _line, message, comments, context in extract_from_dir(
        str(PACKAGE),
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
    ):
        template.add(message, None, auto_comments=comments, context=context)
    return template


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fp:
        write_po(fp, catalog, no_location=True, sort_output=True, omit_header=False, width=100)


def _clean_header(catalog: Catalog) -> None:
    # fixed dates: a catalogue changes when its texts do, not each time this runs
    from datetime import datetime

    fixed = datetime(2026, 1, 1, tzinfo=UTC)
    catalog.creation_date = fixed
    catalog.revision_date = fixed


def update() -> None:
    """Write the template from the code and bring each language's ``.po`` up to it."""
    template = extract()
    _clean_header(template)
    _write(template, LOCALE / "memreview.pot")
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/memreview.po")):
        with po.open("rb") as fp:
            catalog = read_po(fp, locale=po.parent.parent.name)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        _clean_header(catalog)
        _write(catalog, po)


def problems() -> list[str]:
    """Texts missing from a catalogue, untranslated or fuzzy, and entries the code lacks."""
    template = extract()
    wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    found: list[str] = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/memreview.po")):
        with po.open("rb") as fp:
            catalog = read_po(fp)
        have = {}
        for m in catalog:
            if m.id:
                have[m.id if isinstance(m.id, str) else m.id[0]] = m
        for key in sorted(wanted - have.keys()):
            found.append(f"{po.relative_to(ROOT)}: missing {key!r}")
        for key in sorted(have.keys() - wanted):
            found.append(f"{po.relative_to(ROOT)}: stale {key!r}")
        for key in sorted(wanted & have.keys()):
            m = have[key]
            strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
            if m.fuzzy or not all(strings):
                found.append(f"{po.relative_to(ROOT)}: untranslated {key!r}")
    return found


if __name__ == "__main__":
    if "--check" in sys.argv:
        bad = problems()
        print("\n".join(bad) or "catalogues complete")
        sys.exit(1 if bad else 0)
    update()
