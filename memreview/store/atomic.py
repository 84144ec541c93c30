"""The one atomic whole-file write: temp file next to the target, fsync, rename, fsync the
directory (docs/design.md §4, step 4).

Every file memreview replaces — memory files, its own ``.memreview/`` files, the weekly
report's ``--out`` file, the user's config — goes through :func:`atomic_write`, so a crash
leaves either the old file or the new one, never half of one, and never a stray temp file.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

from memreview.store.paths import fsync_dir


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is written (a short write is not an error)."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def write_synced(fd: int, data: bytes, mode: int | None = None) -> None:
    """Give the open file ``fd`` the ``mode`` (if any) and all of ``data``, then fsync it."""
    if mode is not None:
        os.fchmod(fd, mode)
    write_all(fd, data)
    os.fsync(fd)


def temp_name(real: Path) -> Path:
    """A fresh temp file name next to ``real``: ``.<name>.<random>.tmp``."""
    return real.with_name(f".{real.name}.{secrets.token_hex(4)}.tmp")


def _no_fault(step: str) -> None:
    return None


def atomic_write(
    real: Path,
    data: bytes,
    *,
    mode: int | None = None,
    new_mode: int = 0o644,
    owner: tuple[int, int] | None = None,
    unchanged: Callable[[], bool] | None = None,
    fault: Callable[[str], None] = _no_fault,
    tmp: Path | None = None,
    dir_fd: int | None = None,
) -> bool:
    """Replace the file at the real (symlink-free) path ``real`` with ``data`` whole.

    The temp file gets permissions ``mode`` (the replaced file's, kept) or, for a new file,
    ``new_mode`` less the umask; with ``owner`` (uid, gid) it is handed to that owner when
    we may. ``unchanged`` is asked just before the rename: when it says False the temp file
    is removed, nothing is replaced and False is returned. On any error the temp file is
    removed and the error raised. ``fault`` is called after each step (for crash tests).
    ``tmp`` names the temp file (one the journal already names), else a fresh name is made.

    With ``dir_fd`` (an fd of ``real``'s directory) the temp file is created (``O_EXCL``,
    ``O_NOFOLLOW``) and renamed relative to it, so a directory on the way swapped for a
    symlink meanwhile can't redirect the write; only ``real.name`` is used then.
    """
    tmp = tmp or temp_name(real)
    at = {} if dir_fd is None else {"dir_fd": dir_fd}
    src, dst = (tmp, real) if dir_fd is None else (tmp.name, real.name)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(src, flags, new_mode if mode is None else 0o600, **at)
    try:
        try:
            if owner is not None and owner != (os.getuid(), os.getgid()):
                try:
                    os.fchown(fd, *owner)
                except OSError:
                    pass
            _write_steps(fd, data, mode, fault)
        finally:
            os.close(fd)
        if unchanged is not None and not unchanged():
            os.unlink(src, **at)
            return False
        fault("checked")
        if dir_fd is None:
            os.replace(src, dst)
        else:
            os.replace(src, dst, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        try:
            os.unlink(src, **at)
        except OSError:
            pass
        raise
    fault("replaced")
    if dir_fd is None:
        fsync_dir(real.parent)
    else:
        os.fsync(dir_fd)
    fault("dir-fsynced")
    return True


def _write_steps(fd: int, data: bytes, mode: int | None, fault: Callable[[str], None]) -> None:
    if mode is not None:
        os.fchmod(fd, mode)
    write_all(fd, data)
    fault("temp-written")
    os.fsync(fd)
    fault("temp-fsynced")
