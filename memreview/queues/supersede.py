"""Supersede: judge ``supersedes`` proposals on two live anchors (docs/design.md §2)."""

from __future__ import annotations

from datetime import date

from memreview.i18n import _
from memreview.queues.common import item_id
from memreview.workspace.model import Anchor, Workspace


def is_superseded(a: Anchor) -> bool:
    """Archived, or already Superseded-By another anchor."""
    return a.archived or a.get("Superseded-By") is not None


def supersede(ws: Workspace, today: date) -> list[dict]:
    """Judge ``supersedes`` proposals whose two anchors are both live and distinct."""
    index = ws.anchor_index()
    items = []
    for p in ws.proposals or []:
        if p.relation != "supersedes":
            continue
        new, old = index.get(p.new), index.get(p.old)
        if new is None or old is None or p.new == p.old or is_superseded(new) or is_superseded(old):
            continue
        items.append(
            {
                "id": item_id("s", p.id, p.new, p.old),
                "title": _("{new} supersedes {old}").format(new=p.new, old=p.old),
                "new": new.ref(),
                "old": old.ref(),
                "confidence": p.confidence,
                "reason": p.reason,
                "proposal": p.id,
            }
        )
    return items
