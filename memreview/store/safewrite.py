"""The one writer of workspace files: a batch of whole-file rewrites (DESIGN §4).

Decision code hands over one ``FileJob`` per file. A job doesn't carry line numbers: under
the locks, the writer re-reads the file and calls ``job.compute(current)`` with its *current*
content, and the job re-finds its targets in it. So lines an agent appended since the
workspace was loaded are part of what the job rewrites, and survive.

For every file whose bytes change::

    backup -> temp file -> fsync -> rename over the real path -> fsync the directory

and the journal (``.memreview/journal.jsonl``) gets an ``intent`` line before the first write,
a ``file`` line after each file and a ``commit`` line at the end, so an apply cut short by a
crash is recognised on the next start (see ``journal.interrupted_batches``).
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import hashlib
import json
import os
import re
import secrets
import signal
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol

from memreview.store.atomic import atomic_write, write_all, write_synced
from memreview.store.locks import DEFAULT_LOCK_FILES, LockHeld, workspace_locks
from memreview.store.openclaw_lock import wait_for_promotion_lock
from memreview.store.paths import (
    PathEscape,
    check_rel,
    open_dir_fd,
    read_fd,
    resolve_inside,
    safe_open_read,
)
from memreview.store.private import PRIVATE_DIR, append_line
from memreview.workspace.textfile import EncodeError, TextFile, decode_bytes, is_binary

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

JOURNAL = "journal.jsonl"
BACKUPS = f"{PRIVATE_DIR}/backups"

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

_RETRIES = 3
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _exists(name: str, dir_fd: int) -> bool:
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


# A failpoint for crash tests and bench/storm.py: ``MEMREVIEW_FAILPOINT=N`` kills the process
# with SIGKILL at the Nth write step of a batch, ``NAME:N`` at the Nth step called NAME.
FAILPOINT_ENV = "MEMREVIEW_FAILPOINT"


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


@dataclass(frozen=True)
class Conflict:
    """A decision whose target is gone or ambiguous in the current file: skipped, pending."""

    decision: str
    file: str
    reason: str
    diff: str = ""


@dataclass(frozen=True)
class Failure:
    """A decision that could not be written (disk full, permission, encoding…): pending."""

    decision: str
    file: str
    reason: str


@dataclass
class FileOutcome:
    """What a job wants a file to become."""

    new_bytes: bytes | None  # None: leave this file as it is
    applied: list[str] = field(default_factory=list)  # decision keys applied in this file
    conflicts: list[Conflict] = field(default_factory=list)
    remove: bool = False  # delete the file (only undo uses this, for files a batch created)


class FileJob(Protocol):
    """One file's share of a batch.

    ``compute`` gets the file's current content (None when it doesn't exist, so returning
    bytes creates it) and must find its targets in it by content. A job may also have a
    ``decisions`` attribute (a list of decision keys) used to name the failures when
    ``compute`` itself fails, e.g. with an EncodeError, and a ``loses_text`` attribute
    (True for a file that text leaves, e.g. the source of a move): such files are written
    after all the others.
    """

    rel: str

    def compute(self, current: TextFile | None) -> FileOutcome: ...


@dataclass
class FunctionJob:
    """A FileJob made from a function of the current content."""

    rel: str
    fn: Callable[[TextFile | None], FileOutcome]
    decisions: list[str] = field(default_factory=list)

    def compute(self, current: TextFile | None) -> FileOutcome:
        return self.fn(current)


@dataclass
class FileResult:
    """One file of a batch: what it was, what it became, where its old bytes are."""

    rel: str
    sha_before: str | None  # None: the file didn't exist
    sha_after: str | None  # None: the file was removed
    backup: str | None  # workspace-relative path of the copy of the old bytes
    created: bool
    diff: str
    applied: list[str] = field(default_factory=list)
    written: bool = False
    removed: bool = False
    after_copy: str | None = None  # copy of the new bytes, for reverse-patching on undo


@dataclass
class BatchResult:
    """What a batch did (or, for a dry run, would do)."""

    batch_id: str
    kind: str = "apply"
    dry_run: bool = False
    files: list[FileResult] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    journaled: bool = False
    notes: list[str] = field(default_factory=list)  # e.g. appends carried over while writing

    @property
    def ok(self) -> bool:
        return not self.conflicts and not self.failures

    @property
    def diff(self) -> str:
        """The unified diff of every changed file, in job order."""
        return "".join(f.diff for f in self.files)


@dataclass
class _Plan:
    rel: str
    real: Path
    old: bytes | None
    st: os.stat_result | None
    new: bytes | None = None
    remove: bool = False
    applied: list[str] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    backup: str | None = None
    after_copy: str | None = None
    written: bool = False
    tmp: str | None = None  # workspace-relative name of its temp file, chosen before the intent

    @property
    def changed(self) -> bool:
        if self.remove:
            return self.old is not None
        return self.new is not None and self.new != self.old

    @property
    def final(self) -> bytes | None:
        if self.remove:
            return None
        return self.new if self.new is not None else self.old


def sha256(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _job_decisions(job: FileJob) -> list[str]:
    keys = getattr(job, "decisions", None)
    return list(keys) if keys else [""]


def _failures(keys: Iterable[str], rel: str, reason: str) -> list[Failure]:
    return [Failure(key, rel, reason) for key in keys] or [Failure("", rel, reason)]


def _os_reason(exc: OSError, what: str) -> str:
    if exc.errno == errno.ENOSPC:
        return f"disk full while {what}; the file was left as it was"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"permission denied while {what}; the file was left as it was"
    if exc.errno == errno.EROFS:
        return f"read-only file system while {what}; the file was left as it was"
    return f"{exc.strerror or exc} while {what}; the file was left as it was"


def _read_current(root: Path, rel: str) -> tuple[bytes | None, os.stat_result | None]:
    try:
        fd, st = safe_open_read(root, rel)
    except FileNotFoundError:
        return None, None
    try:
        return read_fd(fd, st.st_size + 1), st
    finally:
        os.close(fd)


def _plan_file(root: Path, rel: str, jobs: Sequence[FileJob]) -> _Plan:
    """Read ``rel`` now and run its jobs over the content, in order."""
    all_keys = [k for job in jobs for k in _job_decisions(job)]
    try:
        real = resolve_inside(root, rel)
        old, st = _read_current(root, rel)
    except PathEscape as exc:
        plan = _Plan(rel, Path(), None, None)
        plan.failures = _failures(all_keys, rel, f"refused: {exc}")
        return plan
    except OSError as exc:
        plan = _Plan(rel, Path(), None, None)
        plan.failures = _failures(all_keys, rel, f"cannot read {rel}: {exc.strerror or exc}")
        return plan
    plan = _Plan(rel, real, old, st)
    data, removed = old, False
    for job in jobs:
        current = None if data is None else decode_bytes(rel, data)
        try:
            outcome = job.compute(current)
        except (EncodeError, PathEscape, UnicodeError, OSError) as exc:
            plan.failures += _failures(_job_decisions(job), rel, str(exc))
            continue
        plan.applied += outcome.applied
        plan.conflicts += outcome.conflicts
        if outcome.remove:
            data, removed = None, True
        elif outcome.new_bytes is not None:
            data, removed = outcome.new_bytes, False
    plan.remove = removed
    plan.new = None if removed else data
    return plan


def _escape_surrogates(text: str) -> str:
    return re.sub("[\udc80-\udcff]", lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", text)


def unified_diff(rel: str, old: bytes | None, new: bytes | None) -> str:
    """A unified diff of two versions of a file, on decoded lines, headed ``a/rel b/rel``.

    ``None`` stands for a missing file. Line endings are not shown; invalid bytes are shown
    as ``\\xNN``. Returns "" when nothing differs.
    """
    if old == new:
        return ""
    if (old is not None and is_binary(old)) or (new is not None and is_binary(new)):
        return f"Binary files a/{rel} and b/{rel} differ\n"
    a = decode_bytes(rel, old).texts if old is not None else []
    b = decode_bytes(rel, new).texts if new is not None else []
    lines = list(difflib.unified_diff(a, b, f"a/{rel}", f"b/{rel}", lineterm=""))
    if not lines:
        # Only bytes that don't show in decoded text differ (endings, BOM).
        return f"--- a/{rel}\n+++ b/{rel}\n(line endings or byte order mark differ)\n"
    return _escape_surrogates("\n".join(lines) + "\n")


class _Writer:
    """The write phase of one batch, under the locks."""

    def __init__(
        self,
        root: Path,
        result: BatchResult,
        now: datetime,
        fault: Callable[[str], None],
        jobs_by_rel: dict[str, list[FileJob]],
    ) -> None:
        self.root = root
        self.result = result
        self.now = now
        self.fault = fault
        self.jobs_by_rel = jobs_by_rel
        self._backup_name: str | None = None
        # old inodes of replaced files, held open until the batch ends: (plan, fd, bytes seen)
        self.held: list[list] = []
        # the workspace, opened once: every create and rename is relative to directory fds
        self.root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)

    # -- journal ---------------------------------------------------------------------
    def journal(self, record: dict) -> None:
        record = {"type": record.pop("type"), "batch": self.result.batch_id, **record}
        line = json.dumps(record, ensure_ascii=False, default=str)
        append_line(self.root, JOURNAL, line)

    # -- backups ---------------------------------------------------------------------
    def backup_name(self) -> str:
        """``YYYYmmdd-HHMMSS`` of this batch, with ``-2``, ``-3``… if that one is taken."""
        if self._backup_name is None:
            base = self.dir_fd(BACKUPS, create=True)
            try:
                stamp = self.now.strftime("%Y%m%d-%H%M%S")
                n = 1
                while True:
                    name = stamp if n == 1 else f"{stamp}-{n}"
                    if not _exists(f"{name}.after", base):
                        try:
                            os.mkdir(name, 0o777, dir_fd=base)
                        except FileExistsError:
                            pass
                        else:
                            os.fsync(base)
                            break
                    n += 1
            finally:
                os.close(base)
            self._backup_name = name
        return self._backup_name

    def dir_fd(self, rel_dir: str, *, create: bool = False) -> int:
        """An fd of the workspace directory ``rel_dir`` (real, relative to the root), reached
        from the workspace fd one component at a time without following a symlink."""
        return open_dir_fd(self.root_fd, rel_dir, create=create)

    def _parent(self, real: Path, *, create: bool = False) -> tuple[int, str]:
        """(fd of the directory of ``real``, its name in it)."""
        rel = real.relative_to(self.root).as_posix()
        folder, _, name = rel.rpartition("/")
        return self.dir_fd(folder, create=create), name

    def _copy_to(self, rel: str, data: bytes, mode: int | None) -> None:
        folder, _, name = rel.rpartition("/")
        parent = self.dir_fd(folder, create=True)
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name, dir_fd=parent)  # a copy made before a retry
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
            fd = os.open(name, flags, 0o600, dir_fd=parent)
            try:
                write_synced(fd, data, mode)
            finally:
                os.close(fd)
            os.fsync(parent)
        finally:
            os.close(parent)

    # -- one file ----------------------------------------------------------------------
    def _changed_since(self, plan: _Plan, parent: int, name: str) -> bool:
        """Did anyone touch the file between our read and now? (writers that skip locks)"""
        try:
            st = os.stat(name, dir_fd=parent, follow_symlinks=False)
        except FileNotFoundError:
            return plan.st is not None
        if plan.st is None:
            return True
        before = (plan.st.st_ino, plan.st.st_dev, plan.st.st_size, plan.st.st_mtime_ns)
        return before != (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns)

    def _prune_empty_dirs(self, folder: Path) -> None:
        """Directories left empty by removing a created file go too (never the root)."""
        root = self.root.resolve()
        while folder != root and root in folder.parents:
            try:
                parent, name = self._parent(folder)
            except (OSError, PathEscape):
                return
            try:
                os.rmdir(name, dir_fd=parent)  # only succeeds when empty
            except OSError:
                return
            finally:
                os.close(parent)
            folder = folder.parent

    def _replace(self, plan: _Plan) -> bool:
        """Write ``plan.new`` over the file (or remove it); False if it changed meanwhile."""
        parent, name = self._parent(plan.real, create=not plan.remove)
        try:
            return self._replace_in(plan, parent, name)
        finally:
            os.close(parent)

    def _replace_in(self, plan: _Plan, parent: int, name: str) -> bool:
        if plan.remove:
            if self._changed_since(plan, parent, name):
                return False
            os.unlink(name, dir_fd=parent)
            self.fault("replaced")
            os.fsync(parent)
            self.fault("dir-fsynced")
            self._prune_empty_dirs(plan.real.parent)
            return True
        assert plan.new is not None
        st = plan.st
        held: list[list] = []

        def unchanged() -> bool:
            fd = self._hold_old(plan, parent, name)
            if fd is False:
                return False
            if fd is not None:
                held.append([plan, fd, len(plan.old or b""), False])
                self.held.append(held[0])
            return True

        tmp = plan.tmp.rsplit("/", 1)[-1] if plan.tmp else f".{name}.{secrets.token_hex(4)}.tmp"
        done = atomic_write(
            plan.real,
            plan.new,
            mode=None if st is None else stat.S_IMODE(st.st_mode),
            new_mode=0o666,
            owner=None if st is None else (st.st_uid, st.st_gid),
            unchanged=unchanged,
            fault=self.fault,
            tmp=plan.real.with_name(tmp),
            dir_fd=parent,
        )
        if done and held:
            held[0][3] = True  # replaced: what reaches the old inode now is carried over
            self.carry(held[0])  # an append between the last check and the rename
        return done

    def _hold_old(self, plan: _Plan, parent: int, name: str) -> int | None | bool:
        """Open the file about to be replaced and check it is still what was read.

        Returns the open fd (None for a file being created), or False when it changed since
        it was read. The fd is held until the batch ends: appends that reach the old inode
        after this check, even after the rename, are seen through it (``carry``)."""
        if plan.st is None:
            return False if _exists(name, parent) else None
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC, dir_fd=parent)
        except FileNotFoundError:
            return False
        st = os.fstat(fd)
        if (st.st_ino, st.st_dev, st.st_size) != (
            plan.st.st_ino,
            plan.st.st_dev,
            len(plan.old or b""),
        ) or st.st_mtime_ns != plan.st.st_mtime_ns:
            os.close(fd)
            return False
        return fd

    def carry(self, held: list) -> None:
        """Bytes appended to a replaced file's old inode since they were read are appended
        to the new file (an agent's append is never lost) and reported."""
        plan, fd, seen, replaced = held
        if not replaced:
            return
        size = os.fstat(fd).st_size
        if size <= seen:
            return
        tail = os.pread(fd, size - seen, seen)
        held[2] = seen + len(tail)
        if not tail:
            return
        parent, name = self._parent(plan.real)
        try:
            out = os.open(name, os.O_WRONLY | os.O_APPEND | _NOFOLLOW | _CLOEXEC, dir_fd=parent)
        finally:
            os.close(parent)
        try:
            write_all(out, tail)
            os.fsync(out)
        finally:
            os.close(out)
        lines = [ln for ln in tail.decode("utf-8", "replace").split("\n") if ln.strip()]
        shown = "; ".join(repr(ln[:80]) for ln in lines[:3]) + (" …" if len(lines) > 3 else "")
        self.result.notes.append(
            f"{plan.rel} changed while writing: {len(lines)} line(s) another program appended "
            f"to it were carried into the new file ({shown})"
        )

    def release(self) -> None:
        """Last look at every old inode (late appends), then close them and the root."""
        for held in self.held:
            try:
                self.carry(held)
            except OSError as exc:
                self.result.notes.append(
                    f"{held[0].rel}: lines appended while writing may be lost ({exc.strerror})"
                )
            finally:
                os.close(held[1])
        self.held = []
        os.close(self.root_fd)

    def write_files(self, changed: list[_Plan], ready: list[_Plan]) -> dict[str, _Plan]:
        """Write the ``ready`` plans in order; {rel: plan as written or failed} of ``changed``."""
        ready_ids = {id(p) for p in ready}
        written: dict[str, _Plan] = {p.rel: p for p in changed if id(p) not in ready_ids}
        failed: set[str] = {f.decision for p in written.values() for f in p.failures}
        for plan in ready:
            if failed & set(plan.applied):
                # a decision whose text could not reach one file does not leave another
                reason = "not written: another file of the same decision could not be written"
                plan.failures += _failures(plan.applied, plan.rel, reason)
                failed.update(plan.applied)
                plan.applied = []
                self.journal_failure(plan)
                written[plan.rel] = plan
                continue
            plan = self.write(plan)
            failed.update(f.decision for f in plan.failures)
            written[plan.rel] = plan
        return written

    def copy_all(self, changed: list[_Plan]) -> list[_Plan]:
        """Make the copies of every changed file; the plans that are ready to be written."""
        ready: list[_Plan] = []
        for plan in changed:
            try:
                self.copies(plan)
            except PathEscape as exc:
                plan.failures += _failures(plan.applied, plan.rel, f"refused: {exc}")
                plan.applied = []
                continue
            except OSError as exc:
                plan.failures += _failures(plan.applied, plan.rel, _os_reason(exc, "backing up"))
                plan.applied = []
                continue
            ready.append(plan)
        return ready

    def copies(self, plan: _Plan) -> None:
        """Name the temp file and copy the old and the new bytes under backups/ (fsynced).

        Done for every file before the intent line, so a journal that names a batch always
        has both copies of each of its files: an interrupted batch can be finished or rolled
        back from any kill point."""
        plan.tmp = _temp_rel(plan.rel)
        mode = None if plan.st is None else stat.S_IMODE(plan.st.st_mode)
        if plan.old is not None:
            plan.backup = f"{BACKUPS}/{self.backup_name()}/{plan.rel}"
            self._copy_to(plan.backup, plan.old, mode)
        if plan.new is not None and not plan.remove:
            plan.after_copy = f"{BACKUPS}/{self.backup_name()}.after/{plan.rel}"
            self._copy_to(plan.after_copy, plan.new, mode)
        self.fault("backup")

    def write(self, plan: _Plan) -> _Plan:
        """Write and journal one changed file whose copies are made; return the plan written."""
        for attempt in range(_RETRIES):
            what = f"writing {plan.rel}"
            try:
                if attempt:
                    what = "backing up"
                    self.copies(plan)
                    self.journal({"type": "replan", **_file_record(plan)})
                    what = f"writing {plan.rel}"
                done = self._replace(plan)
            except PathEscape as exc:
                plan.failures += _failures(plan.applied, plan.rel, f"refused: {exc}")
                plan.applied = []
                self.journal_failure(plan)
                return plan
            except OSError as exc:
                plan.failures += _failures(plan.applied, plan.rel, _os_reason(exc, what))
                plan.applied = []
                self.journal_failure(plan)
                return plan
            if done:
                break
            # Someone wrote the file after we read it: start again from its new content.
            plan = _plan_file(self.root, plan.rel, self.jobs_by_rel[plan.rel])
            if not plan.changed:
                return plan
        else:
            reason = f"{plan.rel} kept changing while it was being written; try again"
            plan.failures += _failures(plan.applied, plan.rel, reason)
            plan.applied = []
            self.journal_failure(plan)
            return plan
        final = plan.final
        self.journal(
            {
                "type": "file",
                **_file_record(plan),
                "size_after": None if final is None else len(final),
                "applied": plan.applied,
            }
        )
        plan.written = True
        self.fault("journal-file")
        return plan

    def journal_failure(self, plan: _Plan) -> None:
        # Best effort: when the disk is full the journal can't grow either.
        try:
            self.journal({"type": "failed", "file": plan.rel, "reason": plan.failures[-1].reason})
        except OSError:
            pass


def _temp_rel(rel: str) -> str:
    """A fresh temp file name beside ``rel``: ``dir/.<name>.<random>.tmp``."""
    folder, _, name = rel.rpartition("/")
    tmp = f".{name}.{secrets.token_hex(4)}.tmp"
    return f"{folder}/{tmp}" if folder else tmp


def _file_record(plan: _Plan) -> dict:
    """How the journal names one file of a batch (intent, replan and file lines)."""
    return {
        "file": plan.rel,
        "before": sha256(plan.old),
        "after": sha256(plan.final),
        "created": plan.old is None,
        "removed": plan.remove,
        "backup": plan.backup,
        "after_copy": plan.after_copy,
        "tmp": None if plan.remove else plan.tmp,
    }


def _group_jobs(jobs: Iterable[FileJob]) -> dict[str, list[FileJob]]:
    grouped: dict[str, list[FileJob]] = {}
    for job in jobs:
        try:
            rel = check_rel(job.rel)
        except PathEscape:
            rel = job.rel
        grouped.setdefault(rel, []).append(job)
    return grouped


def _file_result(plan: _Plan, written: bool) -> FileResult:
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


def _collect(result: BatchResult, plan: _Plan, written: bool) -> None:
    result.conflicts += plan.conflicts
    result.failures += plan.failures
    result.applied += plan.applied
    if plan.changed:
        result.files.append(_file_result(plan, written))


def _new_batch_id(now: datetime) -> str:
    return f"{now:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


def apply_batch(
    root: Path | str,
    jobs: list[FileJob],
    decisions: list[dict],
    *,
    lock_files: Sequence[str] = DEFAULT_LOCK_FILES,
    now: datetime | None = None,
    dry_run: bool = False,
    lock_wait: float = 2.0,
    fault: Callable[[str], None] | None = None,
) -> BatchResult:
    """Apply a batch of decisions, one whole-file rewrite per changed file (DESIGN §4).

    ``decisions`` are recorded in the journal as given (JSON). Files are independent: a
    conflict or a failure in one leaves it untouched and the others still apply. With
    ``dry_run`` nothing at all is written, not even under ``.memreview/``, and the result's
    diffs say what would change. Raises LockHeld (nothing written) when a lock stays held
    for ``lock_wait`` seconds.
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
    )


def run_batch(
    root: Path | str,
    jobs: list[FileJob],
    decisions: list[dict],
    *,
    lock_files: Sequence[str] = DEFAULT_LOCK_FILES,
    now: datetime | None = None,
    dry_run: bool = False,
    lock_wait: float = 2.0,
    fault: Callable[[str], None] | None = None,
    kind: str = "apply",
    undoes: str | None = None,
    all_or_nothing: bool = False,
    extra: dict | None = None,
) -> BatchResult:
    """``apply_batch`` with the knobs undo needs.

    ``kind``/``undoes`` and the keys of ``extra`` go into the journal's intent and commit; with ``all_or_nothing`` a single conflict or
    failure found while computing means nothing is written (and nothing journaled).
    """
    real_root = Path(root).resolve()
    now = now or datetime.now().astimezone()
    step = _steps(fault, env_failpoint())
    result = BatchResult(batch_id=_new_batch_id(now), kind=kind, dry_run=dry_run)
    grouped = _group_jobs(jobs)

    if dry_run:
        for rel, rel_jobs in grouped.items():
            _collect(result, _plan_file(real_root, rel, rel_jobs), written=False)
        return result

    with workspace_locks(real_root, lock_files, lock_wait):
        step("locked")
        plans = [_plan_file(real_root, rel, rel_jobs) for rel, rel_jobs in grouped.items()]
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

        if any(p.rel.rsplit("/", 1)[-1] == "MEMORY.md" for p in changed):
            holder = wait_for_promotion_lock(real_root, lock_wait)
            if holder:
                raise LockHeld("MEMORY.md", holder)
        writer = _Writer(real_root, result, now, step, grouped)
        try:
            ready = writer.copy_all(changed)
            intent: dict = {
                "type": "intent",
                "kind": kind,
                "ts": now.isoformat(),
                "decisions": decisions,
                "files": [_file_record(p) for p in ready],  # in the order they are written
                **(extra or {}),
            }
            if undoes:
                intent["undoes"] = undoes
            writer.journal(intent)
            result.journaled = True
            step("intent")
            written = writer.write_files(changed, ready)
        finally:
            writer.release()
        for plan in plans:  # the result lists the files in job order
            if plan.rel in written:
                plan = written[plan.rel]
                _collect(result, plan, written=plan.written)
            else:
                _collect(result, plan, written=False)

        commit: dict = {
            "type": "commit",
            "kind": kind,
            "ts": now.isoformat(),
            "applied": result.applied,
            "files": [f.rel for f in result.files if f.written],
            "conflicts": [
                {"decision": c.decision, "file": c.file, "reason": c.reason}
                for c in result.conflicts
            ],
            "failures": [asdict(f) for f in result.failures],
        }
        commit.update(extra or {})
        if undoes:
            commit["undoes"] = undoes
        writer.journal(commit)
        step("commit")
    return result
