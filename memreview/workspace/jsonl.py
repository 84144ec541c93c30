"""JSON-lines files, read defensively: the one parser for the pipeline's logs (recall log,
judge proposals, verdicts) and memreview's own journal.

A line that is not JSON, or not a JSON object, is reported with its number and skipped;
blank lines are ignored. A file that is clean throughout (the usual case) is decoded in one
call.
"""

from __future__ import annotations

import json

from memreview.i18n import N_, Message, Nn_

NOT_JSON = Message(N_("not valid JSON"))
NOT_OBJECT = Message(N_("not a JSON object"))
MAX_PROBLEMS_SHOWN = 20


def parse_jsonl(data: bytes) -> tuple[list[tuple[int, dict]], list[tuple[int, Message]]]:
    """(line number, object) for each good line, and (line number, problem) for the others."""
    lines = data.split(b"\n")
    numbered = [(no, raw) for no, raw in enumerate(lines, 1) if raw.strip()]
    fast = _parse_whole(numbered)
    if fast is not None:
        return fast, []
    rows: list[tuple[int, dict]] = []
    bad: list[tuple[int, Message]] = []
    for no, raw in numbered:
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            bad.append((no, NOT_JSON))
            continue
        if not isinstance(obj, dict):
            bad.append((no, NOT_OBJECT))
            continue
        rows.append((no, obj))
    return rows, bad


def _parse_whole(numbered: list[tuple[int, bytes]]) -> list[tuple[int, dict]] | None:
    """Every line decoded in one call when the whole file is clean, else None."""
    try:
        objs = json.loads(b"[" + b",".join(raw for _no, raw in numbered) + b"]")
    except (ValueError, UnicodeDecodeError):
        return None
    if len(objs) != len(numbered) or not all(isinstance(o, dict) for o in objs):
        return None  # a line held two values, or a non-object: the slow path says which
    return [(no, obj) for (no, _raw), obj in zip(numbered, objs, strict=True)]


def problem_lines(bad: list[tuple[int, str | Message]]) -> list[tuple[int | None, Message]]:
    """(line, message) warnings for the bad lines: the first few, then how many more."""
    out: list[tuple[int | None, Message]] = [
        (no, Message(N_("{problem}; line skipped"), problem=problem))
        for no, problem in bad[:MAX_PROBLEMS_SHOWN]
    ]
    if len(bad) > MAX_PROBLEMS_SHOWN:
        more = len(bad) - MAX_PROBLEMS_SHOWN
        text = Nn_("{count} more bad line not shown", "{count} more bad lines not shown")
        out.append((None, Message(text, count=more)))
    return out
