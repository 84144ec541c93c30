"""OpenClaw 2026.9's promotion lock: a row in its state database (docs/design.md §4, "Paths").

Since 2026.9 memory-core takes its short-term promotion lock as a row of
``plugin_state_entries`` (``namespace = 'short-term-locks'``) of its state database, which a
``flock`` does not exclude. The database is the one the loader reads the short-term store
from (``workspace.openclaw.find_state_db``: ``openclaw_state_db`` in memreview.yaml, the
state directory the workspace lives in, ``$OPENCLAW_STATE_DIR``, the profile, ``~/.openclaw``). Before a batch writes MEMORY.md, the row is read (``mode=ro``,
never written) and the batch waits, then refuses, while a live lock on this workspace holds:
one that has not expired, and is younger than OpenClaw's 60 s or names a live process
(memory-core writes ``owner: "<pid>:<token>"`` and ``acquiredAt``; older rows a ``pid``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from memreview.i18n import _
from memreview.workspace.config import load_config
from memreview.workspace.openclaw import LOCK_NAMESPACE, find_state_db
from memreview.workspace.openclaw_state import LockRow, lock_states
from memreview.workspace.paths import PathEscape, safe_read_bytes

NAMESPACE = LOCK_NAMESPACE
_POLL = 0.05


def _settings(root: Path) -> tuple[Path | None, int]:
    """The state database the workspace's settings and the environment point to, if any,
    and the age (ms) past which OpenClaw may take a lock row over."""
    try:
        data = safe_read_bytes(root, "memreview.yaml")
    except (OSError, PathEscape):
        data = None
    cfg = load_config(data)[0]
    return find_state_db(
        root, cfg.openclaw_state_db, os.environ
    ), cfg.alarms_lock_stale_seconds * 1000


def lock_rows(root: Path | str, now_ms: int | None = None) -> list[tuple[LockRow, str]]:
    """OpenClaw's promotion lock rows on ``root`` with their state now (``held``, ``stale``
    or ``expired``); [] when there is no database or no row."""
    real = Path(root).resolve()
    db, stale_ms = _settings(real)
    return [] if db is None else lock_states(db, real, stale_ms, now_ms)


def lock_holder(root: Path | str, now_ms: int | None = None) -> str | None:
    """Why OpenClaw's promotion lock on ``root`` is held now, or None when it isn't (or the
    database is missing, unreadable or has no such table). A row OpenClaw would take over
    itself (older than its 60 s and its owner's process gone) does not hold."""
    for row, state in lock_rows(root, now_ms):
        if state != "held":
            continue
        if row.pid is None:
            text = _("OpenClaw's promotion lock ({namespace} in {db}) is held by OpenClaw")
        else:
            text = _("OpenClaw's promotion lock ({namespace} in {db}) is held by process {pid}")
        return text.format(namespace=NAMESPACE, db=row.db, pid=row.pid)
    return None


def wait_for_promotion_lock(root: Path | str, wait: float) -> str | None:
    """Wait up to ``wait`` seconds for OpenClaw's promotion lock to go; the holder if not."""
    deadline = time.monotonic() + max(wait, 0.0)
    while True:
        holder = lock_holder(root)
        if holder is None or time.monotonic() >= deadline:
            return holder
        time.sleep(_POLL)
