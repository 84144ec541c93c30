"""Dormant projects: open projects nobody mentioned for four weeks (DESIGN §2, seed 003)."""

from __future__ import annotations

from datetime import date

from memreview.queues.candidates import find_patterns
from memreview.queues.common import item_id
from memreview.workspace.model import Project, Workspace


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch in "-_"


def _whole_token(text: str, pos: int, length: int) -> bool:
    before = text[pos - 1] if pos > 0 else ""
    after = text[pos + length] if pos + length < len(text) else ""
    return not (before and _is_word(before)) and not (after and _is_word(after))


def last_mentions(ws: Workspace, today: date) -> dict[str, date]:
    """The latest mention date of each project up to the review date."""
    projects = list(ws.projects.values())
    last: dict[str, date] = {}
    if not projects:
        return last
    # patterns: each key (a whole token: not next to a letter, digit, '-' or '_') and each
    # full title (anywhere), lower-cased
    patterns: list[str] = []
    owners: list[tuple[str, bool]] = []  # (project key, needs token boundaries)
    for p in projects:
        k = p.key.lower()
        patterns.append(k)
        owners.append((p.key, True))
        t = p.title.strip().lower()
        if t and t != k:
            patterns.append(t)
            owners.append((p.key, False))
    for log in sorted(ws.daily_logs, key=lambda d: d.date, reverse=True):
        if log.date > today:
            continue
        # newest log first: a project found once needs no more looking for
        active = [pi for pi, (key, _t) in enumerate(owners) if key not in last]
        if not active:
            break
        text = log.text_lower
        for ai, pos in find_patterns(text, [patterns[pi] for pi in active]):
            pi = active[ai]
            key, token = owners[pi]
            if key in last:
                continue
            if token and not _whole_token(text, pos, len(patterns[pi])):
                continue
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
