"""Skill candidates from the dreaming pipeline (DESIGN §2)."""

from __future__ import annotations

from datetime import date

from memreview.queues.common import item_id, short
from memreview.workspace.model import Workspace


def skills(ws: Workspace, today: date) -> list[dict]:
    """One item per skill candidate of the dreaming pipeline, in the file's order."""
    return [
        {
            "id": item_id("k", c.theme, c.content),
            "title": short(f"{c.theme}: {c.content}"),
            "theme": c.theme,
            "content": c.content,
            "count": c.count,
            "reason": c.reason,
        }
        for c in ws.skills or []
    ]
