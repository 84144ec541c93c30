"""OpenClaw 2026.9's promotion lock (a row in its state database) keeps memreview off
MEMORY.md while it is live; the database is only read."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest
from reliability_helpers import sample_copy

from memreview.decisions import apply
from memreview.scan import scan_workspace

SOLIDIFY = [{"item": "k-51aade02df08", "action": "solidify"}]  # writes MEMORY.md


def _state_db(
    base: Path, ws: Path, expires_at: int | None, pid: int | None, value: dict | None = None
) -> Path:
    db = base / "state" / "openclaw.sqlite"
    db.parent.mkdir(parents=True)
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE plugin_state_entries (plugin_id TEXT, namespace TEXT, entry_key TEXT, "
        "value_json TEXT, created_at INTEGER, expires_at INTEGER)"
    )
    wkey = hashlib.sha256(str(ws.resolve()).encode()).hexdigest()
    value = {
        "version": 1,
        "workspaceKey": wkey,
        "workspaceDir": str(ws.resolve()),
        "key": "promotion",
        "value": {"pid": pid} if value is None else value,
    }
    con.execute(
        "INSERT INTO plugin_state_entries VALUES (?, ?, ?, ?, ?, ?)",
        (
            "memory-core",
            "short-term-locks",
            f"{wkey}:promotion",
            json.dumps(value),
            int(time.time() * 1000),
            expires_at,
        ),
    )
    con.commit()
    con.close()
    return db


@pytest.fixture
def sleeper():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield proc.pid
    proc.kill()
    proc.wait()


def _solidify(ws: Path):
    return apply(scan_workspace(ws, today=date(2026, 11, 29)), SOLIDIFY, lock_wait=0.3)


def test_a_live_promotion_lock_row_keeps_memreview_off_memory_md(
    ws: Path, tmp_path: Path, monkeypatch, sleeper: int
) -> None:
    later = int(time.time() * 1000) + 600_000
    db = _state_db(tmp_path / "oc", ws, later, sleeper)
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "oc"))
    before, db_bytes = (ws / "MEMORY.md").read_bytes(), db.read_bytes()
    outcome = _solidify(ws)
    assert not outcome.applied
    assert any("promotion lock" in f.reason for f in outcome.failures)
    assert (ws / "MEMORY.md").read_bytes() == before
    assert db.read_bytes() == db_bytes
    assert sorted(p.name for p in db.parent.iterdir()) == ["openclaw.sqlite"]


@pytest.mark.parametrize("why", ["expired", "dead process"])
def test_an_expired_or_orphaned_promotion_lock_row_does_not_block(
    ws: Path, tmp_path: Path, monkeypatch, why: str
) -> None:
    now = int(time.time() * 1000)
    if why == "expired":
        _state_db(tmp_path / "oc", ws, now - 1000, None)
    else:
        dead = subprocess.run(
            [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
        ).stdout
        _state_db(tmp_path / "oc", ws, now + 600_000, int(dead))
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "oc"))
    outcome = _solidify(ws)
    assert outcome.ok and outcome.applied


@pytest.mark.parametrize("where", ["state directory the workspace lives in", "memreview.yaml"])
def test_the_lock_row_is_read_from_the_database_the_loader_reads(
    tmp_path: Path, monkeypatch, sleeper: int, where: str
) -> None:
    """Not only ``$OPENCLAW_STATE_DIR``: a workspace at ``<state>/workspace`` and the
    ``openclaw_state_db`` setting name the database too (as for the short-term store)."""
    monkeypatch.delenv("OPENCLAW_STATE_DIR", raising=False)
    monkeypatch.delenv("OPENCLAW_PROFILE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    later = int(time.time() * 1000) + 600_000
    if where == "memreview.yaml":
        ws = sample_copy(tmp_path / "ws")
        db = _state_db(tmp_path / "elsewhere", ws, later, sleeper)
        with (ws / "memreview.yaml").open("a", encoding="utf-8") as f:
            f.write(f"\nopenclaw_state_db: {db}\n")
    else:
        ws = sample_copy(tmp_path / "oc" / "workspace")
        db = _state_db(tmp_path / "oc", ws, later, sleeper)
    before = (ws / "MEMORY.md").read_bytes()
    outcome = _solidify(ws)
    assert not outcome.applied
    assert any(f"promotion lock (short-term-locks in {db})" in f.reason for f in outcome.failures)
    assert (ws / "MEMORY.md").read_bytes() == before


@pytest.mark.parametrize(
    ("owner", "age_s", "blocks"),
    [
        ("sleeper", 600, True),  # memory-core's "<pid>:<token>", a live process: held
        ("dead", 600, False),  # its process gone, older than OpenClaw's 60 s: stale
        ("dead", 5, True),  # just taken: OpenClaw itself would not take it over yet
        ("no-pid", 600, False),  # an owner naming no process, old: stale
    ],
)
def test_a_lock_row_as_memory_core_writes_it_owner_and_acquired_at(
    ws: Path, tmp_path: Path, monkeypatch, sleeper: int, owner: str, age_s: int, blocks: bool
) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    pid = {"sleeper": str(sleeper), "dead": dead, "no-pid": "gateway"}[owner]
    taken = int(time.time() * 1000) - age_s * 1000
    value = {"owner": f"{pid}:{taken}", "acquiredAt": taken}
    _state_db(tmp_path / "oc", ws, None, None, value)
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "oc"))
    outcome = _solidify(ws)
    assert bool(outcome.applied) is not blocks
    if blocks:
        assert any("promotion lock" in f.reason for f in outcome.failures)
