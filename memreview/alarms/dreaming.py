"""Dreaming alarms: silent (daily logs keep arriving, no dreaming trace) and promoting
nothing (the deep-sleep report's "Promoted 0 candidate(s)" night after night while it ranked
some)."""

from __future__ import annotations

import os
import re
from datetime import date

from memreview.alarms.base import Alarm, file_size, state_db
from memreview.i18n import _
from memreview.workspace import jsondoc
from memreview.workspace.dates import DATE_RE, parse_date
from memreview.workspace.markdown import PROMOTED_HEADING
from memreview.workspace.model import Workspace
from memreview.workspace.openclaw import legacy_updated
from memreview.workspace.openclaw_state import store_updated
from memreview.workspace.paths import safe_read_bytes

DREAMING_DIRS = ("dream-diary", "memory/dreaming")
DEEP_DIR = "memory/dreaming/deep"
PROMOTED_RE = re.compile(r"^#{1,6}\s*" + PROMOTED_HEADING, re.I)
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
_DEEP_READ_CAP = 1 << 20  # a deep report is a few lines; never read more than this


def dreaming_dates(ws: Workspace, today: date) -> list[date]:  # noqa: C901
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


def check_dreaming_silent(ws: Workspace, today: date) -> list[Alarm]:
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
    # a newer update of the recall store is a trace too (read only now: it may be large)
    stored = [d for d in _store_updates(ws) if d <= today]
    if stored and max(stored) > last_run:
        last_run = max(stored)
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


def _store_updates(ws: Workspace) -> list[date]:
    """When the recall store last changed: the legacy file's ``updatedAt``, the state
    database's ``short-term-meta`` rows."""
    out: list[date] = []
    rel = ws.config.short_term_recall
    if file_size(ws, rel) is not None:
        try:
            day = legacy_updated(jsondoc.loads(safe_read_bytes(ws.root, rel)))
        except (OSError, ValueError):
            day = None
        if day is not None:
            out.append(day)
    db = state_db(ws)
    if db is not None:
        out.extend(store_updated(db, ws.root))
    return out


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


def check_promoted_none(ws: Workspace, today: date) -> list[Alarm]:
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
