"""SQLite databases the agent built to hang a read: a ``dreams`` view over an endless
recursive query, OpenClaw's state table as such a view, a table too long to read. Each is
one warning and that database skipped; every command finishes (a regression fails on the
timeout instead of hanging the suite)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from hostile_helpers import run_cli

ENDLESS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT "


def endless_view(path: Path, name: str, columns: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    con.execute(f"CREATE VIEW {name} AS {ENDLESS}{columns} FROM n")
    con.commit()
    con.close()


def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n- keep the backups for 90 days\n")
    return ws


def every_command(ws: Path, tmp_path: Path) -> list:
    decisions = tmp_path / "decisions.yaml"
    decisions.write_text("decisions: []\n")
    today = ("--today", "2026-11-29")
    started = time.monotonic()
    runs = [
        run_cli("scan", str(ws), "--json", *today, timeout=20),
        run_cli("doctor", str(ws), *today, timeout=20),
        run_cli("apply", str(ws), "--decisions", str(decisions), *today, timeout=20),
        run_cli("report", str(ws), *today, "--out", str(tmp_path / "r.md"), timeout=20),
    ]
    assert time.monotonic() - started < 120
    for run in runs:
        assert "Traceback" not in run.err, run.err
        assert run.code != 2, run.err
    return runs


def test_a_dreams_view_over_an_endless_query_is_skipped_with_a_warning(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    endless_view(
        ws / "memory/knowledge/dreams.db",
        "dreams",
        "i AS id, 'x' AS content, 'archived' AS status, '2026-01-01' AS last_seen",
    )
    scan = every_command(ws, tmp_path)[0].json()
    said = [w["message"] for w in scan["warnings"] if w["file"] == "memory/knowledge/dreams.db"]
    assert said == ["'dreams' is a view, not a table; fragments not read"]


def test_openclaws_state_table_as_an_endless_view_is_skipped(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    db = tmp_path / "state" / "openclaw.sqlite"
    endless_view(
        db,
        "plugin_state_entries",
        "'k' || i AS entry_key, '{}' AS value_json, 0 AS created_at, NULL AS expires_at, "
        "'memory-core' AS plugin_id, 'short-term-recall' AS namespace",
    )
    (ws / "memreview.yaml").write_text(f"openclaw_state_db: {db}\n")
    every_command(ws, tmp_path)


def test_an_endless_table_read_stops_at_its_budget(tmp_path: Path) -> None:
    from memreview.workspace import sqlite_ro

    name = "dreams"
    db = tmp_path / "big.db"
    con = sqlite3.connect(db)
    con.execute(f"CREATE TABLE {name} (id)")
    con.execute(f"INSERT INTO {name} {ENDLESS}i FROM n LIMIT 300000")
    con.commit()
    con.close()
    ro = sqlite_ro.connect_ro(db)
    with pytest.raises(sqlite3.OperationalError, match="rows"):
        sqlite_ro.rows(ro, f"SELECT id FROM {name}", cap=100_000)
    slow = sqlite_ro.connect_ro(db, seconds=0.2)
    started = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="interrupt"):
        slow.execute(f"{ENDLESS}count(*) FROM n").fetchall()
    assert time.monotonic() - started < 5
