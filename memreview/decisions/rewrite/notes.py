"""The edits of a rewrite that add to a file rather than change an entry: a rule under its
heading (``InsertRule``), a todo in NOW.md (``AddTodo``), a project's status line
(``SetStatus``), each in the file's own language. ``NoteEdit`` is one of the bases of
``ops.LineEdit``."""

from __future__ import annotations

import re

from memreview.decisions.plan import AddTodo, InsertRule, SetStatus
from memreview.decisions.rewrite.lines import Imports, LineFile, matched
from memreview.decisions.rewrite.listed import listed_status
from memreview.decisions.rewrite.result import Conflict
from memreview.i18n import _
from memreview.workspace.language import mostly_cjk
from memreview.workspace.markdown import STATUS_LINE_RE, find_status_line

TODO_HEADING_RE = re.compile(r"^#{1,6}[ \t]+(todo|待办)[ \t]*[:：]?[ \t]*$", re.I)
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


class NoteEdit(LineFile):
    """A ``LineFile`` that adds rules and todos and sets status lines."""

    def _InsertRule(self, op: InsertRule, _imports: Imports) -> None:
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

    def _AddTodo(self, op: AddTodo, _imports: Imports) -> None:
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

    def _SetStatus(self, op: SetStatus, _imports: Imports) -> None:
        """The status line is rewritten in place, in the form the owner wrote it
        (``**Status:** x``, ``状态：x``, front matter ``status: x``…); a file without one gets
        ``Status: …`` after its title. A project kept in a list has its own lines set."""
        self.need_file()
        if op.old:
            self._set_listed_status(op)
            return
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
        m = matched(STATUS_LINE_RE, ln.text)
        value = status_value(op.status, op.day, m.group("label") == "状态")
        text = m.group("head") + value + m.group("tail")
        r = self._region(i, i, "line")
        if r.fate == "replace" and r.replacement[0].text == text:
            return
        self._claim(r, op.key, "replace")
        r.replacement = [self.line(text, ln.ending)]

    def _set_listed_status(self, op: SetStatus) -> None:
        n = len(op.old)
        texts = [ln.text for ln in self.lines]
        hits = [i for i in range(len(texts) - n + 1) if tuple(texts[i : i + n]) == op.old]
        if not hits:
            raise Conflict(
                _("{file}:{line}: the project's lines changed or are gone since the scan").format(
                    file=self.rel, line=op.line
                )
            )
        start = min(hits, key=lambda i: abs(i + 1 - op.line))
        chinese = mostly_cjk(list(op.old))
        value = status_value(op.status, op.day, chinese)
        new = listed_status(list(op.old), op.kind, op.cell, value, chinese)
        r = self._region(start, start + n - 1, "line")
        if r.fate == "replace" and [ln.text for ln in r.replacement] == new:
            return
        self._claim(r, op.key, "replace")
        endings = [ln.ending or self.base.default_ending for ln in r.block]
        if len(new) > n:  # a heading's new status line, right under it
            endings.insert(1, endings[0])
        endings[-1] = r.block[-1].ending
        r.replacement = [self.line(t, endings[k]) for k, t in enumerate(new)]
