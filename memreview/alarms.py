"""Alarms: the failures that stay silent unless someone looks (seed 003: "silent failure is
the most expensive").

Each alarm is computed from the workspace alone and carries its evidence and what to do.
Unlike the health figures (warnings: shown, never failing), an alarm makes ``memreview
doctor`` exit 1. The OpenClaw facts behind the thresholds (its 16 MiB legacy store limit, the
20,000-character bootstrap cut, the 10,000-character promotion budget, the promotion gates)
are those recorded in OPENCLAW.md.
"""

from __future__ import annotations

import json
import os
import re
import statistics
from dataclasses import dataclass
from datetime import date, timedelta

from memreview.i18n import _, ngettext
from memreview.workspace.dates import DATE_RE, parse_date
from memreview.workspace.model import Workspace
from memreview.workspace.paths import safe_read_bytes
from memreview.workspace.process import pid_alive

BOOTSTRAP_CHARS = 20_000  # OpenClaw's per-file bootstrap cap: 75 % head, 25 % tail seen
PROMOTION_BUDGET = 10_000  # OpenClaw deletes the oldest promotion sections past this
LEGACY_STORE_LIMIT = 16 * 1024 * 1024  # older OpenClaw refuses a larger recall store
SILENT_NIGHTS = 2
RUNAWAY_SIZE = 5  # a daily log this many times the median of the previous 28
GATES = {"score": 0.75, "recalls": 3, "queries": 3}  # OpenClaw's promotion defaults
DREAMING_DIRS = ("dream-diary", "memory/dreaming")
PROMOTED_RE = re.compile(r"^#{1,6}\s*promoted from short-term memory \((\d{4}-\d{2}-\d{2})\)", re.I)
PROMOTED_ZERO_RE = re.compile(r"promoted 0 candidate", re.I)


@dataclass(frozen=True)
class Alarm:
    """One alarm: a stable id, a one-line title, the evidence, and what to do."""

    id: str
    title: str
    evidence: tuple[str, ...]
    todo: str

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "evidence": list(self.evidence),
            "todo": self.todo,
        }


def alarms(ws: Workspace, today: date) -> list[Alarm]:
    """Every alarm that fires for ``ws`` on the review date ``today``."""
    out: list[Alarm] = []
    for check in (_dreaming_silent, _recall_store, _bootstrap, _promotion_budget, _runaway, _lock):
        out.extend(check(ws, today))
    return out


# -- dreaming ------------------------------------------------------------------------------


def dreaming_dates(ws: Workspace, today: date) -> list[date]:
    """Every date a dreaming run left a trace: DREAMS.md, managed blocks in daily logs,
    promotion sections, dream-diary/ and memory/dreaming/ files."""
    found: set[date] = set()
    dreams = ws.other_files.get(ws.config.dreams_md)
    if dreams is not None:
        for text in dreams.texts:
            for m in DATE_RE.finditer(text):
                d = parse_date(m.group(0))
                if d:
                    found.add(d)
    for log in ws.daily_logs:
        if "openclaw:dreaming:" in log.text_lower:
            found.add(log.date)
    for mf in ws.files.values():
        for _line, _level, text in mf.headings:
            m = PROMOTED_RE.match("## " + text) or PROMOTED_RE.match(text)
            if m:
                d = parse_date(m.group(1))
                if d:
                    found.add(d)
    for top in DREAMING_DIRS:
        for _dirpath, dirnames, filenames in os.walk(ws.root / top, followlinks=False):
            dirnames.sort()
            for name in filenames:
                m = DATE_RE.search(name)
                d = parse_date(m.group(0)) if m else None
                if d:
                    found.add(d)
    return sorted(d for d in found if d <= today)


def _dreaming_silent(ws: Workspace, today: date) -> list[Alarm]:
    logs = sorted({d.date for d in ws.daily_logs if d.date <= today and not d.empty})
    if not logs:
        return []
    runs = dreaming_dates(ws, today)
    if not runs:
        return []  # a workspace without dreaming: nothing to fall silent
    last_run, last_log = runs[-1], logs[-1]
    nights = (last_log - last_run).days
    if nights <= SILENT_NIGHTS:
        return []
    newer = [d for d in logs if d > last_run]
    return [
        Alarm(
            "dreaming-silent",
            _("dreaming silent for {nights} nights while daily logs kept arriving").format(
                nights=nights
            ),
            (
                _("last dreaming trace: {date}").format(date=last_run.isoformat()),
                ngettext(
                    "{count} daily log since, the newest {date}",
                    "{count} daily logs since, the newest {date}",
                    len(newer),
                ).format(count=len(newer), date=last_log.isoformat()),
            ),
            _(
                "check the dreaming cron (openclaw memory status shows the schedule, not whether "
                "it ran) and its log; a sweep that reports ok in milliseconds writes nothing"
            ),
        )
    ]


# -- the recall store ------------------------------------------------------------------------


def _recall_store(ws: Workspace, today: date) -> list[Alarm]:
    rel = ws.config.short_term_recall
    path = ws.root / rel
    try:
        size = path.stat().st_size if path.is_file() and not path.is_symlink() else None
    except OSError:
        size = None
    if size is None:
        return []
    out = [
        Alarm(
            "recall-store-legacy",
            _("{file} is the legacy recall store: current OpenClaw ignores it").format(file=rel),
            (_("{file}: {size} bytes").format(file=rel, size=f"{size:,}"),),
            _(
                "run `openclaw doctor --fix` once to migrate it into the state database "
                "(until then `openclaw memory status` says 'Recall store: 0 entries')"
            ),
        )
    ]
    if size >= LEGACY_STORE_LIMIT * 0.9:
        out.append(
            Alarm(
                "recall-store-full",
                _("{file} is near OpenClaw's 16 MiB read limit").format(file=rel),
                (
                    _("{size} of {limit} bytes").format(
                        size=f"{size:,}", limit=f"{LEGACY_STORE_LIMIT:,}"
                    ),
                ),
                _(
                    "past the limit promotion stops for good ('file exceeds limit of 16777216 "
                    "bytes'): migrate it or prune old entries"
                ),
            )
        )
        return out
    out.extend(_starved(rel, _store_entries(ws, rel)))
    return out


def _store_entries(ws: Workspace, rel: str) -> list[dict]:
    try:
        doc = json.loads(safe_read_bytes(ws.root, rel))
    except (OSError, ValueError):
        return []
    entries = doc.get("entries") if isinstance(doc, dict) else None
    if isinstance(entries, dict):
        return [e for e in entries.values() if isinstance(e, dict)]
    return []


def _num(v) -> float:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else 0.0


def _starved(rel: str, entries: list[dict]) -> list[Alarm]:
    if not entries:
        return []
    open_ = [e for e in entries if not e.get("promotedAt")]
    if not open_:
        return []

    def passes(e: dict) -> bool:
        count = _num(e.get("recallCount"))
        avg = _num(e.get("totalScore")) / count if count else 0.0
        queries = len(e.get("queryHashes") or [])
        return avg >= GATES["score"] and count >= GATES["recalls"] and queries >= GATES["queries"]

    if any(passes(e) for e in open_):
        return []
    zero = sum(1 for e in open_ if _num(e.get("recallCount")) == 0)
    single = sum(1 for e in open_ if len(e.get("queryHashes") or []) <= 1)
    return [
        Alarm(
            "promotion-starved",
            _("promotion starved: none of {count} short-term entries reaches the gates").format(
                count=len(open_)
            ),
            (
                _("gates: score {score}, {recalls} recalls, {queries} unique queries").format(
                    score=GATES["score"], recalls=GATES["recalls"], queries=GATES["queries"]
                ),
                ngettext(
                    "{count} entry never recalled, {single} with one query or none",
                    "{count} entries never recalled, {single} with one query or none",
                    zero,
                ).format(count=zero, single=single),
                _("store: {file}").format(file=rel),
            ),
            _(
                "recalls come from memory searches during sessions: check that the agent "
                "searches memory (recallCount stays 0 from daily ingestion alone)"
            ),
        )
    ]


# -- MEMORY.md budgets ---------------------------------------------------------------------


def _main_text(ws: Workspace) -> tuple[str, list[str]] | None:
    main = ws.main_memory()
    if main is None:
        return None
    return main, ws.files[main].source.texts


def _bootstrap(ws: Workspace, today: date) -> list[Alarm]:
    got = _main_text(ws)
    if got is None:
        return []
    rel, texts = got
    total = sum(len(t) + 1 for t in texts)
    if total <= BOOTSTRAP_CHARS:
        return []
    head, tail = int(BOOTSTRAP_CHARS * 0.75), BOOTSTRAP_CHARS - int(BOOTSTRAP_CHARS * 0.75)
    gap_start, gap_end = head, total - tail
    first = last = None
    pos = 0
    for no, t in enumerate(texts, 1):
        end = pos + len(t) + 1
        if first is None and end > gap_start:
            first = no
        if pos < gap_end:
            last = no
        pos = end
    return [
        Alarm(
            "memory-over-bootstrap",
            _("{file} is {total} characters: the agent never sees lines {first}–{last}").format(
                file=rel, total=f"{total:,}", first=first, last=last
            ),
            (
                _("OpenClaw loads {chars} characters: the first {head} and the last {tail}").format(
                    chars=f"{BOOTSTRAP_CHARS:,}", head=f"{head:,}", tail=f"{tail:,}"
                ),
                _("the gap: lines {first}–{last} ({chars} characters)").format(
                    first=first, last=last, chars=f"{gap_end - gap_start:,}"
                ),
            ),
            _("move what the agent must always see above the cut, and demote or archive the rest"),
        )
    ]


def _promotion_budget(ws: Workspace, today: date) -> list[Alarm]:
    got = _main_text(ws)
    if got is None:
        return []
    rel, texts = got
    if not any(PROMOTED_RE.match(t) for t in texts):
        return []
    total = sum(len(t) + 1 for t in texts)
    if total < PROMOTION_BUDGET * 0.9:
        return []
    return [
        Alarm(
            "promotion-budget",
            _("{file} is at {total} of OpenClaw's {budget}-character promotion budget").format(
                file=rel, total=f"{total:,}", budget=f"{PROMOTION_BUDGET:,}"
            ),
            (_("past it OpenClaw deletes the oldest promotion sections without saying which"),),
            _(
                "review the promotions queue now: archive what you don't want, so nothing you "
                "kept is deleted by the budget"
            ),
        )
    ]


# -- runaway writes --------------------------------------------------------------------------


def _runaway(ws: Workspace, today: date) -> list[Alarm]:
    logs = sorted((d for d in ws.daily_logs if d.date <= today), key=lambda d: d.date)
    out: list[Alarm] = []
    sizes = [len(d.text_lower) for d in logs]
    for k, log in enumerate(logs):
        if log.date < today - timedelta(days=7):
            continue
        before = sizes[max(0, k - 28) : k]
        if len(before) < 7:
            continue
        median = statistics.median(before)
        if median > 0 and sizes[k] > RUNAWAY_SIZE * median:
            out.append(
                Alarm(
                    "runaway-write",
                    _("{file} is {times}× the median daily log").format(
                        file=log.rel, times=f"{sizes[k] / median:.0f}"
                    ),
                    (
                        _(
                            "{chars} characters against a median of {median} over the "
                            "previous {count} logs"
                        ).format(chars=f"{sizes[k]:,}", median=f"{median:,.0f}", count=len(before)),
                    ),
                    _("look for a loop writing into the log (dreaming fragments, a heartbeat)"),
                )
            )
    return out


# -- locks -----------------------------------------------------------------------------------


def _lock(ws: Workspace, today: date) -> list[Alarm]:
    out: list[Alarm] = []
    for rel in ws.config.lock_files:
        path = ws.root / rel
        try:
            if not path.is_file() or path.is_symlink():
                continue
            data = safe_read_bytes(ws.root, rel)[:200]
        except OSError:
            continue
        m = re.search(rb"\d+", data)
        pid = int(m.group(0)) if m else None
        if pid is not None and pid > 0 and not pid_alive(pid):
            out.append(
                Alarm(
                    "stale-lock",
                    _("{file} is held by process {pid}, which is no longer running").format(
                        file=rel, pid=pid
                    ),
                    (f"{rel}: {data.decode('utf-8', 'replace').strip()[:60]}",),
                    _(
                        "the pipeline that took it crashed: remove the lock file so promotion "
                        "can run again"
                    ),
                )
            )
    return out
