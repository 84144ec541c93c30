"""`memreview doctor` says whether each lock file is in use, by whom, stale or free — with a
real second process holding the lock."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memreview.cli import main

OWN = ".memreview/lock"
PIPELINE = "memory/.dreams/short-term-promotion.lock"
# Takes an exclusive flock on argv[1], says "ready", holds it until stdin closes.
FLOCK = (
    "import fcntl, sys\n"
    "f = open(sys.argv[1], 'a')\n"
    "fcntl.flock(f, fcntl.LOCK_EX)\n"
    "print('ready', flush=True)\n"
    "sys.stdin.read()\n"
)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "memory/.dreams").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory\n\n- a fact\n")
    return root


def locks(capsys, root: Path) -> dict[str, dict]:
    main(["doctor", str(root), "--json", "--today", "2026-11-29"])
    doc = json.loads(capsys.readouterr().out)
    return {lock["file"]: lock for lock in doc["workspaces"][0]["locks"]}


def text(capsys, root: Path) -> list[str]:
    main(["doctor", str(root), "--today", "2026-11-29"])
    return [ln.strip() for ln in capsys.readouterr().out.splitlines() if "lock " in ln]


def test_no_lock_files_are_free(capsys, ws):
    assert text(capsys, ws) == [
        f"lock {OWN}: free (no lock file)",
        f"lock {PIPELINE}: free (no lock file)",
    ]
    assert locks(capsys, ws)[OWN]["state"] == "absent"
    assert not (ws / ".memreview").exists()  # reading a lock creates nothing


def test_a_lock_file_nobody_holds_is_free(capsys, ws):
    (ws / ".memreview").mkdir()
    (ws / OWN).write_text("")
    assert locks(capsys, ws)[OWN] == {
        "file": OWN,
        "state": "free",
        "pid": None,
        "how": None,
        "text": f"{OWN}: free",
    }


def test_a_flock_held_by_an_appender_names_its_process(capsys, ws):
    (ws / ".memreview").mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-c", FLOCK, str(ws / OWN)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == "ready"
        state = locks(capsys, ws)[OWN]
        assert (state["state"], state["pid"], state["how"]) == ("held", proc.pid, "flock")
        assert f"lock {OWN}: in use by process {proc.pid} (running, flock)" in text(capsys, ws)
    finally:
        proc.stdin.close()
        proc.wait()
    assert locks(capsys, ws)[OWN]["state"] == "free"  # released when the appender ended


def test_a_pid_file_lock_is_in_use_while_its_process_runs_and_stale_after(capsys, ws):
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        (ws / PIPELINE).write_text(f"{proc.pid}:1764400000000")
        state = locks(capsys, ws)[PIPELINE]
        assert (state["state"], state["pid"], state["how"]) == ("held", proc.pid, "pid file")
    finally:
        proc.stdin.close()
        proc.wait()
    state = locks(capsys, ws)[PIPELINE]
    assert (state["state"], state["pid"]) == ("stale", proc.pid)
    assert (
        f"lock {PIPELINE}: stale: written by process {proc.pid}, which is no longer running "
        "(remove the file)"
    ) in text(capsys, ws)


def test_a_lock_file_swapped_for_a_symlink_is_not_followed(capsys, ws, tmp_path):
    outside = tmp_path / "elsewhere.lock"
    outside.write_text("")
    (ws / PIPELINE).symlink_to(outside)
    assert locks(capsys, ws)[PIPELINE]["state"] == "refused"
