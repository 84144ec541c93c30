"""History: every batch newest first, whether it can be undone, undo of a batch that is not
the last one, and the later batch named when one blocks it."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from store_helpers import append_text, replace_line, tree

from memreview.store import apply_batch, batch_history, batches, undo_batch, undo_blockers

NOW = datetime(2026, 7, 1, 9, 30, 5)


def _apply(ws: Path, *jobs, item: str = "x") -> str:
    result = apply_batch(ws, list(jobs), [{"item": item, "action": "remove", "queue": "q"}])
    assert result.ok
    return result.batch_id


def test_history_is_newest_first_with_kind_files_and_decisions(ws: Path) -> None:
    first = _apply(ws, replace_line("MEMORY.md", "- alpha", "- A"), item="one")
    second = _apply(ws, replace_line("memory/notes.md", "- two", "- 2"), item="two")
    entries = batch_history(ws)
    assert [e.batch_id for e in entries] == [second, first]
    assert entries[0].files == ["memory/notes.md"]
    assert entries[1].record.decisions[0]["item"] == "one"
    assert all(e.undoable for e in entries)
    doc = entries[1].to_json()
    assert doc["kind"] == "apply" and doc["files"] == ["MEMORY.md"] and doc["undoable"]


def test_undo_of_the_first_batch_keeps_the_later_ones(ws: Path) -> None:
    first = _apply(ws, replace_line("MEMORY.md", "- alpha", "- A"))
    _apply(ws, replace_line("MEMORY.md", "- gamma", "- G"), append_text("memory/notes.md", "- 3"))
    result = undo_batch(ws, first)
    assert result.ok, result.message
    # the first batch's line is back, the second batch's lines are still there
    assert (ws / "MEMORY.md").read_bytes() == b"# Memory\n\n- alpha\n- beta\n- G\n"
    assert (ws / "memory/notes.md").read_bytes().endswith(b"- 3\r\n")
    entries = batch_history(ws)
    assert entries[0].record.kind == "undo" and entries[0].record.undoes == first
    done = next(e for e in entries if e.batch_id == first)
    assert not done.undoable and "undone by batch" in done.why_not


def test_undo_refused_names_the_later_batch_and_file_and_writes_nothing(ws: Path) -> None:
    first = _apply(ws, replace_line("MEMORY.md", "- beta", "- B"))
    second = _apply(ws, replace_line("MEMORY.md", "- B", "- BB"))
    _apply(ws, replace_line("memory/notes.md", "- one", "- 1"))
    before = tree(ws)
    result = undo_batch(ws, first)
    assert not result.ok
    assert f"batch {second} changed MEMORY.md since" in result.message
    assert tree(ws) == before
    entry = next(e for e in batch_history(ws) if e.batch_id == first)
    assert not entry.undoable
    assert [(b.batch, b.file) for b in entry.blockers] == [(second, "MEMORY.md")]
    assert entry.to_json()["blocked_by"][0]["batch"] == second


def test_a_change_outside_memreview_blocks_without_naming_a_batch(ws: Path) -> None:
    first = _apply(ws, replace_line("MEMORY.md", "- beta", "- B"))
    path = ws / "MEMORY.md"
    path.write_bytes(path.read_bytes().replace(b"- B\n", b"- B edited\n"))
    record = next(b for b in batches(ws) if b.batch_id == first)
    [blocker] = undo_blockers(ws, record)
    assert blocker.batch is None and blocker.file == "MEMORY.md"
    assert "outside memreview" in blocker.describe()


def test_an_undo_batch_and_an_unknown_id_are_refused(ws: Path) -> None:
    first = _apply(ws, replace_line("MEMORY.md", "- beta", "- B"))
    assert undo_batch(ws, first).ok
    undo_id = batch_history(ws)[0].batch_id
    refused = undo_batch(ws, undo_id)
    assert not refused.ok and "an undo of batch" in refused.message
    again = undo_batch(ws, first)
    assert not again.ok and "undone by batch" in again.message
    missing = undo_batch(ws, "20990101-000000-ffffff")
    assert not missing.ok and "no batch 20990101-000000-ffffff" in missing.message


def test_undo_without_an_id_takes_the_last_batch_not_undone(ws: Path) -> None:
    _apply(ws, replace_line("MEMORY.md", "- alpha", "- A"))
    second = _apply(ws, replace_line("MEMORY.md", "- beta", "- B"))
    result = undo_batch(ws)
    assert result.ok and result.undone_batch == second
    assert b"- A\n- beta\n" in (ws / "MEMORY.md").read_bytes()


def test_undo_with_every_batch_undone_says_so_and_names_the_last(ws: Path) -> None:
    """``log`` still lists an undone batch: "the journal has no applied batch" read as if
    the log were wrong. With none written, that is what it says."""
    nothing = undo_batch(ws)
    assert not nothing.ok and nothing.message == "nothing to undo: the journal has no applied batch"
    first = _apply(ws, replace_line("MEMORY.md", "- beta", "- B"))
    assert undo_batch(ws).ok
    undo_id = batch_history(ws)[0].batch_id
    again = undo_batch(ws)
    assert not again.ok
    assert again.message == (
        "nothing to undo: every batch in the journal is undone already "
        f"(the last, {first}, by {undo_id}); `memreview log` lists them"
    )
