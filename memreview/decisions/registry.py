"""The one table of queues: adding a queue is one module in ``units/`` and one line here.

Every consumer reads this table, at call time: the scan (detectors, missing notes, limits),
the planner (actions, option checks, plan builders), the app (sidebar, keys, footer, palette,
help, evidence) and the weekly report (notes). Nothing else lists the queues.

Where it sits: a unit joins a detector (``queues/``, below) with a plan builder that uses
``decisions/plan``'s building blocks, so the units and this table live on the decisions
floor, above ``plan`` and below ``planner.py`` (``build_plan``, ``check_decision``), which
reads them: ``queues`` → ``plan`` → ``units`` → ``registry`` → ``planner`` → ``apply``, with
no cycle. A unit can't hold a Rich renderer (nothing under ``decisions/`` imports Textual or
Rich): its evidence is a list of plain blocks (``unit.Facts``, ``RefBlock``…) that
``app/render.py`` draws, the same way for every queue.
"""

from __future__ import annotations

from memreview.decisions.unit import VERBS, QueueUnit, Verb
from memreview.decisions.units import (
    archived,
    contradictions,
    demotion,
    dormant,
    dropping,
    duplicates,
    promotions,
    secrets,
    skills,
    supersede,
)
from memreview.i18n import _, current_language

# In the order of the sidebar, the keys 1-9 and 0, the scan's JSON and the report.
UNITS: tuple[QueueUnit, ...] = (
    contradictions.UNIT,
    supersede.UNIT,
    skills.UNIT,
    archived.UNIT,
    duplicates.UNIT,
    dormant.UNIT,
    demotion.UNIT,
    promotions.UNIT,
    secrets.UNIT,
    dropping.UNIT,
)

# the table as shipped (a test may put another in UNITS): the scan cache keys results by it
SHIPPED = UNITS


def units() -> tuple[QueueUnit, ...]:
    """Every queue, in order."""
    return UNITS


def unit(name: str) -> QueueUnit | None:
    """The queue called ``name``, or None."""
    return next((u for u in UNITS if u.name == name), None)


def shown_name(queue: QueueUnit) -> str:
    """A queue as tables name it: its id (what a decisions file says) in English; in another
    language its title, then the id."""
    if current_language() == "en":
        return queue.name
    return _("{title} ({name})").format(title=_(queue.title), name=queue.name)


def queue_names() -> tuple[str, ...]:
    """The queues' names, in order."""
    return tuple(u.name for u in UNITS)


def verbs() -> tuple[Verb, ...]:
    """The shared decision keys, then the keys queues declare of their own."""
    out = {v.name: v for v in VERBS}
    for u in UNITS:
        for v in u.verbs:
            out.setdefault(v.name, v)
    return tuple(out.values())


def verb(name: str) -> Verb | None:
    """The decision key called ``name``, or None."""
    return next((v for v in verbs() if v.name == name), None)
