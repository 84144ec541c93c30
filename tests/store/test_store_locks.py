"""Pipeline locks and memreview's own lock: a held lock means nothing is written."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from store_helpers import replace_line, tree

from memreview.store import LockHeld, apply_batch

PIPELINE_LOCK = "memory/.dreams/short-term-promotion.lock"

HOLDER = r"""
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
"""


def _hold(path: Path, seconds: float) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def test_a_held_pipeline_lock_raises_lockheld_and_writes_nothing(ws: Path) -> None:
    lock = ws / PIPELINE_LOCK
    lock.parent.mkdir(parents=True)
    lock.touch()
    before = tree(ws)
    holder = _hold(lock, 30)
    try:
        with pytest.raises(LockHeld) as info:
            apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [], lock_wait=0.3)
    finally:
        holder.kill()
        holder.wait()
    assert info.value.lock == PIPELINE_LOCK
    assert PIPELINE_LOCK in str(info.value) and "pending" in str(info.value)
    assert tree(ws) == before


def test_a_held_memreview_lock_raises_lockheld_and_leaves_memory_files_alone(ws: Path) -> None:
    (ws / ".memreview").mkdir()
    old = (ws / "MEMORY.md").read_bytes()
    holder = _hold(ws / ".memreview/lock", 30)
    try:
        with pytest.raises(LockHeld) as info:
            apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [], lock_wait=0.2)
    finally:
        holder.kill()
        holder.wait()
    assert info.value.lock == ".memreview/lock"
    assert (ws / "MEMORY.md").read_bytes() == old
    assert not (ws / ".memreview/journal.jsonl").exists()


def test_a_lock_released_within_the_wait_lets_the_batch_apply(ws: Path) -> None:
    lock = ws / PIPELINE_LOCK
    lock.parent.mkdir(parents=True)
    holder = _hold(lock, 0.3)
    try:
        start = time.monotonic()
        result = apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [], lock_wait=5)
    finally:
        holder.wait()
    assert result.applied == ["d1"]
    assert time.monotonic() - start < 5


def test_locks_are_released_after_the_batch(ws: Path) -> None:
    lock = ws / PIPELINE_LOCK
    lock.parent.mkdir(parents=True)
    lock.touch()
    apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [])
    for path in (lock, ws / ".memreview/lock"):
        fd = os.open(path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)


def test_an_openclaw_pid_lock_of_a_running_process_counts_as_held(ws: Path) -> None:
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        lock = ws / PIPELINE_LOCK
        lock.parent.mkdir(parents=True)
        lock.write_text(f"{sleeper.pid}:{int(time.time() * 1000)}\n")
        before = tree(ws)
        with pytest.raises(LockHeld, match="running process"):
            apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [], lock_wait=0.2)
        assert tree(ws) == before
    finally:
        sleeper.kill()
        sleeper.wait()


def test_an_openclaw_pid_lock_left_by_a_dead_process_does_not_block(ws: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    lock = ws / PIPELINE_LOCK
    lock.parent.mkdir(parents=True)
    lock.write_text(f"{dead.pid}:0\n")
    result = apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [], lock_wait=0.2)
    assert result.applied == ["d1"]
    assert lock.read_text() == f"{dead.pid}:0\n"  # not ours to remove


def test_configured_lock_files_are_honoured(ws: Path) -> None:
    (ws / "cron.lock").touch()
    holder = _hold(ws / "cron.lock", 30)
    try:
        with pytest.raises(LockHeld) as info:
            apply_batch(
                ws,
                [replace_line("MEMORY.md", "- beta", "- B")],
                [],
                lock_files=["cron.lock"],
                lock_wait=0.1,
            )
    finally:
        holder.kill()
        holder.wait()
    assert info.value.lock == "cron.lock"
