"""Where an entry goes back in its file, and the archive without it: the text of the two
files a restore writes."""

from __future__ import annotations

import re

from memreview.decisions.restore.item import (
    MARKER_RE,
    TOMBSTONE_HEADING,
    Archived,
    find_run,
    section_heading,
)
from memreview.workspace.markdown import parse_memory_file
from memreview.workspace.textfile import Line, TextFile, decode_bytes


def _section_end(texts: list[str], heading: str | None) -> tuple[int, bool]:
    """Where the entry goes: after the last non-blank line of the heading's section (the
    file's end when there is no such heading); and whether the heading was found."""
    start, level = None, 0
    if heading is not None:
        for i, t in enumerate(texts):
            m = section_heading(t)
            if m and m.group(2) == heading:
                start, level = i, len(m.group(1))
                break
    if start is None:
        end = len(texts)
    else:  # anchors under the heading are part of its section
        end = start + 1
        while end < len(texts):
            m = section_heading(texts[end])
            if m and len(m.group(1)) <= level:
                break
            end += 1
    while end > 0 and not texts[end - 1].strip():
        end -= 1
    return end, start is not None


_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


def _list_item(text: str) -> bool:
    """Whether the line is an item of a Markdown list (``- …``, ``* …``, ``1. …``)."""
    return bool(_LIST_ITEM.match(text))


def _body(block: list[str]) -> str:
    """The first line of an entry that is not its promotion marker."""
    return next((t for t in block if not MARKER_RE.search(t)), "")


def with_lines(current: TextFile | None, rel: str, at: int, new: list[str]) -> bytes:
    """``current`` (an empty file when None) with the lines ``new`` inserted before line
    ``at`` (0-based), in the file's encoding and usual line ending."""
    base = current if current is not None else decode_bytes(rel, b"")
    lines = list(base.lines)
    if at >= len(lines) and lines and lines[-1].ending == "":
        last = lines[-1]  # the file ended without a newline: the old last line gets one
        end = base.default_ending
        lines[-1] = Line(last.text, end, last.raw + base.encode_text(end))
    lines[at:at] = [base.make_line(t) for t in new]
    return base.render(lines)


def _without_tombstone(item: Archived, rel: str, current: TextFile) -> TextFile:
    """``current`` without the promoted entry's marker in its ``Removed promotions``
    section (the marker goes back with its entry)."""
    texts = current.texts
    tomb = next((i for i, t in enumerate(texts) if t.strip() == TOMBSTONE_HEADING), None)
    if tomb is None or item.marker is None:
        return current
    marker = item.marker.strip()
    hit = next((i for i in range(tomb, len(texts)) if texts[i].strip() == marker), None)
    if hit is None:
        return current
    lines = list(current.lines)
    del lines[hit]
    return decode_bytes(rel, current.render(lines))


def insert_entry(item: Archived, rel: str, current: TextFile | None) -> bytes:
    """The origin file with the entry back: after the line that preceded it (a deleted
    entry), else at the end of its heading's section, else at the end of the file."""
    if current is not None:
        current = _without_tombstone(item, rel, current)
    texts = current.texts if current is not None else []
    block = item.restored_lines
    if item.after is not None and texts.count(item.after) == 1:
        at = texts.index(item.after) + 1
        lead = [""] if item.gap_above else []
        tail = [""] if item.gap_below and at < len(texts) and texts[at].strip() else []
        return with_lines(current, rel, at, [*lead, *block, *tail])
    if item.before is not None and texts.count(item.before) == 1:  # the line above was merged
        at = texts.index(item.before)
        lead = [""] if item.gap_above and at > 0 and texts[at - 1].strip() else []
        tail = [""] if item.gap_below else []
        return with_lines(current, rel, at, [*lead, *block, *tail])
    if current is not None and item.after_anchor:
        mf, _problems = parse_memory_file(current)
        prev = [a for a in mf.anchors if a.id == item.after_anchor]
        if len(prev) == 1:  # right after the anchor it followed, one blank line between
            at = prev[0].end_line
            tail = [""] if at < len(texts) and texts[at].strip() else []
            return with_lines(current, rel, at, ["", *block, *tail])
    if current is not None and item.before_anchor:
        mf, _problems = parse_memory_file(current)
        nxt = [a for a in mf.anchors if a.id == item.before_anchor]
        if len(nxt) == 1:  # right before the anchor it preceded, one blank line between
            return with_lines(current, rel, nxt[0].line - 1, [*block, ""])
    at, found = _section_end(texts, item.heading)
    if item.marker and item.heading and not found:
        # its promotion section is gone: it comes back, before "Removed promotions"
        tomb = next((i for i, t in enumerate(texts) if t.strip() == TOMBSTONE_HEADING), None)
        if tomb is not None:
            at = tomb
            while at > 0 and not texts[at - 1].strip():
                at -= 1
        block = [f"## {item.heading}", "", *block]
    if item.kind == "removed" and not block[0].startswith("#"):
        return with_lines(current, rel, at, block)  # a bullet or a row: no blank lines
    if at > 0 and _list_item(texts[at - 1]) and _list_item(_body(block)):
        return with_lines(current, rel, at, block)  # at the end of its list, not after it
    lead = [""] if at > 0 else []
    tail = [""] if at < len(texts) and texts[at].strip() else []
    return with_lines(current, rel, at, [*lead, *block, *tail])


def remove_block(item: Archived, rel: str, current: TextFile | None) -> bytes | None:
    """The archive file without the block (and one blank line that separated it)."""
    if current is None:
        return None
    texts = current.texts
    at = find_run(texts, item.lines)
    if at is None:
        return None
    end = at + len(item.lines)
    start = at
    if end < len(texts) and not texts[end].strip():
        end += 1
    elif start > 0 and not texts[start - 1].strip():
        start -= 1
    lines = list(current.lines)
    del lines[start:end]
    return current.render(lines)
