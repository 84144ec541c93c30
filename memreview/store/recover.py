"""After a kill: the temp files a batch left and finishing a batch cut short (docs/design.md §4).

Every batch journals, before it writes anything, the temp file name of each file and where
copies of the file's old and new bytes are (both written and fsynced before the intent
line). So from any kill point:

- ``clean_temp_files`` (``temps``) removes the temp files the journal names that hold the
  batch's version (and nothing else that merely looks like one);
- ``finish_batch`` writes what an interrupted batch did not: a file still as it was gets the
  batch's version (from its copy, checked against the journal's hash), a file changed since
  gets the batch's changes patched in where their lines are intact; the finish is a batch of
  its own, with its own backups, so undo takes the whole thing back;
- rolling back is ``undo_last``, which treats an interrupted batch like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memreview.i18n import _, ngettext
from memreview.store.interrupted import interrupted_batches
from memreview.store.journal import BatchRecord
from memreview.store.locks import DEFAULT_LOCK_FILES
from memreview.store.reverse import Refuse, reverse_patch, version_in
from memreview.store.safewrite import BatchResult, Conflict, FileOutcome, run_batch
from memreview.store.undo_jobs import UndoJobBase
from memreview.workspace.textfile import TextFile, decode_bytes


@dataclass
class _FinishJob(UndoJobBase):
    """Bring one file of an interrupted batch to the batch's version."""

    verb = "finish"

    def compute(self, current: TextFile | None) -> FileOutcome:
        try:
            return self._finish(current)
        except Refuse as refusal:
            return FileOutcome(
                None, conflicts=[Conflict(self.key, self.rel, refusal.reason, refusal.diff)]
            )

    def _finish(self, current: TextFile | None) -> FileOutcome:
        jf = self.jf
        now_sha = current.sha256 if current is not None else None
        if now_sha == jf.after:
            return FileOutcome(None, applied=[self.key])
        if jf.removed:
            if now_sha == jf.before:
                return FileOutcome(None, applied=[self.key], remove=True)
            raise Refuse(_("{file} changed since; it was to be removed").format(file=self.rel))
        if current is not None and jf.written:
            return FileOutcome(None, applied=[self.key])  # written, then changed by another
        after = self._stored(jf.after_copy, jf.after, _("copy of the batch's version"))
        if now_sha == jf.before:
            return FileOutcome(after, applied=[self.key])
        if current is None:
            raise Refuse(
                _("{file} was removed since the batch was cut short").format(file=self.rel)
            )
        if jf.created:
            if current.data.startswith(after):  # written, then appended to
                return FileOutcome(None, applied=[self.key])
            raise Refuse(_("{file} changed since the batch was cut short").format(file=self.rel))
        before = self._before()
        if before is None:  # only a file the batch created has none, and that returned above
            raise Refuse(
                _("{file} has no copy of its version before the batch").format(file=self.rel)
            )
        if version_in(self.rel, before, after, current):  # the batch wrote it, then others
            return FileOutcome(None, applied=[self.key])
        try:
            # the batch's changes, forwards: its old lines, found in the file now, become new
            new = reverse_patch(
                decode_bytes(self.rel, after),
                decode_bytes(self.rel, before),
                current,
            )
        except Refuse as refusal:
            reason = _("{file} changed since the batch was cut short and {reason}").format(
                file=self.rel, reason=refusal.reason
            )
            raise Refuse(reason) from None
        return FileOutcome(new, applied=[self.key])


def finish_batch(
    root: Path | str,
    batch_id: str | None = None,
    *,
    now: datetime | None = None,
    lock_files: Sequence[str] = DEFAULT_LOCK_FILES,
    lock_wait: float = 2.0,
    fault: Callable[[str], None] | None = None,
) -> tuple[BatchRecord | None, BatchResult | None, str]:
    """Finish the interrupted apply batch ``batch_id`` (default: the last one).

    Returns (the batch record or None, the finish's BatchResult or None, a message). Nothing
    is written when any file can't be finished (its changes are refused). Raises LockHeld.
    """
    real_root = Path(root).resolve()
    now = now or datetime.now().astimezone()
    found = [i for i in interrupted_batches(real_root) if i.batch.kind == "apply"]
    if batch_id is not None:
        found = [i for i in found if i.batch.batch_id == batch_id]
    if not found:
        if batch_id:
            text = _("nothing to finish: no interrupted batch {batch} in the journal")
        else:
            text = _("nothing to finish: no interrupted apply in the journal")
        return None, None, text.format(batch=batch_id)
    batch = found[-1].batch
    files = [f for f in batch.files if f.file not in batch.failed_files and f.before != f.after]
    jobs = [_FinishJob(real_root, batch.batch_id, jf, False, now) for jf in files]
    result = run_batch(
        real_root,
        jobs,
        [{"finish": batch.batch_id}],
        lock_files=lock_files,
        now=now,
        lock_wait=lock_wait,
        fault=fault,
        kind="finish",
        all_or_nothing=True,
        extra={"finishes": batch.batch_id},
    )
    if result.conflicts:
        reasons = "; ".join(c.reason for c in result.conflicts)
        message = _("batch {batch} not finished, nothing written: {reasons}")
        return batch, result, message.format(batch=batch.batch_id, reasons=reasons)
    if result.failures:
        reasons = "; ".join(f"{f.file}: {f.reason}" for f in result.failures)
        message = _("batch {batch} not finished: {reasons}")
        return batch, result, message.format(batch=batch.batch_id, reasons=reasons)
    written = sum(1 for f in result.files if f.written)
    message = ngettext(
        "finished batch {batch} ({count} file written)",
        "finished batch {batch} ({count} files written)",
        written,
    )
    return batch, result, message.format(batch=batch.batch_id, count=written)
