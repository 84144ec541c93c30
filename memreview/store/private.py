"""memreview's own files under ``.memreview/`` (docs/design.md §4, last paragraphs).

``state.yaml`` and ``pending.yaml`` are rewritten whole (temp file, fsync, rename; no
backup: they are ours); ``journal.jsonl`` is only ever appended to, one fsynced line at a
time. The first write creates ``.memreview/.gitignore`` so backups, pending decisions and
the lock file stay out of the owner's git history.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from collections.abc import Collection, Iterator
from datetime import datetime
from pathlib import Path

from memreview.i18n import _
from memreview.store.atomic import atomic_write, write_all
from memreview.store.paths import (
    PathEscape,
    check_rel,
    open_dir_fd,
    read_fd,
    safe_open_read,
    safe_read_bytes,
    workspace_root,
)
from memreview.workspace.yamlcap import size_text

PRIVATE_DIR = ".memreview"
GITIGNORE_LINES = ("backups/", "pending.yaml", "lock")
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def private_rel(name: str) -> str:
    """The workspace-relative path of ``name`` inside ``.memreview/``.

    ``name`` may be given with or without the leading ``.memreview/``.
    """
    clean = check_rel(name)
    if clean == PRIVATE_DIR:
        raise PathEscape(
            _("{name!r} names the .memreview directory, not a file in it").format(name=name)
        )
    if clean.startswith(PRIVATE_DIR + "/"):
        return clean
    return f"{PRIVATE_DIR}/{clean}"


@contextlib.contextmanager
def dir_at(root: Path | str, rel_dir: str, *, create: bool = True) -> Iterator[int]:
    """An fd of directory ``rel_dir`` of the workspace, reached from the workspace opened once,
    one component at a time with ``O_NOFOLLOW`` (a component that is, or turned into, a
    symlink is refused with PathEscape naming it): whatever is swapped meanwhile, what is
    created or renamed relative to it stays in that directory."""
    root_fd = os.open(workspace_root(root), os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    try:
        fd = open_dir_fd(root_fd, rel_dir, create=create)
    finally:
        os.close(root_fd)
    try:
        yield fd
    finally:
        os.close(fd)


def ensure_gitignore(fd: int) -> None:
    """``.gitignore`` in the ``.memreview`` directory ``fd``, written when missing."""
    try:
        os.stat(".gitignore", dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        data = "".join(line + "\n" for line in GITIGNORE_LINES).encode("utf-8")
        atomic_write(Path(".gitignore"), data, dir_fd=fd)


@contextlib.contextmanager
def private_parent(root: Path | str, name: str) -> Iterator[tuple[int, str]]:
    """(an fd of the directory of ``.memreview/<name>``, created when missing, and the file's
    own name), ``.memreview/.gitignore`` written first when missing."""
    rel = private_rel(name)
    folder, _, base = rel.rpartition("/")
    with dir_at(root, PRIVATE_DIR) as top:
        ensure_gitignore(top)
        if folder == PRIVATE_DIR:
            yield top, base
            return
        fd = open_dir_fd(top, folder[len(PRIVATE_DIR) + 1 :], create=True)
        try:
            yield fd, base
        finally:
            os.close(fd)


def _mode_at(fd: int, name: str) -> int | None:
    """The permissions of the regular file ``name`` in directory ``fd``, None when absent."""
    try:
        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    return stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else None


def write_at(fd: int, name: str, data: bytes) -> None:
    """Atomically replace file ``name`` of the directory ``fd`` with ``data`` (its
    permissions kept), the temp file created and renamed relative to that fd."""
    atomic_write(Path(name), data, mode=_mode_at(fd, name), dir_fd=fd)


def write_private(root: Path | str, name: str, data: bytes) -> Path:
    """Atomically replace ``.memreview/<name>`` with ``data`` (temp file, fsync, rename)."""
    with private_parent(root, name) as (fd, base):
        write_at(fd, base, data)
    return workspace_root(root) / private_rel(name)


def read_private(root: Path | str, name: str) -> bytes | None:
    """The bytes of ``.memreview/<name>``, or None when it doesn't exist."""
    try:
        return safe_read_bytes(root, private_rel(name))
    except FileNotFoundError:
        return None


class TooLarge(OSError):
    """A file of memreview's own larger than memreview reads."""


def read_private_within(root: Path | str, name: str, limit: int) -> bytes | None:
    """The bytes of ``.memreview/<name>`` (a regular file inside the workspace), None when it
    doesn't exist; TooLarge when it holds more than ``limit`` bytes (never read whole)."""
    rel = private_rel(name)
    try:
        fd, st = safe_open_read(root, rel)
    except FileNotFoundError:
        return None
    try:
        if st.st_size > limit:
            raise _too_large(rel, st.st_size, limit)
        data = read_fd(fd, st.st_size + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise _too_large(rel, len(data), limit)
    return data


def _too_large(rel: str, size: int, limit: int) -> TooLarge:
    return TooLarge(
        _("{file} is {size}, more than the {limit} allowed; not read").format(
            file=rel, size=size_text(size), limit=size_text(limit)
        )
    )


def rename_private(root: Path | str, name: str, new: str) -> None:
    """Rename ``.memreview/<name>`` to ``.memreview/<new>`` in its folder (a link is renamed
    as the link; an existing ``new`` is never replaced: a numbered name is taken instead)."""
    with private_parent(root, name) as (fd, base):
        target = private_rel(new).rpartition("/")[2]
        for n in range(1000):
            free = target if n == 0 else f"{target}-{n}"
            try:
                os.stat(free, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                os.rename(base, free, src_dir_fd=fd, dst_dir_fd=fd)
                os.fsync(fd)
                return
        raise FileExistsError(errno.EEXIST, _("{file} already exists").format(file=new))


def remove_private_unlisted(
    root: Path | str, folder: str, pattern: re.Pattern[str], keep: Collection[str]
) -> None:
    """Remove the regular files of ``.memreview/<folder>/`` whose name matches ``pattern``
    and is not in ``keep`` (memreview's own copies no longer referred to); a link, a
    directory or any other name is left alone. A clean-up that can't be done (the folder is
    missing, a link, unreadable) does nothing: it comes after the write it tidies, which
    stands."""
    try:
        with dir_at(root, private_rel(folder), create=False) as fd:
            for name in os.listdir(fd):
                if name not in keep and pattern.fullmatch(name):
                    _unlink_regular(fd, name)
    except (OSError, PathEscape):
        return


def _unlink_regular(fd: int, name: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        if stat.S_ISREG(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
            os.unlink(name, dir_fd=fd)


_SURROGATE = re.compile("[\ud800-\udfff]")


def append_line(root: Path | str, name: str, line: str) -> str | None:
    """Append one line to the append-only file ``.memreview/<name>`` and fsync it.

    The line is written with one ``write`` call; when it fails (disk full, a file-size
    limit) the file is cut back to what it was, so no half line is left. If a crash left
    the file without a final newline (a torn last line), that line's bytes are kept in
    ``<name>.torn-<time>`` and cut off first, so the torn line never ends up in the middle
    of the file; the copy's name is returned (else None). The file is opened relative to
    its directory's fd, never through a symlink.
    """
    # a lone surrogate (text read from invalid UTF-8) is written as its JSON escape
    text = line.rstrip("\n")
    try:
        data = text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        data = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode("utf-8") + b"\n"
    flags = os.O_RDWR | os.O_APPEND | _CLOEXEC | _NOFOLLOW
    kept = None
    with private_parent(root, name) as (parent, base):
        fd = os.open(base, flags | os.O_CREAT, 0o644, dir_fd=parent)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                size, kept = _set_torn_aside(fd, parent, base, size)
            try:
                write_all(fd, data)
                os.fsync(fd)
            except OSError:
                # disk full, a file-size limit: the part written goes, the file stays whole
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, size)
                    os.fsync(fd)
                raise
        finally:
            os.close(fd)
        if not size:  # new (or empty): its name in the directory must survive a power cut
            os.fsync(parent)
    return kept


def _set_torn_aside(fd: int, parent: int, base: str, size: int) -> tuple[int, str]:
    """A last line without its newline was cut short while it was written (a kill, a full
    disk): its bytes go to ``<name>.torn-<time>`` beside the file and the file is cut back
    to its last whole line. Returns (the new size, the copy's name under .memreview/)."""
    whole = size
    step = 1 << 16
    while whole > 0:  # the last newline, read backwards a block at a time
        start = max(0, whole - step)
        block = os.pread(fd, whole - start, start)
        at = block.rfind(b"\n")
        if at >= 0:
            whole = start + at + 1
            break
        whole = start
    tail = os.pread(fd, size - whole, whole)
    name = f"{base}.torn-{datetime.now():%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"
    atomic_write(Path(name), tail, dir_fd=parent)  # kept first, so no byte is ever lost
    os.ftruncate(fd, whole)
    os.fsync(fd)
    return whole, name
