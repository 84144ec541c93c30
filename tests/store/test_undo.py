"""Undo: restore from backup, remove created files, reverse-patch around later edits."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from store_helpers import append_text, replace_line, tree, write_files

from memreview.store import (
    FileOutcome,
    FunctionJob,
    apply_batch,
    batches,
    last_batch,
    undo_last,
)
from memreview.workspace.textfile import TextFile

NOW = datetime(2026, 7, 1, 9, 30, 5)


def _move_block(current: TextFile | None) -> FileOutcome:
    """Remove the anchor block `## [RULE:b]` … `---` (and the blank line after it)."""
    assert current is not None
    texts = current.texts
    start = texts.index("## [RULE:b]")
    end = texts.index("---", start) + 2
    lines = list(current.lines)
    del lines[start:end]
    return FileOutcome(current.render(lines), applied=["move"])


ANCHORS = (
    b"# Memory\n\n"
    b"## [RULE:a]\nSummary: first\n---\n\n"
    b"## [RULE:b]\nSummary: second\n---\n\n"
    b"## [RULE:c]\nSummary: third\n---\n"
)


def test_undo_after_an_apply_restores_every_byte(ws: Path) -> None:
    old_memory = (ws / "MEMORY.md").read_bytes()
    old_notes = (ws / "memory/notes.md").read_bytes()
    apply_batch(
        ws,
        [
            replace_line("MEMORY.md", "- beta", None),
            replace_line("memory/notes.md", "- one", "- 1"),
        ],
        [{"item": "a", "action": "remove"}],
    )
    result = undo_last(ws)
    assert result.ok, result.message
    assert (ws / "MEMORY.md").read_bytes() == old_memory
    assert (ws / "memory/notes.md").read_bytes() == old_notes
    assert {f.rel for f in result.files} == {"MEMORY.md", "memory/notes.md"}


def test_undo_removes_a_file_the_batch_created(ws: Path) -> None:
    apply_batch(ws, [append_text("memory/archive/superseded.md", "# Superseded")], [])
    assert (ws / "memory/archive/superseded.md").exists()
    result = undo_last(ws)
    assert result.ok
    assert not (ws / "memory/archive/superseded.md").exists()
    assert result.files[0].removed


def test_undo_of_a_created_file_removes_the_folders_it_left_empty(ws: Path) -> None:
    (ws / "skills").mkdir()
    (ws / "skills/keep.md").write_bytes(b"an owner's file\n")
    apply_batch(ws, [append_text("skills/new-skill/deep/SKILL.md", "# Skill")], [])
    assert (ws / "skills/new-skill/deep/SKILL.md").exists()
    result = undo_last(ws)
    assert result.ok, result.message
    assert not (ws / "skills/new-skill").exists()
    assert (ws / "skills/keep.md").read_bytes() == b"an owner's file\n"


def test_undo_after_a_later_append_reverse_patches_and_keeps_the_appended_lines(
    ws: Path,
) -> None:
    write_files(ws, {"MEMORY.md": ANCHORS})
    apply_batch(
        ws,
        [FunctionJob("MEMORY.md", _move_block), replace_line("memory/notes.md", "- two", "- 2")],
        [],
    )
    with open(ws / "MEMORY.md", "ab") as fh:
        fh.write(b"\n## [FACT:d]\nSummary: the agent wrote this later\n---\n")
    with open(ws / "memory/notes.md", "ab") as fh:
        fh.write(b"- three\r\n")
    result = undo_last(ws)
    assert result.ok, result.message
    assert (ws / "MEMORY.md").read_bytes() == (
        ANCHORS + b"\n## [FACT:d]\nSummary: the agent wrote this later\n---\n"
    )
    assert (ws / "memory/notes.md").read_bytes() == b"# Notes\r\n\r\n- one\r\n- two\r\n- three\r\n"


def test_undo_reverse_patch_keeps_an_edit_made_elsewhere_in_the_file(ws: Path) -> None:
    apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- beta (done)")], [])
    data = (ws / "MEMORY.md").read_bytes().replace(b"- alpha", b"- alpha (edited by agent)")
    (ws / "MEMORY.md").write_bytes(data)
    result = undo_last(ws)
    assert result.ok, result.message
    assert (ws / "MEMORY.md").read_bytes() == (
        b"# Memory\n\n- alpha (edited by agent)\n- beta\n- gamma\n"
    )


def test_undo_of_a_created_file_appended_to_since_keeps_the_other_lines(ws: Path) -> None:
    apply_batch(ws, [append_text("memory/archive/superseded.md", "# Superseded")], [])
    with open(ws / "memory/archive/superseded.md", "ab") as fh:
        fh.write(b"- added by someone else\n")
    result = undo_last(ws)
    assert result.ok, result.message
    assert (ws / "memory/archive/superseded.md").read_bytes() == b"- added by someone else\n"


def test_undo_is_refused_with_a_diff_and_writes_nothing_after_a_conflicting_edit(
    ws: Path,
) -> None:
    apply_batch(
        ws,
        [
            replace_line("MEMORY.md", "- beta", "- beta (done)"),
            replace_line("memory/notes.md", "- one", "- 1"),
        ],
        [],
    )
    data = (ws / "MEMORY.md").read_bytes().replace(b"- beta (done)", b"- beta (done, then edited)")
    (ws / "MEMORY.md").write_bytes(data)
    before = tree(ws)
    result = undo_last(ws)
    assert not result.ok
    assert "refused" in result.message and "nothing was written" in result.message
    assert tree(ws) == before  # notes.md, whose undo alone would be clean, is untouched too
    assert [c.file for c in result.refusals] == ["MEMORY.md"]
    assert "changed since" in result.refusals[0].reason
    assert "-- beta (done)" in result.diff and "+- beta (done, then edited)" in result.diff
    assert last_batch(ws, undoable=True) is not None  # still undoable once fixed


def test_undo_uses_surrounding_lines_when_the_changed_line_now_occurs_twice(ws: Path) -> None:
    apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- beta (done)")], [])
    with open(ws / "MEMORY.md", "ab") as fh:
        fh.write(b"- beta (done)\n")
    result = undo_last(ws)
    assert result.ok, result.message
    assert (ws / "MEMORY.md").read_bytes() == (
        b"# Memory\n\n- alpha\n- beta\n- gamma\n- beta (done)\n"
    )


def test_undo_is_refused_when_the_changed_lines_and_their_surroundings_occur_twice(
    ws: Path,
) -> None:
    apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- beta (done)")], [])
    copy = (ws / "MEMORY.md").read_bytes()
    with open(ws / "MEMORY.md", "ab") as fh:
        fh.write(copy)
    before = tree(ws)
    result = undo_last(ws)
    assert not result.ok
    assert "more than once" in result.refusals[0].reason
    assert tree(ws) == before


def test_undo_is_journaled_backed_up_and_the_journal_only_grows(ws: Path) -> None:
    first = apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [], now=NOW)
    journal_before = (ws / ".memreview/journal.jsonl").read_bytes()
    after_apply = (ws / "MEMORY.md").read_bytes()
    result = undo_last(ws, now=NOW)
    journal_after = (ws / ".memreview/journal.jsonl").read_bytes()
    assert journal_after.startswith(journal_before)
    records = [json.loads(line) for line in journal_after[len(journal_before) :].splitlines()]
    assert [r["type"] for r in records] == ["intent", "file", "commit"]
    assert records[0]["kind"] == "undo" and records[0]["undoes"] == first.batch_id
    assert records[-1]["undoes"] == first.batch_id
    assert (ws / result.files[0].backup).read_bytes() == after_apply
    assert batches(ws)[0].undone_by == result.undo_batch


def test_undo_twice_takes_back_the_batch_before_and_then_says_there_is_nothing(
    ws: Path,
) -> None:
    old = (ws / "MEMORY.md").read_bytes()
    apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- b1")], [])
    apply_batch(ws, [replace_line("MEMORY.md", "- b1", "- b2")], [])
    assert undo_last(ws).ok
    assert b"- b1\n" in (ws / "MEMORY.md").read_bytes()
    assert undo_last(ws).ok
    assert (ws / "MEMORY.md").read_bytes() == old
    nothing = undo_last(ws)
    assert not nothing.ok and "nothing to undo" in nothing.message


def test_undo_hands_back_the_batch_decisions_so_state_entries_can_be_taken_back(
    ws: Path,
) -> None:
    decisions = [{"item": "dormant-x", "action": "snooze"}, {"item": "d-1", "action": "keep"}]
    batch = apply_batch(ws, [replace_line("MEMORY.md", "- beta", None)], decisions)
    result = undo_last(ws)
    assert result.undone_batch == batch.batch_id
    assert result.decisions == decisions
    assert result.applied == ["d1"]


def test_undo_of_a_state_only_batch_is_journaled_and_returns_its_decisions(ws: Path) -> None:
    apply_batch(ws, [], [{"item": "p-1", "action": "snooze"}])
    result = undo_last(ws)
    assert result.ok and result.files == []
    assert result.decisions == [{"item": "p-1", "action": "snooze"}]
    assert last_batch(ws, undoable=True) is None


VERDICTS = "memory/review/verdicts.jsonl"


def _verdict(proposal: str, verdict: str) -> str:
    line = {
        "ts": "2026-07-01T09:30:05",
        "proposal": proposal,
        "relation": "supersedes",
        "new": "n",
        "old": "o",
        "verdict": verdict,
        "by": "human",
    }
    return json.dumps(line)


def test_undo_appends_an_undone_line_per_verdict_instead_of_restoring_verdicts(
    ws: Path,
) -> None:
    earlier = _verdict("p-0001", "rejected") + "\n"
    write_files(ws, {VERDICTS: earlier.encode()})
    apply_batch(
        ws,
        [
            append_text(VERDICTS, _verdict("p-0012", "approved"), key="v1"),
            append_text(VERDICTS, _verdict("p-0013", "kept-both"), key="v2"),
            replace_line("MEMORY.md", "- beta", None),
        ],
        [],
    )
    with open(ws / VERDICTS, "ab") as fh:  # the pipeline reads and appends too
        fh.write(b'{"note": "other writer"}\n')
    written = (ws / VERDICTS).read_bytes()
    result = undo_last(ws, now=NOW)
    assert result.ok, result.message
    data = (ws / VERDICTS).read_bytes()
    assert data.startswith(written)
    added = [json.loads(line) for line in data[len(written) :].splitlines()]
    assert [(v["proposal"], v["verdict"], v["was"]) for v in added] == [
        ("p-0012", "undone", "approved"),
        ("p-0013", "undone", "kept-both"),
    ]
    assert added[0]["ts"] == NOW.strftime("%Y-%m-%dT%H:%M:%SZ") and added[0]["new"] == "n"
    assert b"- beta\n" in (ws / "MEMORY.md").read_bytes()


def test_a_dry_run_undo_shows_the_diff_and_writes_nothing(ws: Path) -> None:
    apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [])
    before = tree(ws)
    result = undo_last(ws, dry_run=True)
    assert result.ok and result.dry_run
    assert "-- B\n+- beta\n" in result.diff
    assert tree(ws) == before
