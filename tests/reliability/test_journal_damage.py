"""A damaged journal line is reported with its line number and skipped; undo refuses only the
batch the line belongs to (docs/design.md §4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from refusal_helpers import TODAY, WS, item_ids, run, write_tree

from memreview.store import batches, journal_problems

JOURNAL = ".memreview/journal.jsonl"


def _apply_one(tmp_path: Path, capsys, ws: Path, item: str, action: str) -> None:
    decisions = tmp_path / f"{item}.yaml"
    decisions.write_text(f"- {{item: {item}, action: {action}}}\n")
    code, _out, err = run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)
    assert code == 0, err


@pytest.fixture
def two_batches(tmp_path: Path, capsys) -> Path:
    """A workspace with two applied batches: diary done, then garden done."""
    ws = write_tree(tmp_path / "ws", WS)
    ids = item_ids(capsys, ws)["dormant"]
    for item in ids[:2]:
        _apply_one(tmp_path, capsys, ws, item, "done")
    return ws


def _lines(ws: Path) -> list[dict]:
    return [json.loads(x) for x in (ws / JOURNAL).read_text().splitlines()]


def _rewrite(ws: Path, records: list[object]) -> None:
    (ws / JOURNAL).write_text("".join(json.dumps(r) + "\n" for r in records))


def _first_commit(records: list[dict]) -> int:
    return next(k for k, r in enumerate(records) if r["type"] == "commit")


DAMAGE = {
    "applied-is-a-number": lambda r: {**r, "applied": 5},
    "failures-is-a-string": lambda r: {**r, "failures": "oops"},
    "undoes-is-a-list": lambda r: {**r, "undoes": ["x"]},
    "type-is-a-number": lambda r: {**r, "type": 3},
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_a_wrong_type_in_an_old_batch_leaves_the_last_batch_undoable(two_batches, capsys, case):
    ws = two_batches
    records = _lines(ws)
    k = _first_commit(records)
    records[k] = DAMAGE[case](records[k])
    _rewrite(ws, records)

    [problem] = journal_problems(ws)
    assert problem.line == k + 1 and problem.batch == records[k]["batch"]

    code, _out, err = run(capsys, "undo", ws)
    assert code == 0, err
    assert f".memreview/journal.jsonl line {k + 1}: " in err and "skipped" in err
    assert "Status:" not in (ws / "memory/projects/garden.md").read_text()  # taken back

    # the next undo reaches the damaged batch: refused, and the file stays as it is
    diary = (ws / "memory/projects/diary.md").read_bytes()
    code, _out, err = run(capsys, "undo", ws)
    assert code == 1
    assert f"line(s) {k + 1} are damaged" in err
    assert (ws / "memory/projects/diary.md").read_bytes() == diary


def test_a_damaged_intent_line_of_the_last_batch_stops_undo_at_that_batch(two_batches, capsys):
    ws = two_batches
    records = _lines(ws)
    last_intent = max(k for k, r in enumerate(records) if r["type"] == "intent")
    records[last_intent] = {**records[last_intent], "files": [{"file": 7}]}
    _rewrite(ws, records)
    before = {
        p: (ws / p).read_bytes() for p in ("memory/projects/diary.md", "memory/projects/garden.md")
    }
    code, _out, err = run(capsys, "undo", ws)
    assert code == 1, err
    assert f"line(s) {last_intent + 1} are damaged" in err
    assert {p: (ws / p).read_bytes() for p in before} == before  # not the older batch either


def test_bad_json_and_a_torn_last_line_are_reported_and_apply_still_works(
    two_batches, tmp_path, capsys
):
    ws = two_batches
    text = (ws / JOURNAL).read_text()
    lines = text.splitlines(keepends=True)
    lines.insert(1, "{not json\n")
    (ws / JOURNAL).write_text("".join(lines) + '{"type": "intent", "batch": "cut-sh')
    problems = journal_problems(ws)
    assert [(p.line, p.reason) for p in problems] == [
        (2, "not valid JSON"),
        (len(lines) + 1, "torn (cut short while it was written)"),
    ]
    assert problems[1].batch is None
    assert [b.batch_id for b in batches(ws)] == [r["batch"] for r in _lines_ok(lines)]

    ids = item_ids(capsys, ws)
    dup = ids["duplicates"][0]
    decisions = tmp_path / "d.yaml"
    decisions.write_text(f"- {{item: {dup}, action: keep, keep: 1}}\n")
    code, _out, err = run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)
    assert code == 0, err
    assert "journal.jsonl line 2: not valid JSON; skipped" in err


def _lines_ok(lines: list[str]) -> list[dict]:
    out, seen = [], set()
    for line in lines:
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r["type"] == "intent" and r["batch"] not in seen:
            seen.add(r["batch"])
            out.append(r)
    return out
