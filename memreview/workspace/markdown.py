"""Memory files → entries, anchors and the chronicle (docs/design.md §1.1, §1.2)."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from memreview.i18n import N_, Message
from memreview.workspace.cells import width
from memreview.workspace.model import REF_RE as REF_RE  # re-exported for the loader
from memreview.workspace.model import Anchor, ChronicleRow, Entry, MemoryFile
from memreview.workspace.normalize import normalize
from memreview.workspace.textfile import TextFile

HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
ANCHOR_RE = re.compile(r"^(#{2,3})[ \t]+\[([A-Z][A-Z0-9_-]*):([^\]\s]+)\]")
META_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)[ \t]*:[ \t]*(.*)$")
PROJECT_MARK_RE = re.compile(r"<!--\s*project:\s*([^\s>]+)\s*-->")
PROMOTION_RE = re.compile(r"^<!--\s*openclaw-memory-promotion:")
# the marker's key, read back as OpenClaw does
MARKER_KEY_RE = re.compile(r"<!--\s*openclaw-memory-promotion:([^\n]*?)\s*-->")
# the heading OpenClaw puts over the entries it promotes, with the promotion's date
PROMOTED_HEADING = r"promoted from short-term memory\s*\((\d{4}-\d{2}-\d{2})\)"
PROMOTED_HEADING_RE = re.compile(PROMOTED_HEADING, re.I)
# Lingxi's stamp on an entry it settled into MEMORY.md: ``（2026-11-20 自动沉淀）``
SETTLED_STAMP_RE = re.compile(r"[（(]\s*(\d{4}-\d{2}-\d{2})\s*自动沉淀\s*[）)]")
PARAGRAPH_WIDTH = 20  # a prose line this wide (a CJK character counts two) is a paragraph entry
SEPARATOR_RE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
FENCE_RE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
CHRONICLE_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# a metadata value longer than this is kept as its place in the block's text, not a copy
LONG_META = 200
# a numbered list item: ``1. text`` or ``1) text`` (CommonMark allows up to nine digits)
NUMBERED_RE = re.compile(r"^\d{1,9}[.)](?:[ \t]|$)")

# A status line in its common forms: ``Status: x``, ``**Status:** x``, ``**Status**: x``,
# ``状态：x``, ``- **状态**：x``, front matter ``status: x``. ``head`` is everything before the
# value and ``tail`` a closing ``**`` after it, so that a rewrite keeps the owner's form.
STATUS_LINE_RE = re.compile(
    r"^(?P<head>[ \t]*(?:[-*+>][ \t]+)?(?:\*\*|__)?(?P<label>status|状态)(?:\*\*|__)?[ \t]*[:：]"
    r"[ \t]*(?:\*\*|__)?[ \t]*)(?P<value>.*?)(?P<tail>[ \t]*(?:\*\*|__)?[ \t]*)$",
    re.I,
)


CHRONICLE = ("编年史", "chronicle")  # the heading words of a chronicle table


def status_value(text: str) -> str | None:
    """The value of a ``Status:`` line, else None."""
    m = STATUS_LINE_RE.match(text)
    return m.group("value") if m else None


def find_status_line(texts: list[str]) -> int | None:
    """The index of a project file's status line (the first, outside code fences), or None."""
    in_fence = ""
    for i, text in enumerate(texts):
        m = FENCE_RE.match(text)
        if in_fence:
            if m and m.group(1)[0] == in_fence[0] and len(m.group(1)) >= len(in_fence):
                in_fence = ""
            continue
        if m:
            in_fence = m.group(1)
            continue
        status = STATUS_LINE_RE.match(text)
        if status and status.group("value"):
            return i
    return None


@dataclass
class _Block:
    """An anchor block being read."""

    anchor_type: str
    anchor_id: str
    line: int
    level: int


def split_cells(row: str) -> list[str]:
    s = row.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [c.strip() for c in s.split("|")]


def parse_memory_file(  # noqa: C901, PLR0915
    source: TextFile, *, archived: bool = False, chronicle_words: Sequence[str] = CHRONICLE
) -> tuple[MemoryFile, list[tuple[int, Message]]]:
    """Parse one memory file. Returns the file and its problems as (line, message)."""
    rel = source.rel
    lines = source.texts
    n = len(lines)
    problems: list[tuple[int, Message]] = []
    entries: list[Entry] = []
    paragraphs: list[Entry] = []
    anchors: list[Anchor] = []
    chronicle: list[ChronicleRow] = []
    headings: list[tuple[int, int, str]] = []

    # First pass: headings outside code fences, and which lines are fenced (a file with no
    # fence marker anywhere, the usual case, has no fenced line to look for).
    fenced = [False] * n
    whole = "\n".join(lines)
    if "```" in whole or "~~~" in whole:
        in_fence = ""
        fence_line = 0
        for i, text in enumerate(lines):
            m = FENCE_RE.match(text)
            if in_fence:
                fenced[i] = True
                if m and m.group(1)[0] == in_fence[0] and len(m.group(1)) >= len(in_fence):
                    in_fence = ""
                continue
            if m:
                in_fence = m.group(1)
                fence_line = i + 1
                fenced[i] = True
                continue
            if text.startswith("#"):
                hm = HEADING_RE.match(text)
                if hm:
                    headings.append((i, len(hm.group(1)), hm.group(2)))
        if in_fence:
            # named where it opens: everything after it is read as code, not as entries
            problems.append((fence_line, Message(N_("code fence opened here is never closed"))))
    else:
        match = HEADING_RE.match
        for i in [i for i, text in enumerate(lines) if text.startswith("#")]:
            hm = match(lines[i])
            if hm:
                headings.append((i, len(hm.group(1)), hm.group(2)))

    heading_at = {i: (lvl, txt) for i, lvl, txt in headings}
    chronicle_heading: int | None = None
    low_words = [w.lower() for w in chronicle_words]
    for i, _lvl, txt in headings:
        low = txt.lower()
        if any(w in low for w in low_words):
            chronicle_heading = i
            break

    path: list[tuple[int, str]] = []  # (level, text)
    path_t: tuple[str, ...] = ()  # its texts, one tuple shared by the entries under it
    section, section_line = "", 0
    in_chronicle = False
    chronicle_level = 0
    block: _Block | None = None
    block_meta: dict[str, str | tuple[int, int, int]] = {}  # a long value: (line, start, end)
    block_meta_end = 0
    block_meta_open = False
    promotion_pending = False
    marker: str | None = None
    seen_ids: dict[str, int] = {}

    def close_block(end: int) -> None:
        """Close the anchor block at 0-based line ``end`` (inclusive)."""
        nonlocal block
        assert block is not None
        text = "\n".join(lines[block.line : end + 1])
        a = Anchor(
            type=block.anchor_type,
            id=block.anchor_id,
            file=rel,
            line=block.line + 1,
            end_line=end + 1,
            level=block.level,
            meta=_meta_in(block_meta, lines, block.line),
            meta_end=block_meta_end + 1,
            text=text,
            refs=tuple(map(sys.intern, REF_RE.findall(text))),  # ids repeat: one copy each
            archived=archived,
        )
        anchors.append(a)
        marks = tuple(PROJECT_MARK_RE.findall(text))
        entries.append(
            Entry(
                file=rel,
                line=a.line,
                end_line=a.end_line,
                kind="anchor",
                text=text,
                heading_path=path_t,
                section=section,
                section_line=section_line,
                anchor=a.id,
                projects=marks,
            )
        )
        if a.id in seen_ids:
            problems.append(
                (
                    a.line,
                    Message(
                        N_("anchor id {anchor!r} also defined at line {line}; first one used"),
                        anchor=a.id,
                        line=seen_ids[a.id],
                    ),
                )
            )
        else:
            seen_ids[a.id] = a.line
        block = None

    i = 0
    while i < n:
        text = lines[i]
        if fenced[i]:
            i += 1
            continue
        h = heading_at.get(i)
        if h is not None:
            level, htxt = h
            if block is not None and level <= block.level:
                close_block(_trim_back(lines, i - 1, block.line))
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, htxt))
            path_t = tuple(t for _, t in path)
            if level <= 3:
                section, section_line = htxt, i + 1
            # The chronicle heading may be of any level; its table ends at a heading of the
            # same or a higher level.
            if chronicle_heading == i:
                in_chronicle, chronicle_level = True, level
            elif level <= chronicle_level:
                in_chronicle = False
            promotion_pending = False
            am = ANCHOR_RE.match(text)
            if am:
                if block is not None:  # a nested, deeper anchor header ends the outer block
                    close_block(_trim_back(lines, i - 1, block.line))
                block = _Block(am.group(2), am.group(3), i, len(am.group(1)))
                block_meta = {}
                block_meta_end = i
                block_meta_open = True
            i += 1
            continue
        if block is not None:
            stripped = text.strip()
            if stripped == "---":
                close_block(i)
                i += 1
                continue
            if block_meta_open:
                mm = META_RE.match(text)
                if mm and not text.startswith(("- ", "* ")):
                    if mm.group(1) not in block_meta:
                        block_meta[mm.group(1)] = _meta_value(mm, i)
                    block_meta_end = i
                elif stripped == "" and block_meta_end == block.line:
                    pass  # blank lines before the first metadata line
                else:
                    block_meta_open = False
            i += 1
            continue
        if text.startswith("<!--") and PROMOTION_RE.match(text):
            promotion_pending = True
            km = MARKER_KEY_RE.match(text)
            marker = km.group(1) if km else None
            i += 1
            continue
        numbered = text[:1].isdigit() and NUMBERED_RE.match(text) is not None
        if text.startswith(("- ", "* ")) or text in ("-", "*") or numbered:
            end = i
            j = i + 1
            while j < n and not fenced[j] and lines[j][:1] in (" ", "\t") and lines[j].strip():
                end = j
                j += 1
            raw = "\n".join(lines[i : end + 1])
            kind = "numbered" if numbered else "promoted" if promotion_pending else "bullet"
            promoted_by = marker if kind == "promoted" else None
            promotion_pending = False
            entries.append(
                Entry(
                    file=rel,
                    line=i + 1,
                    end_line=end + 1,
                    kind=kind,
                    text=raw,
                    heading_path=path_t,
                    section=section,
                    section_line=section_line,
                    known_norm=normalize(raw, "numbered" if numbered else "bullet"),
                    in_chronicle=in_chronicle,
                    projects=tuple(PROJECT_MARK_RE.findall(raw)),
                    marker=promoted_by,
                )
            )
            i = end + 1
            continue
        if text.lstrip().startswith("|"):
            nxt = lines[i + 1] if i + 1 < n else ""
            if SEPARATOR_RE.match(text) or (SEPARATOR_RE.match(nxt) and "|" in nxt):
                i += 1
                continue
            if not text.rstrip().endswith("|"):
                problems.append((i + 1, Message(N_("table row has no closing '|'; read as a row"))))
            entry = Entry(
                file=rel,
                line=i + 1,
                end_line=i + 1,
                kind="row",
                text=text,
                heading_path=path_t,
                section=section,
                section_line=section_line,
                known_norm=normalize(text, "row"),
                in_chronicle=in_chronicle,
                projects=tuple(PROJECT_MARK_RE.findall(text)),
            )
            entries.append(entry)
            if in_chronicle:
                cells = split_cells(text)
                if cells and CHRONICLE_DATE_RE.match(cells[0]):
                    chronicle.append(ChronicleRow(rel, i + 1, cells[0], tuple(cells), text, entry))
            i += 1
            continue
        if text.strip():
            promotion_pending = promotion_pending and text.lstrip().startswith("<!--")
            if text[:1] not in (" ", "\t", "<", ">") and width(text.strip()) >= PARAGRAPH_WIDTH:
                paragraphs.append(
                    Entry(
                        file=rel,
                        line=i + 1,
                        end_line=i + 1,
                        kind="paragraph",
                        text=text,
                        heading_path=path_t,
                        section=section,
                        section_line=section_line,
                        known_norm=normalize(text, "paragraph"),
                        in_chronicle=in_chronicle,
                    )
                )
        i += 1
    if block is not None:
        close_block(_trim_back(lines, n - 1, block.line))
    mf = MemoryFile(
        rel,
        source,
        entries,
        anchors,
        chronicle,
        archived,
        [(i + 1, lvl, txt) for i, lvl, txt in headings],
        paragraphs,
    )
    return mf, problems


def _meta_value(mm: re.Match[str], i: int) -> str | tuple[int, int, int]:
    """A metadata line's value, stripped; a long one as (line, start, end) in line ``i``."""
    value = mm.group(2)
    stripped = value.strip()
    if len(stripped) <= LONG_META:
        return stripped
    start = mm.start(2) + len(value) - len(value.lstrip())
    return (i, start, start + len(stripped))


def _meta_in(
    meta: dict[str, str | tuple[int, int, int]], lines: list[str], first: int
) -> dict[str, str | tuple[int, int]]:
    """The block's metadata, a long value as its (start, end) in the text of the block that
    begins at line ``first`` (its lines joined with newlines)."""
    out: dict[str, str | tuple[int, int]] = {}
    for key, value in meta.items():
        if isinstance(value, str):
            out[key] = value
        else:
            i, start, end = value
            at = sum(len(lines[j]) + 1 for j in range(first, i))
            out[key] = (at + start, at + end)
    return out


def _trim_back(lines: list[str], end: int, start: int) -> int:
    """A block that runs into the next heading ends at its last non-blank line."""
    while end > start and not lines[end].strip():
        end -= 1
    return end
