"""Helpers every test folder uses: the fragments table, and the screen as plain text.

A plain module (not a conftest) so that it can be imported by name from any folder, and by
the hostile tests' worker processes.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from rich.console import Console

FRAGMENT_COLUMNS = (
    "id, date, category, theme, content, context, emotion, source_date, content_hash, "
    "created_at, status, mention_count, first_seen, last_seen, confidence, skill_candidate"
)


def write_dreams_db(path: Path, rows) -> None:
    """A ``dreams.db`` holding ``rows`` (dicts; missing columns are NULL)."""
    con = sqlite3.connect(path)
    con.execute(f"CREATE TABLE dreams ({FRAGMENT_COLUMNS})")
    cols = [c.strip() for c in FRAGMENT_COLUMNS.split(",")]
    for row in rows:
        con.execute(
            f"INSERT INTO dreams VALUES ({','.join('?' * len(cols))})",
            [row.get(c) for c in cols],
        )
    con.commit()
    con.close()


def screen_text(app) -> str:
    """The screen as plain text, as a user would read it."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        legacy_windows=False,
        force_terminal=True,
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)


def write_openclaw_state_db(path: Path, workspace_dir, entries, other_rows=()) -> None:
    """OpenClaw's state database (``state/openclaw.sqlite``) holding the short-term store
    ``entries`` (dicts with ``key``, as OpenClaw writes them) of ``workspace_dir``, and
    ``other_rows`` as (plugin_id, namespace, entry_key, value_json) as they are."""
    import hashlib
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    con.execute(
        "CREATE TABLE plugin_state_entries (plugin_id TEXT NOT NULL, namespace TEXT NOT NULL, "
        "entry_key TEXT NOT NULL, value_json TEXT NOT NULL, created_at INTEGER NOT NULL, "
        "expires_at INTEGER, PRIMARY KEY (plugin_id, namespace, entry_key))"
    )
    where = str(workspace_dir)
    for e in entries:
        h = hashlib.sha256
        entry_key = h(where.encode()).hexdigest() + ":" + h(e["key"].encode()).hexdigest()
        value = {
            "version": 1,
            "workspaceKey": h(where.encode()).hexdigest()[:16],
            "workspaceDir": where,
            "key": e["key"],
            "value": e,
        }
        con.execute(
            "INSERT INTO plugin_state_entries VALUES (?, ?, ?, ?, ?, NULL)",
            ("memory-core", "short-term-recall", entry_key, json.dumps(value), 1764000000000),
        )
    for plugin, namespace, key, value_json in other_rows:
        con.execute(
            "INSERT INTO plugin_state_entries VALUES (?, ?, ?, ?, ?, NULL)",
            (plugin, namespace, key, value_json, 1764000000000),
        )
    con.commit()
    con.close()


class CountsWalks(list):
    """A list that counts the walks through it (``walks``, on the class): a queue must not
    walk the daily logs once per promotion or store entry."""

    walks = 0

    def __iter__(self):
        type(self).walks += 1
        return super().__iter__()


def walks_of(detect, ws, today) -> tuple[list[dict], int]:
    """``detect(ws, today)``'s items and how many times it walked the daily logs."""
    ws.daily_logs = CountsWalks(ws.daily_logs)
    CountsWalks.walks = 0
    return detect(ws, today), CountsWalks.walks


def fresh_process(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter (memreview from this checkout): what it wrote
    (text), its exit code."""
    root = Path(__file__).resolve().parents[1]
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), **(env or {})},
        timeout=120,
        check=False,
    )


def fresh_interpreter(code: str, env: dict | None = None) -> dict:
    """Run ``code`` in a fresh interpreter (memreview from this checkout); it prints a JSON
    object on its last line, which is returned."""
    proc = fresh_process(code, env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])
