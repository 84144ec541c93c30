"""The supersede queue: the judge proposes that a newer anchor replaces an older one."""

from __future__ import annotations

from typing import Any

from memreview.decisions.model import Decision
from memreview.decisions.plan import PlanBuilder, PlannedDecision
from memreview.decisions.unit import DEFER, Act, QueueUnit, RefBlock, judge_note, judge_pair
from memreview.i18n import N_, _
from memreview.queues.supersede import supersede
from memreview.workspace.model import Workspace


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict[str, Any]) -> None:
    """approve supersedes the old anchor; reject records the verdict and hides the item."""
    proposal = [item["proposal"]] if item.get("proposal") else []
    if d.action == "approve":
        b.supersede(pd, b.anchor(item["new"]), b.anchor(item["old"]))
        b.verdicts(pd, proposal, "approved")
    elif d.action == "reject":
        b.keep(pd, b.anchor(item["old"]))
        b.verdicts(pd, proposal, "rejected")
        b.hide(pd, "rejected")


def evidence(item: dict[str, Any]) -> list[Any]:
    """The judge's facts, then the old and the new anchor side by side."""
    return judge_pair(
        item,
        (_("proposal"), item.get("proposal")),
        RefBlock(item["old"], _("OLD (would be superseded)")),
        RefBlock(item["new"], _("NEW")),
    )


def missing(ws: Workspace) -> str | None:
    """Only the judge proposes supersessions."""
    if ws.proposals is None:
        return _("no judge proposals ({file})").format(file=ws.config.proposals)
    return None


UNIT = QueueUnit(
    name="supersede",
    title=N_("Supersede"),
    detect=supersede,
    acts=(
        Act(
            "approve",
            "approve",
            N_("approve"),
            "approve",
            N_("old gets Superseded-By new and moves to the superseded archive"),
        ),
        Act(
            "reject",
            "reject",
            N_("reject"),
            "reject",
            N_("the proposal is hidden and a verdict is recorded"),
        ),
        DEFER,
    ),
    plan=plan,
    evidence=evidence,
    note=judge_note,
    missing=missing,
)
