"""The batch writer: backups, modes, journal, conflicts, dry runs, concurrent appenders."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

from store_helpers import append_text, replace_line, tree

from memreview.store import FileOutcome, FunctionJob, apply_batch, read_journal
from memreview.workspace.textfile import TextFile

NOW = datetime(2026, 7, 1, 9, 30, 5)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_backup_holds_the_old_bytes_and_the_rewritten_file_keeps_its_mode(ws: Path) -> None:
    old = (ws / "MEMORY.md").read_bytes()
    os.chmod(ws / "MEMORY.md", 0o640)
    result = apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- BETA")], [], now=NOW)
    backup = ws / ".memreview/backups/20260701-093005/MEMORY.md"
    assert result.files[0].backup == ".memreview/backups/20260701-093005/MEMORY.md"
    assert backup.read_bytes() == old
    assert (ws / "MEMORY.md").stat().st_mode & 0o7777 == 0o640
    assert (backup.stat().st_mode & 0o7777) == 0o640
    assert (ws / "MEMORY.md").read_bytes() == old.replace(b"- beta", b"- BETA")


def test_a_second_batch_in_the_same_second_gets_its_own_backup_dir(ws: Path) -> None:
    first = (ws / "MEMORY.md").read_bytes()
    apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- b2")], [], now=NOW)
    second = (ws / "MEMORY.md").read_bytes()
    result = apply_batch(ws, [replace_line("MEMORY.md", "- b2", "- b3")], [], now=NOW)
    assert result.files[0].backup == ".memreview/backups/20260701-093005-2/MEMORY.md"
    assert (ws / ".memreview/backups/20260701-093005/MEMORY.md").read_bytes() == first
    assert (ws / ".memreview/backups/20260701-093005-2/MEMORY.md").read_bytes() == second


def test_journal_gets_intent_then_file_lines_then_commit_with_hashes(ws: Path) -> None:
    old = (ws / "MEMORY.md").read_bytes()
    decisions = [{"item": "dup-1", "action": "keep", "keep": 1}]
    result = apply_batch(
        ws,
        [replace_line("MEMORY.md", "- beta", None), append_text("memory/archive/x.md", "# X")],
        decisions,
        now=NOW,
    )
    lines = (ws / ".memreview/journal.jsonl").read_text("utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["type"] for r in records] == ["intent", "file", "file", "commit"]
    assert {r["batch"] for r in records} == {result.batch_id}
    intent, first, second, commit = records
    assert intent["decisions"] == decisions
    assert intent["ts"] == NOW.isoformat()
    assert [f["file"] for f in intent["files"]] == ["MEMORY.md", "memory/archive/x.md"]
    assert first["before"] == sha(old)
    assert first["after"] == sha((ws / "MEMORY.md").read_bytes())
    assert first["backup"] == ".memreview/backups/20260701-093005/MEMORY.md"
    assert first["created"] is False
    assert second["before"] is None and second["backup"] is None and second["created"] is True
    assert commit["applied"] == ["d1", "d2"]
    assert read_journal(ws) == records


def test_first_write_creates_memreview_gitignore(ws: Path) -> None:
    apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [])
    lines = (ws / ".memreview/.gitignore").read_text().splitlines()
    assert lines == ["backups/", "pending.yaml", "lock"]


def test_a_conflict_leaves_its_file_untouched_while_other_files_apply(ws: Path) -> None:
    notes = (ws / "memory/notes.md").read_bytes()
    result = apply_batch(
        ws,
        [
            replace_line("memory/notes.md", "- gone", "- x", key="c1"),
            replace_line("MEMORY.md", "- gamma", "- G", key="ok"),
        ],
        [],
    )
    assert [(c.decision, c.file) for c in result.conflicts] == [("c1", "memory/notes.md")]
    assert result.applied == ["ok"]
    assert (ws / "memory/notes.md").read_bytes() == notes
    assert b"- G\n" in (ws / "MEMORY.md").read_bytes()
    assert [f.rel for f in result.files] == ["MEMORY.md"]


def test_dry_run_writes_nothing_at_all_and_returns_unified_diffs(ws: Path) -> None:
    before = tree(ws)
    result = apply_batch(
        ws,
        [replace_line("MEMORY.md", "- beta", "- BETA"), append_text("memory/new.md", "hello")],
        [{"item": "x", "action": "approve"}],
        dry_run=True,
    )
    assert tree(ws) == before
    assert not (ws / ".memreview").exists()
    assert result.dry_run and not any(f.written for f in result.files)
    assert result.applied == ["d1", "d2"]
    diff = result.diff
    assert "--- a/MEMORY.md\n+++ b/MEMORY.md\n" in diff
    assert "-- beta\n+- BETA\n" in diff
    assert "--- a/memory/new.md\n+++ b/memory/new.md\n" in diff and "+hello" in diff


def test_every_result_carries_the_unified_diff_of_what_was_written(ws: Path) -> None:
    result = apply_batch(ws, [replace_line("memory/notes.md", "- two", "- 二")], [])
    assert result.files[0].diff.splitlines() == [
        "--- a/memory/notes.md",
        "+++ b/memory/notes.md",
        "@@ -1,4 +1,4 @@",
        " # Notes",
        " ",
        " - one",
        "-- two",
        "+- 二",
    ]
    assert (ws / "memory/notes.md").read_bytes() == "# Notes\r\n\r\n- one\r\n- 二\r\n".encode()


def test_lines_appended_after_loading_survive_because_the_job_sees_current_content(
    ws: Path,
) -> None:
    loaded = (ws / "MEMORY.md").read_bytes()  # what the app showed the human
    with open(ws / "MEMORY.md", "ab") as fh:  # an agent writes meanwhile
        fh.write(b"- appended by the agent\n")
    apply_batch(ws, [replace_line("MEMORY.md", "- beta", None)], [])
    expected = loaded.replace(b"- beta\n", b"") + b"- appended by the agent\n"
    assert (ws / "MEMORY.md").read_bytes() == expected


def test_the_file_is_read_again_after_the_locks_are_taken(ws: Path) -> None:
    def append_when_locked(step: str) -> None:
        if step == "locked":
            with open(ws / "MEMORY.md", "ab") as fh:
                fh.write(b"- written just before the lock\n")

    apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [], fault=append_when_locked)
    data = (ws / "MEMORY.md").read_bytes()
    assert data.endswith(b"- gamma\n- written just before the lock\n")
    assert b"- B\n" in data


def test_a_writer_ignoring_locks_between_read_and_rename_is_not_lost(ws: Path) -> None:
    appended = []

    def sneak_in(step: str) -> None:
        if step == "temp-fsynced" and not appended:
            appended.append(True)
            with open(ws / "MEMORY.md", "ab") as fh:
                fh.write(b"- sneaked in\n")

    result = apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [], fault=sneak_in)
    data = (ws / "MEMORY.md").read_bytes()
    assert data == b"# Memory\n\n- alpha\n- B\n- gamma\n- sneaked in\n"
    assert result.files[0].sha_after == sha(data)
    backup = ws / result.files[0].backup
    assert backup.read_bytes() == b"# Memory\n\n- alpha\n- beta\n- gamma\n- sneaked in\n"


APPENDER = r"""
import fcntl, os, sys, time
path, lock, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(count):
    fd = os.open(lock, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    out = os.open(path, os.O_WRONLY | os.O_APPEND)
    os.write(out, b"- appended %d\n" % i)
    os.close(out)
    os.close(fd)
    time.sleep(0.001)
"""


def test_a_concurrent_appender_loses_no_line_during_several_applies(ws: Path) -> None:
    items = [f"- item {i}" for i in range(8)]
    (ws / "MEMORY.md").write_text("# Memory\n" + "".join(t + "\n" for t in items))
    lock = ws / "memory/.dreams/short-term-promotion.lock"
    lock.parent.mkdir(parents=True)
    lock.touch()
    count = 400
    proc = subprocess.Popen(
        [sys.executable, "-c", APPENDER, str(ws / "MEMORY.md"), str(lock), str(count)]
    )
    try:
        deadline = time.monotonic() + 10
        while b"appended" not in (ws / "MEMORY.md").read_bytes():
            assert time.monotonic() < deadline
            time.sleep(0.005)
        during = 0
        for i, item in enumerate(items):
            apply_batch(ws, [replace_line("MEMORY.md", item, f"{item} done", key=f"d{i}")], [])
            during += proc.poll() is None
    finally:
        proc.wait(timeout=30)
    assert during >= 2, "the appender finished too early to overlap the applies"
    texts = (ws / "MEMORY.md").read_text().splitlines()
    assert [t for t in texts if t.startswith("- appended")] == [
        f"- appended {i}" for i in range(count)
    ]
    assert [t for t in texts if t.startswith("- item")] == [f"{t} done" for t in items]


def test_two_jobs_on_one_file_apply_in_order_on_each_others_output(ws: Path) -> None:
    result = apply_batch(
        ws,
        [
            replace_line("MEMORY.md", "- beta", "- b1", key="a"),
            replace_line("MEMORY.md", "- b1", "- b2", key="b"),
        ],
        [],
    )
    assert result.applied == ["a", "b"]
    assert len(result.files) == 1
    assert b"- b2\n" in (ws / "MEMORY.md").read_bytes()


def test_a_job_that_changes_nothing_writes_nothing(ws: Path) -> None:
    before = tree(ws)

    def same(current: TextFile | None) -> FileOutcome:
        assert current is not None
        return FileOutcome(current.data, applied=[])

    result = apply_batch(ws, [FunctionJob("MEMORY.md", same)], [])
    after = tree(ws)
    assert result.files == []
    assert {k: v for k, v in after.items() if not k.startswith(".memreview")} == before
    assert not (ws / ".memreview/journal.jsonl").exists()


def test_state_only_decisions_are_journaled_without_touching_files(ws: Path) -> None:
    result = apply_batch(ws, [], [{"item": "p-1", "action": "snooze"}])
    records = read_journal(ws)
    assert [r["type"] for r in records] == ["intent", "commit"]
    assert records[0]["decisions"] == [{"item": "p-1", "action": "snooze"}]
    assert result.journaled and result.files == []


def test_creating_a_file_in_new_directories_uses_the_default_mode(ws: Path) -> None:
    result = apply_batch(ws, [append_text("memory/archive/superseded.md", "# Superseded")], [])
    path = ws / "memory/archive/superseded.md"
    assert path.read_bytes() == b"# Superseded\n"
    assert result.files[0].created and result.files[0].backup is None
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    assert not list(path.parent.glob(".*.tmp"))


def test_a_failing_job_fails_only_its_own_decisions_in_a_shared_file(ws: Path) -> None:
    def bad(current: TextFile | None) -> FileOutcome:
        assert current is not None
        current.make_line("- \udcff")  # raises EncodeError
        raise AssertionError("unreachable")

    result = apply_batch(
        ws,
        [
            FunctionJob("MEMORY.md", bad, ["bad"]),
            replace_line("MEMORY.md", "- beta", "- B", key="ok"),
        ],
        [],
    )
    assert [f.decision for f in result.failures] == ["bad"]
    assert result.applied == ["ok"]
    assert b"- B\n" in (ws / "MEMORY.md").read_bytes()
