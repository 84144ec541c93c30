"""Dormant projects: open projects nobody mentioned for four weeks (DESIGN §2, seed 003)."""

from __future__ import annotations

import re
from datetime import date

from memreview.queues.common import item_id
from memreview.workspace.model import Project, Workspace

_TOKEN_CHARS = re.compile(r"^[\w-]+$")


def last_mentions(ws: Workspace, today: date) -> dict[str, date]:
    """The latest mention date of each project up to the review date."""
    projects = list(ws.projects.values())
    last: dict[str, date] = {}
    if not projects:
        return last
    # whole-token keys: a key matches when it is a maximal run of [\w-] characters
    keys = {p.key.lower(): p.key for p in projects}
    token_keys = {k: v for k, v in keys.items() if _TOKEN_CHARS.match(k)}
    odd_keys = {k: v for k, v in keys.items() if k not in token_keys}
    titles: dict[str, list[str]] = {}
    for p in projects:
        t = p.title.strip().lower()
        if t and t != p.key.lower():
            titles.setdefault(t, []).append(p.key)
    key_re = None
    if token_keys:
        alt = "|".join(re.escape(k) for k in sorted(token_keys, key=len, reverse=True))
        key_re = re.compile(rf"(?<![\w-])(?:{alt})(?![\w-])")
    odd_res = {k: re.compile(rf"(?<![\w-]){re.escape(k)}(?![\w-])") for k in odd_keys}
    for log in sorted(ws.daily_logs, key=lambda d: d.date, reverse=True):
        if log.date > today:
            continue
        text = log.text_lower
        found: set[str] = set()
        if key_re is not None:
            found.update(token_keys[m.group(0)] for m in key_re.finditer(text))
        for k, rx in odd_res.items():
            if rx.search(text):
                found.add(odd_keys[k])
        for t, pkeys in titles.items():
            if t in text:
                found.update(pkeys)
        for key in found:
            if key not in last:
                last[key] = log.date
    by_id: dict[str, list[str]] = {}
    for p in projects:
        by_id.setdefault(p.key, []).append(p.key)
        if p.anchor and p.anchor != p.key:
            by_id.setdefault(p.anchor, []).append(p.key)
    for r in ws.recalls or []:
        if r.channel == "hook" or r.day > today:
            continue
        for key in by_id.get(r.id, ()):
            if key not in last or r.day > last[key]:
                last[key] = r.day
    return last


def dormant(ws: Workspace, today: date) -> list[dict]:
    """Every dormant project, longest sleep first (the caller keeps the top 10)."""
    cfg = ws.config
    last = last_mentions(ws, today)
    rows: list[tuple] = []
    for p in ws.projects.values():
        if p.closed:
            continue
        seen = last.get(p.key)
        if seen is not None:
            days = (today - seen).days
            if days < cfg.dormant_days:
                continue
        elif p.added is not None and p.added <= today:
            days = (today - p.added).days
        else:
            days = None
        rows.append((days is not None, -(days or 0), p.key, p, seen, days))
    rows.sort(key=lambda r: r[:3])
    return [_item(p, seen, days) for *_k, p, seen, days in rows]


def _item(p: Project, seen: date | None, days: int | None) -> dict:
    return {
        "id": item_id("p", p.key),
        "title": p.title,
        "project": p.key,
        "ref": p.ref,
        "last_mentioned": seen.isoformat() if seen else None,
        "days_dormant": days,
        "source": p.source,
    }
