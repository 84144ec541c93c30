"""Keeping every read inside the workspace (docs/design.md §4, "Paths"): the one place paths are
checked and files are opened for reading, used by the loader and by the store.

Workspace files are named by paths relative to the workspace root, with ``/``. Before a
file is opened its path is resolved (following symlinks) and refused if it lands outside
the root: a memory file that is a symlink to ``~/.ssh/config`` is never read or written.
The file is then opened with ``O_NOFOLLOW`` (a symlink swapped in after the check is
refused) and ``O_NONBLOCK`` (a FIFO planted in the workspace can't hang us), and anything
but a regular file is refused.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path, PurePosixPath

from memreview.i18n import _


class PathEscape(ValueError):
    """A path that is not a plain relative path or that resolves outside the workspace."""


class SymlinkLoop(PathEscape):
    """A path whose symlinks lead round in a circle."""


class NotARegularFile(OSError):
    """A directory, FIFO, socket or device where a file was expected."""


def check_rel(rel: str) -> str:
    """Validate a workspace-relative path and return it normalised (``/``, no ``.`` parts).

    Refuses empty paths, NUL bytes, absolute paths and any ``..`` component: the files
    memreview touches never need one.
    """
    if not isinstance(rel, str) or not rel:
        raise PathEscape(_("empty path"))
    if "\x00" in rel:
        raise PathEscape(_("path {path!r} contains a NUL byte").format(path=rel))
    if rel.startswith("/"):
        raise PathEscape(
            _("path {path!r} is absolute; workspace paths are relative").format(path=rel)
        )
    parts = [p for p in PurePosixPath(rel).parts if p not in ("", ".")]
    if ".." in parts:
        raise PathEscape(
            _("path {path!r} contains '..'; it could leave the workspace").format(path=rel)
        )
    if not parts:
        raise PathEscape(
            _("path {path!r} names the workspace itself, not a file in it").format(path=rel)
        )
    return "/".join(parts)


def workspace_root(root: Path | str) -> Path:
    """The real (symlink-free) absolute path of the workspace root."""
    return Path(root).resolve()


def real_inside(real_root: Path, path: Path, name: str | None = None) -> Path:
    """The real path of ``path``, which must resolve inside ``real_root`` (or be it).

    ``real_root`` is already resolved. Raises SymlinkLoop for a symlink loop and PathEscape
    when the path, or a symlink on the way (even a dangling one), leads outside.
    """
    try:
        target = path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        raise SymlinkLoop(_("{path}: symlink loop").format(path=name or path)) from None
    if target != real_root and not target.is_relative_to(real_root):
        raise PathEscape(
            _("{path} resolves to {target}, outside the workspace {root}").format(
                path=name or path, target=target, root=real_root
            )
        )
    return target


def resolve_inside(root: Path | str, rel: str) -> Path:
    """The real path of ``rel`` inside ``root``, following symlinks.

    Raises PathEscape when ``rel`` is not a plain relative path or when it (or a symlink
    on the way, even a dangling one) resolves outside the workspace. The file itself need
    not exist.
    """
    real_root = workspace_root(root)
    clean = check_rel(rel)
    target = real_inside(real_root, real_root / clean, clean)
    if target == real_root:
        raise PathEscape(_("{path} resolves to the workspace root itself").format(path=clean))
    return target


def open_regular(real: Path, name: str) -> tuple[int, os.stat_result]:
    """Open the already-checked path ``real`` for reading; return (fd, stat).

    Raises PathEscape when it became a symlink after the check, NotARegularFile when it
    is not a regular file, FileNotFoundError or another OSError.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SymlinkLoop(
                _("{path} changed into a symlink while being opened").format(path=name)
            ) from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotARegularFile(errno.EINVAL, _("{path} is not a regular file").format(path=name))
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def read_fd(fd: int, size_hint: int = 0) -> bytes:
    """Read an open file to its end."""
    chunks: list[bytes] = []
    while True:
        chunk = os.read(fd, max(size_hint, 1 << 16))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def read_regular(real: Path, name: str) -> bytes:
    """The bytes of the already-checked path ``real`` (see :func:`open_regular`)."""
    fd, st = open_regular(real, name)
    try:
        return read_fd(fd, st.st_size + 1)
    finally:
        os.close(fd)


def safe_open_read(root: Path | str, rel: str) -> tuple[int, os.stat_result]:
    """Open ``rel`` for reading (a regular file inside the workspace); return (fd, stat)."""
    return open_regular(resolve_inside(root, rel), rel)


def safe_read_bytes(root: Path | str, rel: str) -> bytes:
    """The bytes of workspace file ``rel``; PathEscape if it (or a symlink) leaves the root."""
    return read_regular(resolve_inside(root, rel), rel)
