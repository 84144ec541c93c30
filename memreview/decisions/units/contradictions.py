"""The contradictions queue: two anchors that disagree; keep one side, or both. A group
item (an anchor in more than a handful of conflicts, and the anchors its conflicts join):
keep one member, superseding every member in conflict with it, or keep them all."""

from __future__ import annotations

from typing import Any

from memreview.decisions.model import Decision, DecisionError
from memreview.decisions.plan import AddRef, MoveRefs, PlanBuilder, PlannedDecision, RemoveRef
from memreview.decisions.unit import (
    DEFER,
    Act,
    Caption,
    Facts,
    QueueUnit,
    RefBlock,
    in_words,
    judge_note,
    judge_pair,
)
from memreview.i18n import N_, _
from memreview.queues.contradictions import contradictions, group_conflicts, group_links
from memreview.workspace.model import Workspace

SHOWN = 9  # the members a group's evidence shows (# and a digit pick them)


def is_group(item: dict[str, Any]) -> bool:
    """Is ``item`` a group of conflicts rather than a pair?"""
    return item.get("kind") == "group"


def check(item: dict[str, Any], d: Decision) -> None:
    """A pair is decided by keeping a side; a group by keeping one member, or all."""
    if is_group(item):
        n = len(item.get("refs") or [])
        if d.action in ("keep-a", "keep-b"):
            raise DecisionError(
                _(
                    "{item} is a group of {n} anchors in conflict: keep-one with 'keep: N' "
                    "(1-{n}) keeps one of them, keep-both keeps them all"
                ).format(item=d.item, n=n)
            )
        if d.action == "keep-one" and (d.keep is None or not 1 <= d.keep <= n):
            raise DecisionError(
                _("{item}: keep-one needs 'keep: N', which member stays (1-{n})").format(
                    item=d.item, n=n
                )
            )
    elif d.action == "keep-one":
        raise DecisionError(
            _("{item} is a pair: keep-a or keep-b keeps one side").format(item=d.item)
        )


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict[str, Any]) -> None:
    """keep-a/keep-b supersede the other side; keep-both turns the conflict into SEE-ALSO."""
    if d.action == "defer":
        return
    if is_group(item):
        plan_group(b, pd, d, item)
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


def plan_group(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict[str, Any]) -> None:
    """keep-one: every member in conflict with the kept one is superseded by it; keep-both:
    every conflict between two members becomes SEE-ALSO on both sides, and the group stays
    hidden."""
    refs = item.get("refs") or []
    if d.action == "keep-one":
        ref = refs[(d.keep or 1) - 1]
        kept = b.anchor(ref)
        losers, proposals = group_conflicts(b.ws, item, ref["anchor"])
        for other in refs:
            if other["anchor"] in losers:
                b.supersede(pd, kept, b.anchor(other))
        b.verdicts(pd, [p.id for p in proposals], "approved", kept=kept.anchor)
        return
    links, proposals = group_links(b.ws, item)
    partners: dict[str, set[str]] = {}
    for x, linked in links.items():
        for y in linked:
            partners.setdefault(y, set()).add(x)
    for p in proposals:
        partners.setdefault(p.new, set()).add(p.old)
        partners.setdefault(p.old, set()).add(p.new)
    for ref in refs:
        aid = ref["anchor"]
        named = frozenset(links.get(aid, ()))
        extra = frozenset(partners.get(aid, ())) - named
        if named or extra:
            t = b.anchor(ref)
            b.plan.add(t.file, MoveRefs(pd.key, t, "CONFLICTS-WITH", "SEE-ALSO", named, extra), pd)
    b.verdicts(pd, [p.id for p in proposals], "kept-both")
    b.hide(pd, "kept-both")


# How the pair was found (the scan's ``source``), in words.
FOUND_BY = {
    "marker": N_("a CONFLICTS-WITH line in an anchor"),
    "judge": N_("the judge's proposal"),
    "both": N_("a CONFLICTS-WITH line and the judge's proposal"),
}


def evidence(item: dict[str, Any]) -> list[Any]:
    """The judge's facts, then A and B side by side; for a group, its size and its first
    members."""
    if is_group(item):
        refs = item.get("refs") or []
        blocks: list[Any] = [
            Facts(
                (
                    (_("found by"), in_words(FOUND_BY, item.get("source"))),
                    (_("members"), f"{len(refs):,}"),
                    (_("conflicts"), f"{item.get('conflicts', 0):,}"),
                )
            ),
            Caption(
                _("# then 1-9 keeps that member: every member in conflict with it is superseded")
            ),
        ]
        for k, ref in enumerate(refs[:SHOWN], 1):
            label = _("#{k}  in {n} conflicts").format(k=k, n=f"{ref.get('conflicts', 0):,}")
            blocks.append(RefBlock(ref, label))
        if len(refs) > SHOWN:
            blocks.append(
                Caption(
                    _(
                        "… and {n} more members (a decisions file's 'keep: N' picks any of them)"
                    ).format(n=f"{len(refs) - SHOWN:,}")
                )
            )
        return blocks
    return judge_pair(
        item,
        (_("found by"), in_words(FOUND_BY, item.get("source"))),
        RefBlock(item["a"], _("A (older)")),
        RefBlock(item["b"], _("B (newer)")),
    )


def missing(ws: Workspace) -> str | None:
    """Without markers or judge proposals there is nothing to find."""
    if ws.proposals is None and not any(a.get("CONFLICTS-WITH") for a in ws.all_anchors()):
        return _("no CONFLICTS-WITH markers and no {file}").format(file=ws.config.proposals)
    return None


def note(item: dict[str, Any]) -> str:
    """The judge's confidence of a pair; a group's size."""
    if is_group(item):
        return _(" — {n} anchors, {conflicts} conflicts").format(
            n=f"{len(item.get('refs') or []):,}", conflicts=f"{item.get('conflicts', 0):,}"
        )
    return judge_note(item)


UNIT = QueueUnit(
    name="contradictions",
    title=N_("Contradictions"),
    detect=contradictions,
    acts=(
        Act(
            "approve",
            "keep-a",
            N_("keep-a"),
            "approve",
            N_("B gets Superseded-By A and moves to the superseded archive"),
        ),
        Act(
            "keep_b",
            "keep-b",
            N_("keep-b"),
            "approve",
            N_("A gets Superseded-By B and moves to the superseded archive"),
        ),
        Act(
            "keep",
            "keep-both",
            N_("keep-both"),
            "keep",
            N_("the CONFLICTS-WITH link becomes SEE-ALSO on both sides"),
        ),
        Act(
            "member",
            "keep-one",
            N_("keep #N"),
            "approve",
            N_("a group: every member in conflict with the kept one is superseded by it"),
            takes=("keep",),
            staged="keep #{keep}",
        ),
        DEFER,
    ),
    plan=plan,
    evidence=evidence,
    note=note,
    check=check,
    missing=missing,
)
