"""The journal's batches: ``.memreview/journal.jsonl`` replayed into ``BatchRecord``s.

The journal is append-only. Each batch writes an ``intent`` line (its decisions and, per
file, the sha256 before and after and where the backup goes), then a ``file`` line per file
written (or a ``failed`` line), then a ``commit`` line. Undo batches look the same with
``"kind": "undo"`` and ``"undoes": <batch id>``. Its lines are read and checked in
``journal_lines``; a batch a damaged line names is kept and marked damaged. What was cut
short is in ``interrupted``; the replay for the weekly report in ``journal_replay``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memreview.store.journal_lines import JOURNAL, JournalProblem, check_lines
from memreview.store.private import read_private


@dataclass(frozen=True)
class JournalFile:
    """One file of a batch as the journal knows it."""

    file: str
    before: str | None  # sha256 before; None: the batch created it
    after: str | None  # sha256 after; None: the batch removed it
    backup: str | None
    after_copy: str | None
    created: bool
    removed: bool = False
    size_after: int | None = None
    written: bool = False  # a ``file`` line confirms it was written
    tmp: str | None = None  # the temp file it is written through


@dataclass
class BatchRecord:
    """A batch from the journal."""

    batch_id: str
    kind: str  # "apply" or "undo"
    ts: str
    decisions: list[Any]
    files: list[JournalFile]
    committed: bool = False
    committed_ts: str | None = None
    undoes: str | None = None
    finishes: str | None = None  # a "finish" batch: the interrupted batch it completes
    applied: list[str] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)
    failed_files: list[str] = field(default_factory=list)
    undone_by: str | None = None  # the committed undo batch that took it back
    finished_by: str | None = None  # the committed batch that finished it after a kill
    undo_cut_short: bool = False  # an undo of it was cut short (its changes may be partly back)
    temps: list[str] = field(default_factory=list)  # every temp file name it journaled
    damaged: list[int] = field(default_factory=list)  # journal lines of it that were skipped


def _journal_file(entry: dict[str, Any]) -> JournalFile | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        return None
    return JournalFile(
        file=entry["file"],
        before=entry.get("before"),
        after=entry.get("after"),
        backup=entry.get("backup"),
        after_copy=entry.get("after_copy"),
        created=bool(entry.get("created")),
        removed=bool(entry.get("removed")),
        size_after=entry.get("size_after"),
        tmp=entry.get("tmp") if isinstance(entry.get("tmp"), str) else None,
    )


def batches(root: Path | str) -> list[BatchRecord]:
    """Every batch in the journal, oldest first; a batch a damaged line names is marked."""
    return build_batches(*check_lines(read_private(root, JOURNAL)))


_UNDOES_RE = re.compile(rb'"undoes"\s*:\s*"([^"\\]+)"')


def undone_among(root: Path | str, ids: set[str]) -> set[str]:
    """The batches of ``ids`` the journal says were undone. Only a journal that names one of
    them as an undo's target is parsed (a year of reviews is megabytes: a scan asks this)."""
    data = read_private(root, JOURNAL)
    if not data or not ids:
        return set()
    named = {m.decode("utf-8", "replace") for m in _UNDOES_RE.findall(data)}
    if not named & ids:
        return set()
    return {b.batch_id for b in build_batches(*check_lines(data)) if b.undone_by} & ids


def build_batches(  # noqa: C901
    rows: list[tuple[int, dict[str, Any]]], problems: Sequence[JournalProblem] = ()
) -> list[BatchRecord]:
    by_id: dict[str, BatchRecord] = {}
    order: list[BatchRecord] = []
    taken_back: list[tuple[str, object]] = []
    events: list[tuple[int, dict[str, Any] | JournalProblem]] = sorted(
        [*rows, *((p.line, p) for p in problems)], key=lambda e: e[0]
    )
    for no, record in events:
        if isinstance(record, JournalProblem):
            # the batch a damaged line names is kept (an empty one if its intent line is
            # the damaged one) and marked, so undo refuses it rather than skipping to an
            # older batch
            if record.batch is not None and not record.torn:
                if record.batch not in by_id:
                    by_id[record.batch] = BatchRecord(record.batch, "apply", "", [], [])
                    order.append(by_id[record.batch])
                by_id[record.batch].damaged.append(no)
            continue
        kind = record.get("type")
        bid = record["batch"]
        if kind == "undo":  # a one-line undo record
            taken_back.append((bid, record.get("undoes")))
            continue
        if kind == "intent":
            files = [f for f in map(_journal_file, record.get("files") or []) if f]
            batch = BatchRecord(
                batch_id=bid,
                kind=str(record.get("kind") or "apply"),
                ts=str(record.get("ts") or ""),
                decisions=list(record.get("decisions") or []),
                files=files,
                undoes=record.get("undoes"),
            )
            batch.temps = [f.tmp for f in files if f.tmp]
            batch.finishes = record.get("finishes")
            by_id[bid] = batch
            order.append(batch)
            continue
        known = by_id.get(bid)
        if known is None:
            continue
        batch = known
        if kind in ("file", "replan"):  # replan: re-read after a writer without the lock
            confirmed = _journal_file(record)
            if confirmed is None:
                continue
            if confirmed.tmp:
                batch.temps.append(confirmed.tmp)
            confirmed = JournalFile(**{**confirmed.__dict__, "written": kind == "file"})
            if any(f.file == confirmed.file for f in batch.files):  # keep the intent's order
                batch.files = [confirmed if f.file == confirmed.file else f for f in batch.files]
            else:
                batch.files.append(confirmed)
        elif kind == "failed":
            batch.failed_files.append(str(record.get("file")))
        elif kind == "commit":
            batch.committed = True
            batch.committed_ts = str(record.get("ts") or "") or None
            batch.applied = list(record.get("applied") or [])
            batch.conflicts = list(record.get("conflicts") or [])
            batch.failures = list(record.get("failures") or [])
    for batch in order:
        if batch.kind == "undo" and batch.undoes and batch.undoes in by_id:
            undone = by_id[batch.undoes]
            if not batch.committed:
                undone.undo_cut_short = True
            elif not batch.failures:
                undone.undone_by = batch.batch_id
        if batch.kind == "finish" and batch.committed and not batch.failures and batch.finishes:
            target = by_id.get(batch.finishes)
            if target is not None:
                target.finished_by = batch.batch_id
    for undo_id, undoes in taken_back:
        target = by_id.get(undoes) if isinstance(undoes, str) else None
        if target is not None and target.undone_by is None:
            target.undone_by = undo_id
    return order


# The kinds of batch an undo takes back (an undo batch is not: apply its decisions again).
UNDOABLE_KINDS = ("apply", "restore", "unhide")


def last_batch(root: Path | str, *, undoable: bool = False) -> BatchRecord | None:
    """The last apply, restore or unhide batch in the journal (committed or not).

    With ``undoable``: the last such batch not yet taken back by an undo — the one
    ``undo_last`` would reverse.
    """
    for batch in reversed(batches(root)):
        if batch.kind not in UNDOABLE_KINDS:
            continue
        if undoable and batch.undone_by:
            continue
        return batch
    return None


def failed_keys(batch: BatchRecord) -> set[str]:
    """The keys of the batch's decisions that were not written (conflicts, failures)."""
    return {
        c["decision"]
        for c in (*batch.conflicts, *batch.failures)
        if isinstance(c, dict) and isinstance(c.get("decision"), str) and c["decision"]
    }
