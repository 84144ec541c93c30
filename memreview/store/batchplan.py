"""The planning phase of a batch, under the locks and before any write: each file is read as
it is now and its jobs run over that content, in order (``plan_file``); what a file will
become is a ``FilePlan``. Nothing here writes."""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memreview.i18n import _
from memreview.store.jobs import Conflict, Failure, FileJob, sha256
from memreview.store.paths import (
    PathEscape,
    check_rel,
    read_fd,
    resolve_inside,
    safe_open_read,
)
from memreview.workspace.textfile import EncodeError, decode_bytes


@dataclass
class FilePlan:
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


def job_decisions(job: FileJob) -> list[str]:
    keys = getattr(job, "decisions", None)
    return list(keys) if keys else [""]


def failures_for(keys: Iterable[str], rel: str, reason: str) -> list[Failure]:
    return [Failure(key, rel, reason) for key in keys] or [Failure("", rel, reason)]


def os_reason(exc: OSError, what: str) -> str:
    """Why writing failed, in words: ``what`` is the step (``backing up``, ``writing X``)."""
    if exc.errno == errno.ENOSPC:
        text = _("disk full while {what}; the file was left as it was")
    elif exc.errno in (errno.EACCES, errno.EPERM):
        text = _("permission denied while {what}; the file was left as it was")
    elif exc.errno == errno.EROFS:
        text = _("read-only file system while {what}; the file was left as it was")
    else:
        text = _("{error} while {what}; the file was left as it was")
    return text.format(what=what, error=exc.strerror or exc)


def read_current(root: Path, rel: str) -> tuple[bytes | None, os.stat_result | None]:
    try:
        fd, st = safe_open_read(root, rel)
    except FileNotFoundError:
        return None, None
    try:
        return read_fd(fd, st.st_size + 1), st
    finally:
        os.close(fd)


def plan_file(root: Path, rel: str, jobs: Sequence[FileJob]) -> FilePlan:
    """Read ``rel`` now and run its jobs over the content, in order."""
    all_keys = [k for job in jobs for k in job_decisions(job)]
    try:
        real = resolve_inside(root, rel)
        old, st = read_current(root, rel)
    except PathEscape as exc:
        plan = FilePlan(rel, Path(), None, None)
        plan.failures = failures_for(all_keys, rel, _("refused: {reason}").format(reason=exc))
        return plan
    except OSError as exc:
        plan = FilePlan(rel, Path(), None, None)
        reason = _("cannot read {file}: {error}").format(file=rel, error=exc.strerror or exc)
        plan.failures = failures_for(all_keys, rel, reason)
        return plan
    plan = FilePlan(rel, real, old, st)
    data, removed = old, False
    for job in jobs:
        current = None if data is None else decode_bytes(rel, data)
        try:
            outcome = job.compute(current)
        except (EncodeError, PathEscape, UnicodeError, OSError) as exc:
            plan.failures += failures_for(job_decisions(job), rel, str(exc))
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


def group_jobs(jobs: Iterable[FileJob]) -> dict[str, list[FileJob]]:
    grouped: dict[str, list[FileJob]] = {}
    for job in jobs:
        try:
            rel = check_rel(job.rel)
        except PathEscape:
            rel = job.rel
        grouped.setdefault(rel, []).append(job)
    return grouped


def temp_rel(rel: str) -> str:
    """A fresh temp file name beside ``rel``: ``dir/.<name>.<random>.tmp``."""
    folder, _, name = rel.rpartition("/")
    tmp = f".{name}.{secrets.token_hex(4)}.tmp"
    return f"{folder}/{tmp}" if folder else tmp


def file_record(plan: FilePlan) -> dict[str, Any]:
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
