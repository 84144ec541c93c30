"""The write phase of a batch, under the locks: for each changed file a backup, a temp file,
fsync, a rename over the real path and an fsync of its directory, with the journal's lines
between (docs/design.md §4). ``BatchWriter`` holds the directory descriptors and the old files'
handles while it works; ``safewrite.run_batch`` drives it."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from memreview.i18n import _, ngettext
from memreview.store.atomic import atomic_write, write_all, write_synced
from memreview.store.batchplan import (
    FilePlan,
    failures_for,
    file_record,
    os_reason,
    plan_file,
    temp_rel,
)
from memreview.store.halfdone import holds_final, name_written, torn_note
from memreview.store.jobs import BatchResult, FileJob
from memreview.store.paths import PathEscape, open_dir_fd
from memreview.store.private import PRIVATE_DIR, append_line

JOURNAL = "journal.jsonl"
BACKUPS = f"{PRIVATE_DIR}/backups"
_RETRIES = 3
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def exists_at(name: str, dir_fd: int) -> bool:
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


class BatchWriter:
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
        self.replaced = 0  # files replaced (or removed) so far
        # old inodes of replaced files, held open until the batch ends: (plan, fd, bytes seen)
        self.held: list[list[Any]] = []
        # the workspace, opened once: every create and rename is relative to directory fds
        self.root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)

    # -- journal ---------------------------------------------------------------------
    def journal(self, record: dict[str, Any]) -> None:
        record = {"type": record.pop("type"), "batch": self.result.batch_id, **record}
        line = json.dumps(record, ensure_ascii=False, default=str)
        if kept := append_line(self.root, JOURNAL, line):
            self.result.notes.append(torn_note(kept))

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
                    if not exists_at(f"{name}.after", base):
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
    def _changed_since(self, plan: FilePlan, parent: int, name: str) -> bool:
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

    def _replace(self, plan: FilePlan) -> bool:
        """Write ``plan.new`` over the file (or remove it); False if it changed meanwhile."""
        parent, name = self._parent(plan.real, create=not plan.remove)
        try:
            done = self._replace_in(plan, parent, name)
        finally:
            os.close(parent)
        self.replaced += done
        return done

    def _replace_in(self, plan: FilePlan, parent: int, name: str) -> bool:
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
        held: list[list[Any]] = []

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

    def _hold_old(self, plan: FilePlan, parent: int, name: str) -> int | None | bool:
        """Open the file about to be replaced and check it is still what was read.

        Returns the open fd (None for a file being created), or False when it changed since
        it was read. The fd is held until the batch ends: appends that reach the old inode
        after this check, even after the rename, are seen through it (``carry``)."""
        if plan.st is None:
            return False if exists_at(name, parent) else None
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

    def carry(self, held: list[Any]) -> None:
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
        note = ngettext(
            "{file} changed while writing: {count} line another program appended to it was "
            "carried into the new file ({lines})",
            "{file} changed while writing: {count} lines another program appended to it were "
            "carried into the new file ({lines})",
            len(lines),
        )
        self.result.notes.append(note.format(file=plan.rel, count=len(lines), lines=shown))

    def release(self) -> None:
        """Last look at every old inode (late appends), then close them and the root."""
        for held in self.held:
            try:
                self.carry(held)
            except OSError as exc:
                self.result.notes.append(
                    _("{file}: lines appended while writing may be lost ({error})").format(
                        file=held[0].rel, error=exc.strerror
                    )
                )
            finally:
                os.close(held[1])
        self.held = []
        os.close(self.root_fd)

    def write_files(self, changed: list[FilePlan], ready: list[FilePlan]) -> dict[str, FilePlan]:
        """Write the ``ready`` plans in order; {rel: plan as written or failed} of ``changed``."""
        ready_ids = {id(p) for p in ready}
        written: dict[str, FilePlan] = {p.rel: p for p in changed if id(p) not in ready_ids}
        failed: set[str] = {f.decision for p in written.values() for f in p.failures}
        for plan in ready:
            if failed & set(plan.applied):
                # a decision whose text could not reach one file does not leave another
                reason = _("not written: another file of the same decision could not be written")
                plan.failures += failures_for(plan.applied, plan.rel, reason)
                failed.update(plan.applied)
                plan.applied = []
                self.journal_failure(plan)
                written[plan.rel] = plan
                continue
            plan = self.write(plan)
            failed.update(f.decision for f in plan.failures)
            written[plan.rel] = plan
            if plan.failures:
                name_written(plan, written)
        return written

    def copy_all(self, changed: list[FilePlan]) -> list[FilePlan]:
        """Make the copies of every changed file; the plans that are ready to be written."""
        ready: list[FilePlan] = []
        for plan in changed:
            try:
                self.copies(plan)
            except PathEscape as exc:
                reason = _("refused: {reason}").format(reason=exc)
                plan.failures += failures_for(plan.applied, plan.rel, reason)
                plan.applied = []
                continue
            except OSError as exc:
                reason = os_reason(exc, _("backing up"))
                plan.failures += failures_for(plan.applied, plan.rel, reason)
                plan.applied = []
                continue
            ready.append(plan)
        return ready

    def copies(self, plan: FilePlan) -> None:
        """Name the temp file and copy the old and the new bytes under backups/ (fsynced).

        Done for every file before the intent line, so a journal that names a batch always
        has both copies of each of its files: an interrupted batch can be finished or rolled
        back from any kill point."""
        plan.tmp = temp_rel(plan.rel)
        mode = None if plan.st is None else stat.S_IMODE(plan.st.st_mode)
        if plan.old is not None:
            plan.backup = f"{BACKUPS}/{self.backup_name()}/{plan.rel}"
            self._copy_to(plan.backup, plan.old, mode)
        if plan.new is not None and not plan.remove:
            plan.after_copy = f"{BACKUPS}/{self.backup_name()}.after/{plan.rel}"
            self._copy_to(plan.after_copy, plan.new, mode)
        self.fault("backup")

    def write(self, plan: FilePlan) -> FilePlan:
        """Write and journal one changed file whose copies are made; return the plan written."""
        for attempt in range(_RETRIES):
            what = _("writing {file}").format(file=plan.rel)
            try:
                if attempt:
                    what = _("backing up")
                    self.copies(plan)
                    self.journal({"type": "replan", **file_record(plan)})
                    what = _("writing {file}").format(file=plan.rel)
                done = self._replace(plan)
            except PathEscape as exc:
                reason = _("refused: {reason}").format(reason=exc)
                plan.failures += failures_for(plan.applied, plan.rel, reason)
                plan.applied = []
                self.journal_failure(plan)
                return plan
            except OSError as exc:
                if holds_final(self, plan):  # replaced, then a later step failed: written
                    self.result.notes.append(
                        _("{file} was written, but {error} after that").format(
                            file=plan.rel, error=exc.strerror or exc
                        )
                    )
                    self.replaced += 1
                    done = True
                    break
                plan.failures += failures_for(plan.applied, plan.rel, os_reason(exc, what))
                plan.applied = []
                self.journal_failure(plan)
                return plan
            if done:
                break
            # Someone wrote the file after we read it: start again from its new content.
            plan = plan_file(self.root, plan.rel, self.jobs_by_rel[plan.rel])
            if not plan.changed:
                return plan
        else:
            reason = _("{file} kept changing while it was being written; try again").format(
                file=plan.rel
            )
            plan.failures += failures_for(plan.applied, plan.rel, reason)
            plan.applied = []
            self.journal_failure(plan)
            return plan
        final = plan.final
        self.journal(
            {
                "type": "file",
                **file_record(plan),
                "size_after": None if final is None else len(final),
                "applied": plan.applied,
            }
        )
        plan.written = True
        self.fault("journal-file")
        return plan

    def journal_failure(self, plan: FilePlan) -> None:
        # Best effort: when the disk is full the journal can't grow either.
        try:
            self.journal({"type": "failed", "file": plan.rel, "reason": plan.failures[-1].reason})
        except OSError:
            pass
