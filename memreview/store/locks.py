"""Advisory locks around a write (DESIGN §4).

memreview takes an exclusive ``flock`` on ``.memreview/lock`` and on each lock file of the
agent's own pipelines that exists, only for the few milliseconds of a write. Memory files
themselves are never locked: a rename swaps their inode, so a lock on them means nothing.

OpenClaw's memory-core does not use ``flock`` for ``short-term-promotion.lock``: it creates
the file exclusively, writes ``<pid>:<epoch ms>`` into it and deletes it when done. So a lock
file whose content has that shape and whose process is alive counts as held too.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from memreview.store.paths import PathEscape, resolve_inside
from memreview.store.private import PRIVATE_DIR, private_dir
from memreview.workspace.process import pid_alive

DEFAULT_LOCK_FILES: tuple[str, ...] = ("memory/.dreams/short-term-promotion.lock",)
OWN_LOCK = f"{PRIVATE_DIR}/lock"
_POLL = 0.05
_PID_LOCK = re.compile(rb"^\s*(\d{1,10}):(\d{1,16})\s*$")


class LockHeld(Exception):
    """Another process holds a lock: nothing was written and the batch stays pending."""

    def __init__(self, lock: str, detail: str = "") -> None:
        self.lock = lock
        self.detail = detail
        why = f" ({detail})" if detail else ""
        super().__init__(
            f"{lock} is held by another process{why}; nothing was written, "
            "the decisions stay pending — try again in a moment"
        )


def _pid_holder(real: Path) -> str | None:
    """The holder of an OpenClaw-style ``pid:ms`` lock file, or None if it isn't one/held."""
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        head = os.read(fd, 64)
    except OSError:
        return None
    finally:
        os.close(fd)
    match = _PID_LOCK.match(head)
    if not match:
        return None
    pid = int(match.group(1))
    if pid == os.getpid() or not pid_alive(pid):
        return None
    return f"lock file written by running process {pid}"


def _try_flock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


def _acquire(fd: int, rel: str, real: Path | None, deadline: float) -> None:
    while True:
        holder = _pid_holder(real) if real is not None else None
        if holder is None and _try_flock(fd):
            return
        if time.monotonic() >= deadline:
            raise LockHeld(rel, holder or "flock")
        time.sleep(_POLL)


@contextmanager
def workspace_locks(
    root: Path | str, lock_files: Iterable[str], wait: float
) -> Iterator[list[str]]:
    """Hold the pipeline locks that exist and memreview's own lock; yield the locks held.

    Pipeline locks are taken first (opening them read-only, creating nothing), so a held
    pipeline lock leaves the workspace untouched. Raises LockHeld after ``wait`` seconds.
    """
    deadline = time.monotonic() + max(wait, 0.0)
    fds: list[int] = []
    held: list[str] = []
    try:
        for rel in lock_files:
            try:
                real = resolve_inside(root, rel)
            except PathEscape:
                continue
            flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
            try:
                fd = os.open(real, flags | getattr(os, "O_NOFOLLOW", 0))
            except FileNotFoundError:
                continue
            fds.append(fd)
            _acquire(fd, rel, real, deadline)
            held.append(rel)
        private_dir(root)
        own = resolve_inside(root, OWN_LOCK)
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(own, flags | getattr(os, "O_NOFOLLOW", 0), 0o644)
        fds.append(fd)
        _acquire(fd, OWN_LOCK, None, deadline)
        held.append(OWN_LOCK)
        yield held
    finally:
        for fd in reversed(fds):
            os.close(fd)
