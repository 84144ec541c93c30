"""Taking back the last applied batch (docs/design.md §4, "Undo").

Per file of the batch, looking at the file as it is *now*:

- still exactly what the batch wrote: restored from its backup (a file the batch created is
  removed);
- already as it was before the batch: nothing to do;
- changed since (an agent appended, or edited elsewhere): reverse-patched — each region the
  batch changed is looked up in the current lines and put back as it was, so lines written
  since survive — but only if every such region is still intact and can be found in exactly
  one place; otherwise the whole undo is refused, with a diff of what changed since.

Every file is checked before any is written: a refused undo writes nothing. The undo goes
through the same writer as an apply (locks, backups, journal), and ``verdicts.jsonl``, which
is append-only, is never restored: it gets one ``"verdict": "undone"`` line per verdict the
batch appended. State entries (``state.yaml``) belong to the decisions module: the result
carries the undone batch's decisions so the caller can take them back.

Here: ``undo_record`` (any batch) and its ``UndoResult``; ``undo_last`` and undo of a batch
that is not the last are in ``history``, the per-file jobs in ``undo_jobs``, the
reverse-patching in ``reverse``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from memreview.i18n import _, ngettext
from memreview.store.journal import BatchRecord, JournalFile, batches
from memreview.store.locks import DEFAULT_LOCK_FILES
from memreview.store.safewrite import Conflict, Failure, FileResult, run_batch
from memreview.store.undo_jobs import UndoJob

VERDICTS_FILES: tuple[str, ...] = ("memory/review/verdicts.jsonl",)


@dataclass
class UndoResult:
    """What an undo did, or why it did nothing."""

    ok: bool
    message: str
    undone_batch: str | None = None  # the batch taken back
    undo_batch: str | None = None  # the undo's own batch id in the journal
    decisions: list[Any] = field(default_factory=list)  # the undone batch's decisions
    applied: list[str] = field(default_factory=list)  # its applied decision keys
    files: list[FileResult] = field(default_factory=list)
    refusals: list[Conflict] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    dry_run: bool = False

    @property
    def diff(self) -> str:
        """The diff the undo wrote (or, when refused, the diffs explaining why)."""
        if self.refusals:
            return "".join(c.diff for c in self.refusals)
        return "".join(f.diff for f in self.files)


def _files_to_undo(batch: BatchRecord) -> list[JournalFile]:
    if batch.committed:
        files = [f for f in batch.files if f.written]
    else:
        files = [f for f in batch.files if f.file not in batch.failed_files]
    return [f for f in files if f.before != f.after]


def undo_jobs(
    root: Path,
    batch: BatchRecord,
    now: datetime,
    verdicts_files: Sequence[str] = VERDICTS_FILES,
    *,
    fresh: bool = True,
) -> list[UndoJob]:
    """One job per file ``batch`` changed, each taking its change back from what the file
    holds when the job runs. ``fresh``: the journal is read again to know whether an undo of
    it was cut short (else ``batch`` says, as read with the rest of the journal)."""
    # the batch's changes may be missing from a file without a later batch having changed
    # them only when the batch was cut short or an undo of it was: then nothing to do there
    partly = not batch.committed or batch.undo_cut_short
    if not partly and fresh:
        partly = any(
            b.kind == "undo" and b.undoes == batch.batch_id and not b.committed
            for b in batches(root)
        )
    return [
        UndoJob(root, batch.batch_id, jf, jf.file in verdicts_files, now, partly)
        # the reverse of the order the batch wrote them: the files text left get it back
        # before the files that received it lose it, so a kill leaves it in two places at worst
        for jf in reversed(_files_to_undo(batch))
    ]


def undo_record(
    root: Path | str,
    batch: BatchRecord,
    *,
    now: datetime | None = None,
    fault: Callable[[str], None] | None = None,
    lock_files: Sequence[str] = DEFAULT_LOCK_FILES,
    lock_wait: float = 2.0,
    verdicts_files: Sequence[str] = VERDICTS_FILES,
    dry_run: bool = False,
) -> UndoResult:
    """Take back ``batch``, last or not, by the rules of the module docstring: every file
    is checked against what it holds now, and a refusal writes nothing. Raises LockHeld
    like ``apply_batch``."""
    real_root = Path(root).resolve()
    now = now or datetime.now().astimezone()
    if batch.damaged:
        lines = ", ".join(map(str, batch.damaged))
        return UndoResult(
            False,
            _(
                "undo of batch {batch} refused, nothing was written: its journal line(s) "
                "{lines} are damaged, so what it wrote is not known for sure"
            ).format(batch=batch.batch_id, lines=lines),
            undone_batch=batch.batch_id,
        )
    jobs = undo_jobs(real_root, batch, now, verdicts_files)
    result = run_batch(
        real_root,
        jobs,
        [{"undo": batch.batch_id}],
        lock_files=lock_files,
        now=now,
        dry_run=dry_run,
        lock_wait=lock_wait,
        fault=fault,
        kind="undo",
        undoes=batch.batch_id,
        all_or_nothing=True,
    )
    undo = UndoResult(
        ok=result.ok,
        message="",
        undone_batch=batch.batch_id,
        undo_batch=None if dry_run or not result.journaled else result.batch_id,
        decisions=list(batch.decisions),
        applied=list(batch.applied),
        files=result.files,
        refusals=result.conflicts,
        failures=result.failures,
        dry_run=dry_run,
    )
    if result.conflicts:
        reasons = "; ".join(c.reason for c in result.conflicts)
        undo.message = _("undo of batch {batch} refused, nothing was written: {reasons}").format(
            batch=batch.batch_id, reasons=reasons
        )
    elif result.failures:
        reasons = "; ".join(f"{f.file}: {f.reason}" for f in result.failures)
        undo.message = _("undo of batch {batch} incomplete: {reasons}").format(
            batch=batch.batch_id, reasons=reasons
        )
    else:
        if dry_run:
            text = ngettext(
                "would take back batch {batch} ({count} file)",
                "would take back batch {batch} ({count} files)",
                len(result.files),
            )
        else:
            text = ngettext(
                "took back batch {batch} ({count} file)",
                "took back batch {batch} ({count} files)",
                len(result.files),
            )
        undo.message = text.format(batch=batch.batch_id, count=len(result.files))
    for note in result.notes:
        undo.message += f"; {note}"
    return undo
