"""A line-based file (memory files, NOW.md, archives, verdicts.jsonl) being edited: the file
as it is now, the regions decisions claim in it, the lines they insert or append, and the
rendering of the new bytes, in which every line no decision touched keeps its exact bytes.
The operations that claim regions are in ``ops``, ``meta`` and ``notes`` (``_claim`` and
``_anchor``, which they share, are here); the tombstone section of removed promotion markers
is kept here, since rendering writes it (see the package docstring)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from memreview.decisions.plan import (
    Target,
    heading_spans,
    kind_group,
)
from memreview.decisions.rewrite.result import Conflict
from memreview.i18n import N_, _
from memreview.queues.common import short
from memreview.workspace.markdown import (
    parse_memory_file,
)
from memreview.workspace.model import MemoryFile
from memreview.workspace.textfile import Line, TextFile, decode_bytes

HEADING_LINE_RE = re.compile(r"^#{1,6}[ \t]")
TOMBSTONE_HEADING = "## Removed promotions"
TOMBSTONE_NOTE = (
    "<!-- memreview: markers of promoted entries removed in review. While a marker is in "
    "MEMORY.md, OpenClaw does not promote the same lines again. -->"
)


# what a region's fate says when another decision wants it too
ALREADY = {
    "delete": N_("already deleted by {decision}"),
    "replace": N_("already replaced by {decision}"),
    "move": N_("already moved by {decision}"),
}


def already(fate: str, decision: str) -> str:
    """``already deleted by c-…``: a region taken by another decision, in words."""
    text = ALREADY.get(fate) or N_("already changed by {decision}")
    return _(text).format(decision=decision)


@dataclass
class Region:
    """A located entry or anchor block (0-based, inclusive) and what becomes of it."""

    start: int
    end: int
    kind: str  # anchor | bullet | row | line
    block: list[Line]
    meta_last: int = 0  # index in block of the last metadata line (0: the header)
    fate: str = "keep"  # keep | delete | replace | move (ALREADY)
    by: str = ""  # the decision that set the fate
    replacement: list[Line] = field(default_factory=list)
    dest: str = ""
    moves: list[int] = field(default_factory=list)
    edited_by: set[str] = field(default_factory=set)
    lead: list[str] = field(default_factory=list)  # lines that go before a moved block


def matched(rx: re.Pattern[str], text: str) -> re.Match[str]:
    """``rx`` on a line that was found by it: a line that no longer matches is a conflict."""
    m = rx.match(text)
    if m is None:
        raise Conflict(_("a line changed while it was being edited"))
    return m


class Targeted(Protocol):
    """An operation on one entry or anchor of the file."""

    @property
    def key(self) -> str: ...

    @property
    def target(self) -> Target: ...


# the blocks other files' MoveBlock operations hand to a file, by operation number
Imports = dict[int, list[str] | None]


class LineFile:
    """The file being edited and what the decisions do to it (see ``ops.LineEdit``)."""

    def __init__(self, rel: str, current: TextFile | None, chronicle_words: Sequence[str]) -> None:
        self.rel = rel
        self.cur = current
        self.base = current if current is not None else decode_bytes(rel, b"")
        self.lines = list(self.base.lines)
        self.n = len(self.lines)
        self.chronicle_words = chronicle_words
        self._parsed: MemoryFile | None = None
        self._spans: dict[tuple[str, str], list[tuple[int, int, int]]] | None = None
        self.regions: dict[int, Region] = {}
        self.inserts: dict[int, list[Line]] = {}
        self.tail: list[tuple[bool, list[Line]]] = []  # (blank line before, lines) at the end
        self._rules_tail: list[Line] | None = None
        self._todo_tail: list[Line] | None = None
        self._titled = False
        self.tombstones: list[str] = []  # markers of removed promoted entries

    # -- helpers ---------------------------------------------------------------------------
    def line(self, text: str, ending: str | None = None) -> Line:
        """A new line in the file's encoding (``ending``: its usual line ending)."""
        return self.base.make_line(text, ending)

    def parsed(self) -> MemoryFile:
        """The current content parsed as a memory file (once)."""
        if self._parsed is None:
            assert self.cur is not None
            self._parsed, _ = parse_memory_file(self.cur, chronicle_words=self.chronicle_words)
        return self._parsed

    def spans(self) -> dict[tuple[str, str], list[tuple[int, int, int]]]:
        """(kind, text) → where such entries are now: (start, end, meta_last), in file order."""
        if self._spans is None:
            self.need_file()
            mf = self.parsed()
            self._spans = {}
            for a in mf.anchors:
                span = (a.line - 1, a.end_line - 1, a.meta_end - a.line)
                self._spans.setdefault(("anchor", a.text), []).append(span)
            for e in [*mf.entries, *mf.paragraphs]:
                if e.kind != "anchor":
                    span = (e.line - 1, e.end_line - 1, 0)
                    self._spans.setdefault((kind_group(e.kind), e.text), []).append(span)
            texts = [ln.text for ln in self.lines]
            for start, end in heading_spans(mf):
                text = "\n".join(texts[start : end + 1])
                self._spans.setdefault(("heading", text), []).append((start, end, 0))
        return self._spans

    def need_file(self) -> None:
        """Conflict when the file is gone."""
        if self.cur is None:
            raise Conflict(_("{file} no longer exists").format(file=self.rel))

    def locate(self, t: Target) -> tuple[int, int, int]:
        """(start, end, meta_last) of ``t`` in the current file, found by its content."""
        hits = self.spans().get((t.kind, t.text), [])
        if t.kind == "anchor":
            what = _("anchor {anchor}").format(anchor=t.anchor)
        elif t.kind == "heading":
            what = _("the heading {text!r}").format(text=short(t.text.strip(), 50))
        else:
            what = _("the entry {text!r}").format(text=short(t.first_line, 50))
        if not hits:
            raise Conflict(
                _("{what} is gone from {file} (changed or removed since the scan)").format(
                    what=what, file=self.rel
                )
            )
        if len(hits) != t.copies:
            raise Conflict(
                _(
                    "{what} is ambiguous in {file}: {count} identical copies now, {scanned} "
                    "when scanned"
                ).format(what=what, file=self.rel, count=len(hits), scanned=t.copies)
            )
        return hits[t.copy]

    def region(self, t: Target, kind: str | None = None) -> Region:
        """The region of the current file ``t`` is found in, claimed for a change (the same
        region when claimed again; Conflict when it overlaps another)."""
        start, end, meta_last = self.locate(t)
        return self._region(start, end, kind or t.kind, meta_last)

    def _region(self, start: int, end: int, kind: str, meta_last: int = 0) -> Region:
        r = self.regions.get(start)
        if r is not None and r.end == end:
            return r
        for other in self.regions.values():
            if other.start <= end and start <= other.end:
                if other.by:
                    text = _("{file}:{line}: overlaps a change by {decision}")
                else:
                    text = _("{file}:{line}: overlaps a change by another decision")
                raise Conflict(text.format(file=self.rel, line=start + 1, decision=other.by))
        for b in self.inserts:
            if start < b <= end:
                raise Conflict(
                    _("{file}:{line}: another decision inserts lines inside it").format(
                        file=self.rel, line=start + 1
                    )
                )
        r = Region(start, end, kind, self.lines[start : end + 1], meta_last)
        self.regions[start] = r
        return r

    def _claim(self, r: Region, key: str, fate: str) -> None:
        if r.fate != "keep":
            raise Conflict(
                _("{file}:{line}: {done}").format(
                    file=self.rel, line=r.start + 1, done=already(r.fate, r.by)
                )
            )
        others = r.edited_by - {key}
        if others:
            raise Conflict(
                _("{file}:{line}: also changed by {decision}").format(
                    file=self.rel, line=r.start + 1, decision=sorted(others)[0]
                )
            )
        r.fate, r.by = fate, key

    def _anchor(self, op: Targeted) -> Region:
        r = self.region(op.target, "anchor")
        if r.fate in ("delete", "replace"):
            raise Conflict(
                _("anchor {anchor}: {done}").format(
                    anchor=op.target.anchor, done=already(r.fate, r.by)
                )
            )
        r.edited_by.add(op.key)
        return r

    def insert(self, boundary: int, lines: list[Line]) -> None:
        """Insert ``lines`` before line index ``boundary`` (Conflict inside a region)."""
        for r in self.regions.values():
            if r.start < boundary <= r.end:
                raise Conflict(
                    _("{file}:{line}: the place to insert is being changed").format(
                        file=self.rel, line=boundary
                    )
                )
        self.inserts.setdefault(boundary, []).extend(lines)

    def _bury(self, out: list[Line]) -> None:
        """Put the released markers at the end of the tombstone section (made at the end of
        the file when missing), each once."""
        if not self.tombstones:
            return
        texts = [ln.text for ln in out]
        h = next((i for i, t in enumerate(texts) if t.strip() == TOMBSTONE_HEADING), None)
        if h is None:
            lines = [TOMBSTONE_HEADING, "", TOMBSTONE_NOTE, *self.tombstones]
            self.tail.append((True, [self.line(t) for t in lines]))
            return
        end = h + 1
        while end < len(out) and not HEADING_LINE_RE.match(texts[end]):
            end += 1
        while end > h + 1 and not texts[end - 1].strip():
            end -= 1
        have = {t.strip() for t in texts[h:end]}
        new = [self.line(t) for t in self.tombstones if t not in have]
        if end == len(out) and out and out[-1].ending == "" and new:
            last = out[-1]  # the section ended the file without a newline
            out[-1] = Line(
                last.text,
                self.base.default_ending,
                last.raw + self.base.encode_text(self.base.default_ending),
            )
            new[-1] = self.line(new[-1].text, "")
        out[end:end] = new

    # -- output ----------------------------------------------------------------------------
    def exports(self) -> dict[int, list[str] | None]:
        """The blocks this file gives away, by move number, for the files receiving them
        (None for a move whose block travels with another)."""
        out: dict[int, list[str] | None] = {}
        for r in self.regions.values():
            if r.fate == "move":
                out[r.moves[0]] = r.lead + [ln.text for ln in r.block]
                for extra in r.moves[1:]:
                    out[extra] = None
        return out

    def render(self) -> bytes | None:
        """The file's new bytes (regions, inserts, tombstones, the appended tail), or None
        when nothing changes (or a missing file stays empty)."""
        out: list[Line] = []
        i, n = 0, self.n
        while i < n:
            out.extend(self.inserts.get(i, ()))
            r = self.regions.get(i)
            if r is None:
                out.append(self.lines[i])
                i += 1
                continue
            if r.fate == "keep":
                out.extend(r.block)
            elif r.fate == "replace":
                out.extend(r.replacement)
            i = r.end + 1
            if r.fate == "move":
                # the blank lines right after a moved block leave with it
                while i < n and not self.lines[i].text.strip() and i not in self.regions:
                    out.extend(self.inserts.get(i, ()))
                    i += 1
        out.extend(self.inserts.get(n, ()))
        self._bury(out)
        for blank_before, chunk in self.tail:
            if blank_before and out and out[-1].text.strip():
                out.append(self.line(""))
            out.extend(chunk)
        ending = self.base.default_ending
        for k in range(len(out) - 1):
            ln = out[k]
            if ln.ending == "":  # it ended the file; now lines follow it
                out[k] = Line(ln.text, ending, ln.raw + self.base.encode_text(ending))
        if self.cur is None and not out:
            return None
        data = self.base.render(out)
        if self.cur is not None and data == self.cur.data:
            return None
        return data
