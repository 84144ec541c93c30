"""JSON-lines files, read defensively: the one parser for the pipeline's logs (recall log,
judge proposals, verdicts, OpenClaw's events) and memreview's own journal.

A line that is not JSON, or not a JSON object, is reported with its number and skipped;
blank lines are ignored. The file is read a megabyte at a time, and each megabyte that is
clean throughout (the usual case) is decoded in one call: memory stays bounded by what the
reader keeps of each line, never the whole file and its copies.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

from memreview.i18n import N_, Message, Nn_
from memreview.workspace import jsondoc

NOT_JSON = Message(N_("not valid JSON"))
NOT_OBJECT = Message(N_("not a JSON object"))
CUT = Message(
    N_("the file grew past the size cap while it was read; this line and the rest not read")
)
MAX_PROBLEMS_SHOWN = 20
CHUNK = 1 << 20  # bytes read at a time

Problems = list[tuple[int, str]]  # (line number, problem: a Message)


def parse_jsonl(data: bytes) -> tuple[list[tuple[int, dict[str, Any]]], Problems]:
    """(line number, object) for each good line, and (line number, problem) for the others."""
    bad: Problems = []
    rows = list(iter_jsonl(io.BytesIO(data).read, bad.append))
    return rows, bad


def iter_jsonl(
    read: Callable[[int], bytes],
    problem: Callable[[tuple[int, str]], None],
    limit: int | None = None,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each good line of what ``read(n)`` gives, a chunk at a time;
    ``problem((line, why))`` for each bad line, before the good lines of its chunk. With
    ``limit``, nothing past that many bytes is read: the line the limit cuts is reported
    (:data:`CUT`) and the rest is left."""
    no = 0  # lines before this chunk
    rest: list[bytes] = []  # the line not yet ended, in pieces (a long line is not re-copied)
    total = 0
    while True:
        want = CHUNK if limit is None else min(CHUNK, limit + 1 - total)
        block = read(want) if want > 0 else b""
        total += len(block)
        if limit is not None and total > limit:
            block = block[: len(block) - (total - limit)]
            cut = block.rfind(b"\n")
            if cut >= 0:
                lines = (b"".join(rest) + block[:cut]).split(b"\n")
                yield from _parse_lines(lines, no, problem)
                no += len(lines)
            problem((no + 1, CUT))
            return
        if not block:
            break
        cut = block.rfind(b"\n")
        if cut < 0:
            rest.append(block)
            continue
        lines = (b"".join(rest) + block[:cut]).split(b"\n")
        rest = [block[cut + 1 :]]
        yield from _parse_lines(lines, no, problem)
        no += len(lines)
    last = b"".join(rest)
    if last:
        yield from _parse_lines([last], no, problem)


def _parse_lines(
    lines: list[bytes], before: int, problem: Callable[[tuple[int, str]], None]
) -> Iterator[tuple[int, dict[str, Any]]]:
    numbered = [(before + k, raw) for k, raw in enumerate(lines, 1) if raw.strip()]
    fast = _parse_whole(numbered)
    if fast is not None:
        yield from fast
        return
    rows: list[tuple[int, dict[str, Any]]] = []
    for no, raw in numbered:
        try:
            obj = jsondoc.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):
            problem((no, NOT_JSON))
            continue
        if not isinstance(obj, dict):
            problem((no, NOT_OBJECT))
            continue
        rows.append((no, obj))
    yield from rows


def _parse_whole(numbered: list[tuple[int, bytes]]) -> list[tuple[int, dict[str, Any]]] | None:
    """Every line decoded in one call when they are all clean, else None."""
    try:
        objs = jsondoc.loads(b"[" + b",".join(raw for _no, raw in numbered) + b"]")
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if len(objs) != len(numbered) or not all(isinstance(o, dict) for o in objs):
        return None  # a line held two values, or a non-object: the slow path says which
    return [(no, obj) for (no, _raw), obj in zip(numbered, objs, strict=True)]


def problem_lines(bad: Problems) -> list[tuple[int | None, Message]]:
    """(line, message) warnings for the bad lines: the first few, then how many more."""
    out: list[tuple[int | None, Message]] = [
        (no, CUT if problem == CUT else Message(N_("{problem}; line skipped"), problem=problem))
        for no, problem in bad[:MAX_PROBLEMS_SHOWN]
    ]
    if len(bad) > MAX_PROBLEMS_SHOWN:
        out.append((None, more_bad_lines(len(bad) - MAX_PROBLEMS_SHOWN)))
    return out


def more_bad_lines(count: int) -> Message:
    """``N more bad lines not shown``, kept untranslated until shown."""
    text = Nn_("{count} more bad line not shown", "{count} more bad lines not shown")
    return Message(text, count=count)
