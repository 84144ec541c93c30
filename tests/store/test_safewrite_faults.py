"""Crashes at every write step, a full disk, denied permissions: nothing is half-written."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from store_helpers import replace_line

from memreview.store import STEPS, apply_batch, interrupted_batches, undo_last

CHILD = Path(__file__).with_name("crash_child.py")
REPO = Path(__file__).resolve().parents[2]
OLD = b"# Memory\n\n- alpha\n- beta\n- gamma\n"
NEW = b"# Memory\n\n- alpha\n- beta (superseded)\n- gamma\n"
ARCHIVE = b"# Superseded\n\n- beta\n"
PER_FILE = ("backup", "temp-written", "temp-fsynced", "replaced", "dir-fsynced", "journal-file")
CRASHES = [(step, 1) for step in STEPS] + [(step, 2) for step in PER_FILE]


@pytest.mark.parametrize(("step", "occurrence"), CRASHES)
def test_a_crash_at_each_write_step_leaves_files_entirely_old_or_new_and_the_journal_says_which(
    ws: Path, step: str, occurrence: int
) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, str(CHILD), str(ws), step, str(occurrence)], env=env, timeout=60
    )
    assert proc.returncode == 137

    memory = (ws / "MEMORY.md").read_bytes()
    archive_path = ws / "memory/archive/superseded.md"
    archive = archive_path.read_bytes() if archive_path.exists() else None
    assert memory in (OLD, NEW)
    assert archive in (None, ARCHIVE)

    interrupted = interrupted_batches(ws)
    if step in ("locked", "backup", "commit"):
        # Before the intent line (the copies of every file are made before it) nothing was
        # started; after the commit line nothing is missing.
        assert interrupted == []
        assert (memory, archive) == ((NEW, ARCHIVE) if step == "commit" else (OLD, None))
        return
    assert len(interrupted) == 1
    states = {f.file: f.state for f in interrupted[0].files}
    assert states == {
        "MEMORY.md": "new" if memory == NEW else "old",
        "memory/archive/superseded.md": "new" if archive == ARCHIVE else "old",
    }
    done = sum(1 for f in interrupted[0].files if f.state == "new")
    assert f"stopped after {done} of 2 files" in interrupted[0].describe()

    # Recovery: undo takes an interrupted batch back to where it started.
    result = undo_last(ws)
    assert result.ok, result.message
    assert (ws / "MEMORY.md").read_bytes() == OLD
    assert not archive_path.exists()


def _temp_of(name: str, path: str) -> bool:
    base = os.path.basename(path)
    return base.startswith(f".{name}.") and base.endswith(".tmp")


def _no_temp_files(root: Path) -> bool:
    return not [p for p in root.rglob("*.tmp")]


def test_disk_full_while_writing_leaves_the_file_untouched_and_other_files_apply(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write

    def full_disk(fd: int, data: bytes) -> int:
        if _temp_of("MEMORY.md", os.readlink(f"/proc/self/fd/{fd}")):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    old = (ws / "MEMORY.md").read_bytes()
    result = apply_batch(
        ws,
        [
            replace_line("MEMORY.md", "- beta", "- B", key="m"),
            replace_line("memory/notes.md", "- two", "- 2", key="n"),
        ],
        [],
    )
    assert (ws / "MEMORY.md").read_bytes() == old
    assert [(f.decision, f.file) for f in result.failures] == [("m", "MEMORY.md")]
    assert "disk full" in result.failures[0].reason
    assert "left as it was" in result.failures[0].reason
    assert result.applied == ["n"]
    assert (ws / "memory/notes.md").read_bytes() == b"# Notes\r\n\r\n- one\r\n- 2\r\n"
    assert _no_temp_files(ws)
    assert [f.rel for f in result.files if f.written] == ["memory/notes.md"]


def test_permission_denied_creating_the_temp_file_leaves_the_file_untouched(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_open = os.open

    def denied(path, flags, mode=0o777, *, dir_fd=None):
        if _temp_of("MEMORY.md", os.fspath(path)):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", denied)
    old = (ws / "MEMORY.md").read_bytes()
    result = apply_batch(
        ws,
        [
            replace_line("MEMORY.md", "- beta", "- B", key="m"),
            replace_line("memory/notes.md", "- two", "- 2", key="n"),
        ],
        [],
    )
    assert (ws / "MEMORY.md").read_bytes() == old
    assert [f.decision for f in result.failures] == ["m"]
    assert "permission denied" in result.failures[0].reason
    assert result.applied == ["n"]
    assert _no_temp_files(ws)


def test_permission_denied_on_rename_removes_the_temp_file_and_keeps_the_original(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_replace = os.replace

    def denied(src, dst, **kwargs):
        if os.path.basename(os.fspath(dst)) == "MEMORY.md":
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(dst))
        return real_replace(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", denied)
    old = (ws / "MEMORY.md").read_bytes()
    result = apply_batch(
        ws,
        [
            replace_line("MEMORY.md", "- beta", "- B", key="m"),
            replace_line("memory/notes.md", "- two", "- 2", key="n"),
        ],
        [],
    )
    assert (ws / "MEMORY.md").read_bytes() == old
    assert "permission denied" in result.failures[0].reason
    assert result.applied == ["n"]
    assert _no_temp_files(ws)
    journal = (ws / ".memreview/journal.jsonl").read_text()
    assert '"type": "failed"' in journal and '"type": "commit"' in journal


def test_disk_full_while_backing_up_writes_nothing_to_that_file(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write

    def full_disk(fd: int, data: bytes) -> int:
        if "/backups/" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    old = (ws / "MEMORY.md").read_bytes()
    result = apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B", key="m")], [])
    assert (ws / "MEMORY.md").read_bytes() == old
    assert "disk full while backing up" in result.failures[0].reason
    assert result.applied == []
