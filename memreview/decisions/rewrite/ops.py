"""The line operations of a rewrite: ``LineEdit`` is a ``LineFile`` with one handler per kind of
``Op`` (listed in ``_HANDLERS``), each finding its target again by content and claiming the
region it changes; a target that is gone, ambiguous or claimed by another decision raises
``Conflict``."""

from __future__ import annotations

import json
import re

from memreview.decisions.plan import (
    AddRef,
    AddTodo,
    AppendBlock,
    AppendLine,
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
from memreview.decisions.rewrite.lines import HEADING_LINE_RE, LineFile, Region
from memreview.decisions.rewrite.result import Conflict
from memreview.workspace.language import mostly_cjk
from memreview.workspace.markdown import (
    META_RE,
    PROMOTION_RE,
    REF_RE,
    STATUS_LINE_RE,
    find_status_line,
)

TODO_HEADING_RE = re.compile(r"^#{1,6}[ \t]+(todo|待办)[ \t]*[:：]?[ \t]*$", re.I)
_SEP_AFTER = re.compile(r"[ \t]*[,，、;；][ \t]*")
_SEP_BEFORE = re.compile(r"[ \t]*[,，、;；][ \t]*$")
CHINESE_STATUS = {"done": "已完成", "archived": "归档"}  # a ``状态：`` line gets its own words


def todo_line(title: str, day: str, chinese: bool) -> str:
    """The todo a revive writes: ``- [ ] Revisit <title> (day)``, in a Chinese file
    ``- [ ] 回顾 <title>（day）``."""
    return f"- [ ] 回顾 {title}（{day}）" if chinese else f"- [ ] Revisit {title} ({day})"


def status_value(status: str, day: str, chinese: bool) -> str:
    """A status as a rewrite writes it: ``done (day)``, in Chinese ``已完成（day）``."""
    if chinese:
        return f"{CHINESE_STATUS.get(status, status)}（{day}）"
    return f"{status} ({day})"


class LineEdit(LineFile):
    """A ``LineFile`` that carries out line operations."""

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
            raise Conflict(
                f"{self.rel}:{op.line}: the line holding the secret changed or is gone since the scan"
            )
        start = min(hits, key=lambda i: abs(i + 1 - op.line))
        r = self._region(start, start + n - 1, "line")
        if r.fate == "replace" and [ln.text for ln in r.replacement] == list(op.new):
            return
        new = [self.line(text, r.block[k].ending) for k, text in enumerate(op.new)]
        self._claim(r, op.key, "replace")
        r.replacement = new

    def _claim(self, r: Region, key: str, fate: str) -> None:
        if r.fate != "keep":
            raise Conflict(f"{self.rel}:{r.start + 1}: already {r.fate}d by {r.by}")
        others = r.edited_by - {key}
        if others:
            raise Conflict(f"{self.rel}:{r.start + 1}: also changed by {sorted(others)[0]}")
        r.fate, r.by = fate, key

    def _anchor(self, op) -> Region:
        r = self.region(op.target, "anchor")
        if r.fate in ("delete", "replace"):
            raise Conflict(f"anchor {op.target.anchor}: already {r.fate}d by {r.by}")
        r.edited_by.add(op.key)
        return r

    def _meta_lines(self, r: Region, name: str) -> list[int]:
        low = name.lower()
        out = []
        for i in range(1, r.meta_last + 1):
            m = META_RE.match(r.block[i].text)
            if m and m.group(1).lower() == low:
                out.append(i)
        return out

    def _add_meta(self, r: Region, text: str) -> None:
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

    def _MoveRefs(self, op: MoveRefs, _imports) -> None:
        r = self._anchor(op)
        for i in reversed(self._meta_lines(r, op.source)):
            old = r.block[i]
            text = _drop_refs(old.text, op.refs)
            if text == old.text:
                continue
            if REF_RE.search(text.split(":", 1)[1] if ":" in text else ""):
                r.block[i] = self.line(text, old.ending)
            else:
                del r.block[i]
                r.meta_last -= 1
        found = self._meta_lines(r, op.dest)
        have = set(REF_RE.findall(" ".join(r.block[i].text for i in found)))
        tokens = ", ".join(f"[[{ref}]]" for ref in sorted(op.refs | op.extra) if ref not in have)
        if not tokens:
            return
        if not found:
            self._add_meta(r, f"{op.dest}: {tokens}")
            return
        old = r.block[found[0]]
        value = META_RE.match(old.text).group(2).strip()
        text = old.text.rstrip() + (f", {tokens}" if value else f" {tokens}")
        r.block[found[0]] = self.line(text, old.ending)

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
                raise Conflict(f"anchor {op.target.anchor}: already moved to {r.dest} by {r.by}")
            r.moves.append(op.move)
            return
        r.fate, r.by, r.dest, r.moves = "move", op.key, op.dest, [op.move]

    def _AppendBlock(self, op: AppendBlock, imports) -> None:
        if op.move not in imports:
            raise Conflict(f"the block to move from {op.source} was not found")
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
        # an open todo for it is there already, in either language and of any date
        heads = (f"- [ ] Revisit {op.title} (", f"- [ ] 回顾 {op.title}（")
        if any(ln.text.strip().startswith(heads) for ln in self.lines):
            return
        new = self.line(todo_line(op.title, op.day, mostly_cjk(self.base.texts)))
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
            if mostly_cjk(self.base.texts):
                text = f"状态：{status_value(op.status, op.day, True)}"
            else:
                text = f"Status: {status_value(op.status, op.day, False)}"
            self.insert(title, [self.line(text)])
            return
        ln = self.lines[i]
        m = STATUS_LINE_RE.match(ln.text)
        value = status_value(op.status, op.day, m.group("label") == "状态")
        text = m.group("head") + value + m.group("tail")
        r = self._region(i, i, "line")
        if r.fate == "replace" and r.replacement[0].text == text:
            return
        self._claim(r, op.key, "replace")
        r.replacement = [self.line(text, ln.ending)]


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


_MOVE_META = re.compile(r"^(superseded-by|demoted|from)\s*:", re.I)


def _moved_body(lines: list[str]) -> list[str]:
    """An anchor block's lines without the metadata a move adds and without trailing blanks."""
    out = [t for t in lines if not _MOVE_META.match(t)]
    while out and not out[-1].strip():
        out.pop()
    return out


# The method that carries out each kind of line operation (CreateFile and RemoveCandidate
# change a whole file: see whole.create_file and whole.remove_candidates).
_HANDLERS = {
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
    InsertRule: LineEdit._InsertRule,
    AddTodo: LineEdit._AddTodo,
    SetStatus: LineEdit._SetStatus,
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


def _drop_refs(text: str, refs: frozenset[str]) -> str:
    """``text`` (a ``Key: [[a]], [[b]]`` line) without the references in ``refs``, each with
    the separator after it (the one before it when it ends the list), in one pass however
    many there are."""
    colon = text.find(":")
    parts = re.split(r"(\[\[[^\[\]\s]+\]\])", text[colon + 1 :])  # text, ref, text, …
    kept: list[str] = [parts[0]]
    for k in range(1, len(parts), 2):
        token, after = parts[k], parts[k + 1]
        if token[2:-2] not in refs:
            kept += [token, after]
            continue
        sep = _SEP_AFTER.match(after)
        if sep:
            kept.append(after[sep.end() :])
        else:
            kept[-1] = _SEP_BEFORE.sub("", kept[-1])
            kept.append(after)
    value = "".join(kept)
    if not REF_RE.search(value):
        value = value.rstrip(" \t")
    return text[: colon + 1] + value
