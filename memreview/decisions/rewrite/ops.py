"""The line operations of a rewrite: ``LineEdit`` is a ``LineFile`` with one handler per kind of
``Op`` (listed in ``_HANDLERS``), each finding its target again by content and claiming the
region it changes; a target that is gone, ambiguous or claimed by another decision raises
``Conflict``. Here: the entries (delete, replace, redact), the moves and the appended lines;
the anchors' metadata and references are edited in ``meta`` (``MetaEdit``), rules, todos and
status lines in ``notes`` (``NoteEdit``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from memreview.decisions.plan import (
    AddRef,
    AddTodo,
    AppendBlock,
    AppendLine,
    AppendSection,
    DeleteEntry,
    InsertRule,
    MoveBlock,
    MoveRefs,
    Op,
    RedactLines,
    RemoveRef,
    ReplaceEntry,
    SetMeta,
    SetStatus,
)
from memreview.decisions.rewrite.lines import HEADING_LINE_RE, Imports, Region
from memreview.decisions.rewrite.meta import MetaEdit
from memreview.decisions.rewrite.notes import NoteEdit
from memreview.decisions.rewrite.result import Conflict
from memreview.i18n import _
from memreview.workspace import jsondoc
from memreview.workspace.markdown import PROMOTION_RE


class LineEdit(MetaEdit, NoteEdit):
    """A ``LineFile`` that carries out line operations."""

    # -- operations ------------------------------------------------------------------------
    def apply(self, op: Op, imports: Imports) -> None:
        """Carry out ``op`` (its handler is listed in ``_HANDLERS``)."""
        _HANDLERS[type(op)](self, op, imports)

    def _DeleteEntry(self, op: DeleteEntry, _imports: Imports) -> None:
        r = self.region(op.target)
        if r.fate == "delete":
            return
        self._claim(r, op.key, "delete")
        self._release_marker(r, op.key)

    def _marker_above(self, start: int) -> int | None:
        """The promotion marker line of the entry starting at ``start`` (only comment lines
        between them), or None."""
        k = start - 1
        while k >= 0:
            t = self.lines[k].text.strip()
            if PROMOTION_RE.match(t):
                return k
            if not (t.startswith("<!--") and t.endswith("-->")):
                return None
            k -= 1
        return None

    def _release_marker(self, r: Region, key: str) -> str | None:
        """Take a removed promoted entry's marker out of its section into the tombstone
        section (see the module docstring); returns the marker line."""
        k = self._marker_above(r.start)
        if k is None:
            return None
        m = self._region(k, k, "line")
        if m.fate == "delete" and m.by == key:
            return m.block[0].text
        self._claim(m, key, "delete")
        # OpenClaw separates marker+bullet pairs by a blank line: one of the two goes too
        after = r.end + 1
        if (
            k > 0
            and not self.lines[k - 1].text.strip()
            and after < self.n
            and not self.lines[after].text.strip()
            and after not in self.regions
            and after not in self.inserts
        ):
            self._claim(self._region(after, after, "line"), key, "delete")
        text = m.block[0].text.strip()
        if text not in self.tombstones:
            self.tombstones.append(text)
        return text

    def _ReplaceEntry(self, op: ReplaceEntry, _imports: Imports) -> None:
        r = self.region(op.target)
        if r.fate == "replace" and [ln.text for ln in r.replacement] == list(op.lines):
            return
        ending = r.block[0].ending or self.base.default_ending
        last_ending = r.block[-1].ending
        new = [self.line(text, ending) for text in op.lines]
        if new and last_ending == "":  # the entry ended the file without a newline
            new[-1] = self.line(op.lines[-1], "")
        self._claim(r, op.key, "replace")
        r.replacement = new

    def _RedactLines(self, op: RedactLines, _imports: Imports) -> None:
        self.need_file()
        n = len(op.old)
        texts = [ln.text for ln in self.lines]
        hits = [i for i in range(len(texts) - n + 1) if tuple(texts[i : i + n]) == op.old]
        if not hits:
            raise Conflict(
                _(
                    "{file}:{line}: the line holding the secret changed or is gone since the scan"
                ).format(file=self.rel, line=op.line)
            )
        start = min(hits, key=lambda i: abs(i + 1 - op.line))
        r = self._region(start, start + n - 1, "line")
        if r.fate == "replace" and [ln.text for ln in r.replacement] == list(op.new):
            return
        new = [self.line(text, r.block[k].ending) for k, text in enumerate(op.new)]
        self._claim(r, op.key, "replace")
        r.replacement = new

    def _MoveBlock(self, op: MoveBlock, _imports: Imports) -> None:
        if op.target.kind != "anchor":  # a promoted entry: it leaves with its marker
            r = self.region(op.target)
            if r.fate == "move":
                r.moves.append(op.move)
                return
            self._claim(r, op.key, "move")
            marker = self._release_marker(r, op.key)
            r.dest, r.moves = op.dest, [op.move]
            r.lead = [t for t in (op.note, marker) if t]
            return
        r = self._anchor(op)
        if r.fate == "move":
            if r.dest != op.dest:
                raise Conflict(
                    _("anchor {anchor}: already moved to {file} by {decision}").format(
                        anchor=op.target.anchor, file=r.dest, decision=r.by
                    )
                )
            r.moves.append(op.move)
            return
        r.fate, r.by, r.dest, r.moves = "move", op.key, op.dest, [op.move]

    def _AppendBlock(self, op: AppendBlock, imports: Imports) -> None:
        if op.move not in imports:
            raise Conflict(_("the block to move from {file} was not found").format(file=op.source))
        block = imports[op.move]
        if block is None:  # the same block, already carried by another decision's move
            return
        if self._archived_already(block):  # a move cut short after its archive was written
            return
        if not self._titled and not any(ln.text.strip() for ln in self.lines):
            self.tail.append((False, [self.line(op.title)]))
        self._titled = True
        self.tail.append((True, [self.line(text) for text in block]))

    def _archived_already(self, block: list[str]) -> bool:
        """Does this file already hold ``block`` (as a re-applied move would append it)?

        Compared without the metadata a move adds (``Superseded-By``, ``Demoted``), whose
        date is the review date, so a move finished on another day is recognised too."""
        if self.cur is None or not block:
            return False
        want = _moved_body(block)
        texts = [ln.text for ln in self.lines]
        if not HEADING_LINE_RE.match(block[0]):  # a promoted entry: its marker and bullet
            body = [t for t in block if not t.startswith("Demoted:")]
            return any(texts[k : k + len(body)] == body for k in range(len(texts)))
        for a in self.parsed().anchors:
            if texts[a.line - 1] == block[0]:
                if _moved_body(texts[a.line - 1 : a.end_line]) == want:
                    return True
        return False

    def _AppendSection(self, op: AppendSection, _imports: Imports) -> None:
        self.need_file()
        if any(op.marker in ln.text for ln in self.lines):
            return  # written once already (docs/design.md §4: a decision applies once)
        self.tail.append((True, [self.line(text) for text in op.lines]))

    def _AppendLine(self, op: AppendLine, _imports: Imports) -> None:
        if _verdict_given(op.line, [ln.text for ln in self.lines]):
            return  # applied once already (docs/design.md §4: a decision applies once)
        self.tail.append((False, [self.line(op.line)]))


def _verdict_key(text: str) -> tuple[Any, ...] | None:
    try:
        obj = jsondoc.loads(text)
    except ValueError:
        return None
    if not isinstance(obj, dict) or "proposal" not in obj:
        return None
    return tuple(json.dumps(obj.get(k), sort_keys=True) for k in ("proposal", "verdict", "kept"))


def _verdict_given(line: str, texts: list[str]) -> bool:
    """Is verdict ``line`` (time stamp aside) in ``texts`` and not undone after it?"""
    want = _verdict_key(line)
    if want is None:
        return False
    given = False
    for text in texts:
        if '"proposal"' not in text:
            continue
        key = _verdict_key(text)
        if key == want:
            given = True
        elif key is not None and key[0] == want[0] and key[1] == '"undone"':
            given = False
    return given


_MOVE_META = re.compile(r"^(superseded-by|demoted|from)\s*:", re.I)


def _moved_body(lines: list[str]) -> list[str]:
    """An anchor block's lines without the metadata a move adds and without trailing blanks."""
    out = [t for t in lines if not _MOVE_META.match(t)]
    while out and not out[-1].strip():
        out.pop()
    return out


# The method that carries out each kind of line operation (CreateFile and RemoveCandidate
# change a whole file: see whole.create_file and whole.remove_candidates).
_HANDLERS: dict[type, Callable[[LineEdit, Any, Imports], None]] = {
    DeleteEntry: LineEdit._DeleteEntry,
    ReplaceEntry: LineEdit._ReplaceEntry,
    RedactLines: LineEdit._RedactLines,
    SetMeta: LineEdit._SetMeta,
    AddRef: LineEdit._AddRef,
    RemoveRef: LineEdit._RemoveRef,
    MoveRefs: LineEdit._MoveRefs,
    MoveBlock: LineEdit._MoveBlock,
    AppendBlock: LineEdit._AppendBlock,
    AppendLine: LineEdit._AppendLine,
    AppendSection: LineEdit._AppendSection,
    InsertRule: LineEdit._InsertRule,
    AddTodo: LineEdit._AddTodo,
    SetStatus: LineEdit._SetStatus,
}
