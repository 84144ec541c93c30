"""The same fact in other dress: the same value under two labels (``value``), a table row
and a bullet with the same values (``row-bullet``), the same dated row in two tables
(``dated-row``)."""

from __future__ import annotations

import re
from collections import defaultdict

from memreview.queues.duplicates.scope import MAX_SAME, Scope, comparable
from memreview.queues.sameness import comparison_form
from memreview.workspace.fields import label_of, width
from memreview.workspace.model import Entry

_DATE_CELL = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_PARTS = re.compile(r"\s*[:：|]\s*")
_SUBJECT_VALUE = re.compile(r"[^\W\d_]")  # a value with a letter or a CJK character
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_WHEN = re.compile(r"[\d\s:/.,%+~-]*(?:[年月日号点时分秒周]|am|pm)?[\d\s:/.,%+~-]*", re.I)
_LIST_SEP = re.compile(r"[，,;；、]+")
_EMPTY_CELLS = ("", "-", "—", "–", "/")


def value_pairs(ws, fields, units_ok, scope: Scope, cfg) -> list[list[Entry]]:
    """The same value under two different labels in two places (shape: ``Config file:`` and
    ``配置:``), or under a label in one place and bare in a bullet in another. A value held by more than two label lines is a shared attribute of different
    records (one e-mail for four accounts), not a duplicate; nor is an e-mail address or a
    date and time alone, which different things share."""
    by_value: dict[str, list[tuple[Entry, str | None]]] = defaultdict(list)
    heading_of = {}
    for rel, ff in fields.items():
        mf = ws.files[rel]
        for e in [*mf.entries, *mf.paragraphs]:
            lv = ff.labels.get(id(e)) if e.kind != "paragraph" else label_of(e)
            if lv is None:
                # a bullet without a label holds its value bare: ``- $300K OTE`` is the
                # fact ``- Compensation: $300K OTE`` states (the label weighs little)
                if e.kind not in ("bullet", "numbered") or not comparable(e):
                    continue
                lv = (None, e.norm)
            value = comparison_form(lv[1].lower())
            if width(value) < cfg.duplicates_value_min_width or not _SUBJECT_VALUE.search(value):
                continue
            if _EMAIL.fullmatch(value) or _WHEN.fullmatch(value):
                continue  # an address or a date is shared by different things
            by_value[value].append((e, lv[0]))
            heading_of[id(e)] = (rel, e.heading_path[-1:] if e.heading_path else ())
    out = []
    for held in by_value.values():
        if len(held) != 2:
            continue
        (a, la), (b, lb) = held
        if la == lb or heading_of[id(a)] == heading_of[id(b)]:
            continue
        if not (units_ok(a) and units_ok(b)) or not scope.allows(a.file, b.file):
            continue
        out.append([a, b])
    return out


def _cells(e: Entry) -> tuple[str, ...]:
    s = e.first_line.strip().strip("|")
    cells = [_squash(c) for c in s.split("|")]
    return tuple(c for c in cells if c not in _EMPTY_CELLS)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", comparison_form(text.strip().lower()))


def row_bullet_pairs(units: list[Entry], canon, scope: Scope, cfg) -> list[list[Entry]]:
    """A table row and a bullet with the same values: ``| 止损 | 回撤 8% |``, ``- 止损：回撤8%``."""
    rows: dict[tuple, list[Entry]] = defaultdict(list)
    for e in units:
        if e.kind == "row":
            cells = _cells(e)
            if len(cells) >= 2:
                rows[cells].append(e)
    out = []
    if not rows:
        return out
    for e in units:
        if e.kind == "row":
            continue
        parts = tuple(p for p in (_squash(x) for x in _PARTS.split(canon[id(e)])) if p)
        if len(parts) < 2 or width("".join(parts)) < cfg.duplicates_min_width // 2:
            continue
        for r in rows.get(parts, ()):
            if scope.allows(r.file, e.file) and (r.file, r.section_line) != (
                e.file,
                e.section_line,
            ):
                out.append([r, e])
                break
    return out + _contained_rows(units, canon, scope, {id(e) for p in out for e in p})


_WORD = re.compile(r"[^\s|`，。,;；:：()（）\[\]\"“”'’]+")
_KEY = re.compile(r"[/\\.]\S|\d")  # a path, a file name or a number: rare substance
EXTRA_WORDS = 2  # words a bullet may add to a row's cells (``belongs under``)


def _words(text: str) -> set[str]:
    return {w.strip(".-*_").lower() for w in _WORD.findall(text)} - {""}


def _contained_rows(units: list[Entry], canon, scope: Scope, taken: set[int]):
    """A table row whose every word is in a bullet that adds at most ``EXTRA_WORDS`` words
    (none a path or number) and shares a path, file name or number with it: ``| Project
    context | `memory/projects/` |`` and ``- Project context belongs under `memory/projects/```.
    Each side is paired once; a path listed by more than ``MAX_SAME`` rows is a template."""
    by_key: dict[str, list[tuple[Entry, set[str]]]] = defaultdict(list)
    for e in units:
        if e.kind != "row" or id(e) in taken:
            continue
        cells = _cells(e)
        if len(cells) < 2:
            continue
        ws_ = _words(comparison_form(e.norm.replace("|", " ")))
        for w in ws_:
            if _KEY.search(w):
                by_key[w].append((e, ws_))
    out = []
    used = set(taken)
    for e in units:
        if e.kind == "row" or id(e) in used:
            continue
        bw = _words(canon[id(e)])
        for w in sorted(bw):
            rows = by_key.get(w, ())
            if not _KEY.search(w) or len(rows) > MAX_SAME:
                continue
            hit = None
            for r, rw in rows:
                extra = bw - rw
                if id(r) in used or not rw <= bw or len(extra) > EXTRA_WORDS:
                    continue
                if any(_KEY.search(x) for x in extra) or (r.file, r.section_line) == (
                    e.file,
                    e.section_line,
                ):
                    continue
                if scope.allows(r.file, e.file):
                    hit = r
                    break
            if hit is not None:
                out.append([hit, e])
                used.update((id(hit), id(e)))
                break
    return out


def dated_rows(units: list[Entry], fields, scope: Scope, cfg) -> list[list[Entry]]:
    """The same dated record in two tables with different columns: one row's cells (after
    the date) are all among the other's."""
    by_date: dict[str, list[tuple[Entry, frozenset]]] = defaultdict(list)
    for e in units:
        if e.kind != "row":
            continue
        cells = _cells(e)
        if len(cells) >= 2 and _DATE_CELL.match(cells[0]):
            # a cell listing several things (``轻松跑，心率稳``) is those things
            parts = frozenset(p for c in cells[1:] for p in _LIST_SEP.split(c) if p)
            by_date[cells[0]].append((e, parts))
    out = []
    for rows in by_date.values():
        if len(rows) < 2 or len(rows) > MAX_SAME:
            continue
        for x in range(len(rows)):
            for y in range(x + 1, len(rows)):
                (a, ca), (b, cb) = rows[x], rows[y]
                ta = (a.file, fields[a.file].tables.get(id(a)))
                tb = (b.file, fields[b.file].tables.get(id(b)))
                small, big = (ca, cb) if len(ca) <= len(cb) else (cb, ca)
                if ta == tb or _cells(a) == _cells(b) or not small <= big:
                    continue
                if width("".join(small)) < cfg.duplicates_min_width // 2:
                    continue
                if scope.allows(a.file, b.file):
                    out.append([a, b])
    return out
