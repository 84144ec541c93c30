"""Reading the journal: interrupted batches, torn lines, the last batch."""

from __future__ import annotations

import json
from pathlib import Path

from store_helpers import replace_line

from memreview.store import (
    append_line,
    apply_batch,
    batches,
    interrupted_batches,
    last_batch,
    read_journal,
    undo_last,
)


class Crash(Exception):
    pass


def _crash_at(step: str):
    def fault(name: str) -> None:
        if name == step:
            raise Crash(name)

    return fault


def test_an_intent_without_commit_is_reported_with_each_file_old_new_or_neither(
    ws: Path,
) -> None:
    try:
        apply_batch(
            ws,
            [
                replace_line("MEMORY.md", "- beta", "- B"),
                replace_line("memory/notes.md", "- one", "- 1"),
            ],
            [{"item": "x", "action": "keep"}],
            fault=_crash_at("commit"),
        )
    except Crash:
        pass
    # The commit line was written before the fault: fake its loss by dropping it.
    journal = ws / ".memreview/journal.jsonl"
    lines = journal.read_text().splitlines()
    assert json.loads(lines[-1])["type"] == "commit"
    journal.write_text("\n".join(lines[:-1]) + "\n")
    assert interrupted_batches(ws)[0].files[0].state == "new"

    (ws / "MEMORY.md").write_bytes(b"# Memory\n\n- alpha\n- beta\n- gamma\n")  # back to old
    with open(ws / "memory/notes.md", "ab") as fh:
        fh.write(b"- three\r\n")  # changed since
    [batch] = interrupted_batches(ws)
    assert batch.batch.decisions == [{"item": "x", "action": "keep"}]
    assert {f.file: f.state for f in batch.files} == {
        "MEMORY.md": "old",
        "memory/notes.md": "neither",
    }
    text = batch.describe()
    assert "MEMORY.md: left as it was" in text and "neither old nor new" in text


def test_a_committed_batch_is_not_interrupted(ws: Path) -> None:
    apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [])
    assert interrupted_batches(ws) == []
    assert batches(ws)[0].committed


def test_a_torn_journal_line_is_skipped_and_the_next_line_stays_whole(ws: Path) -> None:
    first = apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [])
    with open(ws / ".memreview/journal.jsonl", "ab") as fh:
        fh.write(b'{"type": "intent", "batch": "torn-')  # a crash in mid-line
    second = apply_batch(ws, [replace_line("MEMORY.md", "- B", "- C")], [])
    ids = [b.batch_id for b in batches(ws)]
    assert ids == [first.batch_id, second.batch_id]
    assert all(r["batch"] != "torn-" for r in read_journal(ws))


def test_last_batch_is_the_latest_apply_and_undoable_skips_undone_ones(ws: Path) -> None:
    assert last_batch(ws) is None
    first = apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [])
    second = apply_batch(ws, [replace_line("MEMORY.md", "- B", "- C")], [])
    assert last_batch(ws).batch_id == second.batch_id
    undo_last(ws)
    assert last_batch(ws).batch_id == second.batch_id
    assert last_batch(ws, undoable=True).batch_id == first.batch_id


def test_append_line_keeps_the_journal_one_json_object_per_line(ws: Path) -> None:
    append_line(ws, "journal.jsonl", json.dumps({"type": "note", "batch": "b-1"}))
    append_line(ws, ".memreview/journal.jsonl", json.dumps({"type": "note", "batch": "b-2"}))
    raw = (ws / ".memreview/journal.jsonl").read_bytes()
    assert raw.count(b"\n") == 2 and raw.endswith(b"\n")
    assert [r["batch"] for r in read_journal(ws)] == ["b-1", "b-2"]


def test_undone_among_names_the_undone_batches_of_those_asked_about(ws: Path) -> None:
    from memreview.store import undone_among

    first = apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [{"k": 1}])
    second = apply_batch(ws, [replace_line("MEMORY.md", "- B", "- C")], [{"k": 2}])
    assert undone_among(ws, {first.batch_id, second.batch_id}) == set()
    assert undo_last(ws).ok
    assert undone_among(ws, {first.batch_id, second.batch_id}) == {second.batch_id}
    assert undone_among(ws, {first.batch_id}) == set()
    assert undone_among(ws, set()) == set()
    # written by hand with other spacing, the undo still counts
    journal = ws / ".memreview" / "journal.jsonl"
    text = journal.read_text(encoding="utf-8")
    journal.write_text(text.replace('"undoes": "', '"undoes":"'), encoding="utf-8")
    assert undone_among(ws, {first.batch_id, second.batch_id}) == {second.batch_id}
