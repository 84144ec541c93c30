"""Every path read or written resolves inside the workspace."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from store_helpers import replace_line, tree

from memreview.store import PathEscape, apply_batch, resolve_inside, safe_read_bytes


def test_resolve_inside_gives_the_real_path_of_a_plain_relative_path(ws: Path) -> None:
    assert resolve_inside(ws, "memory/notes.md") == (ws / "memory/notes.md").resolve()
    assert resolve_inside(ws, "./memory//notes.md") == (ws / "memory/notes.md").resolve()
    assert resolve_inside(ws, "memory/not-yet.md") == (ws / "memory/not-yet.md").resolve()


@pytest.mark.parametrize(
    "rel",
    ["../outside.md", "memory/../../outside.md", "/etc/passwd", "a\x00b", "", "."],
)
def test_resolve_inside_refuses_escapes_absolute_paths_and_nul(ws: Path, rel: str) -> None:
    with pytest.raises(PathEscape):
        resolve_inside(ws, rel)


def test_path_escape_is_a_value_error_with_a_clear_message(ws: Path) -> None:
    with pytest.raises(ValueError, match=r"'\.\.'"):
        resolve_inside(ws, "../x")


def test_a_symlink_leaving_the_workspace_is_refused(ws: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"do not touch\n")
    (ws / "memory/leak.md").symlink_to(secret)
    (ws / "linkdir").symlink_to(tmp_path)
    with pytest.raises(PathEscape, match="outside the workspace"):
        resolve_inside(ws, "memory/leak.md")
    with pytest.raises(PathEscape):
        safe_read_bytes(ws, "memory/leak.md")
    with pytest.raises(PathEscape):
        resolve_inside(ws, "linkdir/secret.txt")


def test_a_symlink_within_the_workspace_is_followed(ws: Path) -> None:
    (ws / "alias.md").symlink_to(ws / "MEMORY.md")
    assert safe_read_bytes(ws, "alias.md") == (ws / "MEMORY.md").read_bytes()
    apply_batch(ws, [replace_line("alias.md", "- beta", "- B")], [])
    assert (ws / "alias.md").is_symlink()  # the real file was rewritten, the link kept
    assert b"- B\n" in (ws / "MEMORY.md").read_bytes()


def test_reading_a_fifo_in_the_workspace_fails_instead_of_hanging(ws: Path) -> None:
    os.mkfifo(ws / "memory/pipe.md")
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            safe_read_bytes(ws, "memory/pipe.md")
        except OSError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(5)
    assert outcome and "not a regular file" in str(outcome[0])


def test_a_job_with_a_dotdot_path_is_refused_and_nothing_outside_is_written(
    ws: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"- beta\n")
    result = apply_batch(
        ws,
        [
            replace_line("../outside.md", "- beta", "- B", key="x"),
            replace_line("MEMORY.md", "- beta", "- B"),
        ],
        [],
    )
    assert outside.read_bytes() == b"- beta\n"
    assert [f.decision for f in result.failures] == ["x"]
    assert "refused" in result.failures[0].reason
    assert result.applied == ["d1"]


def test_a_memory_file_symlinked_outside_is_refused_and_its_target_untouched(
    ws: Path, tmp_path: Path
) -> None:
    target = tmp_path / "elsewhere.md"
    target.write_bytes(b"# Memory\n- beta\n")
    (ws / "memory/linked.md").symlink_to(target)
    result = apply_batch(ws, [replace_line("memory/linked.md", "- beta", "- B", key="x")], [])
    assert target.read_bytes() == b"# Memory\n- beta\n"
    assert result.failures and "outside the workspace" in result.failures[0].reason


def test_a_memreview_dir_symlinked_outside_is_refused(ws: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (ws / ".memreview").symlink_to(elsewhere)
    before = tree(ws)
    with pytest.raises(PathEscape):
        apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [])
    assert list(elsewhere.iterdir()) == []
    assert tree(ws) == before
