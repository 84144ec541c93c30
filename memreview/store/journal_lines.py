"""Reading and checking the lines of ``.memreview/journal.jsonl``.

The journal is read tolerantly: a line that doesn't parse (torn by a crash, or edited by
hand) or whose known fields have the wrong type is reported with its line number
(``journal_problems``) and skipped; the batch it names is marked damaged (``journal``), so
undo refuses that batch and only that one. A torn *last* line (no newline, does not parse)
is what a kill or a full disk leaves mid-write: it is treated as not written (every batch
survives a kill before any of its lines), so it damages nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memreview.i18n import _, shown
from memreview.store.private import read_private
from memreview.workspace.jsonl import parse_jsonl

JOURNAL = "journal.jsonl"


@dataclass(frozen=True)
class JournalProblem:
    """A journal line that was skipped, and why (``batch``: the batch it names, if any)."""

    line: int
    reason: str
    batch: str | None = None
    torn: bool = False  # the last line, cut short while it was written: treated as not written

    def describe(self) -> str:
        if self.torn:
            return _(
                ".memreview/{journal} line {line} was cut short while it was written (a kill "
                "or a full disk); it is treated as not written, and the next write keeps its "
                "bytes in .memreview/{journal}.torn-<time>"
            ).format(journal=JOURNAL, line=self.line)
        return _(".memreview/{journal} line {line}: {reason}; skipped").format(
            journal=JOURNAL, line=self.line, reason=shown(self.reason)
        )


_OPT_STR = (str, type(None))
_OPT_BOOL = (bool, type(None))
_OPT_LIST = (list, type(None))
# The known fields of each kind of line and the types they may hold; other fields are free.
_FILE_FIELDS: dict[str, tuple[type, ...]] = {
    "file": (str,),
    "before": _OPT_STR,
    "after": _OPT_STR,
    "backup": _OPT_STR,
    "after_copy": _OPT_STR,
    "created": _OPT_BOOL,
    "removed": _OPT_BOOL,
    "size_after": (int, type(None)),
    "tmp": _OPT_STR,
}
_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "intent": {
        "kind": _OPT_STR,
        "ts": _OPT_STR,
        "decisions": _OPT_LIST,
        "files": _OPT_LIST,
        "undoes": _OPT_STR,
        "finishes": _OPT_STR,
    },
    "file": _FILE_FIELDS,
    "replan": _FILE_FIELDS,
    "failed": {"file": (str,)},
    "commit": {
        "kind": _OPT_STR,
        "ts": _OPT_STR,
        "applied": _OPT_LIST,
        "conflicts": _OPT_LIST,
        "failures": _OPT_LIST,
        "undoes": _OPT_STR,
    },
    "undo": {"undoes": _OPT_STR},
}


def _field_problem(record: dict[str, Any], fields: dict[str, tuple[type, ...]]) -> str | None:
    for name, types in fields.items():
        value = record.get(name)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            if name not in record:
                return _("'{name}' is missing").format(name=name)
            return _("'{name}' is {type}").format(name=name, type=type(value).__name__)
    return None


def _record_problem(record: dict[str, Any]) -> str | None:
    """Why a journal line that is a JSON object can't be used, or None."""
    if not isinstance(record.get("batch"), str) or not record["batch"]:
        return _("no batch id")
    kind = record.get("type")
    if not isinstance(kind, str):
        return _("no line type")
    problem = _field_problem(record, _FIELDS.get(kind, {}))
    if problem is None and kind == "intent":
        for entry in record.get("files") or []:
            if not isinstance(entry, dict):
                return _("a file of the batch is not an object")
            problem = _field_problem(entry, _FILE_FIELDS)
            if problem is not None:
                return _("a file of the batch: {problem}").format(problem=problem)
    return problem


def check_lines(
    data: bytes | None,
) -> tuple[list[tuple[int, dict[str, Any]]], list[JournalProblem]]:
    """(line number, record) for each usable journal line, and the lines skipped."""
    data = data or b""
    rows, bad = parse_jsonl(data)
    problems: list[JournalProblem] = []
    if bad:
        lines = data.split(b"\n")
        for no, reason in bad:
            torn = no == len(lines)  # the last line, without its newline: cut short
            if torn:
                reason = _("torn (cut short while it was written)")
            problems.append(JournalProblem(no, reason, _batch_named(lines[no - 1]), torn))
    good = []
    for no, record in rows:
        problem = _record_problem(record)
        if problem is None:
            good.append((no, record))
        else:
            batch = record.get("batch")
            problems.append(JournalProblem(no, problem, batch if isinstance(batch, str) else None))
    problems.sort(key=lambda p: p.line)
    return good, problems


def _batch_named(raw: bytes) -> str | None:
    """The batch id a damaged line names, when it can still be read."""
    found = re.search(rb'"batch"\s*:\s*"([^"\\]{1,200})"', raw)
    return found.group(1).decode("utf-8", "replace") if found else None


def read_journal(root: Path | str) -> list[dict[str, Any]]:
    """Every usable line of the journal, oldest first (damaged lines are skipped)."""
    return [record for _no, record in check_lines(read_private(root, JOURNAL))[0]]


def journal_problems(root: Path | str) -> list[JournalProblem]:
    """The journal lines that were skipped, with their line numbers and reasons."""
    return check_lines(read_private(root, JOURNAL))[1]
