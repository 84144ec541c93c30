"""Carry out one file's operations on its *current* content (DESIGN §3, §4 steps 1–2).

Pure: bytes in, bytes out. Targets are found again by content in the file as it is now (an
agent may have written it since the scan); a target that is gone or ambiguous makes its
decision a conflict, and the file is recomputed without that decision, so one decision never
lands half-done. Only the lines the decisions touch change: every other line keeps its exact
bytes, and new lines get the file's encoding and its usual line ending.

A removed promoted entry leaves its marker behind, but not in its section. When a decision
deletes or moves an OpenClaw promoted bullet (duplicates ``keep``, archived ``remove``,
demotion ``approve``), its ``<!-- openclaw-memory-promotion:… -->`` line moves to a
``## Removed promotions`` section at the end of the same file. Why both halves:
- the marker must stay in MEMORY.md: OpenClaw skips ("reconciles") a candidate whose marker
  key is already there, even with no bullet under it, while the store's ``promotedAt`` that
  also stops it is lost when the row is evicted, reset or repaired. Without the marker the
  same snippet comes back in a new dated section some night later;
- it must leave the promotion section: budget compaction only recognises a section in which
  every entry is a marker line followed by a ``- `` line, so a stranded marker makes the
  whole section non-compactable and MEMORY.md grows past its budget.
The tombstone section holds markers only (no bullets), so it is never taken for a promotion
section, and it costs a line per removed entry.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from memreview.decisions.plan import (
    AddRef,
    AddTodo,
    AppendBlock,
    AppendLine,
    CreateFile,
    DeleteEntry,
    InsertRule,
    MoveBlock,
    Op,
    RedactLines,
    RemoveCandidate,
    RemoveRef,
    ReplaceEntry,
    SetMeta,
    SetStatus,
    Target,
    kind_group,
)
from memreview.queues.common import short
from memreview.workspace.markdown import (
    META_RE,
    PROMOTION_RE,
    REF_RE,
    STATUS_LINE_RE,
    find_status_line,
    parse_memory_file,
)
from memreview.workspace.model import MemoryFile
from memreview.workspace.textfile import EncodeError, Line, TextFile, decode_bytes

TODO_HEADING_RE = re.compile(r"^#{1,6}[ \t]+(todo|待办)[ \t]*[:：]?[ \t]*$", re.I)
_SEP_AFTER = re.compile(r"[ \t]*[,，、;；][ \t]*")
_SEP_BEFORE = re.compile(r"[ \t]*[,，、;；][ \t]*$")
CHINESE_STATUS = {"done": "已完成", "archived": "归档"}  # a ``状态：`` line gets its own words
HEADING_LINE_RE = re.compile(r"^#{1,6}[ \t]")
TOMBSTONE_HEADING = "## Removed promotions"
TOMBSTONE_NOTE = (
    "<!-- memreview: markers of promoted entries removed in review. While a marker is in "
    "MEMORY.md, OpenClaw does not promote the same lines again. -->"
)


@dataclass(frozen=True)
class Problem:
    """Why a decision can't be written: a ``conflict`` (its target is gone or ambiguous, or
    another decision changed it) or a ``failure`` (e.g. a character the encoding can't hold)."""

    kind: str
    file: str
    reason: str


@dataclass
class FileRewrite:
    rel: str
    new_bytes: bytes | None  # None: the file stays as it is
    applied: list[str] = field(default_factory=list)
    problems: dict[str, Problem] = field(default_factory=dict)
    exports: dict[int, list[str] | None] = field(default_factory=dict)  # moved blocks


class _Conflict(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def rewrite(
    rel: str,
    current: TextFile | None,
    ops: list[Op],
    *,
    blocked: set[str] | frozenset[str] = frozenset(),
    imports: dict[int, list[str] | None] | None = None,
    chronicle_words: tuple[str, ...] = ("编年史", "chronicle"),
) -> FileRewrite:
    """The new bytes of ``rel`` after ``ops`` (those of decisions not ``blocked``).

    ``imports`` holds the blocks other files' MoveBlock operations hand to this one.
    """
    blocked = set(blocked)
    problems: dict[str, Problem] = {}
    while True:
        live = [op for op in ops if op.key not in blocked]
        result = _attempt(rel, current, live, imports or {}, chronicle_words)
        fresh = {k: p for k, p in result.problems.items() if k not in problems}
        if not fresh:
            break
        # Recompute without the decisions that can't be written, so none lands half-done.
        problems.update(fresh)
        blocked.update(fresh)
    result.problems = problems
    return result


def _attempt(rel, current, ops, imports, chronicle_words) -> FileRewrite:
    if current is not None and current.encoding == "binary":
        reason = f"{rel} is not valid text in its encoding; memreview only reads it"
        return FileRewrite(rel, None, [], {op.key: Problem("failure", rel, reason) for op in ops})
    kinds = {type(op) for op in ops}
    if CreateFile in kinds:
        return _create(rel, current, ops)
    if RemoveCandidate in kinds:
        return _candidates(rel, current, ops)
    edit = _LineEdit(rel, current, chronicle_words)
    problems: dict[str, Problem] = {}
    for op in ops:
        if op.key in problems:
            continue
        try:
            edit.apply(op, imports)
        except _Conflict as exc:
            problems[op.key] = Problem("conflict", rel, exc.reason)
        except EncodeError as exc:
            problems[op.key] = Problem("failure", rel, f"{rel}: {exc}")
    try:
        new = edit.render()
    except EncodeError as exc:  # an ending the encoding can't hold: blame every decision
        return FileRewrite(rel, None, [], {op.key: Problem("failure", rel, str(exc)) for op in ops})
    applied = list(dict.fromkeys(op.key for op in ops if op.key not in problems))
    return FileRewrite(rel, new, applied, problems, edit.exports())


# -- line-based files (memory files, NOW.md, archives, verdicts.jsonl) --------------------------


@dataclass
class _Region:
    """A located entry or anchor block (0-based, inclusive) and what becomes of it."""

    start: int
    end: int
    kind: str  # anchor | bullet | row | line
    block: list[Line]
    meta_last: int = 0  # index in block of the last metadata line (0: the header)
    fate: str = "keep"  # keep | delete | replace | move
    by: str = ""  # the decision that set the fate
    replacement: list[Line] = field(default_factory=list)
    dest: str = ""
    moves: list[int] = field(default_factory=list)
    edited_by: set[str] = field(default_factory=set)
    lead: list[str] = field(default_factory=list)  # lines that go before a moved block


class _LineEdit:
    def __init__(self, rel: str, current: TextFile | None, chronicle_words) -> None:
        self.rel = rel
        self.cur = current
        self.base = current if current is not None else decode_bytes(rel, b"")
        self.lines = list(self.base.lines)
        self.n = len(self.lines)
        self.chronicle_words = chronicle_words
        self._parsed: MemoryFile | None = None
        self._spans: dict[tuple[str, str], list[tuple[int, int, int]]] | None = None
        self.regions: dict[int, _Region] = {}
        self.inserts: dict[int, list[Line]] = {}
        self.tail: list[tuple[bool, list[Line]]] = []  # (blank line before, lines) at the end
        self._rules_tail: list[Line] | None = None
        self._todo_tail: list[Line] | None = None
        self._titled = False
        self.tombstones: list[str] = []  # markers of removed promoted entries

    # -- helpers ---------------------------------------------------------------------------
    def line(self, text: str, ending: str | None = None) -> Line:
        return self.base.make_line(text, ending)

    def parsed(self) -> MemoryFile:
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
            for e in mf.entries:
                if e.kind != "anchor":
                    span = (e.line - 1, e.end_line - 1, 0)
                    self._spans.setdefault((kind_group(e.kind), e.text), []).append(span)
        return self._spans

    def need_file(self) -> None:
        if self.cur is None:
            raise _Conflict(f"{self.rel} no longer exists")

    def locate(self, t: Target) -> tuple[int, int, int]:
        """(start, end, meta_last) of ``t`` in the current file, found by its content."""
        hits = self.spans().get((t.kind, t.text), [])
        what = (
            f"anchor {t.anchor}" if t.kind == "anchor" else f"the entry {short(t.first_line, 50)!r}"
        )
        if not hits:
            raise _Conflict(f"{what} is gone from {self.rel} (changed or removed since the scan)")
        if len(hits) != t.copies:
            raise _Conflict(
                f"{what} is ambiguous in {self.rel}: {len(hits)} identical copies now, "
                f"{t.copies} when scanned"
            )
        return hits[t.copy]

    def region(self, t: Target, kind: str | None = None) -> _Region:
        start, end, meta_last = self.locate(t)
        return self._region(start, end, kind or t.kind, meta_last)

    def _region(self, start: int, end: int, kind: str, meta_last: int = 0) -> _Region:
        r = self.regions.get(start)
        if r is not None and r.end == end:
            return r
        for other in self.regions.values():
            if other.start <= end and start <= other.end:
                raise _Conflict(
                    f"{self.rel}:{start + 1}: overlaps a change by {other.by or 'another decision'}"
                )
        for b in self.inserts:
            if start < b <= end:
                raise _Conflict(f"{self.rel}:{start + 1}: another decision inserts lines inside it")
        r = _Region(start, end, kind, self.lines[start : end + 1], meta_last)
        self.regions[start] = r
        return r

    def insert(self, boundary: int, lines: list[Line]) -> None:
        for r in self.regions.values():
            if r.start < boundary <= r.end:
                raise _Conflict(f"{self.rel}:{boundary}: the place to insert is being changed")
        self.inserts.setdefault(boundary, []).extend(lines)

    # -- operations ------------------------------------------------------------------------
    def apply(self, op: Op, imports: dict[int, list[str] | None]) -> None:
        """Carry out ``op`` (its handler is listed in ``_HANDLERS``)."""
        _HANDLERS[type(op)](self, op, imports)

    def _DeleteEntry(self, op: DeleteEntry, _imports) -> None:
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

    def _release_marker(self, r: _Region, key: str) -> str | None:
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

    def _ReplaceEntry(self, op: ReplaceEntry, _imports) -> None:
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

    def _RedactLines(self, op: RedactLines, _imports) -> None:
        self.need_file()
        n = len(op.old)
        texts = [ln.text for ln in self.lines]
        hits = [i for i in range(len(texts) - n + 1) if tuple(texts[i : i + n]) == op.old]
        if not hits:
            raise _Conflict(
                f"{self.rel}:{op.line}: the line holding the secret changed or is gone since the scan"
            )
        start = min(hits, key=lambda i: abs(i + 1 - op.line))
        r = self._region(start, start + n - 1, "line")
        if r.fate == "replace" and [ln.text for ln in r.replacement] == list(op.new):
            return
        new = [self.line(text, r.block[k].ending) for k, text in enumerate(op.new)]
        self._claim(r, op.key, "replace")
        r.replacement = new

    def _claim(self, r: _Region, key: str, fate: str) -> None:
        if r.fate != "keep":
            raise _Conflict(f"{self.rel}:{r.start + 1}: already {r.fate}d by {r.by}")
        others = r.edited_by - {key}
        if others:
            raise _Conflict(f"{self.rel}:{r.start + 1}: also changed by {sorted(others)[0]}")
        r.fate, r.by = fate, key

    def _anchor(self, op) -> _Region:
        r = self.region(op.target, "anchor")
        if r.fate in ("delete", "replace"):
            raise _Conflict(f"anchor {op.target.anchor}: already {r.fate}d by {r.by}")
        r.edited_by.add(op.key)
        return r

    def _meta_lines(self, r: _Region, name: str) -> list[int]:
        low = name.lower()
        out = []
        for i in range(1, r.meta_last + 1):
            m = META_RE.match(r.block[i].text)
            if m and m.group(1).lower() == low:
                out.append(i)
        return out

    def _add_meta(self, r: _Region, text: str) -> None:
        r.block.insert(r.meta_last + 1, self.line(text))
        r.meta_last += 1

    def _SetMeta(self, op: SetMeta, _imports) -> None:
        r = self._anchor(op)
        found = self._meta_lines(r, op.name)
        if not found:
            self._add_meta(r, f"{op.name}: {op.value}")
            return
        i = found[0]
        old = r.block[i]
        written = META_RE.match(old.text).group(1)
        text = f"{written}: {op.value}"
        if text != old.text:
            r.block[i] = self.line(text, old.ending)

    def _AddRef(self, op: AddRef, _imports) -> None:
        r = self._anchor(op)
        token = f"[[{op.ref}]]"
        found = self._meta_lines(r, op.name)
        if any(token in r.block[i].text for i in found):
            return
        if not found:
            self._add_meta(r, f"{op.name}: {token}")
            return
        i = found[0]
        old = r.block[i]
        value = META_RE.match(old.text).group(2).strip()
        text = old.text.rstrip() + (f", {token}" if value else f" {token}")
        r.block[i] = self.line(text, old.ending)

    def _RemoveRef(self, op: RemoveRef, _imports) -> None:
        r = self._anchor(op)
        token = f"[[{op.ref}]]"
        for i in reversed(self._meta_lines(r, op.name)):
            old = r.block[i]
            if token not in old.text:
                continue
            text = _drop_ref(old.text, token)
            value = text.split(":", 1)[1] if ":" in text else ""
            if REF_RE.search(value):
                r.block[i] = self.line(text, old.ending)
            else:
                del r.block[i]
                r.meta_last -= 1

    def _MoveBlock(self, op: MoveBlock, _imports) -> None:
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
                raise _Conflict(f"anchor {op.target.anchor}: already moved to {r.dest} by {r.by}")
            r.moves.append(op.move)
            return
        r.fate, r.by, r.dest, r.moves = "move", op.key, op.dest, [op.move]

    def _AppendBlock(self, op: AppendBlock, imports) -> None:
        if op.move not in imports:
            raise _Conflict(f"the block to move from {op.source} was not found")
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

    def _AppendLine(self, op: AppendLine, _imports) -> None:
        if _verdict_given(op.line, [ln.text for ln in self.lines]):
            return  # applied once already (DESIGN §4: a decision applies once)
        self.tail.append((False, [self.line(op.line)]))

    def _InsertRule(self, op: InsertRule, _imports) -> None:
        self.need_file()
        if any(ln.text == op.line for ln in self.lines):
            return  # the rule is there already
        mf = self.parsed()
        new = self.line(op.line)
        heading = next(((ln, lvl) for ln, lvl, txt in mf.headings if txt in op.headings), None)
        if heading is None:
            if self._rules_tail is None:
                self._rules_tail = [self.line("## Rules"), new]
                self.tail.append((True, self._rules_tail))
            else:
                self._rules_tail.append(new)
            return
        h_line, h_level = heading
        stop = next(
            (ln for ln, lvl, _t in mf.headings if ln > h_line and lvl <= max(h_level, 3)),
            self.n + 1,
        )
        ends = [e.end_line for e in mf.entries if h_line < e.line < stop and e.kind != "anchor"]
        self.insert(max(ends) if ends else h_line, [new])

    def _AddTodo(self, op: AddTodo, _imports) -> None:
        head = op.line.rsplit(" (", 1)[0] + " ("  # "- [ ] Revisit <title> (", any date
        if any(ln.text.strip().startswith(head) for ln in self.lines):
            return  # an open todo for it is there already
        new = self.line(op.line)
        if self._todo_tail is not None:
            self._todo_tail.append(new)
            return
        texts = [ln.text for ln in self.lines]
        mark = next(
            (i for i, t in enumerate(texts) if "**待办**" in t or TODO_HEADING_RE.match(t)), None
        )
        if mark is None:
            self._todo_tail = [self.line("**待办**:"), new]
            if self.cur is None:
                self.tail.append((False, [self.line("# NOW"), self.line("")]))
            self.tail.append((True, self._todo_tail))
            return
        k = mark + 1
        while k < self.n and not texts[k].strip():
            k += 1
        last = None
        while k < self.n:
            t = texts[k]
            if t.startswith(("- ", "* ")) or t in ("-", "*"):
                last = k
            elif last is not None and t[:1] in (" ", "\t") and t.strip():
                last = k
            else:
                break
            k += 1
        self.insert(mark + 1 if last is None else last + 1, [new])

    def _SetStatus(self, op: SetStatus, _imports) -> None:
        """The status line is rewritten in place, in the form the owner wrote it
        (``**Status:** x``, ``状态：x``, front matter ``status: x``…); a file without one gets
        ``Status: …`` after its title."""
        self.need_file()
        i = find_status_line([ln.text for ln in self.lines])
        if i is None:
            title = next((ln for ln, lvl, _t in self.parsed().headings if lvl == 1), 0)
            self.insert(title, [self.line(f"Status: {op.value}")])
            return
        ln = self.lines[i]
        m = STATUS_LINE_RE.match(ln.text)
        value = op.value
        if m.group("label") == "状态":
            word, _, rest = value.partition(" ")
            value = " ".join(filter(None, (CHINESE_STATUS.get(word, word), rest)))
        text = m.group("head") + value + m.group("tail")
        r = self._region(i, i, "line")
        if r.fate == "replace" and r.replacement[0].text == text:
            return
        self._claim(r, op.key, "replace")
        r.replacement = [self.line(text, ln.ending)]

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
        out: dict[int, list[str] | None] = {}
        for r in self.regions.values():
            if r.fate == "move":
                out[r.moves[0]] = r.lead + [ln.text for ln in r.block]
                for extra in r.moves[1:]:
                    out[extra] = None
        return out

    def render(self) -> bytes | None:
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


def _verdict_key(text: str) -> tuple | None:
    try:
        obj = json.loads(text)
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


_MOVE_META = re.compile(r"^(superseded-by|demoted)\s*:", re.I)


def _moved_body(lines: list[str]) -> list[str]:
    """An anchor block's lines without the metadata a move adds and without trailing blanks."""
    out = [t for t in lines if not _MOVE_META.match(t)]
    while out and not out[-1].strip():
        out.pop()
    return out


# The method that carries out each kind of line operation (CreateFile and RemoveCandidate
# change a whole file: see _create and _candidates).
_HANDLERS = {
    DeleteEntry: _LineEdit._DeleteEntry,
    ReplaceEntry: _LineEdit._ReplaceEntry,
    RedactLines: _LineEdit._RedactLines,
    SetMeta: _LineEdit._SetMeta,
    AddRef: _LineEdit._AddRef,
    RemoveRef: _LineEdit._RemoveRef,
    MoveBlock: _LineEdit._MoveBlock,
    AppendBlock: _LineEdit._AppendBlock,
    AppendLine: _LineEdit._AppendLine,
    InsertRule: _LineEdit._InsertRule,
    AddTodo: _LineEdit._AddTodo,
    SetStatus: _LineEdit._SetStatus,
}


def _drop_ref(text: str, token: str) -> str:
    """``text`` without ``token`` and one separator next to it."""
    colon = text.find(":")
    i = text.find(token, colon + 1)
    j = i + len(token)
    after = _SEP_AFTER.match(text, j)
    if after:
        return text[:i] + text[after.end() :]
    before = _SEP_BEFORE.search(text[:i])
    if before:
        return text[: before.start()] + text[j:]
    spaces = re.match(r"[ \t]+", text[j:])
    if spaces and REF_RE.search(text, j):  # references separated by spaces only
        return text[:i] + text[j + spaces.end() :]
    if not text[j:].strip():
        return text[:i].rstrip(" \t") + text[j:]
    return text[:i] + text[j:]


# -- whole-text files --------------------------------------------------------------------------


def _create(rel: str, current: TextFile | None, ops: list[Op]) -> FileRewrite:
    problems: dict[str, Problem] = {}
    chosen: CreateFile | None = None
    for op in ops:
        if not isinstance(op, CreateFile):
            problems[op.key] = Problem(
                "conflict", rel, f"{rel} is being created by another decision"
            )
        elif current is not None and chosen is None and current.data == _utf8(op.content):
            return FileRewrite(rel, None, [op.key], problems)  # created by this decision before
        elif current is not None:
            problems[op.key] = Problem(
                "conflict", rel, f"{rel} already exists; memreview does not overwrite it"
            )
        elif chosen is not None:
            problems[op.key] = Problem(
                "conflict", rel, f"{rel} is already created by {chosen.key} in this batch"
            )
        else:
            chosen = op
    if chosen is None:
        return FileRewrite(rel, None, [], problems)
    try:
        data = chosen.content.encode("utf-8")
    except UnicodeEncodeError:
        problems[chosen.key] = Problem("failure", rel, f"{rel}: the skill's text is not valid text")
        return FileRewrite(rel, None, [], problems)
    return FileRewrite(rel, data, [chosen.key], problems)


def _utf8(text: str) -> bytes | None:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return None


def _candidates(rel: str, current: TextFile | None, ops: list[Op]) -> FileRewrite:
    """Remove candidates from skill_candidates.json, the rest of its text unchanged."""
    problems: dict[str, Problem] = {}

    def fail_all(reason: str) -> FileRewrite:
        return FileRewrite(rel, None, [], {op.key: Problem("conflict", rel, reason) for op in ops})

    if current is None:
        return fail_all(f"{rel} no longer exists")
    text = "".join(ln.text + ln.ending for ln in current.lines)
    try:
        doc = json.loads(text)
    except ValueError:
        return fail_all(f"{rel} is not valid JSON now")
    cands = doc.get("candidates") if isinstance(doc, dict) else None
    if not isinstance(cands, list):
        return fail_all(f'{rel} has no "candidates" list now')
    chosen: dict[int, str] = {}
    for op in ops:
        if not isinstance(op, RemoveCandidate):
            problems[op.key] = Problem("conflict", rel, f"{rel}: unexpected change")
            continue
        hits = [
            k
            for k, c in enumerate(cands)
            if isinstance(c, dict)
            and c.get("theme") == op.theme
            and (c.get("content") if isinstance(c.get("content"), str) else "") == op.content
        ]
        what = f"skill candidate {short(op.theme, 40)!r}"
        if not hits:
            problems[op.key] = Problem("conflict", rel, f"{what} is gone from {rel}")
        elif len(hits) != op.copies:
            problems[op.key] = Problem("conflict", rel, f"{what} is ambiguous in {rel}")
        elif hits[op.copy] in chosen:
            problems[op.key] = Problem("conflict", rel, f"{what} is removed by another decision")
        else:
            chosen[hits[op.copy]] = op.key
    if not chosen:
        return FileRewrite(rel, None, [], problems)
    expected = dict(doc)
    expected["candidates"] = [c for k, c in enumerate(cands) if k not in chosen]
    new_text = _remove_elements(text, sorted(chosen, reverse=True), expected)
    if new_text is None:  # the text could not be cut cleanly: write it again, same style
        new_text = _dump_like(text, expected, current.default_ending)
    try:
        data = current.bom + current.encode_text(new_text)
    except EncodeError as exc:
        for key in chosen.values():
            problems[key] = Problem("failure", rel, f"{rel}: {exc}")
        return FileRewrite(rel, None, [], problems)
    return FileRewrite(rel, data, list(chosen.values()), problems)


def _remove_elements(text: str, indexes: list[int], expected: dict) -> str | None:
    """``text`` with those elements of its top-level "candidates" array cut out (each with
    one adjacent comma and the spacing before it); None when that doesn't give ``expected``."""
    try:
        for k in indexes:
            found = _candidate_spans(text)
            if found is None:
                return None
            open_, close, elems = found
            if len(elems) == 1:
                text = text[: open_ + 1] + text[close:]
            elif k > 0:
                text = text[: elems[k - 1][1]] + text[elems[k][1] :]
            else:
                text = text[: elems[0][0]] + text[elems[1][0] :]
        return text if json.loads(text) == expected else None
    except (ValueError, IndexError):
        return None


def _skip_ws(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t\r\n":
        i += 1
    return i


def _string_end(s: str, i: int) -> int:
    j = i + 1
    while True:
        ch = s[j]
        if ch == "\\":
            j += 2
        elif ch == '"':
            return j + 1
        else:
            j += 1


def _value_end(s: str, i: int) -> int:
    ch = s[i]
    if ch == '"':
        return _string_end(s, i)
    if ch in "[{":
        depth, j = 0, i
        while j < len(s):
            c = s[j]
            if c == '"':
                j = _string_end(s, j)
                continue
            if c in "[{":
                depth += 1
            elif c in "]}":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        raise ValueError("unclosed")
    m = re.compile(r"[^,\]\}\s]+").match(s, i)
    if not m:
        raise ValueError("no value")
    return m.end()


def _candidate_spans(s: str) -> tuple[int, int, list[tuple[int, int]]] | None:
    """(index of '[', index of ']', element spans) of the top-level "candidates" array."""
    i = _skip_ws(s, 0)
    if s[i] != "{":
        return None
    i += 1
    while True:
        i = _skip_ws(s, i)
        if s[i] == "}":
            return None
        key_end = _string_end(s, i)
        key = json.loads(s[i:key_end])
        i = _skip_ws(s, key_end)
        if s[i] != ":":
            return None
        i = _skip_ws(s, i + 1)
        if key == "candidates" and s[i] == "[":
            elems: list[tuple[int, int]] = []
            j = _skip_ws(s, i + 1)
            if s[j] == "]":
                return i, j, elems
            while True:
                e = _value_end(s, j)
                elems.append((j, e))
                j = _skip_ws(s, e)
                if s[j] == ",":
                    j = _skip_ws(s, j + 1)
                elif s[j] == "]":
                    return i, j, elems
                else:
                    return None
        i = _skip_ws(s, _value_end(s, i))
        if s[i] == ",":
            i += 1
        elif s[i] != "}":
            return None


def _dump_like(original: str, doc: dict, ending: str) -> str:
    """``doc`` as JSON in the original's indentation, non-ASCII kept as is."""
    indent: int | str | None = None
    for line in original.split("\n")[1:]:
        stripped = line.lstrip(" \t")
        if stripped and stripped != line:
            lead = line[: len(line) - len(stripped)]
            indent = "\t" if lead.startswith("\t") else len(lead)
            break
    text = json.dumps(doc, ensure_ascii=False, indent=indent)
    if original.endswith("\n"):
        text += "\n"
    return text.replace("\n", ending) if ending != "\n" else text
