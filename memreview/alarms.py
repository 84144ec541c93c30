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
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from memreview.i18n import _, ngettext
from memreview.workspace.dates import DATE_RE, parse_date
from memreview.workspace.markdown import MARKER_KEY_RE
from memreview.workspace.model import Workspace
from memreview.workspace.openclaw import LockRow, find_state_db, lock_states, store_values
from memreview.workspace.paths import safe_open_read, safe_read_bytes
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


def alarms(
    ws: Workspace,
    today: date,
    seen: dict | None = None,
    from_backup: Callable[[str, str], str | None] | None = None,
) -> list[Alarm]:
    """Every alarm that fires for ``ws`` on the review date ``today``. ``seen`` is what the
    store remembers of the promotion keys the owner reviewed (``store.read_seen``) and
    ``from_backup(file, key)`` the bullet as memreview's newest backup holds it."""
    out: list[Alarm] = _budget_deleted(ws, seen, from_backup) if seen and seen.get("keys") else []
    checks = (
        _dreaming_silent,
        _promoted_none,
        _stores,
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
            if "short-term" not in text.lower():
                continue
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
            _("dreaming silent for {nights} nights while daily logs kept arriving").format(
                nights=nights
            ),
            (
                _("last dreaming trace: {day}").format(day=last_run.isoformat()),
                _("{count} daily log(s) since, the newest {day}").format(
                    count=len(newer), day=last_log.isoformat()
                ),
            ),
            _(
                "check the dreaming cron (openclaw memory status shows the schedule, not whether "
                "it ran) and its log; a sweep that reports ok in milliseconds writes nothing"
            ),
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
            except (OSError, ValueError):
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
            _(
                "dreaming promoted nothing {nights} nights running while {count} candidate(s) "
                "were ranked"
            ).format(nights=len(run), count=total),
            (
                _("deep-sleep reports {first} – {last}: 'Promoted 0 candidate(s)'").format(
                    first=run[0][0].isoformat(), last=run[-1][0].isoformat()
                ),
                *(
                    _("{day}: ranked {count} ({file})").format(day=d.isoformat(), count=r, file=w)
                    for d, r, w in run[-5:]
                ),
            ),
            _(
                "the ranked candidates miss a promotion gate (score, recalls, unique queries): "
                "`openclaw memory promote-explain` says which; recalls come only from memory "
                "searches in sessions"
            ),
        )
    ]


# -- the recall store ------------------------------------------------------------------------


def _size(ws: Workspace, rel: str) -> int | None:
    """The size of the regular file ``rel`` inside the workspace; None when there is none
    (or the setting names a path outside it)."""
    try:
        fd, st = safe_open_read(ws.root, rel)
    except (OSError, ValueError):
        return None
    os.close(fd)
    return st.st_size


def _stores(ws: Workspace, today: date) -> list[Alarm]:
    """The recall stores: the legacy file and OpenClaw's SQLite store. Promotion is judged
    starved on the store current OpenClaw reads: the database when it holds rows for this
    workspace, else the legacy file."""
    db = _state_db(ws)
    values = store_values(db, ws.root) if db is not None else []
    out = _legacy_store(ws, starved=not values)
    if db is not None:
        out.extend(_state_store(ws, db, values))
    return out


def _legacy_store(ws: Workspace, starved: bool) -> list[Alarm]:
    rel = ws.config.short_term_recall
    size = _size(ws, rel)
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
    limit = ws.config.alarms_legacy_store_mib << 20
    if size >= limit * 0.9:
        out.append(
            Alarm(
                "recall-store-full",
                _("{file} is near OpenClaw's {mib} MiB read limit").format(
                    file=rel, mib=ws.config.alarms_legacy_store_mib
                ),
                (_("{size} of {limit} bytes").format(size=f"{size:,}", limit=f"{limit:,}"),),
                _(
                    "past the limit promotion stops for good ('file exceeds limit of {limit} "
                    "bytes'): migrate it or prune old entries"
                ).format(limit=limit),
            )
        )
        return out
    if starved:
        out.extend(_starved(ws.config, rel, _store_entries(ws, rel)))
    return out


def _state_db(ws: Workspace):
    return find_state_db(ws.root, ws.config.openclaw_state_db, os.environ)


def _state_store(ws: Workspace, db, values: list[dict]) -> list[Alarm]:
    """OpenClaw's SQLite store: entries at its cap (the oldest are evicted and may be
    promoted again) and starved promotion, as for the legacy file."""
    out: list[Alarm] = []
    cap = ws.config.alarms_store_cap
    if len(values) >= cap:
        out.append(
            Alarm(
                "recall-store-over-cap",
                _("OpenClaw's recall store holds {count} entries: its cap is {cap}").format(
                    count=f"{len(values):,}", cap=f"{cap:,}"
                ),
                (
                    _("{db}: {count} short-term-recall rows for this workspace").format(
                        db=db, count=f"{len(values):,}"
                    ),
                    _(
                        "past the cap OpenClaw evicts the least recently recalled entries, and "
                        "an evicted entry loses promotedAt: it can be promoted again"
                    ),
                ),
                _(
                    "review the promotions queue (archive or keep what was promoted) and check "
                    "that dreaming runs, so the store drains into MEMORY.md"
                ),
            )
        )
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
            _("promotion starved: none of {count} short-term entries reaches the gates").format(
                count=len(open_)
            ),
            (
                _("gates: score {score}, {recalls} recalls, {queries} unique queries").format(
                    score=cfg.alarms_gate_score,
                    recalls=cfg.alarms_gate_recalls,
                    queries=cfg.alarms_gate_queries,
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
            _("{file} is {total} characters: the agent never sees lines {first}–{last}").format(
                file=rel, total=f"{total:,}", first=first, last=last
            ),
            (
                _("OpenClaw loads {cap} characters: the first {head} and the last {tail}").format(
                    cap=f"{cap:,}", head=f"{head:,}", tail=f"{tail:,}"
                ),
                _("the gap: lines {first}–{last} ({size} characters)").format(
                    first=first, last=last, size=f"{gap_end - gap_start:,}"
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
    budget = ws.config.alarms_promotion_budget
    if total < budget * (1 - ws.config.alarms_budget_warning_pct / 100):
        return []
    return [
        Alarm(
            "promotion-budget",
            (
                _("{file} is past OpenClaw's {budget}-character promotion budget: {total}")
                if total > budget
                else _("{file} is at {total} of OpenClaw's {budget}-character promotion budget")
            ).format(file=rel, budget=f"{budget:,}", total=f"{total:,}"),
            (_("past it OpenClaw deletes the oldest promotion sections without saying which"),),
            _(
                "review the promotions queue now: archive what you don't want, so nothing you "
                "kept is deleted by the budget"
            ),
        )
    ]


def promotion_bullets(lines: list[str]) -> dict[str, str]:
    """Each promotion marker key in ``lines`` with the bullet under it ("" when none)."""
    out: dict[str, str] = {}
    for i, line in enumerate(lines):
        if "openclaw-memory-promotion:" not in line:
            continue
        m = MARKER_KEY_RE.search(line)
        if not m:
            continue
        after = next((ln for ln in lines[i + 1 : i + 4] if ln.strip()), "")
        out.setdefault(m.group(1), "" if "openclaw-memory-promotion:" in after else after)
    return out


def present_promotions(ws: Workspace) -> dict[str, tuple[str, str]]:
    """Every promotion marker key in the workspace's memory files: ``key → (file, bullet)``."""
    out: dict[str, tuple[str, str]] = {}
    for rel in sorted(ws.files):
        for key, bullet in promotion_bullets(ws.files[rel].source.texts).items():
            out.setdefault(key, (rel, bullet))
    return out


def _budget_deleted(ws: Workspace, seen: dict, from_backup) -> list[Alarm]:
    """Promotion keys the owner reviewed that no memory file holds any more: deleted outside
    memreview, most likely by OpenClaw's budget compaction (it prints nothing)."""
    present = present_promotions(ws)
    gone = sorted(
        (rec.get("file") or "?", key, rec)
        for key, rec in seen.get("keys", {}).items()
        if key not in present
    )
    if not gone:
        return []
    evidence = []
    for rel, key, rec in gone[:20]:
        text = str(rec.get("text") or "")
        if (not text or text.endswith("…")) and from_backup is not None:
            text = from_backup(rel, key) or text
        evidence.append(
            _("{file}: {key} — {text}").format(
                file=rel, key=key, text=text or _("(no text remembered)")
            )
        )
    if len(gone) > 20:
        evidence.append(_("… and {count} more").format(count=len(gone) - 20))
    reviewed = seen.get("reviewed") or _("the last review")
    return [
        Alarm(
            "promotions-deleted",
            _("{count} promotion(s) you reviewed on {day} are gone from memory files").format(
                count=len(gone), day=reviewed
            ),
            tuple(evidence),
            _(
                "OpenClaw deletes the oldest promotion sections when MEMORY.md passes its "
                "promotion budget, without saying which: put back what you want to keep (the "
                "text is above), and archive promotions you don't need so the budget holds"
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
        if median > 0 and sizes[k] > ws.config.alarms_runaway_size * median:
            out.append(
                Alarm(
                    "runaway-write",
                    _("{file} is {times}× the median daily log").format(
                        file=log.rel, times=f"{sizes[k] / median:.0f}"
                    ),
                    (
                        _(
                            "{size} characters against a median of {median} over the previous "
                            "{count} logs"
                        ).format(size=f"{sizes[k]:,}", median=f"{median:,.0f}", count=len(before)),
                    ),
                    _("look for a loop writing into the log (dreaming fragments, a heartbeat)"),
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
                    _("{file}: its dreaming blocks are {times}× the median").format(
                        file=log.rel, times=f"{blocks[k] / median:.0f}"
                    ),
                    (
                        _(
                            "{size} characters in openclaw:dreaming blocks against a median of "
                            "{median} over the previous {count} logs with blocks"
                        ).format(size=f"{blocks[k]:,}", median=f"{median:,.0f}", count=len(before)),
                    ),
                    _(
                        "a dreaming phase wrote far more than usual: look at the log for "
                        "repeated fragments and at the dreaming cron's log"
                    ),
                )
            )
    return out


# -- locks -----------------------------------------------------------------------------------


def _lock_files(ws: Workspace) -> list[tuple[str, int | None, bytes]]:
    """Each pipeline lock file present: (path, the pid it names or None, its first bytes)."""
    out = []
    for rel in ws.config.lock_files:
        if _size(ws, rel) is None:
            continue
        try:
            data = safe_read_bytes(ws.root, rel)[:200]
        except (OSError, ValueError):
            continue
        m = re.search(rb"\d+", data)
        pid = int(m.group(0)) if m else None
        out.append((rel, pid if pid is not None and pid > 0 else None, data))
    return out


def held_lock_files(ws: Workspace) -> list[tuple[str, int]]:
    """The pipeline lock files whose process is running: (path, pid)."""
    return [(rel, pid) for rel, pid, _data in _lock_files(ws) if pid and pid_alive(pid)]


def _lock(ws: Workspace, today: date) -> list[Alarm]:
    out: list[Alarm] = []
    for rel, pid, data in _lock_files(ws):
        if pid is not None and not pid_alive(pid):
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
        who = (
            _("process {pid}, which is no longer running").format(pid=row.pid)
            if row.pid
            else _("no process")
        )
        since = (
            datetime.fromtimestamp(row.acquired_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
            if row.acquired_ms
            else _("an unknown time")
        )
        out.append(
            Alarm(
                "stale-lock",
                _("OpenClaw's promotion lock row is held by {who}").format(who=who),
                (
                    _("{db}: short-term-locks row {key}…, owner {owner}, taken {since}").format(
                        db=row.db, key=row.entry_key[:24], owner=row.owner or "?", since=since
                    ),
                ),
                _(
                    "the run that took it died; OpenClaw takes such a row over on its next "
                    "promotion: if promotion still does not run, check the gateway's log"
                ),
            )
        )
    return out
