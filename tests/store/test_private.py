"""memreview's own files under .memreview/: atomic writes, append-only lines, .gitignore."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memreview.store import PathEscape, append_line, read_private, write_private


def test_write_private_replaces_the_whole_file_and_creates_the_gitignore(ws: Path) -> None:
    write_private(ws, "pending.yaml", b"- item: a\n")
    write_private(ws, "pending.yaml", b"- item: b\n")
    assert (ws / ".memreview/pending.yaml").read_bytes() == b"- item: b\n"
    assert read_private(ws, "pending.yaml") == b"- item: b\n"
    assert (ws / ".memreview/.gitignore").read_text() == "backups/\npending.yaml\nlock\n"
    assert not [p for p in (ws / ".memreview").iterdir() if p.name.endswith(".tmp")]
    assert not (ws / ".memreview/backups").exists()


def test_write_private_keeps_a_mode_the_owner_set(ws: Path) -> None:
    write_private(ws, "state.yaml", b"hidden: []\n")
    os.chmod(ws / ".memreview/state.yaml", 0o600)
    write_private(ws, "state.yaml", b"hidden: [x]\n")
    assert (ws / ".memreview/state.yaml").stat().st_mode & 0o777 == 0o600


def test_an_existing_gitignore_is_left_as_the_owner_wrote_it(ws: Path) -> None:
    (ws / ".memreview").mkdir()
    (ws / ".memreview/.gitignore").write_text("*\n")
    write_private(ws, "state.yaml", b"x: 1\n")
    assert (ws / ".memreview/.gitignore").read_text() == "*\n"


def test_read_private_of_a_missing_file_is_none(ws: Path) -> None:
    assert read_private(ws, "state.yaml") is None
    assert not (ws / ".memreview").exists()


def test_append_line_sets_a_torn_last_line_aside_before_appending(ws: Path) -> None:
    append_line(ws, "log.jsonl", '{"a": 1}')
    with open(ws / ".memreview/log.jsonl", "ab") as fh:
        fh.write(b'{"torn"')
    kept = append_line(ws, "log.jsonl", '{"b": 2}\n')
    # the torn line never ends up in the middle of the file, and its bytes are kept
    assert (ws / ".memreview/log.jsonl").read_bytes() == b'{"a": 1}\n{"b": 2}\n'
    assert kept and kept.startswith("log.jsonl.torn-")
    assert (ws / ".memreview" / kept).read_bytes() == b'{"torn"'


@pytest.mark.parametrize(
    "name", ["../MEMORY.md", ".memreview/../MEMORY.md", "/tmp/x", ".memreview"]
)
def test_private_names_cannot_leave_the_memreview_dir(ws: Path, name: str) -> None:
    old = (ws / "MEMORY.md").read_bytes()
    with pytest.raises(PathEscape):
        write_private(ws, name, b"x")
    assert (ws / "MEMORY.md").read_bytes() == old
