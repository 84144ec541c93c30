"""Demotion: anchors that are not important and rarely used (DESIGN §2, seed 003)."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, timedelta

from memreview.queues.common import item_id
from memreview.workspace.dates import parse_date
from memreview.workspace.model import Anchor, Workspace, is_closed_status

INCIDENT_RE = re.compile(r"incident|事故|postmortem|复盘", re.I)
IMPORTANCE_COMMENT_RE = re.compile(r"<!--\s*importance:\s*(\d+(?:\.\d+)?)\s*-->", re.I)
HIGH_WORDS = {"high", "高", "critical"}


def is_high_importance(value: str | None) -> bool:
    """An Importance value that means high: a word like ``high``, or a number ≥ 4."""
    if not value:
        return False
    v = value.strip().lower()
    if v in HIGH_WORDS:
        return True
    try:
        return float(v) >= 4
    except ValueError:
        return False


def citations(ws: Workspace) -> Counter:
    """How many other anchors cite each id with ``[[id]]``."""
    count: Counter = Counter()
    for a in ws.all_anchors():
        for ref in set(a.refs):
            if ref != a.id:
                count[ref] += 1
    return count


def important(a: Anchor, cited: Counter, boot_ids: set[str]) -> bool:
    """Whether an anchor is never proposed for demotion: a rule or infra, the owner's,
    cited twice, an incident, high importance, or loaded at boot."""
    if a.type in ("RULE", "INFRA"):
        return True
    if (a.get("Source") or "").strip().lower() in ("owner", "主人"):
        return True
    if cited[a.id] >= 2:
        return True
    if INCIDENT_RE.search(a.text):
        return True
    if is_high_importance(a.get("Importance")):
        return True
    if any(float(n) >= 4 for n in IMPORTANCE_COMMENT_RE.findall(a.text)):
        return True
    if (a.get("Boot") or "").strip().lower() in ("yes", "true") or a.id in boot_ids:
        return True
    return False


def recalls_in_window(ws: Workspace, today: date) -> Counter:
    """Recalls of each anchor in the recall window ending on ``today`` (hooks not counted)."""
    start = today - timedelta(days=ws.config.recall_window_days - 1)  # both ends included
    count: Counter = Counter()
    for r in ws.recalls or []:
        if r.channel != "hook" and start <= r.day <= today:
            count[r.id] += 1
    return count


def demotion(ws: Workspace, today: date) -> list[dict]:
    """Old anchors recalled at most ``demotion_max_recalls`` times in the window and not
    important; none without a recall log (every anchor then counts as important)."""
    cfg = ws.config
    if ws.recalls is None:
        return []
    cited = citations(ws)
    used = recalls_in_window(ws, today)
    index = ws.anchor_index()
    items = []
    for a in ws.all_anchors():
        if index[a.id] is not a:
            continue  # a repeated id (warned about): only its first definition is used
        if a.archived or a.get("Superseded-By") is not None or a.get("Demoted") is not None:
            continue
        if is_closed_status(a.get("Status")):
            continue
        added = parse_date(a.get("Added") or "")
        if added is None or added > today:
            continue  # a missing fact counts as important
        age = (today - added).days
        if age < cfg.demotion_age_days:
            continue
        n = used[a.id]
        if n > cfg.demotion_max_recalls or important(a, cited, ws.boot_ids):
            continue
        items.append(
            {
                "id": item_id("m", a.id),
                "title": f"[{a.type}:{a.id}]",
                "anchor": a.ref(),
                "recalls_90d": n,
                "age_days": age,
            }
        )
    return items
