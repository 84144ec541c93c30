"""`memreview restore` into a place it must not write: an absolute path, ``..``, a directory,
a FIFO, a link out of the workspace or to memreview's own files, an archive ``From:`` line
that climbs out. Each is refused before anything is touched: the archive keeps its bytes,
no ``restored`` verdict is added, no batch is journaled, and the entry is still restorable."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hostile_helpers import assert_no_traceback, run_cli, run_main

MEMORY = "# Memory\n\n## Facts\n\n## Notes\n- a bullet\n"
ARCHIVE = (
    "# Demoted\n"
    "\n"
    "## [FACT:wallet]\n"
    "Added: 2026-04-08\n"
    "Summary: registered\n"
    "Demoted: 2026-11-29 (reviewed)\n"
    "From: {origin}\n"
    "---\n"
)
ARCHIVE_REL = "memory/archive/demoted.md"
VERDICTS = "memory/review/verdicts.jsonl"


def _workspace(tmp_path: Path, origin: str = "MEMORY.md § Facts") -> Path:
    ws = tmp_path / "ws"
    (ws / "memory/archive").mkdir(parents=True)
    (ws / "memory/review").mkdir(parents=True)
    (ws / "MEMORY.md").write_text(MEMORY)
    (ws / ARCHIVE_REL).write_text(ARCHIVE.format(origin=origin))
    (ws / VERDICTS).write_text('{"verdict": "kept-both", "proposal": "p1"}\n')
    return ws


def _snapshot(ws: Path, outside: Path) -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = {}
    for top in (ws, outside):
        for dirpath, dirs, files in os.walk(top):
            for name in dirs + files:
                p = Path(dirpath, name)
                if p.is_symlink():
                    out[str(p)] = "-> " + os.readlink(p)
                elif p.is_fifo():
                    out[str(p)] = "fifo"
                elif p.is_file():
                    out[str(p)] = p.read_bytes()
                else:
                    out[str(p)] = "dir"
    return out


def _plant(ws: Path, outside: Path, shape: str) -> str:
    """Make the destination ``shape`` in the workspace; the ``--to`` value naming it."""
    if shape == "absolute":
        return str(outside / "x.md")
    if shape == "dotdot":
        return "../outside/x.md"
    if shape == "directory":
        (ws / "memory/facts.md").mkdir()
        return "memory/facts.md"
    if shape == "fifo":
        os.mkfifo(ws / "memory/facts.md")
        return "memory/facts.md"
    if shape == "link-out":
        (outside / "notes.md").write_text("# the owner's notes elsewhere\n")
        os.symlink(outside / "notes.md", ws / "memory/facts.md")
        return "memory/facts.md"
    if shape == "dangling-link-out":
        os.symlink(outside / "new.md", ws / "memory/facts.md")
        return "memory/facts.md"
    if shape == "dir-link-out":
        (outside / "d").mkdir()
        os.symlink(outside / "d", ws / "memory/d")
        return "memory/d/facts.md"
    if shape == "link-to-own-file":
        (ws / ".memreview").mkdir()
        (ws / ".memreview/state.yaml").write_text("hidden: {}\n")
        os.symlink("../.memreview/state.yaml", ws / "memory/facts.md")
        return "memory/facts.md"
    if shape == "own-dir":
        return ".memreview/facts.md"
    if shape == "archive-itself":
        return ARCHIVE_REL
    if shape == "not-markdown":
        return "memory/skill_candidates.json"
    if shape == "file-as-dir":
        (ws / "memory/notes").write_text("a file\n")
        return "memory/notes/facts.md"
    raise AssertionError(shape)


SHAPES = [
    "absolute",
    "dotdot",
    "directory",
    "fifo",
    "link-out",
    "dangling-link-out",
    "dir-link-out",
    "link-to-own-file",
    "own-dir",
    "archive-itself",
    "not-markdown",
    "file-as-dir",
]


def _restorable(ws: Path) -> list[dict]:
    run = run_main("restore", str(ws), "--list", "--json")
    assert run.code == 0, run.err
    return run.json()["archived"]


@pytest.mark.parametrize("shape", SHAPES)
def test_a_refused_destination_leaves_the_archive_and_the_verdicts_as_they_were(tmp_path, shape):
    ws = _workspace(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    to = _plant(ws, outside, shape)
    [item] = _restorable(ws)
    before = _snapshot(ws, outside)
    run = run_cli("restore", str(ws), item["id"], "--to", to)
    # byte for byte: the archive, the verdicts, the destination, the outside directory
    assert _snapshot(ws, outside) == before
    assert run.code == 1, (run.out, run.err)
    assert_no_traceback(run)
    assert "nothing restored: refused" in run.err
    assert "the archive was left as it was" in run.err
    assert not (ws / ".memreview/journal.jsonl").exists()
    # still there to restore, to a good place
    assert [i["id"] for i in _restorable(ws)] == [item["id"]]
    ok = run_cli("restore", str(ws), item["id"], "--to", "memory/facts-back.md")
    if shape in ("directory", "fifo", "link-out", "dangling-link-out", "link-to-own-file"):
        assert ok.code == 0, ok.err  # the planted thing is elsewhere: this one is fine
        assert "[FACT:wallet]" in (ws / "memory/facts-back.md").read_text()
        assert "[FACT:wallet]" not in (ws / ARCHIVE_REL).read_text()


@pytest.mark.parametrize(
    "origin",
    ["../../x.md", "/tmp/x.md", ".memreview/state.yaml", ".git/hooks/pre-commit"],
)
def test_an_archive_from_line_that_leaves_the_memory_files_is_refused(tmp_path, origin):
    ws = _workspace(tmp_path, origin=origin)
    outside = tmp_path / "outside"
    outside.mkdir()
    [item] = _restorable(ws)
    before = _snapshot(ws, outside)
    run = run_cli("restore", str(ws), item["id"])
    assert _snapshot(ws, outside) == before
    assert run.code == 1, (run.out, run.err)
    assert "nothing restored: refused" in run.err
    assert not (tmp_path / "x.md").exists()


def test_a_dry_run_refuses_the_same_way(tmp_path):
    ws = _workspace(tmp_path)
    os.mkfifo(ws / "memory/facts.md")
    [item] = _restorable(ws)
    run = run_main("restore", str(ws), item["id"], "--to", "memory/facts.md", "--dry-run")
    assert run.code == 1
    assert "is not a regular file" in run.err and run.out == ""


def test_a_file_of_the_batch_that_cant_be_written_writes_none_of_it(tmp_path):
    """The destination is fine but the verdicts file is a directory: the entry does not
    go back half way (restored, archive emptied, no verdict); nothing is written."""
    ws = _workspace(tmp_path)
    (ws / VERDICTS).unlink()
    (ws / VERDICTS).mkdir()
    [item] = _restorable(ws)
    before = _snapshot(ws, tmp_path / "ws")
    run = run_cli("restore", str(ws), item["id"])
    assert run.code == 1, run.err
    assert "nothing restored" in run.err
    after = _snapshot(ws, tmp_path / "ws")
    # the lock and memreview's .gitignore may appear; no file of the batch, no journal
    mine = {str(ws / ".memreview"), str(ws / ".memreview/lock"), str(ws / ".memreview/.gitignore")}
    assert {k: v for k, v in after.items() if k not in mine} == before
    assert not (ws / ".memreview/journal.jsonl").exists()


def test_a_good_destination_restores(tmp_path):
    ws = _workspace(tmp_path)
    [item] = _restorable(ws)
    run = run_cli("restore", str(ws), item["id"])
    assert run.code == 0, run.err
    assert "## [FACT:wallet]" in (ws / "MEMORY.md").read_text()
    assert "[FACT:wallet]" not in (ws / ARCHIVE_REL).read_text()
    assert '"restored"' in (ws / VERDICTS).read_text()
