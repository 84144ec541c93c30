"""The contradictions queue: two anchors that disagree; keep one side, or both."""

from __future__ import annotations

from memreview.decisions.model import Decision
from memreview.decisions.plan import AddRef, PlanBuilder, PlannedDecision, RemoveRef
from memreview.decisions.unit import DEFER, Act, QueueUnit, RefBlock, judge_note, judge_pair
from memreview.i18n import N_, _
from memreview.queues.contradictions import contradictions
from memreview.workspace.model import Workspace


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict) -> None:
    """keep-a/keep-b supersede the other side; keep-both turns the conflict into SEE-ALSO."""
    if d.action == "defer":
        return
    a, c = b.anchor(item["a"]), b.anchor(item["b"])
    proposals = item.get("proposals") or []
    if d.action in ("keep-a", "keep-b"):
        new, old = (a, c) if d.action == "keep-a" else (c, a)
        b.supersede(pd, new, old)
        b.verdicts(pd, proposals, "approved", kept=new.anchor)
        return
    # keep-both: the conflict marker becomes a see-also, both ways
    p = b.plan
    p.add(a.file, RemoveRef(pd.key, a, "CONFLICTS-WITH", str(c.anchor)), pd)
    p.add(c.file, RemoveRef(pd.key, c, "CONFLICTS-WITH", str(a.anchor)), pd)
    p.add(a.file, AddRef(pd.key, a, "SEE-ALSO", str(c.anchor)), pd)
    p.add(c.file, AddRef(pd.key, c, "SEE-ALSO", str(a.anchor)), pd)
    b.verdicts(pd, proposals, "kept-both")
    # a judge proposal would bring the pair back on the next scan
    b.hide(pd, "kept-both")


def evidence(item: dict) -> list:
    """The judge's facts, then A and B side by side."""
    return judge_pair(
        item,
        (_("source"), item.get("source")),
        RefBlock(item["a"], _("A (older)")),
        RefBlock(item["b"], _("B (newer)")),
    )


def missing(ws: Workspace) -> str | None:
    """Without markers or judge proposals there is nothing to find."""
    if ws.proposals is None and not any(a.get("CONFLICTS-WITH") for a in ws.all_anchors()):
        return _("no CONFLICTS-WITH markers and no {file}").format(file=ws.config.proposals)
    return None


UNIT = QueueUnit(
    name="contradictions",
    title=N_("Contradictions"),
    detect=contradictions,
    acts=(
        Act(
            "approve",
            "keep-a",
            N_("keep A"),
            "approve",
            N_("B gets Superseded-By A and moves to the superseded archive"),
        ),
        Act(
            "keep_b",
            "keep-b",
            N_("keep B"),
            "approve",
            N_("A gets Superseded-By B and moves to the superseded archive"),
        ),
        Act(
            "keep",
            "keep-both",
            N_("keep both"),
            "keep",
            N_("the CONFLICTS-WITH link becomes SEE-ALSO on both sides"),
        ),
        DEFER,
    ),
    plan=plan,
    evidence=evidence,
    note=judge_note,
    missing=missing,
)
