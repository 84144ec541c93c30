"""Lock alarms: a pipeline lock file whose process is gone, OpenClaw's promotion lock row
that OpenClaw itself would take over; and the locks in use now (shown, not alarms)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

from memreview.alarms.base import Alarm, file_size, state_db
from memreview.i18n import _
from memreview.workspace.model import Workspace
from memreview.workspace.openclaw_state import LockRow, lock_states
from memreview.workspace.paths import safe_read_bytes
from memreview.workspace.process import pid_alive


def _lock_files(ws: Workspace) -> list[tuple[str, int | None, bytes]]:
    """Each pipeline lock file present: (path, the pid it names or None, its first bytes)."""
    out = []
    for rel in ws.config.lock_files:
        if file_size(ws, rel) is None:
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


def check_lock_files(ws: Workspace, today: date) -> list[Alarm]:
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
    db = state_db(ws)
    if db is None:
        return []
    return lock_states(db, ws.root, ws.config.alarms_lock_stale_seconds * 1000, now_ms)


def check_lock_rows(ws: Workspace, today: date) -> list[Alarm]:
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
