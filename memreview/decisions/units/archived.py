"""The archived queue: a fragment the dreaming pipeline archived still lives in memory."""

from __future__ import annotations

from typing import Any

from memreview.decisions.model import Decision
from memreview.decisions.plan import DeleteEntry, PlanBuilder, PlannedDecision, Target
from memreview.decisions.unit import (
    DEFER,
    Act,
    Caption,
    Facts,
    ImportedOnUse,
    Passage,
    QueueUnit,
    RefBlock,
)
from memreview.display import dated
from memreview.i18n import N_, _, ngettext
from memreview.workspace.model import Workspace


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict[str, Any]) -> None:
    """remove deletes every matching entry (each once); keep hides the item."""
    if d.action == "remove":
        targets: dict[tuple[str, int], Target] = {}
        for ref in item.get("matches") or []:
            target = b.entry(ref)
            targets.setdefault((target.file, target.line), target)
        for target in targets.values():
            b.plan.add(target.file, DeleteEntry(pd.key, target), pd)
    elif d.action == "keep":
        for ref in item.get("matches") or []:
            b.keep(pd, b.entry(ref))
        b.hide(pd, "kept")


def evidence(item: dict[str, Any]) -> list[Any]:
    """The fragment's facts and text, then each entry it still lives in."""
    frag = item.get("fragment") or {}
    matches = item.get("matches") or []
    return [
        Facts(
            (
                (_("fragment"), frag.get("id")),
                (_("status"), frag.get("status")),
                (_("last seen"), dated(frag.get("last_seen"), item.get("days_since_last_seen"))),
            )
        ),
        Passage(_("archived fragment"), str(frag.get("content", ""))),
        Caption(
            ngettext(
                "still lives in {count} entry:", "still lives in {count} entries:", len(matches)
            ).format(count=len(matches))
        ),
        *(RefBlock(ref, f"{k}.") for k, ref in enumerate(matches, 1)),
    ]


def note(item: dict[str, Any]) -> str:
    """How long ago the fragment was archived."""
    days = item.get("days_since_last_seen")
    return ngettext(
        " — archived {days} day ago, still in memory",
        " — archived {days} days ago, still in memory",
        days if isinstance(days, int) else 2,
    ).format(days=days)


def missing(ws: Workspace) -> str | None:
    """The fragments live in the dreaming database."""
    if not ws.given("fragments"):
        return _("no fragments database ({file})").format(file=ws.config.dreams_db)
    return None


UNIT = QueueUnit(
    name="archived",
    title=N_("Archived"),
    detect=ImportedOnUse("memreview.queues.archived", "archived"),
    acts=(
        Act("approve", "remove", N_("remove"), "approve", N_("every matching entry is deleted")),
        Act("keep", "keep", N_("keep"), "keep", N_("the entries stay; the item is hidden")),
        DEFER,
    ),
    plan=plan,
    evidence=evidence,
    note=note,
    missing=missing,
    slow=True,
    deletes=True,
)
