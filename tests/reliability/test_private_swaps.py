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
from reliability_helpers import (
    MIXED,
    apply_cli,
    comparable,
    entries,
    run_cli,
    write_decisions,
)

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


def _stop_midway(ws: Path, swap: Swapper) -> None:
    """An apply whose .memreview is swapped for a link to an outside copy after its intent
    line (the real folder renamed to .memreview-moved-away): it stops after one file."""

    def fault(step: str) -> None:
        if step == "intent":
            swap.armed = True

    result = scan_workspace(ws, today=date(2026, 11, 29))
    with pytest.raises(BatchStopped):
        apply(result, MIXED, fault=fault)
    assert swap.done and (ws / ".memreview").is_symlink()


def _live(root: Path) -> dict[str, bytes]:
    return {k: v for k, v in comparable(root).items() if not k.startswith(".memreview")}


def test_the_next_run_puts_memreview_back_and_finishing_the_batch_works(
    ws: Path, swap: Swapper, applied_states
) -> None:
    _stop_midway(ws, swap)
    link = os.readlink(ws / ".memreview")
    outside = tree(swap.outside)

    finished = run_cli("recover", str(ws), "--finish")
    assert finished.returncode == 0, finished.stderr
    said = finished.stderr
    assert f".memreview is a symlink to {link}, not memreview's folder: never followed" in said
    [aside] = re.findall(r"moved it aside to (\.memreview\.swapped-[\d-]+) \(what it points", said)
    assert "memreview's folder was found at .memreview-moved-away and is back as .memreview" in said
    assert re.search(r"batch \S+ \(apply, [^)]*\) stopped after \d+ of \d+ files", said), said
    assert "finished batch" in said

    assert (ws / ".memreview").is_dir() and not (ws / ".memreview").is_symlink()
    assert not (ws / ".memreview-moved-away").exists()
    assert os.readlink(ws / aside) == link  # the link itself, kept aside, never followed
    assert tree(swap.outside) == outside  # nothing outside read into or written
    assert _live(ws) == _live(applied_states["mixed-workspace"])  # as one clean apply
    assert "no batch was cut short" in run_cli("recover", str(ws)).stderr


def test_the_next_run_puts_memreview_back_and_rolling_back_works(ws: Path, swap: Swapper) -> None:
    original = _live(ws)
    before = entries(ws)
    _stop_midway(ws, swap)
    assert entries(ws) >= before  # cut short: every entry still in a live file
    rolled = run_cli("recover", str(ws), "--rollback")
    assert rolled.returncode == 0, rolled.stderr
    assert "is back as .memreview" in rolled.stderr
    now = _live(ws)
    verdicts = "memory/review/verdicts.jsonl"
    assert {k: v for k, v in now.items() if k != verdicts} == {
        k: v for k, v in original.items() if k != verdicts
    }


def test_a_link_to_memreviews_folder_inside_the_workspace_is_replaced_by_that_folder(
    ws: Path,
) -> None:
    (ws / ".memreview").mkdir(exist_ok=True)
    (ws / ".memreview/journal.jsonl").write_text('{"type": "old"}\n')
    os.rename(ws / ".memreview", ws / "memory/kept-here")
    os.symlink("memory/kept-here", ws / ".memreview")
    # a scan only reads: it says what it found and what recover does, and changes nothing
    scan = run_cli("scan", str(ws), "--json", "--today", "2026-11-29")
    assert scan.returncode in (0, 1), scan.stderr
    assert ".memreview is a symlink to memory/kept-here" in scan.stderr
    assert "memreview's folder is at memory/kept-here: `memreview recover`" in scan.stderr
    assert os.readlink(ws / ".memreview") == "memory/kept-here"
    assert not list(ws.glob(".memreview.swapped-*"))
    recovered = run_cli("recover", str(ws))
    assert "found at memory/kept-here and is back as .memreview" in recovered.stderr
    assert (ws / ".memreview/journal.jsonl").read_text() == '{"type": "old"}\n'
    assert not (ws / "memory/kept-here").exists()
    assert os.readlink(next(ws.glob(".memreview.swapped-*"))) == "memory/kept-here"


def test_with_memreviews_folder_not_in_the_workspace_nothing_is_changed_or_written(
    ws: Path, tmp_path: Path
) -> None:
    # the link may be the owner's own arrangement: said, never followed, left as it is
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "journal.jsonl").write_text("not ours\n")
    os.symlink(outside, ws / ".memreview")
    before = _live(ws)
    dec = write_decisions(tmp_path / "d.yaml", MIXED)
    applied = apply_cli(ws, dec)
    assert applied.returncode != 0
    said = applied.stderr
    assert f".memreview is a symlink to {outside}, not memreview's folder: never followed" in said
    assert "memreview's folder is not in the workspace: nothing was changed" in said
    assert os.readlink(ws / ".memreview") == str(outside)
    assert _live(ws) == before and not list(ws.glob(".memreview.swapped-*"))
    assert sorted(p.name for p in outside.iterdir()) == ["journal.jsonl"]
    assert (outside / "journal.jsonl").read_text() == "not ours\n"
    # once the owner moves the link away, apply starts a new .memreview
    os.rename(ws / ".memreview", tmp_path / "old-link")
    again = apply_cli(ws, dec)
    assert again.returncode == 0, again.stderr
    assert (ws / ".memreview").is_dir() and (ws / ".memreview/journal.jsonl").exists()


def test_when_several_folders_could_be_memreviews_none_is_chosen(ws: Path, swap: Swapper) -> None:
    _stop_midway(ws, swap)
    shutil.copytree(ws / ".memreview-moved-away", ws / ".memreview-copy")
    said = run_cli("recover", str(ws)).stderr
    assert "could be any of .memreview-copy, .memreview-moved-away: none was chosen" in said
    assert (ws / ".memreview").is_symlink()  # nothing moved: the owner chooses
    assert (ws / ".memreview-copy").is_dir() and (ws / ".memreview-moved-away").is_dir()


def test_the_app_on_start_puts_memreview_back_and_offers_the_batch(ws: Path, swap: Swapper) -> None:
    from memreview.decisions import recovery_notice

    _stop_midway(ws, swap)
    notice = recovery_notice(ws)  # what the app's recovery dialog shows
    assert notice is not None
    head, *rest = notice.split("\n")
    assert re.match(r"batch \S+ \(apply, [^)]*\) stopped after \d+ of \d+ files", head), head
    assert "memreview's folder was found at .memreview-moved-away and is back as .memreview" in rest
    assert (ws / ".memreview").is_dir() and not (ws / ".memreview").is_symlink()
