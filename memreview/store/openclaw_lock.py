"""OpenClaw 2026.9's promotion lock: a row in its state database (DESIGN §4, "Paths").

Since 2026.9 memory-core takes its short-term promotion lock as a row of
``plugin_state_entries`` (``namespace = 'short-term-locks'``) of its state database, which a
``flock`` does not exclude. The database is the one the loader reads the short-term store
from (``workspace.openclaw.find_state_db``: ``openclaw_state_db`` in memreview.yaml, the
state directory the workspace lives in, ``$OPENCLAW_STATE_DIR``, the profile, ``~/.openclaw``). Before a batch writes MEMORY.md, the row is read (``mode=ro``,
never written) and the batch waits, then refuses, while a live lock on this workspace holds:
one that has not expired and whose process, when it names one, is alive.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from pathlib import Path

from memreview.workspace.config import load_config
from memreview.workspace.openclaw import find_state_db
from memreview.workspace.paths import PathEscape, safe_read_bytes
from memreview.workspace.process import pid_alive

NAMESPACE = "short-term-locks"
_POLL = 0.05


def _state_db(root: Path) -> Path | None:
    """The state database the workspace's settings and the environment point to, if any."""
    try:
        data = safe_read_bytes(root, "memreview.yaml")
    except (OSError, PathEscape):
        data = None
    setting = load_config(data)[0].openclaw_state_db
    return find_state_db(root, setting, os.environ)


def _rows(db: Path) -> list[tuple[str, str | None, int | None]]:
    uri = db.resolve().as_uri() + "?mode=ro"
    con = sqlite3.connect(uri, uri=True, timeout=0.5)
    try:
        return con.execute(
            "SELECT entry_key, value_json, expires_at FROM plugin_state_entries "
            "WHERE namespace = ?",
            (NAMESPACE,),
        ).fetchall()
    finally:
        con.close()


def _pid(value: dict) -> int | None:
    for holder in (value, value.get("value") if isinstance(value.get("value"), dict) else {}):
        for key in ("pid", "ownerPid", "holderPid"):
            if isinstance(holder.get(key), int):
                return holder[key]
    return None


def lock_holder(root: Path | str, now_ms: int | None = None) -> str | None:
    """Why OpenClaw's promotion lock on ``root`` is held now, or None when it isn't (or the
    database is missing, unreadable or has no such table)."""
    real = Path(root).resolve()
    db = _state_db(real)
    if db is None:
        return None
    try:
        rows = _rows(db)
    except (sqlite3.Error, OSError):
        return None
    key = hashlib.sha256(str(real).encode("utf-8")).hexdigest()
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    for entry_key, value_json, expires_at in rows:
        try:
            value = json.loads(value_json) if value_json else {}
        except ValueError:
            value = {}
        value = value if isinstance(value, dict) else {}
        where = value.get("workspaceDir")
        mine = str(entry_key).startswith(key) or (
            isinstance(where, str) and Path(where).expanduser().resolve() == real
        )
        if not mine and (where or ":" in str(entry_key)):
            continue  # another workspace's lock
        if isinstance(expires_at, int | float) and expires_at <= now_ms:
            continue
        pid = _pid(value)
        if pid is not None and not pid_alive(pid):
            continue
        who = f"process {pid}" if pid is not None else "OpenClaw"
        return f"OpenClaw's promotion lock ({NAMESPACE} in {db}) is held by {who}"
    return None


def wait_for_promotion_lock(root: Path | str, wait: float) -> str | None:
    """Wait up to ``wait`` seconds for OpenClaw's promotion lock to go; the holder if not."""
    deadline = time.monotonic() + max(wait, 0.0)
    while True:
        holder = lock_holder(root)
        if holder is None or time.monotonic() >= deadline:
            return holder
        time.sleep(_POLL)
