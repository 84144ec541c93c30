"""What every queue of the registry must have, checked for each one: a new queue that lacks
something fails here with the checklist of what it still lacks (docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path

import yaml

from memreview import i18n
from memreview.decisions import registry

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "realistic" / "cases"


def _expected_queues() -> set[str]:
    found: set[str] = set()
    for path in CASES.glob("*/expected.yaml"):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        found.update(q for q, items in (doc.get("expected") or {}).items() if items)
    return found


def lacks(unit, guide: str, realistic: set[str]) -> list[str]:
    """What ``unit`` still lacks, one line each."""
    out = []
    if not unit.acts or unit.acts[-1].action != "defer":
        out.append("its actions end with defer")
    if f"| {unit.title} |" not in guide:
        out.append("a row in docs/guide.md's table of actions")
    if unit.name not in realistic:
        out.append("a realistic case under tests/realistic/cases/ expecting its items")
    # a decision that hides its item writes memreview's list of hidden items (a defer alone
    # writes nothing: its item stays in the queue)
    vague = [a.label for a in unit.acts if "nothing is written" in a.effect and a.action != "defer"]
    if vague:
        out.append(f"effects that say which files are written, not 'nothing is written' {vague}")
    i18n.use_language("zh")
    try:
        texts = [unit.title, *(a.label for a in unit.acts), *(a.effect for a in unit.acts)]
        untranslated = [t for t in texts if i18n._(t) == t and any(c.isalpha() for c in t)]
    finally:
        i18n.use_language("en")
    if untranslated:
        out.append(f"Chinese for {untranslated}")
    return out


# Gaps known today; the list only shrinks (a gap filled must leave it: the second test says so).
REALISTIC = "a realistic case under tests/realistic/cases/ expecting its items"
KNOWN_GAPS = {
    "contradictions": [REALISTIC],
    "supersede": [REALISTIC],
    "skills": [REALISTIC],
    "archived": [REALISTIC],
}


def test_every_queue_has_what_a_queue_needs():
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    realistic = _expected_queues()
    checklist = {u.name: lacks(u, guide, realistic) for u in registry.units()}
    missing = {
        name: [i for i in items if i not in KNOWN_GAPS.get(name, [])]
        for name, items in checklist.items()
    }
    missing = {name: items for name, items in missing.items() if items}
    assert not missing, "\n".join(
        f"{name} still lacks:\n" + "\n".join(f"  - [ ] {item}" for item in items)
        for name, items in missing.items()
    )


def test_the_known_gaps_are_still_gaps():
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    realistic = _expected_queues()
    units = {u.name: u for u in registry.units()}
    filled = {
        name: [g for g in gaps if g not in lacks(units[name], guide, realistic)]
        for name, gaps in KNOWN_GAPS.items()
    }
    assert not any(filled.values()), f"take these out of KNOWN_GAPS: {filled}"
