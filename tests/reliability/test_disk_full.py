"""A full disk or a file-size limit in the middle of a batch (docs/design.md §4): the journal keeps no
half line, a torn last line is treated as not written (its bytes kept aside), undo and
``recover --rollback`` still work, and every message says what was written — never that a
file was left as it was when it changed, never "left pending" when pending.yaml failed."""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
from pathlib import Path

import pytest
from refusal_helpers import run
from reliability_helpers import MIXED, TODAY, comparable, sample_copy, write_decisions

from memreview import store
from memreview.cli import main
from memreview.store import journal_problems

JOURNAL = ".memreview/journal.jsonl"
SUPERSEDE = MIXED[5]  # moves an entry from MEMORY.md to the archive
# Old lines that make the journal the largest file, so a file-size limit hits it first.
PAD = json.dumps({"type": "undo", "batch": "old-pad", "undoes": None, "note": "x" * 300}) + "\n"


def _live(ws: Path) -> dict[str, bytes]:
    """The live files, less verdicts.jsonl (append-only: an undo appends ``undone`` lines)."""
    return {k: v for k, v in comparable(ws).items() if not k.endswith("verdicts.jsonl")}


def _padded(tmp_path: Path) -> tuple[Path, Path, int]:
    ws = sample_copy(tmp_path / "ws")
    biggest = max(p.stat().st_size for p in ws.rglob("*") if p.is_file())
    (ws / ".memreview").mkdir(exist_ok=True)
    (ws / JOURNAL).write_text(PAD * (biggest // len(PAD) + 2))
    return ws, write_decisions(tmp_path / "d.yaml", MIXED), (ws / JOURNAL).stat().st_size


def _apply_with_size_limit(ws: Path, decisions: Path, limit: int) -> int:
    """``memreview apply`` in a forked process whose files may not grow past ``limit``."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            code = main(["apply", str(ws), "--decisions", str(decisions), "--today", TODAY])
        finally:
            os._exit(code)
    _pid, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


# Where the limit cuts the batch's lines: its intent (4.7 KB), its first file line, its
# third, its commit (the sizes of the sample's mixed batch).
@pytest.mark.parametrize("extra", [300, 5000, 6400, 9700])
def test_a_file_size_limit_mid_journal_line_leaves_it_whole_and_rollback_works(
    tmp_path, capsys, extra
):
    ws, decisions, size = _padded(tmp_path)
    before = _live(ws)
    code = _apply_with_size_limit(ws, decisions, size + extra)
    assert code != 0
    data = (ws / JOURNAL).read_bytes()
    assert data.endswith(b"\n")  # no half line left behind
    assert journal_problems(ws) == []
    # whatever was written, taking it back works (it refused for good before)
    code, _out, err = run(capsys, "recover", ws, "--rollback")
    if code != 0:
        assert "nothing to" in err or "not the last" in err, err
        code, _out, err = run(capsys, "undo", ws)
    assert "damaged" not in err
    assert code == 0 or "nothing to undo" in err, err
    assert _live(ws) == before


def _cut_last_line(ws: Path, keep: float) -> bytes:
    data = (ws / JOURNAL).read_bytes()
    start = data.rstrip(b"\n").rfind(b"\n") + 1
    cut = start + int((len(data) - 1 - start) * keep)
    (ws / JOURNAL).write_bytes(data[:cut])
    return data[start:cut]


@pytest.mark.parametrize("command", [("undo",), ("recover", "--rollback")])
def test_a_torn_last_line_is_treated_as_not_written_and_kept_aside(tmp_path, capsys, command):
    ws = sample_copy(tmp_path / "ws")
    before = _live(ws)
    decisions = write_decisions(tmp_path / "d.yaml", MIXED)
    code, _out, err = run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)
    assert code == 0, err
    torn = _cut_last_line(ws, 0.5)  # the commit line, cut short by a kill
    [problem] = journal_problems(ws)
    assert problem.torn and "treated as not written" in problem.describe()

    code, _out, err = run(capsys, *command[:1], ws, *command[1:])
    assert code == 0, err
    assert "damaged" not in err
    assert _live(ws) == before
    # the undo's own lines came after the torn one: it was set aside first, byte for byte
    kept = sorted((ws / ".memreview").glob("journal.jsonl.torn-*"))
    assert [p.read_bytes() for p in kept] == [torn]
    assert journal_problems(ws) == []
    assert all(json.loads(line) for line in (ws / JOURNAL).read_text().splitlines())


def _fail_writes_of(monkeypatch, name: str, error: int = errno.ENOSPC) -> None:
    """Every atomic write of a file called ``name`` fails with ``error`` before its rename."""
    import memreview.store.writer as writer

    real = writer.atomic_write

    def atomic_write(path, data, **kw):
        if Path(path).name == name:
            raise OSError(error, os.strerror(error))
        return real(path, data, **kw)

    monkeypatch.setattr(writer, "atomic_write", atomic_write)


def test_a_move_whose_source_file_fails_names_the_archive_already_written(
    tmp_path, capsys, monkeypatch
):
    ws = sample_copy(tmp_path / "ws")
    archive = (ws / "memory/archive/superseded.md").read_bytes()
    decisions = write_decisions(tmp_path / "d.yaml", [SUPERSEDE])
    _fail_writes_of(monkeypatch, "MEMORY.md")
    code, _out, err = run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)
    assert code == 1
    assert (ws / "memory/archive/superseded.md").read_bytes() != archive  # it changed
    assert "disk full while writing MEMORY.md" in err
    assert "but memory/archive/superseded.md" in err and "had already been written for it" in err


def test_a_step_after_the_rename_failing_reports_the_file_written(tmp_path, monkeypatch):
    """The rename went through, then the directory's fsync failed: the file changed, so it
    is reported (and journaled) as written, never "left as it was"."""
    import memreview.store.atomic as atomic

    ws = sample_copy(tmp_path / "ws")
    target = "memory/projects/diary.md"
    if not (ws / target).exists():
        target = next(p.relative_to(ws).as_posix() for p in (ws / "memory").glob("*.md"))
    old = (ws / target).read_bytes()
    job = store.FunctionJob(
        target, lambda cur: store.FileOutcome(old + b"- added\n", applied=["k"]), decisions=["k"]
    )
    real_fsync = os.fsync

    folder = str((ws / target).resolve().parent)

    def fsync(fd):  # the fsync of the file's own directory, right after the rename
        if os.readlink(f"/proc/self/fd/{fd}") == folder:
            raise OSError(errno.EIO, "Input/output error")
        return real_fsync(fd)

    monkeypatch.setattr(atomic.os, "fsync", fsync)
    result = store.apply_batch(ws, [job], [{"key": "k"}])
    monkeypatch.undo()
    assert (ws / target).read_bytes() == old + b"- added\n"
    assert not result.failures
    assert [f.written for f in result.files] == [True]
    assert any("was written, but" in n for n in result.notes)
    assert "left as it was" not in json.dumps(result.notes)


def test_pending_yaml_that_could_not_be_saved_is_never_called_left_pending(
    tmp_path, capsys, monkeypatch
):
    import memreview.decisions.bookkeeping as bookkeeping

    ws = sample_copy(tmp_path / "ws")
    decisions = write_decisions(tmp_path / "d.yaml", [SUPERSEDE])
    _fail_writes_of(monkeypatch, "MEMORY.md")

    def save_pending(root, decisions):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(bookkeeping, "save_pending", save_pending)
    code, _out, err = run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)
    assert code == 1
    assert "could not save .memreview/pending.yaml" in err
    assert "left pending" not in err
    assert "could not be saved" in err


def test_a_batch_the_disk_has_no_room_for_is_refused_before_anything_is_written(
    tmp_path, capsys, monkeypatch
):
    ws = sample_copy(tmp_path / "ws")
    before = _live(ws)
    decisions = write_decisions(tmp_path / "d.yaml", MIXED)
    real = os.statvfs

    class Full:
        def __init__(self, st):
            self.f_frsize, self.f_bavail = st.f_frsize, (100 * 1024) // st.f_frsize

    monkeypatch.setattr(os, "statvfs", lambda p: Full(real(p)))
    code, _out, err = run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)
    assert code == 1
    assert "not enough disk space" in err and "nothing was written" in err
    assert _live(ws) == before
    assert not (ws / JOURNAL).exists()
