"""Keeping every write inside the workspace (docs/design.md §4, "Paths").

Reads are checked by :mod:`memreview.workspace.paths` (re-exported here for the store's
own modules); this module adds what writing needs: creating directories inside the root,
one level at a time, and fsyncing them.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from memreview.i18n import _
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
            raise PathEscape(
                _("{path} leads through {step} to {target}, outside the workspace").format(
                    path=clean, step=step, target=resolved
                )
            )
        if not resolved.is_dir():
            raise OSError(
                errno.ENOTDIR,
                _("{part} in {path} is not a directory").format(part=part, path=clean),
            )
        current = resolved
    return current


def open_dir_fd(root_fd: int, rel_dir: str, *, create: bool = False) -> int:
    """An fd of directory ``rel_dir`` below the directory ``root_fd``, reached one component
    at a time with ``O_NOFOLLOW``: a component that is (or turned into) a symlink is refused
    with PathEscape naming it, so a write can never be redirected out of the workspace.

    With ``create``, missing directories are made (and fsynced into their parents). The
    caller closes the fd.
    """
    fd = os.dup(root_fd)
    done: list[str] = []
    flags = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    try:
        for part in (p for p in rel_dir.split("/") if p):
            if part in (".", ".."):
                raise PathEscape(
                    _("path {path!r} contains {part!r}").format(path=rel_dir, part=part)
                )
            where = "/".join([*done, part])
            try:
                nxt = os.open(part, flags, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=fd)
                    os.fsync(fd)
                nxt = _open_component(part, flags, fd, where)
            except OSError as exc:
                _refuse_symlink(part, fd, where, exc)
                raise
            os.close(fd)
            fd = nxt
            done.append(part)
        return fd
    except BaseException:
        os.close(fd)
        raise


def _open_component(part: str, flags: int, fd: int, where: str) -> int:
    try:
        return os.open(part, flags, dir_fd=fd)
    except OSError as exc:
        _refuse_symlink(part, fd, where, exc)
        raise


def _refuse_symlink(part: str, fd: int, where: str, exc: OSError) -> None:
    if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
        return
    try:
        st = os.stat(part, dir_fd=fd, follow_symlinks=False)
    except OSError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise PathEscape(
            _("{path} turned into a symlink; refused, nothing written there").format(path=where)
        )
