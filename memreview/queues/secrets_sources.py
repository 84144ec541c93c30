"""Where the secrets queue looks besides the memory files (docs/design.md §2, secrets): the daily
logs, ``DREAMS.md`` and the other root notes, the files dreaming runs leave, and the recall
store's snippets (OpenClaw's legacy ``short-term-recall.json`` and its state database).

Each source says whether memreview may write it: memory files and daily logs take a
redaction (the value alone is replaced); the rest is written by the pipelines and is only
reported.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from memreview.workspace import jsondoc
from memreview.workspace.model import DailyLog, Workspace
from memreview.workspace.openclaw import find_state_db
from memreview.workspace.openclaw_state import store_values
from memreview.workspace.paths import PathEscape, safe_read_bytes
from memreview.workspace.textfile import decode_whole, is_binary

# where a finding is, and whether redact may write there
MEMORY, LOG, NOTES, DREAMING, RECALL = "memory", "log", "notes", "dreaming", "recall"
WRITABLE = frozenset({MEMORY, LOG})
_DREAMING_CAP = 4 << 20  # bytes of one dreaming file read at most


def lines_of(text: str) -> list[str]:
    """A text's lines as a file's lines are read for writing (LF or CRLF ends a line)."""
    lines = text.split("\n")
    if lines and lines[-1] == "" and text:
        lines.pop()
    return [t[:-1] if t.endswith("\r") else t for t in lines]


def log_lines(log: DailyLog) -> list[str]:
    return lines_of(log.text)


def daily_log(ws: Workspace, rel: str) -> DailyLog | None:
    return next((d for d in ws.daily_logs if d.rel == rel), None)


def dreaming_files(ws: Workspace) -> Iterator[tuple[str, list[str]]]:
    """The files dreaming runs leave (``memory/dreaming/…``, ``dream-diary/…``)."""
    for _day, rel in sorted(set(ws.dreaming_runs), key=lambda r: r[1]):
        if not rel.endswith((".md", ".txt", ".json", ".jsonl")):
            continue
        try:
            data = safe_read_bytes(ws.root, rel)
        except (OSError, PathEscape):
            continue
        if len(data) > _DREAMING_CAP or is_binary(data):
            continue
        yield rel, lines_of(decode_whole(data))


def recall_snippets(ws: Workspace) -> Iterator[tuple[str, str, str]]:
    """(store, entry key, snippet) for every snippet of the recall store: the legacy file
    (its path in the workspace) and OpenClaw's state database (its path)."""
    rel = ws.config.short_term_recall
    try:
        doc = jsondoc.loads(safe_read_bytes(ws.root, rel))
    except (OSError, ValueError, PathEscape):
        doc = None
    entries = doc.get("entries") if isinstance(doc, dict) else None
    if isinstance(entries, dict):
        for key, e in entries.items():
            snippet = e.get("snippet") if isinstance(e, dict) else None
            if isinstance(snippet, str):
                yield rel, str(key), snippet
    db = find_state_db(ws.root, ws.config.openclaw_state_db, os.environ)
    if db is not None:
        for v in store_values(db, ws.root):
            snippet = v.get("snippet")
            if isinstance(snippet, str):
                yield str(db), str(v.get("key") or "?"), snippet
