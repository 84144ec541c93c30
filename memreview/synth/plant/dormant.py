"""Projects for the dormant queue: project files, PROJECT anchors and ``<!-- project: -->``
markers, some never or long not mentioned in a daily log (dormant), some closed, the rest
active (mentioned lately, or recalled by key)."""

from __future__ import annotations

import random
from datetime import date

from memreview.synth.dates import REVIEW_DATE, days_ago, grown_date, iso, timestamp
from memreview.synth.model import TOP_PROJECTS, AnchorSpec, Builder
from memreview.synth.vocabulary import (
    CLOSED_STATUSES,
    EFFECTS_CN,
    FIXES_CN,
    PROBLEMS_CN,
    TODOS_CN,
    sentence,
)


def plant_projects(b: Builder) -> None:
    """Add the projects; the first ``k(126)`` are dormant, cycling through four kinds."""
    r = b.rng
    n = max(8, round(TOP_PROJECTS * b.scale))
    n_dormant = b.k(126)
    n_closed = max(1, round(n * 0.15))
    per_project = max(2, max(20, round(b.total_entries * 0.10)) // n)
    recent_days = b.log_days(0, 20)
    old_days = b.log_days(29, 200)
    for i in range(n):
        key, title = b.new_key()
        added = grown_date(r, hi=days_ago(35))
        if i < n_dormant:
            kind = ("never", "old", "anchor", "marker")[i % 4]
        elif i < n_dormant + n_closed:
            kind = "closed"
        else:
            kind = "active"
        if kind == "anchor":
            _anchor_project(b, key, title, added)
        elif kind == "marker":
            b.marker_keys.append(key)
            b.manifest["dormant"].append(_dormant(key, key, "marker", None, None))
        else:
            lines = _project_file(r, kind, title, added, per_project)
            b.project_files[f"memory/projects/{key}.md"] = lines
            _mention_project(b, kind, key, title, added, recent_days, old_days)


def _dormant(key: str, title: str, source: str, last: str | None, days: int | None) -> dict:
    return {
        "key": key,
        "title": title,
        "source": source,
        "last_mentioned": last,
        "days_dormant": days,
    }


def _anchor_project(b: Builder, key: str, title: str, added: date) -> None:
    """A PROJECT anchor never mentioned anywhere."""
    a = AnchorSpec(
        "PROJECT",
        key,
        iso(added),
        title,
        [("Status", "open"), ("Source", "owner")],
        [sentence(b.rng)],
        planted="dormant",
    )
    b.add_anchor(a)
    b.protected_ids.add(key)
    b.manifest["dormant"].append(_dormant(key, title, "anchor", None, (REVIEW_DATE - added).days))


def _project_file(
    r: random.Random, kind: str, title: str, added: date, per_project: int
) -> list[str]:
    """The lines of memory/projects/KEY.md."""
    status = {"closed": r.choice(CLOSED_STATUSES), "active": "active"}.get(kind, "active")
    if kind == "never" and r.random() < 0.5:
        status = r.choice(["idea", "open", "进行中"])
    lines = [
        f"# {title}",
        "",
        f"Status: {status}",
        f"Added: {iso(added)}",
        "",
        f"## 文件摘要：{sentence(r)}",
        "",
    ]
    for _ in range(per_project):
        lines.append(f"- {sentence(r)}")
    if r.random() < 0.3:
        lines.append(f"- [ ] {sentence(r)}（{iso(grown_date(r, added))}）")
    return lines


def _mention_project(
    b: Builder,
    kind: str,
    key: str,
    title: str,
    added: date,
    recent_days: list[date],
    old_days: list[date],
) -> None:
    """Mention a project file's key or title in the daily logs as its kind asks."""
    r = b.rng
    m = b.manifest
    if kind == "never":
        m["dormant"].append(_dormant(key, title, "file", None, (REVIEW_DATE - added).days))
    elif kind == "old":
        day = r.choice(old_days)
        b.mention(day, _mention_line(r, key, title))
        m["dormant"].append(_dormant(key, title, "file", iso(day), (REVIEW_DATE - day).days))
    elif kind == "closed":
        if r.random() < 0.5:
            b.mention(r.choice(old_days + recent_days), _mention_line(r, key, title))
        m["closed_projects"].append(key)
    else:
        if r.random() < 0.15:  # a non-hook recall of its key is a mention too
            ts = timestamp(r, days_ago(r.randint(0, 20)))
            b.recalls.append((ts, key, "search", f"{key} 进度"))
        else:
            b.mention(r.choice(recent_days), _mention_line(r, key, title))
        if r.random() < 0.3:  # older mentions too
            b.mention(r.choice(old_days), _mention_line(r, key, title))
        m["active_projects"].append(key)


def _mention_line(r: random.Random, key: str, title: str) -> str:
    if r.random() < 0.2:
        return f"- {title}：{r.choice(FIXES_CN)}，{r.choice(EFFECTS_CN)}"
    return r.choice(
        [
            f"- {key}：{r.choice(FIXES_CN)}，下一步{r.choice(TODOS_CN)}",
            f"- 主人问 {key} 的进度，答：{r.choice(EFFECTS_CN)}",
            f"- {key} 卡住了：{r.choice(PROBLEMS_CN)}",
        ]
    )
