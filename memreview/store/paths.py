"""Keeping every read and write inside the workspace (DESIGN §4, "Paths").

Workspace files are named by paths relative to the workspace root, with ``/``. Before any
file is opened its path is resolved (following symlinks) and refused if it lands outside
the root: a memory file that is a symlink to ``~/.ssh/config`` is never read or written.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path, PurePosixPath


class PathEscape(ValueError):
    """A path that is not a plain relative path or that resolves outside the workspace."""


def check_rel(rel: str) -> str:
    """Validate a workspace-relative path and return it normalised (``/``, no ``.`` parts).

    Refuses empty paths, NUL bytes, absolute paths and any ``..`` component: the files
    memreview touches never need one.
    """
    if not isinstance(rel, str) or not rel:
        raise PathEscape("empty path")
    if "\x00" in rel:
        raise PathEscape(f"path {rel!r} contains a NUL byte")
    if rel.startswith("/"):
        raise PathEscape(f"path {rel!r} is absolute; workspace paths are relative")
    parts = [p for p in PurePosixPath(rel).parts if p not in ("", ".")]
    if ".." in parts:
        raise PathEscape(f"path {rel!r} contains '..'; it could leave the workspace")
    if not parts:
        raise PathEscape(f"path {rel!r} names the workspace itself, not a file in it")
    return "/".join(parts)


def workspace_root(root: Path | str) -> Path:
    """The real (symlink-free) absolute path of the workspace root."""
    return Path(root).resolve()


def resolve_inside(root: Path | str, rel: str) -> Path:
    """The real path of ``rel`` inside ``root``, following symlinks.

    Raises PathEscape when ``rel`` is not a plain relative path or when it (or a symlink
    on the way, even a dangling one) resolves outside the workspace. The file itself need
    not exist.
    """
    real_root = workspace_root(root)
    clean = check_rel(rel)
    target = (real_root / clean).resolve()
    if target != real_root and not target.is_relative_to(real_root):
        raise PathEscape(f"{clean} resolves to {target}, outside the workspace {real_root}")
    if target == real_root:
        raise PathEscape(f"{clean} resolves to the workspace root itself")
    return target


def safe_open_read(root: Path | str, rel: str) -> tuple[int, os.stat_result]:
    """Open ``rel`` for reading (a regular file inside the workspace); return (fd, stat).

    The resolved path is opened with ``O_NOFOLLOW`` so a symlink swapped in after the check
    is refused too, and ``O_NONBLOCK`` so a FIFO planted in the workspace can't hang us.
    Raises PathEscape, FileNotFoundError or another OSError.
    """
    real = resolve_inside(root, rel)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise PathEscape(f"{rel} changed into a symlink while being opened") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, f"{rel} is not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def read_fd(fd: int, size_hint: int = 0) -> bytes:
    """Read an open file to its end."""
    chunks = []
    while True:
        chunk = os.read(fd, max(size_hint, 1 << 16))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def safe_read_bytes(root: Path | str, rel: str) -> bytes:
    """The bytes of workspace file ``rel``; PathEscape if it (or a symlink) leaves the root."""
    fd, st = safe_open_read(root, rel)
    try:
        return read_fd(fd, st.st_size + 1)
    finally:
        os.close(fd)


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
