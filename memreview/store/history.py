"""The journal as history you can walk back: every batch, newest first, with whether it can
still be undone, and undo of any batch, not only the last (docs/design.md §4, "Undo").

A batch can be undone, even with later batches on top of it, when every file it changed
still holds the lines it left there: the same per-file rules as undo of the last batch
(restored from the backup when untouched since, else reverse-patched around later lines).
When it can't, the file that blocks it is named with the later batch that changed the
batch's lines there — found by asking, batch by batch, whether the undo still applied to the
file before that batch wrote it and no longer after — or, when no batch did, "changed since
outside memreview" (an agent or an editor).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from memreview.i18n import N_, _
from memreview.store.jobs import FileJob, unified_diff
from memreview.store.journal import (
    UNDOABLE_KINDS,
    BatchRecord,
    batches,
)
from memreview.store.paths import PathEscape, safe_read_bytes
from memreview.store.private import read_private
from memreview.store.undo import VERDICTS_FILES, UndoResult, undo_jobs, undo_record
from memreview.workspace.jsonl import parse_jsonl
from memreview.workspace.textfile import TextFile, decode_bytes

PRUNED = "pruned.jsonl"  # one line per batch whose backups were pruned (store.prune)


# a batch's kind in words (``memreview log`` and the app's History view)
KIND_WORDS = {
    "apply": N_("apply"),
    "undo": N_("undo"),
    "restore": N_("restore"),
    "unhide": N_("unhide"),
    "finish": N_("finish"),
}


def kind_word(kind: str) -> str:
    """A batch's kind in the interface's language (an unknown kind as it is)."""
    return _(KIND_WORDS[kind]) if kind in KIND_WORDS else kind


@dataclass(frozen=True)
class Blocker:
    """A file that keeps a batch from being undone, and the later batch that changed it
    (None: changed outside memreview)."""

    file: str
    batch: str | None
    reason: str

    def describe(self) -> str:
        """One line: which batch changed which file."""
        if self.batch:
            return _("batch {batch} changed {file} since").format(batch=self.batch, file=self.file)
        return _("{file} was changed outside memreview since").format(file=self.file)


@dataclass
class BatchEntry:
    """A batch as the history shows it."""

    record: BatchRecord
    undoable: bool
    why_not: str = ""  # why it can't be undone ("" when it can)
    blockers: list[Blocker] = field(default_factory=list)
    pruned: dict[str, Any] | None = None  # its line of pruned.jsonl: its backups were removed

    @property
    def batch_id(self) -> str:
        return self.record.batch_id

    @property
    def files(self) -> list[str]:
        """The files the batch wrote."""
        return [f.file for f in self.record.files if f.written]

    def to_json(self) -> dict[str, Any]:
        """The entry as ``memreview log --json`` prints it."""
        r = self.record
        return {
            "batch": r.batch_id,
            "ts": r.committed_ts or r.ts,
            "kind": r.kind,
            "undoes": r.undoes,
            "committed": r.committed,
            "decisions": [_decision_json(d) for d in r.decisions if isinstance(d, dict)],
            "files": self.files,
            "undoable": self.undoable,
            "why_not": self.why_not or None,
            "undone_by": r.undone_by,
            "pruned": (self.pruned or {}).get("ts"),
            "blocked_by": [
                {"batch": b.batch, "file": b.file, "reason": b.reason} for b in self.blockers
            ],
        }


def _decision_json(d: dict[str, Any]) -> dict[str, Any]:
    keys = ("queue", "action", "title", "item", "key", "undo")
    return {k: d[k] for k in keys if k in d}


def _read(root: Path, rel: str | None) -> TextFile | None:
    if rel is None:
        return None
    try:
        return decode_bytes(rel, safe_read_bytes(root, rel))
    except FileNotFoundError:
        return None


def _applies(job: FileJob, current: TextFile | None) -> bool:
    outcome = job.compute(current)
    return not outcome.conflicts


def _version(root: Path, rel: str | None) -> TextFile | None | Literal[False]:
    """A stored version of a file (backup or after-copy); False when it can't be read."""
    try:
        return _read(root, rel)
    except (OSError, PathEscape):
        return False


def _blocking_batch(root: Path, job: FileJob, rel: str, later: Sequence[BatchRecord]) -> str | None:
    """The first later batch that wrote ``rel`` such that ``job`` (the undo of one file)
    applied to the file before it and no longer after it."""
    for b in later:
        jf = next((f for f in b.files if f.file == rel and f.written), None)
        if jf is None:
            continue
        before = None if jf.created else _version(root, jf.backup)
        after = None if jf.removed else _version(root, jf.after_copy)
        if before is False or after is False:
            continue
        if _applies(job, before) and not _applies(job, after):
            return b.batch_id
    return None


def undo_blockers(
    root: Path | str,
    batch: BatchRecord,
    later: Sequence[BatchRecord] = (),
    *,
    verdicts_files: Sequence[str] = VERDICTS_FILES,
) -> list[Blocker]:
    """The files that keep ``batch`` from being undone now (empty: it can be), each with the
    batch of ``later`` that blocks it when one does. Writes nothing."""
    real_root = Path(root).resolve()
    found: list[Blocker] = []
    now = datetime.now().astimezone()
    # the batch as read with the journal: not read again per batch (a history or a prune
    # asks about every batch)
    for job in undo_jobs(real_root, batch, now, verdicts_files, fresh=False):
        try:
            current = _read(real_root, job.rel)
        except (OSError, PathEscape) as exc:
            found.append(Blocker(job.rel, None, str(exc)))
            continue
        outcome = job.compute(current)
        if not outcome.conflicts:
            continue
        reason = outcome.conflicts[0].reason
        found.append(Blocker(job.rel, _blocking_batch(real_root, job, job.rel, later), reason))
    return found


def why_not_undoable(batch: BatchRecord) -> str:
    """Why ``batch`` can't be undone whatever the files hold, or ""."""
    if batch.kind == "undo":
        return _("an undo of batch {batch}; apply its decisions again instead").format(
            batch=batch.undoes
        )
    if batch.kind not in UNDOABLE_KINDS:
        return _("a {kind} batch").format(kind=batch.kind)
    if batch.undone_by:
        return _("undone by batch {batch}").format(batch=batch.undone_by)
    if batch.damaged:
        return _("its journal lines {lines} are damaged").format(
            lines=", ".join(map(str, batch.damaged))
        )
    if not batch.committed and not batch.finished_by:
        return _("cut short; see `memreview recover`")
    return ""


class _Later(Sequence[BatchRecord]):
    """The batches of ``records`` from ``start`` on, without copying them (walked only when
    a file blocks an undo, to name the batch that did)."""

    def __init__(self, records: list[BatchRecord], start: int) -> None:
        self.records, self.start = records, start

    def __len__(self) -> int:
        return max(0, len(self.records) - self.start)

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return self.records[self.start :][k]
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(k)
        return self.records[self.start + k]

    def __iter__(self) -> Iterator[BatchRecord]:
        return (self.records[k] for k in range(self.start, len(self.records)))


def pruned_batches(root: Path | str) -> dict[str, dict[str, Any]]:
    """{batch id: its line of ``.memreview/pruned.jsonl``}: the batches whose backups were
    removed, when (``ts``) and how much (``files``, ``bytes``)."""
    try:
        data = read_private(root, PRUNED)
    except (OSError, PathEscape):
        return {}
    rows, _bad = parse_jsonl(data or b"")
    return {r["batch"]: r for _no, r in rows if isinstance(r.get("batch"), str)}


def batch_history(
    root: Path | str, *, verdicts_files: Sequence[str] = VERDICTS_FILES
) -> list[BatchEntry]:
    """Every batch of the journal, newest first, with whether it can be undone now."""
    real_root = Path(root).resolve()
    records = batches(real_root)
    pruned = pruned_batches(real_root)
    out: list[BatchEntry] = []
    for i, record in enumerate(records):
        why = why_not_undoable(record)
        gone = pruned.get(record.batch_id)
        if gone is not None:
            day = str(gone.get("ts") or "")[:10]
            why = why or _("its backups were pruned on {day}").format(day=day)
        if why:
            out.append(BatchEntry(record, False, why, pruned=gone))
            continue
        later = _Later(records, i + 1)  # a view, not a copy: the history stays linear
        blockers = undo_blockers(real_root, record, later, verdicts_files=verdicts_files)
        if blockers:
            why = "; ".join(b.describe() for b in blockers)
        out.append(BatchEntry(record, not blockers, why, blockers))
    out.reverse()
    return out


def undo_batch(
    root: Path | str,
    batch_id: str | None = None,
    *,
    verdicts_files: Sequence[str] = VERDICTS_FILES,
    **options: Any,
) -> UndoResult:
    """Take back batch ``batch_id`` (default: the last one not undone yet), even with later
    batches on top, when the lines it changed are still as it left them; else refuse,
    naming the later batch and the file that block it. ``options`` are ``undo_record``'s
    (``now``, ``fault``, ``lock_files``, ``lock_wait``, ``dry_run``). Raises LockHeld like
    an apply."""
    real_root = Path(root).resolve()
    records = batches(real_root)
    if batch_id is None:
        pick = [b for b in records if b.kind in UNDOABLE_KINDS and not b.undone_by]
        if not pick:
            undone = [b for b in records if b.kind in UNDOABLE_KINDS and b.undone_by]
            if undone:  # `log` lists them: say why none is taken back
                return UndoResult(
                    False,
                    _(
                        "nothing to undo: every batch in the journal is undone already "
                        "(the last, {batch}, by {by}); `memreview log` lists them"
                    ).format(batch=undone[-1].batch_id, by=undone[-1].undone_by),
                )
            return UndoResult(False, _("nothing to undo: the journal has no applied batch"))
        batch_id = pick[-1].batch_id
    index = next((i for i, b in enumerate(records) if b.batch_id == batch_id), None)
    if index is None:
        return UndoResult(
            False,
            _("no batch {batch} in the journal; `memreview log` lists them").format(batch=batch_id),
        )
    batch = records[index]
    if batch.kind not in UNDOABLE_KINDS or batch.undone_by:
        return UndoResult(
            False,
            _("batch {batch} can't be undone: {why}").format(
                batch=batch_id, why=why_not_undoable(batch)
            ),
            undone_batch=batch_id,
        )
    result = undo_record(real_root, batch, verdicts_files=verdicts_files, **options)
    if result.refusals:
        later = records[index + 1 :]
        blockers = undo_blockers(real_root, batch, later, verdicts_files=verdicts_files)
        named = "; ".join(b.describe() for b in blockers if b.batch)
        if named:
            result.message += "; " + named
    return result


def batch_diff(root: Path | str, batch: BatchRecord) -> str:
    """What ``batch`` changed, file by file, as a unified diff of its backup and its copy of
    the new version ("" for a batch that wrote no file; a note for copies pruned or gone)."""
    real_root = Path(root).resolve()
    out: list[str] = []
    for f in batch.files:
        if not f.written and batch.committed:
            continue
        try:
            old = None if f.created else _stored(real_root, f.backup)
            new = None if f.removed else _stored(real_root, f.after_copy)
        except (OSError, PathEscape):
            out.append(_("{file}: its copies are gone (pruned or removed)").format(file=f.file))
            out.append("\n")
            continue
        out.append(unified_diff(f.file, old, new))
    return "".join(out)


def _stored(root: Path, rel: str | None) -> bytes:
    if rel is None:
        raise FileNotFoundError(_("no copy"))
    return safe_read_bytes(root, rel)


def undo_last(root: Path | str, **options: Any) -> UndoResult:
    """Take back the last batch not undone yet (``undo_batch`` without an id)."""
    return undo_batch(root, None, **options)
