"""The health figures (docs/design.md §7): budgets, stale todos, missing logs, growth."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from memreview.workspace.boot import boot_figures
from memreview.workspace.dates import DATE_RE, parse_date
from memreview.workspace.markdown import PROMOTED_HEADING_RE, SETTLED_STAMP_RE
from memreview.workspace.model import Workspace

KNOWLEDGE_DIRS = (
    "memory/lessons/",
    "memory/decisions/",
    "memory/projects/",
    "memory/preferences/",
    "memory/knowledge/",
)
TODO_RE = re.compile(r"^\s*[-*] \[( |x|X)\] (.*)$")
GROWTH_WEEKS = 14
SCHEMA = 1  # the version of the JSON that ``scan --json`` and the report card print


CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def estimate_tokens(text: str) -> int:
    """One token per CJK character plus one per four other characters (rounded up)."""
    cjk = len(CJK_RE.findall(text))
    return cjk + (len(text) - cjk + 3) // 4


def entry_dates(ws: Workspace) -> list[date]:
    """When each dated entry was added: Added, promotion section date, dreaming stamp."""
    out: list[date] = []
    for mf in ws.files.values():
        for e in mf.entries:
            d = None
            if e.anchor is not None:
                for line in e.text.split("\n")[1:8]:
                    if line.lower().startswith("added:"):
                        d = parse_date(line.split(":", 1)[1])
                        break
            if d is None:
                m = SETTLED_STAMP_RE.search(e.text)
                if m:
                    d = parse_date(m.group(1))
            if d is None:
                for h in e.heading_path:
                    m = PROMOTED_HEADING_RE.search(h)
                    if m:
                        d = parse_date(m.group(1))
            if d is None and e.in_chronicle:
                d = parse_date(e.text.strip().lstrip("|"))
            if d is not None:
                out.append(d)
    return out


def week_starts(today: date, weeks: int = GROWTH_WEEKS) -> tuple[date, list[str]]:
    """The first day of the oldest week, and each week's first day (the last week ends on
    the review date)."""
    first = today - timedelta(days=7 * weeks - 1)
    return first, [(first + timedelta(days=7 * k)).isoformat() for k in range(weeks)]


def weekly_growth(dates: list[date], today: date, weeks: int = GROWTH_WEEKS) -> dict:
    """Entries added per week, oldest week first, the last week ending on the review date."""
    counts = [0] * weeks
    first, starts = week_starts(today, weeks)
    for d in dates:
        if first <= d <= today:
            counts[(d - first).days // 7] += 1
    return summarize_weeks(counts, starts)


def summarize_weeks(weeks: list[int], starts: list[str]) -> dict:
    """Weekly counts with the four-week slope (least squares) and whether it accelerates:
    the slope of the last four weeks is positive and steeper than that of the four before."""
    slope, prev = slope_of(weeks[-4:]), slope_of(weeks[-8:-4])
    return {
        "weeks": list(weeks),
        "week_starts": list(starts),
        "slope_4w": round(slope, 2),
        "slope_prev_4w": round(prev, 2),
        "accelerating": slope > 0 and slope > prev,
    }


def slope_of(values: list[int]) -> float:
    """The least-squares slope of equally spaced values (0 for fewer than two)."""
    n = len(values)
    if n < 2:
        return 0.0
    mx = (n - 1) / 2
    my = sum(values) / n
    num = sum((x - mx) * (y - my) for x, y in enumerate(values))
    den = sum((x - mx) ** 2 for x in range(n))
    return num / den


def health(ws: Workspace, today: date) -> dict:
    """Every health figure of the workspace on the review date (JSON-able)."""
    cfg = ws.config
    out: dict = {}
    main = ws.main_memory()
    if main:
        src = ws.files[main].source
        text = "\n".join(src.texts)
        out["memory"] = {
            "file": main,
            "lines": len(src.lines),
            "max_lines": cfg.memory_max_lines,
            "tokens": estimate_tokens(text),
            "max_tokens": cfg.memory_max_tokens,
        }
    hb = ws.other_files.get(cfg.heartbeat)
    out["heartbeat"] = (
        {"file": cfg.heartbeat, "lines": len(hb.lines), "max_lines": cfg.heartbeat_max_lines}
        if hb is not None
        else None
    )
    out["boot"] = boot_figures(ws)
    out["stale_todos"] = _stale_todos(ws, today)
    days = {d.date for d in ws.daily_logs}
    week = [today - timedelta(days=k) for k in range(7, 0, -1)]
    out["daily_logs"] = {
        "count": len(ws.daily_logs),
        "missing": [d.isoformat() for d in week if d not in days],
        "empty": [d.rel for d in ws.daily_logs if d.empty],
        "last": max(days).isoformat() if days else None,
    }
    out["dreaming"] = _dreaming(ws, today)
    out["untouched"] = _untouched(ws, today)
    out["growth"] = weekly_growth(entry_dates(ws), today)
    anchors = ws.all_anchors()
    out["totals"] = {
        "memory_files": len(ws.files),
        "entries": sum(len(mf.entries) for mf in ws.files.values()),
        "anchors": sum(1 for a in anchors if not a.archived),
        "archived_anchors": sum(1 for a in anchors if a.archived),
        "fragments": len(ws.fragments) if ws.fragments is not None else None,
        "recalls": len(ws.recalls) if ws.recalls is not None else None,
        "proposals": len(ws.proposals) if ws.proposals is not None else None,
        "projects": len(ws.projects),
    }
    return out


def _stale_todos(ws: Workspace, today: date) -> list[dict]:
    now = ws.other_files.get(ws.config.now)
    if now is None:
        return []
    out = []
    limit = ws.config.stale_todo_days
    for no, text in enumerate(now.texts, 1):
        m = TODO_RE.match(text)
        if not m or m.group(1) != " ":
            continue
        dm = DATE_RE.search(m.group(2))
        d = parse_date(dm.group(0)) if dm else None
        if d is None or d > today:
            continue
        age = (today - d).days
        if age > limit:
            out.append({"file": ws.config.now, "line": no, "text": m.group(2), "days": age})
    return out


def _dreaming(ws: Workspace, today: date) -> dict:
    """The dreaming diary's last run: the newest date in DREAMS.md, a daily log's managed
    block, a dated file under ``dream-diary/`` or ``memory/dreaming/<phase>/``, or a dated
    promotion section."""
    best: date | None = None
    for d, _rel in ws.dreaming_runs:
        if d <= today and (best is None or d > best):
            best = d
    for mf in ws.files.values():
        for _line, _level, text in mf.headings:
            m = PROMOTED_HEADING_RE.search(text)
            d = parse_date(m.group(1)) if m else None
            if d and d <= today and (best is None or d > best):
                best = d
    dreams = ws.other_files.get(ws.config.dreams_md)
    if dreams is not None:
        for text in dreams.texts:
            for m in DATE_RE.finditer(text):
                d = parse_date(m.group(0))
                if d and d <= today and (best is None or d > best):
                    best = d
    for log in ws.daily_logs:
        if "openclaw:dreaming:" in log.text_lower and log.date <= today:
            if best is None or log.date > best:
                best = log.date
    return {
        "last_run": best.isoformat() if best else None,
        "days_since": (today - best).days if best else None,
    }


def _untouched(ws: Workspace, today: date) -> list[dict]:
    limit = datetime.combine(today - timedelta(days=ws.config.untouched_days), datetime.min.time())
    out = []
    for rel, mtime in sorted(ws.mtimes.items()):
        if not rel.startswith(KNOWLEDGE_DIRS):
            continue
        t = datetime.fromtimestamp(mtime)
        if t < limit:
            out.append(
                {"file": rel, "days": (datetime.combine(today, datetime.min.time()) - t).days}
            )
    return out
