"""Secrets: lines of any file memreview reads that hold a credential (docs/design.md §2; the finding
rules are in ``memreview.secrets``, the places looked in are in ``secrets_sources``).

One item per line holding one or more credential values (a PEM block is one item spanning its
lines; a recall-store snippet is one item). An item's ``source`` says where it is and
``writable`` whether redact may write there: memory files and daily logs, never the recall
store, ``DREAMS.md`` or the dreaming files, whose items say why. Items carry only masked text: the value itself never enters an item, its
id, the JSON or the screen. The id is derived from the file and the *masked* line, so it stays
stable when lines move and says nothing about the secret.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from datetime import date

from memreview.i18n import N_, _
from memreview.queues.common import item_id, short
from memreview.queues.secrets_sources import (
    DREAMING,
    LOG,
    MEMORY,
    NOTES,
    RECALL,
    WRITABLE,
    dreaming_files,
    log_lines,
    recall_snippets,
)
from memreview.secrets import (
    Secret,
    candidate_lines,
    find_secrets,
    gate_hits,
    kinds_shown,
    mask_secrets,
)
from memreview.workspace.memo import per_file
from memreview.workspace.model import DailyLog, MemoryFile, Workspace
from memreview.workspace.textfile import TextFile

_PEM_BEGIN = "-----BEGIN"
_NEWLINE = re.compile("\n")


@per_file  # a rescan reuses it for the files a write left alone
def line_secrets(mf: MemoryFile) -> list[tuple[int, int, list[Secret], str]]:
    """(first line, last line, secrets, text) for every line or PEM block of a file holding
    credentials; ``text`` is the line (or the block's lines joined with ``\\n``) as written."""
    return texts_secrets(mf.source.texts)


@per_file
def log_secrets(log: DailyLog) -> list[tuple[int, int, list[Secret], str]]:
    """:func:`line_secrets` of a daily log (kept while the loaded log lives); the gates run
    over the log's text as loaded, and only a log they hit is split into lines."""
    hits = gate_hits(log.text, log.text_lower)
    if not hits:
        return []
    return texts_secrets(log_lines(log), hit_lines(log.text, hits))


def hit_lines(text: str, hits: set[int]) -> list[int]:
    """The 0-based lines of ``text`` holding the positions ``hits``, ascending: many hits by
    bisection among the line breaks, a few by counting the breaks between one and the next."""
    if len(hits) > 64:
        breaks = [m.start() for m in _NEWLINE.finditer(text)]
        return sorted({bisect_left(breaks, pos) for pos in hits})
    lines: list[int] = []
    line = prev = 0
    for pos in sorted(hits):
        line += text.count("\n", prev, pos)
        prev = pos
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


@per_file
def note_secrets(tf: TextFile) -> list[tuple[int, int, list[Secret], str]]:
    """:func:`line_secrets` of a root note such as ``DREAMS.md``."""
    return texts_secrets(tf.texts)


def texts_secrets(
    texts: list[str], lines: list[int] | None = None
) -> list[tuple[int, int, list[Secret], str]]:
    """:func:`line_secrets` over a file's lines (``lines``: the 0-based lines the gates hit,
    when known)."""
    out: list[tuple[int, int, list[Secret], str]] = []
    for i in candidate_lines(texts) if lines is None else lines:
        if i >= len(texts):
            continue
        text = texts[i]
        end = i
        if _PEM_BEGIN in text and "PRIVATE KEY" in text:
            # a key block runs to its END line (or 60 lines, whichever comes first)
            while end + 1 < len(texts) and end - i < 60 and "-----END" not in texts[end]:
                end += 1
            text = "\n".join(texts[i : end + 1])
        found = find_secrets(text)
        if found and not (out and out[-1][1] >= i + 1):
            out.append((i + 1, end + 1, found, text))
    return out


# why redact is not offered, by source
NOT_WRITTEN = {
    RECALL: N_(
        "the recall store is OpenClaw's: memreview reports it and never writes it; remove the "
        "value where the snippet came from, and OpenClaw's next recall replaces the snippet"
    ),
    NOTES: N_(
        "memreview does not write this file: remove the value by hand, or keep it to hide it"
    ),
    DREAMING: N_(
        "a dreaming run wrote this file and memreview does not write it: remove the value by "
        "hand, or keep it to hide it"
    ),
}


def _unless_clean(store, rel: str, find, obj) -> list[tuple[int, int, list[Secret], str]]:
    """``find(obj)``: the credentials of file ``rel``; none, without reading it, when the
    scan cache's per-file store (``store``) says it held none when it was as it is (only
    that is kept: never a credential)."""
    if store is not None and store.get("secrets", rel, "", lambda clean: clean is True):
        return []
    found = find(obj)
    if store is not None and not found:
        store.put("secrets", rel, "", True)
    return found


def secrets(ws: Workspace, today: date) -> list[dict]:
    """One item per line (or key block, or recall snippet) holding a credential, masked."""
    items: list[dict] = []
    seen: dict[str, int] = {}

    def add(source: str, rel: str, first: int | None, last: int | None, found, text: str):
        masked = mask_secrets(text)
        kinds = sorted({s.kind for s in found})
        first_line = masked.split("\n", 1)[0]
        # two lines with the same mask in one file: told apart by their order
        base = item_id("cr", rel, masked)  # "s" once (common.RENAMED_PREFIXES)
        n = seen[base] = seen.get(base, 0) + 1
        if first is None:
            title = _("{kinds} in the recall store ({file})").format(
                kinds=kinds_shown(kinds), file=rel
            )
        else:
            title = _("{kinds} in {file}:{line}").format(
                kinds=kinds_shown(kinds), file=rel, line=first
            )
        item = {
            "id": base if n == 1 else f"{base}-{n}",
            "title": short(title),
            "kinds": kinds,
            "source": source,
            "writable": source in WRITABLE,
            "ref": {
                "file": rel,
                "line": first,
                "end_line": last,
                "text": short(first_line, 300),
                "anchor": None,
            },
            "masked": [s.masked for s in found],
            "text": masked if first is not None else short(masked, 600),
        }
        if source not in WRITABLE:
            item["not_written"] = NOT_WRITTEN[source]
        items.append(item)

    store = ws.per_file
    for files in (ws.files, ws.archive_files):
        for rel, mf in files.items():
            for first, last, found, text in _unless_clean(store, rel, line_secrets, mf):
                add(MEMORY, rel, first, last, found, text)
    for log in sorted(ws.daily_logs, key=lambda d: d.rel):
        for first, last, found, text in _unless_clean(store, log.rel, log_secrets, log):
            add(LOG, log.rel, first, last, found, text)
    for rel, tf in sorted(ws.other_files.items()):
        for first, last, found, text in note_secrets(tf):
            add(NOTES, rel, first, last, found, text)
    for rel, texts in dreaming_files(ws):
        for first, last, found, text in texts_secrets(texts):
            add(DREAMING, rel, first, last, found, text)
    for where, key, snippet in recall_snippets(ws):
        found = find_secrets(snippet)
        if found:
            add(RECALL, where, None, None, found, f"{key}: {snippet}")
    return items
