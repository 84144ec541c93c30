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
from datetime import UTC, date, datetime, timedelta

from memreview.workspace.dates import DATE_RE, parse_date
from memreview.workspace.model import Workspace
from memreview.workspace.openclaw import LockRow, find_state_db, lock_states, store_values
from memreview.workspace.paths import safe_read_bytes
from memreview.workspace.process import pid_alive

# The thresholds are settings (``alarms:`` in memreview.yaml, ``Config.alarms_*``); their
# defaults are OpenClaw's figures: the 20,000-character bootstrap cap (75 % head, 25 % tail
# seen), the 10,000-character promotion budget, the 16 MiB legacy store limit, the 512-entry
# SQLite store, the promotion gates (score 0.75, 3 recalls, 3 unique queries), the 60 s after
# which OpenClaw takes a promotion lock row over.
DREAMING_DIRS = ("dream-diary", "memory/dreaming")
DEEP_DIR = "memory/dreaming/deep"
PROMOTED_RE = re.compile(r"^#{1,6}\s*promoted from short-term memory \((\d{4}-\d{2}-\d{2})\)", re.I)
# memory-core's deep-sleep report, in memory/dreaming/deep/DATE.md and as a managed block
# (<!-- openclaw:dreaming:deep:start --> … :end -->) in DREAMS.md or a daily log:
#   - Ranked 3 candidate(s) for durable promotion.
#   - Promoted 0 candidate(s) into MEMORY.md.
RANKED_RE = re.compile(r"\branked\s+(\d+)\s+candidate", re.I)
PROMOTED_N_RE = re.compile(r"\bpromoted\s+(\d+)\s+candidate", re.I)
DEEP_BLOCK_RE = re.compile(
    r"<!--\s*openclaw:dreaming:deep:start\s*-->(.*?)<!--\s*openclaw:dreaming:deep:end\s*-->",
    re.S | re.I,
)
MANAGED_BLOCK_RE = re.compile(
    r"<!--\s*openclaw:dreaming:([\w-]+):start\s*-->.*?<!--\s*openclaw:dreaming:\1:end\s*-->",
    re.S | re.I,
)
_DEEP_READ_CAP = 1 << 20  # a deep report is a few lines; never read more than this


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
    checks = (
        _dreaming_silent,
        _promoted_none,
        _recall_store,
        _state_store,
        _bootstrap,
        _promotion_budget,
        _runaway,
        _lock,
        _lock_rows,
    )
    for check in checks:
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
    if nights <= ws.config.alarms_silent_nights:
        return []
    newer = [d for d in logs if d > last_run]
    return [
        Alarm(
            "dreaming-silent",
            f"dreaming silent for {nights} nights while daily logs kept arriving",
            (
                f"last dreaming trace: {last_run.isoformat()}",
                f"{len(newer)} daily log(s) since, the newest {last_log.isoformat()}",
            ),
            "check the dreaming cron (openclaw memory status shows the schedule, not whether "
            "it ran) and its log; a sweep that reports ok in milliseconds writes nothing",
        )
    ]


def deep_reports(ws: Workspace, today: date) -> dict[date, tuple[int, int, str]]:
    """The deep-sleep reports by night: (ranked, promoted, where it was read). Read from
    ``memory/dreaming/deep/DATE.md``, the deep blocks of daily logs (the log's date) and of
    DREAMS.md (the last date written above the block)."""
    found: dict[date, tuple[int, int, str]] = {}

    def note(day: date | None, text: str, where: str) -> None:
        ranked, promoted = RANKED_RE.search(text), PROMOTED_N_RE.search(text)
        if day is None or day > today or promoted is None:
            return
        r = int(ranked.group(1)) if ranked else 0
        old = found.get(day)
        p = int(promoted.group(1))
        if old is None or (r, p) > old[:2]:
            found[day] = (r, p, where)

    top = ws.root / DEEP_DIR
    if top.is_dir() and not top.is_symlink():
        for path in sorted(top.iterdir()):
            m = DATE_RE.search(path.name)
            if not m or path.is_symlink() or not path.is_file():
                continue
            try:
                data = safe_read_bytes(ws.root, f"{DEEP_DIR}/{path.name}")[:_DEEP_READ_CAP]
            except OSError:
                continue
            note(parse_date(m.group(0)), data.decode("utf-8", "replace"), f"{DEEP_DIR}/{path.name}")
    for log in ws.daily_logs:
        if "openclaw:dreaming:deep:start" in log.text_lower:
            for block in DEEP_BLOCK_RE.finditer(log.text_lower):
                note(log.date, block.group(1), log.rel)
    dreams = ws.other_files.get(ws.config.dreams_md)
    if dreams is not None and any("openclaw:dreaming:deep:start" in t for t in dreams.texts):
        text = "\n".join(dreams.texts)
        for block in DEEP_BLOCK_RE.finditer(text):
            before = list(DATE_RE.finditer(text, 0, block.start()))
            day = parse_date(before[-1].group(0)) if before else None
            note(day, block.group(1), ws.config.dreams_md)
    return found


def _promoted_none(ws: Workspace, today: date) -> list[Alarm]:
    reports = deep_reports(ws, today)
    run: list[tuple[date, int, str]] = []
    for day in sorted(reports, reverse=True):
        ranked, promoted, where = reports[day]
        if promoted or not ranked:
            break
        run.append((day, ranked, where))
    need = ws.config.alarms_zero_promotion_nights
    if len(run) < need:
        return []
    run.reverse()
    total = sum(r for _d, r, _w in run)
    return [
        Alarm(
            "dreaming-promoted-none",
            f"dreaming promoted nothing {len(run)} nights running while {total} candidate(s) "
            "were ranked",
            (
                f"deep-sleep reports {run[0][0].isoformat()} – {run[-1][0].isoformat()}: "
                "'Promoted 0 candidate(s)'",
                *(f"{d.isoformat()}: ranked {r} ({w})" for d, r, w in run[-5:]),
            ),
            "the ranked candidates miss a promotion gate (score, recalls, unique queries): "
            "`openclaw memory promote-explain` says which; recalls come only from memory "
            "searches in sessions",
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
            f"{rel} is the legacy recall store: current OpenClaw ignores it",
            (f"{rel}: {size:,} bytes",),
            "run `openclaw doctor --fix` once to migrate it into the state database "
            "(until then `openclaw memory status` says 'Recall store: 0 entries')",
        )
    ]
    limit = ws.config.alarms_legacy_store_mib << 20
    if size >= limit * 0.9:
        out.append(
            Alarm(
                "recall-store-full",
                f"{rel} is near OpenClaw's {ws.config.alarms_legacy_store_mib} MiB read limit",
                (f"{size:,} of {limit:,} bytes",),
                "past the limit promotion stops for good ('file exceeds limit of 16777216 "
                "bytes'): migrate it or prune old entries",
            )
        )
        return out
    out.extend(_starved(ws.config, rel, _store_entries(ws, rel)))
    return out


def _state_db(ws: Workspace):
    return find_state_db(ws.root, ws.config.openclaw_state_db, os.environ)


def _state_store(ws: Workspace, today: date) -> list[Alarm]:
    """OpenClaw's SQLite store: entries at its cap (the oldest are evicted and may be
    promoted again) and starved promotion, as for the legacy file."""
    db = _state_db(ws)
    if db is None:
        return []
    values = store_values(db, ws.root)
    out: list[Alarm] = []
    cap = ws.config.alarms_store_cap
    if len(values) >= cap:
        out.append(
            Alarm(
                "recall-store-over-cap",
                f"OpenClaw's recall store holds {len(values):,} entries: its cap is {cap:,}",
                (
                    f"{db}: {len(values):,} short-term-recall rows for this workspace",
                    "past the cap OpenClaw evicts the least recently recalled entries, and an "
                    "evicted entry loses promotedAt: it can be promoted again",
                ),
                "review the promotions queue (archive or keep what was promoted) and check "
                "that dreaming runs, so the store drains into MEMORY.md",
            )
        )
    if not ws.root.joinpath(ws.config.short_term_recall).is_file():
        out.extend(_starved(ws.config, str(db), values))
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


def _queries(e: dict) -> int:
    """Unique queries as OpenClaw counts them: ``userQueryHashes`` when present, else
    ``queryHashes``."""
    hashes = e.get("userQueryHashes")
    if not isinstance(hashes, list):
        hashes = e.get("queryHashes")
    return len(hashes) if isinstance(hashes, list) else 0


def _num(v) -> float:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else 0.0


def _starved(cfg, rel: str, entries: list[dict]) -> list[Alarm]:
    if not entries:
        return []
    open_ = [e for e in entries if not e.get("promotedAt")]
    if not open_:
        return []

    def passes(e: dict) -> bool:
        count = _num(e.get("recallCount"))
        avg = _num(e.get("totalScore")) / count if count else 0.0
        queries = _queries(e)
        return (
            avg >= cfg.alarms_gate_score
            and count >= cfg.alarms_gate_recalls
            and queries >= cfg.alarms_gate_queries
        )

    if any(passes(e) for e in open_):
        return []
    zero = sum(1 for e in open_ if _num(e.get("recallCount")) == 0)
    single = sum(1 for e in open_ if _queries(e) <= 1)
    return [
        Alarm(
            "promotion-starved",
            f"promotion starved: none of {len(open_)} short-term entries reaches the gates",
            (
                f"gates: score {cfg.alarms_gate_score}, {cfg.alarms_gate_recalls} recalls, "
                f"{cfg.alarms_gate_queries} unique queries",
                f"{zero} entr{'y' if zero == 1 else 'ies'} never recalled, {single} with one "
                "query or none",
                f"store: {rel}",
            ),
            "recalls come from memory searches during sessions: check that the agent searches "
            "memory (recallCount stays 0 from daily ingestion alone)",
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
    cap = ws.config.alarms_bootstrap_chars
    if total <= cap:
        return []
    head, tail = int(cap * 0.75), cap - int(cap * 0.75)
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
            f"{rel} is {total:,} characters: the agent never sees lines {first}–{last}",
            (
                f"OpenClaw loads {cap:,} characters: the first {head:,} and the last {tail:,}",
                f"the gap: lines {first}–{last} ({gap_end - gap_start:,} characters)",
            ),
            "move what the agent must always see above the cut, and demote or archive the rest",
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
    budget = ws.config.alarms_promotion_budget
    if total < budget * (1 - ws.config.alarms_budget_warning_pct / 100):
        return []
    return [
        Alarm(
            "promotion-budget",
            f"{rel} is at {total:,} of OpenClaw's {budget:,}-character promotion budget",
            ("past it OpenClaw deletes the oldest promotion sections without saying which",),
            "review the promotions queue now: archive what you don't want, so nothing you "
            "kept is deleted by the budget",
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
        if median > 0 and sizes[k] > ws.config.alarms_runaway_size * median:
            out.append(
                Alarm(
                    "runaway-write",
                    f"{log.rel} is {sizes[k] / median:.0f}× the median daily log",
                    (
                        f"{sizes[k]:,} characters against a median of {median:,.0f} "
                        f"over the previous {len(before)} logs",
                    ),
                    "look for a loop writing into the log (dreaming fragments, a heartbeat)",
                )
            )
    out.extend(_runaway_blocks(ws, today, logs))
    return out


def _block_chars(log) -> int:
    if "openclaw:dreaming:" not in log.text_lower:
        return 0
    return sum(len(m.group(0)) for m in MANAGED_BLOCK_RE.finditer(log.text_lower))


def _runaway_blocks(ws: Workspace, today: date, logs: list) -> list[Alarm]:
    """A daily log of the last week whose managed dreaming blocks are more than
    ``alarms.runaway_blocks`` times the median of the previous 14 logs' blocks."""
    blocks = [_block_chars(log) for log in logs]
    out: list[Alarm] = []
    for k, log in enumerate(logs):
        if log.date < today - timedelta(days=7) or not blocks[k]:
            continue
        before = [b for b in blocks[max(0, k - 14) : k] if b]
        if len(before) < 3:
            continue
        median = statistics.median(before)
        if blocks[k] > ws.config.alarms_runaway_blocks * median:
            out.append(
                Alarm(
                    "runaway-write",
                    f"{log.rel}: its dreaming blocks are {blocks[k] / median:.0f}× the median",
                    (
                        f"{blocks[k]:,} characters in openclaw:dreaming blocks against a median "
                        f"of {median:,.0f} over the previous {len(before)} logs with blocks",
                    ),
                    "a dreaming phase wrote far more than usual: look at the log for "
                    "repeated fragments and at the dreaming cron's log",
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
                    f"{rel} is held by process {pid}, which is no longer running",
                    (f"{rel}: {data.decode('utf-8', 'replace').strip()[:60]}",),
                    "the pipeline that took it crashed: remove the lock file so promotion "
                    "can run again",
                )
            )
    return out


def openclaw_locks(ws: Workspace, now_ms: int | None = None) -> list[tuple[LockRow, str]]:
    """OpenClaw's promotion lock rows on this workspace and their state now (``held``,
    ``stale``, ``expired``). Their age is measured against the clock, not the review date."""
    db = _state_db(ws)
    if db is None:
        return []
    return lock_states(db, ws.root, ws.config.alarms_lock_stale_seconds * 1000, now_ms)


def _lock_rows(ws: Workspace, today: date) -> list[Alarm]:
    out = []
    for row, state in openclaw_locks(ws):
        if state != "stale":
            continue
        who = f"process {row.pid}, which is no longer running" if row.pid else "no process"
        since = (
            datetime.fromtimestamp(row.acquired_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
            if row.acquired_ms
            else "an unknown time"
        )
        out.append(
            Alarm(
                "stale-lock",
                f"OpenClaw's promotion lock row is held by {who}",
                (
                    f"{row.db}: short-term-locks row {row.entry_key[:24]}…, owner "
                    f"{row.owner or '?'}, taken {since}",
                ),
                "the run that took it died; OpenClaw takes such a row over on its next "
                "promotion: if promotion still does not run, check the gateway's log",
            )
        )
    return out
