"""What a write that failed part-way did after all: a file whose rename went through before
a later step failed is written (``holds_final``), and a decision that failed in one file
after another file of the batch was written for it says so (``name_written``) — a failure
never claims a file unchanged that changed. A batch the disk has no room for is refused
whole before it starts (``no_room``)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from memreview.i18n import _
from memreview.store.batchplan import FilePlan
from memreview.store.paths import PathEscape


class _OpensParents(Protocol):
    """What of the batch writer this needs: its no-follow walk to a file's directory."""

    def _parent(self, real: Path) -> tuple[int, str]: ...


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def holds_final(writer: _OpensParents, plan: FilePlan) -> bool:
    """Does the file hold the batch's version now (a step after the rename failed)?"""
    try:
        parent, name = writer._parent(plan.real)
    except (OSError, PathEscape):
        return False
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC, dir_fd=parent)
    except FileNotFoundError:
        return plan.remove
    except OSError:
        return False
    finally:
        os.close(parent)
    try:
        st = os.fstat(fd)
        if plan.remove or plan.new is None or st.st_size < len(plan.new):
            return False
        if plan.st is not None and (st.st_ino, st.st_dev) == (plan.st.st_ino, plan.st.st_dev):
            return False  # still the old inode: not replaced
        # the batch's bytes, and perhaps lines another program appended since
        return os.pread(fd, len(plan.new), 0) == plan.new
    except OSError:
        return False
    finally:
        os.close(fd)


def name_written(plan: FilePlan, written: dict[str, FilePlan]) -> None:
    """A decision that failed in ``plan``'s file after other files of the batch were
    written for it: its failure says so (that file changed, this one did not)."""
    named = []
    for failure in plan.failures:
        others = [
            p.rel
            for p in written.values()
            if p.written and p.rel != plan.rel and failure.decision in p.applied
        ]
        if others and failure.decision:
            reason = failure.reason + _(
                "; but {files} had already been written for it, so its text may now be "
                "in both places (`memreview undo` takes the batch back)"
            ).format(files=", ".join(others))
            failure = replace(failure, reason=reason)
        named.append(failure)
    plan.failures = named


_MARGIN = 64 * 1024  # the journal's lines and the directories' entries


def no_room(root: Path, changed: list[FilePlan]) -> str | None:
    """Why the disk has no room for the batch (its backups, copies and temp files), or
    None: a batch that can't fit is refused before anything is written, rather than cut
    short half-way."""
    try:
        st = os.statvfs(root)
    except OSError:
        return None
    block = max(st.f_frsize, 512)

    def blocks(data: bytes | None) -> int:  # a file takes whole blocks
        return -(-len(data or b"") // block) * block + block

    # per file: its backup, the copy of its new version, its temp file
    need = _MARGIN + sum(blocks(p.old) + 2 * blocks(p.new) for p in changed)
    free = st.f_bavail * st.f_frsize
    if free >= need:
        return None
    return _(
        "not enough disk space: the batch needs about {need} KiB (backups and temp files), "
        "{free} KiB are free; nothing was written"
    ).format(need=(need + 1023) // 1024, free=free // 1024)


def torn_note(kept: str) -> str:
    """The note of a batch whose journal write first set a torn last line aside."""
    return _(
        "the journal's last line had been cut short while it was written; it was treated as "
        "not written and its bytes are kept in {copy}"
    ).format(copy=f".memreview/{kept}")
