"""Field lines, records and tables of a memory file (docs/design.md §1.1).

A *label line* is a bullet of the form ``key: value``, ``**key:** value`` or ``**key**:
value`` (``：`` too) with a short label. It is a *field line* of a record when its label
recurs, once per record, in two or more records of the file (the heading it sits under is
its record): ``**Email:**`` under four account headings, ``- **时间**: 10:01`` in every
decision record. A table row is a field line when its first cell is a label that starts a
row in two or more of the file's tables (``| 体感 | - | - |`` in every weekly table).
Field lines are parts of their records, never facts on their own; a label line whose label
does not recur that way (``- Config file: ~/.agent/config.toml``) is a fact like any bullet.

Pure functions of a parsed MemoryFile: the loader's entries are not changed.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass, field

from memreview.workspace.cells import wide_enough, width  # noqa: F401 (the detectors import them here)
from memreview.workspace.memo import kept_with_file, per_file
from memreview.workspace.model import Entry, MemoryFile

_BULLET = re.compile(r"^\s*(?:[-*]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?")
_LABEL_FORMS = (
    re.compile(r"^\*\*(?P<k>[^*\n]+?)\s*[:：]\s*\*\*\s*(?P<v>.*)$"),  # **key:** value
    re.compile(r"^\*\*(?P<k>[^*\n]+?)\*\*\s*[:：]\s*(?P<v>.*)$"),  # **key**: value
    re.compile(r"^(?P<k>[^:：\n*`]+?)\s*(?::\s+|：\s*)(?P<v>.*)$"),  # key: value / key：value
)
# a colon after these opens an emphasis, not a field: "**重要：** …", "Note: …"
EMPHASIS_LABELS = frozenset(
    "重要 注意 提醒 警告 切记 备注 important note nb warning tip reminder caution".split()
)
_LABEL_BAD = re.compile(r"[，。,;；!！?？()（）\[\]<>{}|`\"“”]|https?$")
LABEL_MAX_WIDTH = 24
_DATE_CELL = re.compile(r"^\d{4}-\d{2}-\d{2}")
_NUMBER_CELL = re.compile(r"^[\d\s.,:/%+-]*$")


def label_of(entry: Entry) -> tuple[str, str] | None:
    """(label, value) of a label line, the label lower-cased; None for any other entry."""
    if entry.kind not in ("bullet", "numbered", "paragraph"):
        return None
    line = entry.first_line
    if ":" not in line and "：" not in line:  # every label form has its colon
        return None
    first = _BULLET.sub("", line, count=1).strip()
    for form in _LABEL_FORMS:
        m = form.match(first)
        if m is None:
            continue
        key = m.group("k").strip().strip("*_ ").strip()
        value = m.group("v").strip()
        if not key or not value or width(key) > LABEL_MAX_WIDTH or len(key.split()) > 4:
            return None
        if _LABEL_BAD.search(key) or key.lower() in EMPHASIS_LABELS:
            return None
        if not any(ch.isalpha() for ch in key):
            return None
        return key.lower(), value
    return None


def _first_cell(entry: Entry) -> str:
    s = entry.first_line.strip()
    if s.startswith("|"):
        s = s[1:]
    return s.split("|", 1)[0].strip().strip("*_ ").strip().lower()


@dataclass
class Record:
    """A heading (or the file's top) with the label lines under it."""

    heading: str
    heading_line: int  # 0 for the file's top
    entries: list[Entry] = field(default_factory=list)


@dataclass
class FileFields:
    labels: dict[int, tuple[str, str]]  # id(entry) -> (label, value) of each label line
    field_lines: set[int]  # id(entry) of label lines and rows that belong to a record
    tables: dict[int, int]  # id(row entry) -> its table's number in the file
    records: list[Record]  # headings with two or more label lines, in file order

    def is_field(self, e: Entry) -> bool:
        return id(e) in self.field_lines


# what is kept of a file's fields with the parsed file: entries by their place in
# ``mf.entries`` — (place, label, value) of each label line, the places of the field lines,
# (place, table) of each row, (heading, heading line, places) of each record
Kept = tuple[
    tuple[tuple[int, str, str], ...],
    tuple[int, ...],
    tuple[tuple[int, int], ...],
    tuple[tuple[str, int, tuple[int, ...]], ...],
]


@per_file  # a rescan reuses it for the files a write left alone
def file_fields(mf: MemoryFile) -> FileFields:
    """The label lines, field lines, tables and records of the file, from what is kept with
    it (``kept_fields``): a file the last scan parsed is not read for them again."""
    entries = mf.entries
    try:
        labels_at, fields_at, tables_at, records_at = kept_fields(mf)
        at = {k: e for k, e in enumerate(entries)}
        return FileFields(
            {id(at[k]): (_str(label), _str(value)) for k, label, value in labels_at},
            {id(at[k]) for k in fields_at},
            {id(at[k]): _int(t) for k, t in tables_at},
            [
                Record(_str(heading), _int(line), [at[k] for k in places])
                for heading, line, places in records_at
            ],
        )
    except (KeyError, TypeError, ValueError):  # not what this code keeps: made again
        return _file_fields(mf)


def _str(value: object) -> str:
    if type(value) is not str:
        raise TypeError(value)
    return value


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(value)
    return value


@kept_with_file
def kept_fields(mf: MemoryFile) -> Kept:
    """``file_fields`` as plain data, entries by their place (see ``Kept``)."""
    place = {id(e): k for k, e in enumerate(mf.entries)}
    ff = _file_fields(mf)
    return (
        tuple((place[i], label, value) for i, (label, value) in ff.labels.items()),
        tuple(sorted(place[i] for i in ff.field_lines)),
        tuple((place[i], t) for i, t in ff.tables.items()),
        tuple(
            (rec.heading, rec.heading_line, tuple(place[id(e)] for e in rec.entries))
            for rec in ff.records
        ),
    )


def _file_fields(mf: MemoryFile) -> FileFields:
    heading_lines = [ln for ln, _lvl, _t in mf.headings]
    heading_text = {ln: t for ln, _lvl, t in mf.headings}

    def owner(e: Entry) -> int:
        k = bisect_right(heading_lines, e.line) - 1
        return heading_lines[k] if k >= 0 else 0

    labels: dict[int, tuple[str, str]] = {}
    per_record: dict[int, list[Entry]] = defaultdict(list)
    label_records: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    tables: dict[int, int] = {}
    table_labels: dict[str, set[int]] = defaultdict(set)
    table_no, last_row = -1, -10
    for e in mf.entries:
        if e.kind == "row":
            # consecutive rows form a table; a header and separator sit between two tables
            if e.line != last_row + 1:
                table_no += 1
            last_row = e.line
            tables[id(e)] = table_no
            cell = _first_cell(e)
            if cell and not _DATE_CELL.match(cell) and not _NUMBER_CELL.match(cell):
                table_labels[cell].add(table_no)
            continue
        lv = label_of(e)
        if lv is None:
            continue
        labels[id(e)] = lv
        rec = owner(e)
        per_record[rec].append(e)
        label_records[lv[0]][rec] += 1
    parallel = {
        label for label, recs in label_records.items() if len(recs) >= 2 and max(recs.values()) == 1
    }
    field_lines = {id(e) for es in per_record.values() for e in es if labels[id(e)][0] in parallel}
    for e in mf.entries:
        if e.kind == "row" and not e.in_chronicle:
            cell = _first_cell(e)
            if len(table_labels.get(cell, ())) >= 2 and e.first_line.count("|") <= 6:
                field_lines.add(id(e))
    records = [
        Record(heading_text.get(line, ""), line, es)
        for line, es in sorted(per_record.items())
        if len(es) >= 2
    ]
    return FileFields(labels, field_lines, tables, records)
