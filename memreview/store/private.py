"""memreview's own files under ``.memreview/`` (DESIGN §4, last paragraphs).

``state.yaml`` and ``pending.yaml`` are rewritten whole (temp file, fsync, rename; no
backup: they are ours); ``journal.jsonl`` is only ever appended to, one fsynced line at a
time. The first write creates ``.memreview/.gitignore`` so backups, pending decisions and
the lock file stay out of the owner's git history.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from memreview.store.atomic import atomic_write, write_all
from memreview.store.paths import (
    PathEscape,
    check_rel,
    fsync_dir,
    make_dirs_inside,
    resolve_inside,
    safe_read_bytes,
)

PRIVATE_DIR = ".memreview"
GITIGNORE_LINES = ("backups/", "pending.yaml", "lock")


def private_rel(name: str) -> str:
    """The workspace-relative path of ``name`` inside ``.memreview/``.

    ``name`` may be given with or without the leading ``.memreview/``.
    """
    clean = check_rel(name)
    if clean == PRIVATE_DIR:
        raise PathEscape(f"{name!r} names the .memreview directory, not a file in it")
    if clean.startswith(PRIVATE_DIR + "/"):
        return clean
    return f"{PRIVATE_DIR}/{clean}"


def private_dir(root: Path | str) -> Path:
    """Create ``.memreview/`` (and its ``.gitignore``) if needed; return its real path."""
    real = make_dirs_inside(root, PRIVATE_DIR)
    gitignore = real / ".gitignore"
    if not gitignore.exists():
        data = "".join(line + "\n" for line in GITIGNORE_LINES).encode("utf-8")
        atomic_write(resolve_inside(root, f"{PRIVATE_DIR}/.gitignore"), data)
    return real


def write_private(root: Path | str, name: str, data: bytes) -> Path:
    """Atomically replace ``.memreview/<name>`` with ``data`` (temp file, fsync, rename)."""
    rel = private_rel(name)
    private_dir(root)
    parent = rel.rsplit("/", 1)[0]
    make_dirs_inside(root, parent)
    real = resolve_inside(root, rel)
    mode = None
    if real.exists():
        mode = real.stat().st_mode & 0o7777
    atomic_write(real, data, mode=mode)
    return real


def read_private(root: Path | str, name: str) -> bytes | None:
    """The bytes of ``.memreview/<name>``, or None when it doesn't exist."""
    try:
        return safe_read_bytes(root, private_rel(name))
    except FileNotFoundError:
        return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def append_line(root: Path | str, name: str, line: str) -> None:
    """Append one line to the append-only file ``.memreview/<name>`` and fsync it.

    The line is written with one ``write`` call. If a crash left the file without a final
    newline (a torn line), a newline is written first so the new line stays whole.
    """
    rel = private_rel(name)
    private_dir(root)
    make_dirs_inside(root, rel.rsplit("/", 1)[0])
    real = resolve_inside(root, rel)
    # a lone surrogate (text read from invalid UTF-8) is written as its JSON escape
    text = line.rstrip("\n")
    try:
        data = text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        data = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode("utf-8") + b"\n"
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NOFOLLOW", 0)
    existed = real.exists()
    fd = os.open(real, flags, 0o644)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    if not existed:
        fsync_dir(real.parent)
