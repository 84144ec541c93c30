"""Contradictions: CONFLICTS-WITH markers and judge ``contradicts`` proposals (DESIGN §2)."""

from __future__ import annotations

from datetime import date

from memreview.queues.common import item_id
from memreview.workspace.dates import parse_date
from memreview.workspace.model import Anchor, Workspace


def age_key(a: Anchor, today: date) -> tuple:
    """Older first; a missing (or future) Added sorts as newest; then file order."""
    added = parse_date(a.get("Added") or "")
    if added is not None and added > today:
        added = None
    return (added is None, added or date.max, a.file, a.line)


def contradictions(ws: Workspace, today: date) -> list[dict]:
    """Pairs of live anchors that CONFLICTS-WITH markers or judge ``contradicts`` proposals
    set against each other, A the older side."""
    index = ws.anchor_index()
    pairs: dict[frozenset, dict] = {}
    order: list[frozenset] = []

    def add(x: str, y: str, source: str, proposal=None) -> None:
        if x == y:
            return
        key = frozenset((x, y))
        rec = pairs.get(key)
        if rec is None:
            rec = pairs[key] = {"sources": set(), "proposals": []}
            order.append(key)
        rec["sources"].add(source)
        if proposal is not None:
            rec["proposals"].append(proposal)

    for a in ws.all_anchors():
        if a.archived:
            continue
        for other in a.ref_list("CONFLICTS-WITH"):
            b = index.get(other)
            if b is None or b.archived:
                continue
            add(a.id, other, "marker")
    for p in ws.proposals or []:
        if p.relation != "contradicts":
            continue
        if p.new not in index or p.old not in index:
            continue
        if index[p.new].archived or index[p.old].archived:
            continue
        add(p.new, p.old, "judge", p)

    items = []
    for key in order:
        rec = pairs[key]
        x, y = sorted(key)
        a, b = sorted((index[x], index[y]), key=lambda an: age_key(an, today))
        srcs = rec["sources"]
        source = "both" if len(srcs) == 2 else next(iter(srcs))
        props = rec["proposals"]
        best = props[-1] if props else None
        items.append(
            {
                "id": item_id("c", *sorted(key)),
                "title": f"{a.id} ⟷ {b.id}",
                "a": a.ref(),
                "b": b.ref(),
                "source": source,
                "confidence": best.confidence if best else None,
                "reason": best.reason if best else None,
                "proposals": [p.id for p in props],
            }
        )
    return items
