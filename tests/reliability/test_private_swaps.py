"""memreview's own files (.memreview/: the journal, state, pending decisions, the lock, the
backups' scrub log) are created and renamed relative to directory fds: `.memreview` swapped
for a symlink to somewhere else in the very middle of a write (between finding the directory
and creating the file) puts nothing outside the workspace."""

from __future__ import annotations

import os
import re
import shutil
from datetime import date
from pathlib import Path

import pytest
from reliability_helpers import MIXED

from memreview.decisions import apply
from memreview.scan import scan_workspace
from memreview.store import BatchStopped, PathEscape, append_line, write_private
from memreview.store.locks import workspace_locks

REAL_OPEN = os.open


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


class Swapper:
    """Once armed, the next ``os.open`` that creates a file first swaps ``.memreview`` for a
    symlink to a copy of it outside the workspace: the race a path-based writer loses."""

    def __init__(self, ws: Path, outside: Path) -> None:
        self.ws, self.outside = ws, outside
        self.armed = False
        self.done = False

    def open(self, path, flags, *args, **kw):
        if self.armed and not self.done and flags & os.O_CREAT:
            self.done = True
            private = self.ws / ".memreview"
            shutil.copytree(private, self.outside / "private")
            os.rename(private, self.ws / ".memreview-moved-away")
            os.symlink(self.outside / "private", private)
            self.before = tree(self.outside)
        return REAL_OPEN(path, flags, *args, **kw)


@pytest.fixture
def swap(ws: Path, tmp_path: Path, monkeypatch) -> Swapper:
    outside = tmp_path / "outside"
    outside.mkdir()
    (ws / ".memreview").mkdir(exist_ok=True)
    (ws / ".memreview/journal.jsonl").write_text('{"type": "old"}\n')
    (ws / ".memreview/.gitignore").write_text("backups/\npending.yaml\nlock\n")
    s = Swapper(ws, outside)
    monkeypatch.setattr(os, "open", s.open)
    return s


def test_state_written_while_memreview_is_swapped_stays_inside(ws: Path, swap: Swapper) -> None:
    swap.armed = True
    write_private(ws, "state.yaml", b"hidden: {}\n")
    assert swap.done
    assert tree(swap.outside) == swap.before  # nothing created or changed out there
    assert (ws / ".memreview-moved-away/state.yaml").read_bytes() == b"hidden: {}\n"
    with pytest.raises(PathEscape, match=r"\.memreview turned into a symlink"):
        write_private(ws, "state.yaml", b"again\n")  # and the next write refuses it
    assert tree(swap.outside) == swap.before


def test_a_journal_line_appended_while_memreview_is_swapped_stays_inside(ws, swap) -> None:
    (ws / ".memreview/journal.jsonl").unlink()  # the append creates it
    swap.armed = True
    append_line(ws, "journal.jsonl", '{"type": "new"}')
    assert swap.done and tree(swap.outside) == swap.before
    assert (ws / ".memreview-moved-away/journal.jsonl").read_text() == '{"type": "new"}\n'


def test_the_lock_taken_while_memreview_is_swapped_stays_inside(ws, swap) -> None:
    swap.armed = True
    with workspace_locks(ws, (), 0.0):
        pass
    assert swap.done and tree(swap.outside) == swap.before
    assert (ws / ".memreview-moved-away/lock").exists()


def test_a_journal_swapped_for_a_symlink_is_not_followed(ws: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.jsonl"
    outside.write_text("")
    (ws / ".memreview").mkdir(exist_ok=True)
    (ws / ".memreview/journal.jsonl").unlink(missing_ok=True)
    (ws / ".memreview/journal.jsonl").symlink_to(outside)
    with pytest.raises(OSError):
        append_line(ws, "journal.jsonl", '{"type": "new"}')
    assert outside.read_text() == ""


def test_a_batch_with_memreview_swapped_midway_writes_nothing_outside(ws, swap) -> None:
    def fault(step: str) -> None:
        if step == "intent":
            swap.armed = True

    result = scan_workspace(ws, today=date(2026, 11, 29))
    # the journal can't follow it: the batch stops there, named (recover ends it later)
    with pytest.raises(BatchStopped) as stopped:
        apply(result, MIXED, fault=fault)
    assert re.fullmatch(
        r"batch \S+ stopped after 1 of \d+ file\(s\): \.memreview turned into a symlink; "
        r"refused, nothing written there; once \.memreview can be written again, "
        r"`memreview recover` finishes it or rolls it back",
        str(stopped.value),
    ), str(stopped.value)
    assert swap.done
    assert tree(swap.outside) == swap.before, "a write followed the symlink"
    journal = (ws / ".memreview-moved-away/journal.jsonl").read_text()
    assert '"type": "intent"' in journal
