"""The one writer of workspace files: a batch of whole-file rewrites (docs/design.md §4).

Decision code hands over one ``FileJob`` per file. A job doesn't carry line numbers: under
the locks, the writer re-reads the file and calls ``job.compute(current)`` with its *current*
content, and the job re-finds its targets in it. So lines an agent appended since the
workspace was loaded are part of what the job rewrites, and survive.

For every file whose bytes change::

    backup -> temp file -> fsync -> rename over the real path -> fsync the directory

and the journal (``.memreview/journal.jsonl``) gets an ``intent`` line before the first write,
a ``file`` line after each file and a ``commit`` line at the end, so an apply cut short by a
crash is recognised on the next start (see ``interrupted.interrupted_batches``).

The batch is split along its phases: ``jobs`` (the types decision code and the writer speak),
``batchplan`` (reading each file and running its jobs, no writes), ``writer`` (the backup,
temp file, rename and journal steps) and here ``run_batch``, which takes the locks, orders the
files and writes the journal's intent and commit.
"""

from __future__ import annotations

import os
import secrets
import signal
from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Any

from memreview.i18n import _
from memreview.store.batchplan import FilePlan, failures_for, file_record, group_jobs, plan_file
from memreview.store.halfdone import no_room
from memreview.store.jobs import (
    BatchResult,
    Conflict,
    Failure,
    FileJob,
    FileOutcome,
    FileResult,
    FunctionJob,
    sha256,
    unified_diff,
)
from memreview.store.locks import DEFAULT_LOCK_FILES, LockHeld, workspace_locks
from memreview.store.openclaw_lock import wait_for_promotion_lock
from memreview.store.paths import PathEscape
from memreview.store.writer import BatchWriter

__all__ = [
    "STEPS",
    "BatchResult",
    "Conflict",
    "Failure",
    "FileJob",
    "FileOutcome",
    "FileResult",
    "FunctionJob",
    "LockHeld",
    "apply_batch",
    "unified_diff",
]

# The named points of a write, in order; ``fault(step)`` is called at each one.
# "locked" and "intent" happen once per batch, "backup" … "journal-file" once per changed
# file, "commit" once at the end.
STEPS = (
    "locked",
    "intent",
    "backup",
    "temp-written",
    "temp-fsynced",
    "checked",
    "replaced",
    "dir-fsynced",
    "journal-file",
    "commit",
)


# A failpoint for crash tests and bench/storm.py: ``MEMREVIEW_FAILPOINT=N`` kills the process
# with SIGKILL at the Nth write step of a batch, ``NAME:N`` at the Nth step called NAME.
FAILPOINT_ENV = "MEMREVIEW_FAILPOINT"


class BatchStopped(OSError):
    """The journal (or memreview's own directory) failed in the middle of a batch: the
    files written so far stay written, the batch is cut short and ``recover`` ends it."""

    def __init__(self, batch: str, done: int, total: int, cause: BaseException) -> None:
        self.batch, self.done, self.total = batch, done, total
        why = (
            str(cause)
            if isinstance(cause, PathEscape)
            else (getattr(cause, "strerror", None) or str(cause))
        )
        super().__init__(
            _(
                "batch {batch} stopped after {done} of {total} file(s): {why}; once .memreview "
                "can be written again, `memreview recover` finishes it or rolls it back"
            ).format(batch=batch, done=done, total=total, why=why)
        )


def env_failpoint() -> Callable[[str], None] | None:
    """The failpoint ``MEMREVIEW_FAILPOINT`` asks for, or None when it is unset or unreadable."""
    spec = os.environ.get(FAILPOINT_ENV, "").strip()
    if not spec:
        return None
    name, _, count = spec.rpartition(":")
    try:
        target = int(count)
    except ValueError:
        return None
    seen = [0]

    def fail(step: str) -> None:
        if name and step != name:
            return
        seen[0] += 1
        if seen[0] == target:
            os.kill(os.getpid(), signal.SIGKILL)

    return fail


def _steps(*faults: Callable[[str], None] | None) -> Callable[[str], None]:
    live = [f for f in faults if f is not None]

    def step(name: str) -> None:
        for f in live:
            f(name)

    return step


def _write_rank(jobs: Sequence[FileJob]) -> int:
    """0 for a file that receives text or is edited in place, 1 for one that loses text.

    A batch writes every file that receives text (archives, skills, NOW.md, verdicts) before
    any file that loses text, so a kill between two files leaves a moved entry in two places
    at worst, never in none. Jobs say so with a ``loses_text`` attribute.
    """
    return 1 if any(getattr(job, "loses_text", False) for job in jobs) else 0


def _file_result(plan: FilePlan, written: bool) -> FileResult:
    final = plan.final
    return FileResult(
        rel=plan.rel,
        sha_before=sha256(plan.old),
        sha_after=sha256(final),
        backup=plan.backup,
        created=plan.old is None,
        diff=unified_diff(plan.rel, plan.old, final),
        applied=list(plan.applied),
        written=written,
        removed=plan.remove,
        after_copy=plan.after_copy,
    )


def _collect(result: BatchResult, plan: FilePlan, written: bool) -> None:
    result.conflicts += plan.conflicts
    result.failures += plan.failures
    result.applied += plan.applied
    if plan.changed:
        result.files.append(_file_result(plan, written))


def _new_batch_id(now: datetime) -> str:
    return f"{now:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


def apply_batch(
    root: Path | str,
    jobs: Sequence[FileJob],
    decisions: list[dict[str, Any]],
    *,
    lock_files: Sequence[str] = DEFAULT_LOCK_FILES,
    now: datetime | None = None,
    dry_run: bool = False,
    lock_wait: float = 2.0,
    fault: Callable[[str], None] | None = None,
    kind: str = "apply",
    all_or_nothing: bool = False,
) -> BatchResult:
    """Apply a batch of decisions, one whole-file rewrite per changed file (docs/design.md §4).

    ``decisions`` are recorded in the journal as given (JSON). Files are independent: a
    conflict or a failure in one leaves it untouched and the others still apply. With
    ``dry_run`` nothing at all is written, not even under ``.memreview/``, and the result's
    diffs say what would change. Raises LockHeld (nothing written) when a lock stays held
    for ``lock_wait`` seconds. ``kind`` names the batch in the journal (``restore``, …).
    With ``all_or_nothing`` one conflict or failure found while computing writes nothing.
    """
    return run_batch(
        root,
        jobs,
        decisions,
        lock_files=lock_files,
        now=now,
        dry_run=dry_run,
        lock_wait=lock_wait,
        fault=fault,
        kind=kind,
        all_or_nothing=all_or_nothing,
    )


def run_batch(
    root: Path | str,
    jobs: Sequence[FileJob],
    decisions: list[dict[str, Any]],
    *,
    lock_files: Sequence[str] = DEFAULT_LOCK_FILES,
    now: datetime | None = None,
    dry_run: bool = False,
    lock_wait: float = 2.0,
    fault: Callable[[str], None] | None = None,
    kind: str = "apply",
    undoes: str | None = None,
    all_or_nothing: bool = False,
    extra: dict[str, Any] | None = None,
) -> BatchResult:
    """``apply_batch`` with the knobs undo needs.

    ``kind``/``undoes`` and the keys of ``extra`` go into the journal's intent and commit;
    with ``all_or_nothing`` a single conflict or failure found while computing means nothing
    is written (and nothing journaled).
    """
    real_root = Path(root).resolve()
    now = now or datetime.now().astimezone()
    step = _steps(fault, env_failpoint())
    result = BatchResult(batch_id=_new_batch_id(now), kind=kind, dry_run=dry_run)
    grouped = group_jobs(jobs)

    if dry_run:
        for rel, rel_jobs in grouped.items():
            _collect(result, plan_file(real_root, rel, rel_jobs), written=False)
        return result

    with workspace_locks(real_root, lock_files, lock_wait):
        step("locked")
        plans = [plan_file(real_root, rel, rel_jobs) for rel, rel_jobs in grouped.items()]
        if all_or_nothing and any(p.conflicts or p.failures for p in plans):
            for plan in plans:
                _collect(result, plan, written=False)
            result.applied = []
            return result
        # A job that failed (e.g. EncodeError) contributes nothing; the file's other jobs apply.
        changed = sorted((p for p in plans if p.changed), key=lambda p: _write_rank(grouped[p.rel]))
        if not changed and not decisions:
            for plan in plans:
                _collect(result, plan, written=False)
            return result

        full = no_room(real_root, changed)
        if full:
            for plan in changed:
                plan.failures += failures_for(plan.applied, plan.rel, full)
                plan.applied = []
            for plan in plans:
                _collect(result, plan, written=False)
            return result
        if any(p.rel.rsplit("/", 1)[-1] == "MEMORY.md" for p in changed):
            holder = wait_for_promotion_lock(real_root, lock_wait)
            if holder:
                raise LockHeld("MEMORY.md", holder)
        writer = BatchWriter(real_root, result, now, step, grouped)
        try:
            ready = writer.copy_all(changed)
            writer.journal(_intent_record(kind, now, decisions, ready, undoes, extra))
            result.journaled = True
            step("intent")
            try:
                written = writer.write_files(changed, ready)
            except (OSError, PathEscape) as exc:
                raise BatchStopped(result.batch_id, writer.replaced, len(ready), exc) from exc
        finally:
            writer.release()
        for plan in plans:  # the result lists the files in job order
            if plan.rel in written:
                plan = written[plan.rel]
                _collect(result, plan, written=plan.written)
            else:
                _collect(result, plan, written=False)

        writer.journal(_commit_record(kind, now, result, undoes, extra))
        step("commit")
    return result


def _intent_record(
    kind: str,
    now: datetime,
    decisions: list[dict[str, Any]],
    ready: list[FilePlan],
    undoes: str | None,
    extra: dict[str, Any] | None,
) -> dict[str, Any]:
    """The journal's ``intent`` line, written before the first file."""
    intent: dict[str, Any] = {
        "type": "intent",
        "kind": kind,
        "ts": now.isoformat(),
        "decisions": decisions,
        "files": [file_record(p) for p in ready],  # in the order they are written
        **(extra or {}),
    }
    if undoes:
        intent["undoes"] = undoes
    return intent


def _commit_record(
    kind: str, now: datetime, result: BatchResult, undoes: str | None, extra: dict[str, Any] | None
) -> dict[str, Any]:
    """The journal's ``commit`` line, written after the last file."""
    commit: dict[str, Any] = {
        "type": "commit",
        "kind": kind,
        "ts": now.isoformat(),
        "applied": result.applied,
        "files": [f.rel for f in result.files if f.written],
        "conflicts": [
            {"decision": c.decision, "file": c.file, "reason": c.reason} for c in result.conflicts
        ],
        "failures": [asdict(f) for f in result.failures],
    }
    commit.update(extra or {})
    if undoes:
        commit["undoes"] = undoes
    return commit
