"""JSON-lines inputs (recall log, proposals, verdicts, OpenClaw's events) are read a chunk at a
time with a size cap: a file over ``max_jsonl_mib`` is skipped with one warning naming it, a
bad line is reported by its number and skipped, a file that grows past the cap while read is
cut there with a warning (issue 18)."""

from __future__ import annotations

import io
import json

import pytest
from refusal_helpers import WS, scan_json, write_tree

from memreview.workspace import jsonl
from memreview.workspace.jsonl import CUT, NOT_JSON, NOT_OBJECT, iter_jsonl, parse_jsonl
from memreview.workspace.loader import load_workspace


def recall(k: int) -> str:
    return (
        json.dumps(
            {
                "ts": f"2026-11-{1 + k % 28:02d}T10:00:00Z",
                "id": "garden",
                "channel": "search",
                "query": f"where is the garden hose, question {k}",
            }
        )
        + "\n"
    )


def lines_over(mib: int, line) -> str:
    out, size, k = [], 0, 0
    while size <= mib << 20:
        out.append(line(k))
        size += len(out[-1])
        k += 1
    return "".join(out)


INPUTS = {
    "memory/recall_log.jsonl": recall,
    "memory/review/proposals.jsonl": lambda k: (
        json.dumps({"id": f"p-{k}", "relation": "contradicts", "new": "a", "old": "b"}) + "\n"
    ),
    "memory/review/verdicts.jsonl": lambda k: (
        json.dumps({"proposal": f"p-{k}", "verdict": "rejected"}) + "\n"
    ),
}


@pytest.mark.parametrize("rel", sorted(INPUTS))
def test_a_jsonl_input_over_the_cap_is_skipped_with_one_warning_naming_it(tmp_path, capsys, rel):
    files = {**WS, "memreview.yaml": "max_jsonl_mib: 1\n", rel: lines_over(1, INPUTS[rel])}
    ws = write_tree(tmp_path / "ws", files)
    doc = scan_json(capsys, ws)
    warnings = [w for w in doc["warnings"] if w["file"] == rel]
    assert [w["message"] for w in warnings] == [
        "skipped: 1.0 MiB, more than 1 MiB (max_jsonl_mib in memreview.yaml)"
    ]
    assert doc["counts"]["duplicates"] == 1  # the rest was read
    loaded = load_workspace(ws)
    assert (loaded.recalls, loaded.proposals, loaded.verdicts) == (None, None, None)


def test_openclaw_events_over_the_cap_are_skipped_too(tmp_path):
    def event(k: int) -> str:
        doc = {
            "type": "memory.recall.recorded",
            "timestamp": "2026-11-20T10:00:00Z",
            "query": "q",
            "results": [{"path": "MEMORY.md", "startLine": 4, "endLine": 4}],
        }
        return json.dumps(doc) + "\n"

    files = {
        **WS,
        "memreview.yaml": "max_jsonl_mib: 1\n",
        "memory/.dreams/events.jsonl": lines_over(1, event),
    }
    ws = load_workspace(write_tree(tmp_path / "ws", files))
    [warning] = [w for w in ws.warnings if w.file == "memory/.dreams/events.jsonl"]
    assert "more than 1 MiB (max_jsonl_mib" in warning.message
    assert ws.recalls is None


def test_under_the_cap_every_good_line_is_read_and_each_bad_one_named_by_its_number(tmp_path):
    good = [recall(k) for k in range(5)]
    text = good[0] + "{not json\n" + good[1] + "\n" + "[1, 2]\n" + good[2] + good[3] + good[4][:-1]
    ws = load_workspace(write_tree(tmp_path / "ws", {**WS, "memory/recall_log.jsonl": text}))
    assert [r.query for r in ws.recalls] == [json.loads(g)["query"] for g in good]
    problems = [(w.line, w.message) for w in ws.warnings if w.file == "memory/recall_log.jsonl"]
    assert problems == [(2, f"{NOT_JSON}; line skipped"), (5, f"{NOT_OBJECT}; line skipped")]


def test_lines_across_chunks_keep_their_numbers_and_a_long_line_is_read_whole(monkeypatch):
    monkeypatch.setattr(jsonl, "CHUNK", 16)  # many chunks, lines cut anywhere
    long = json.dumps({"query": "x" * 200})
    data = "\n".join(['{"a": 1}', "oops", "", long, '{"b": "乙"}', "7"]).encode()
    rows, bad = parse_jsonl(data)
    assert rows == [(1, {"a": 1}), (4, {"query": "x" * 200}), (5, {"b": "乙"})]
    assert bad == [(2, NOT_JSON), (6, NOT_OBJECT)]


def test_the_reading_streams_a_chunk_at_a_time():
    data = b"".join(recall(k).encode() for k in range(40_000))  # about 3.5 MB
    stream = io.BytesIO(data)
    asked: list[int] = []

    def read(n: int) -> bytes:
        asked.append(n)
        return stream.read(n)

    rows = iter_jsonl(read, [].append)
    first = next(rows)
    assert first[0] == 1 and stream.tell() <= jsonl.CHUNK  # not the whole file for one line
    assert sum(1 for _ in rows) == 39_999


def test_a_file_that_grows_past_the_cap_while_read_is_cut_there_with_a_warning():
    data = b"".join(recall(k).encode() for k in range(100))
    limit = len(recall(0).encode()) * 10 + 5  # ten lines and a bit of the eleventh
    problems: list = []
    rows = list(iter_jsonl(io.BytesIO(data).read, problems.append, limit))
    assert [no for no, _obj in rows] == list(range(1, 11))
    assert problems == [(11, CUT)]


def test_a_deeply_nested_line_is_a_bad_line_not_a_crash():
    data = b'{"a": 1}\n' + b"[" * 100_000 + b"]" * 100_000 + b'\n{"b": 2}\n'
    rows, bad = parse_jsonl(data)
    assert rows == [(1, {"a": 1}), (3, {"b": 2})] and bad == [(2, NOT_JSON)]
