"""A toy queue declared the way a new queue is: one unit, added to the registry's table.

``register(monkeypatch)`` adds it as the table's eighth line; the tests then check that every
consumer (scan, planner, report, app) sees it without being told.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from memreview.decisions import registry
from memreview.decisions.model import Decision
from memreview.decisions.plan import PlanBuilder, PlannedDecision, SetMeta
from memreview.decisions.unit import DEFER, Act, Facts, QueueUnit, RefBlock, Verb
from memreview.queues.common import item_id
from memreview.workspace.model import Workspace

TOY_ANCHOR = (
    "## [KNOWLEDGE:toy-one]\nAdded: 2026-11-20\nToy: yes\nSummary: a toy anchor to tag\n---\n"
)


def toys(ws: Workspace, today: date) -> list[dict]:
    """Every anchor with ``Toy: yes``."""
    return [
        {"id": item_id("t", a.id), "title": f"toy {a.id}", "anchor": a.ref()}
        for a in ws.all_anchors()
        if (a.get("Toy") or "").strip() == "yes"
    ]


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict) -> None:
    """tag sets ``Toy: tagged``; defer writes nothing."""
    if d.action == "tag":
        target = b.anchor(item["anchor"])
        b.plan.add(target.file, SetMeta(pd.key, target, "Toy", "tagged"), pd)


TOY = QueueUnit(
    name="toy",
    title="Toy",
    detect=toys,
    acts=(
        Act("tag", "tag", "tag it", "approve", "Toy: tagged"),
        DEFER,
    ),
    plan=plan,
    evidence=lambda item: [
        Facts((("toy anchor", item["anchor"]["anchor"]),)),
        RefBlock(item["anchor"], "anchor", before=0),
    ],
    note=lambda item: " — a toy",
    missing=lambda ws: None if toys(ws, date.min) else "no Toy: yes anchors",
    verbs=(Verb("tag", "T", "tag", "Tag the toy anchor"),),
)


# The same queue declaring what a queue may add of its own: health figures, a scan option
# showing its hidden items, and credentials found (its items masked, their files named).
TOY_KEY = "sk-proj-Abc123def456ghi789jkl012mno345pqr678stu901vwx"
TOY_FULL = replace(
    TOY,
    health=lambda ws, items, today: {"count": len(items), "on": today.isoformat()},
    health_view=lambda figures: (figures["count"], [f"Toys waiting: {figures['count']}"]),
    unhide="all_promotions",
    secret_files=lambda items: {it["anchor"]["file"] for it in items},
)


def register(monkeypatch, unit: QueueUnit = TOY) -> None:
    """The one line a new queue adds to the registry's table."""
    monkeypatch.setattr(registry, "UNITS", (*registry.SHIPPED, unit))
