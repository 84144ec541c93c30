"""Keeping every write inside the workspace (DESIGN §4, "Paths").

Reads are checked by :mod:`memreview.workspace.paths` (re-exported here for the store's
own modules); this module adds what writing needs: creating directories inside the root,
one level at a time, and fsyncing them.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from memreview.workspace.paths import (
    NotARegularFile,
    PathEscape,
    SymlinkLoop,
    check_rel,
    read_fd,
    resolve_inside,
    safe_open_read,
    safe_read_bytes,
    workspace_root,
)

__all__ = [
    "NotARegularFile",
    "PathEscape",
    "SymlinkLoop",
    "check_rel",
    "fsync_dir",
    "make_dirs_inside",
    "read_fd",
    "resolve_inside",
    "safe_open_read",
    "safe_read_bytes",
    "workspace_root",
]


def fsync_dir(path: Path) -> None:
    """fsync a directory so a rename or a new entry in it survives a power cut."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make_dirs_inside(root: Path | str, rel_dir: str) -> Path:
    """Create a directory (and its parents) inside the workspace, checking each level.

    New directories are fsynced into their parents. Returns the real path.
    """
    real_root = workspace_root(root)
    clean = check_rel(rel_dir)
    current = real_root
    for part in clean.split("/"):
        step = current / part
        if not step.exists():
            try:
                os.mkdir(step)
            except FileExistsError:
                pass
            else:
                fsync_dir(current)
        resolved = step.resolve()
        if not resolved.is_relative_to(real_root):
            raise PathEscape(f"{clean} leads through {step} to {resolved}, outside the workspace")
        if not resolved.is_dir():
            raise OSError(errno.ENOTDIR, f"{part} in {clean} is not a directory")
        current = resolved
    return current
