"""Advisory locks around a write (docs/design.md §4).

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
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memreview.i18n import _
from memreview.store.paths import PathEscape, resolve_inside
from memreview.store.private import PRIVATE_DIR, dir_at, ensure_gitignore
from memreview.workspace.process import pid_alive

DEFAULT_LOCK_FILES: tuple[str, ...] = ("memory/.dreams/short-term-promotion.lock",)
LOCK_NAME = "lock"
OWN_LOCK = f"{PRIVATE_DIR}/{LOCK_NAME}"
_POLL = 0.05
_PID_LOCK = re.compile(rb"^\s*(\d{1,10}):(\d{1,16})\s*$")


class LockHeld(Exception):
    """Another process holds a lock: nothing was written and the batch stays pending."""

    def __init__(self, lock: str, detail: str = "") -> None:
        self.lock = lock
        self.detail = detail
        if detail:
            text = _(
                "{lock} is held by another process ({detail}); nothing was written, the "
                "decisions stay pending — try again in a moment"
            )
        else:
            text = _(
                "{lock} is held by another process; nothing was written, the decisions stay "
                "pending — try again in a moment"
            )
        super().__init__(text.format(lock=lock, detail=detail))


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
    return _("lock file written by running process {pid}").format(pid=pid)


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
        key = str(Path(root).resolve())
        mine = getattr(_held_here, "roots", None)
        if mine is None:
            mine = _held_here.roots = {}
        if not mine.get(key):  # this thread holds it already (own_lock): not taken twice
            flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
            with dir_at(root, PRIVATE_DIR) as parent:
                fd = os.open(LOCK_NAME, flags | getattr(os, "O_NOFOLLOW", 0), 0o644, dir_fd=parent)
                fds.append(fd)
                _acquire(fd, OWN_LOCK, None, deadline)
                # .gitignore written (when missing) once the lock is held, like every other
                # file of .memreview/: a temp file found there under the lock is a stray one
                ensure_gitignore(parent)
        held.append(OWN_LOCK)
        mine[key] = mine.get(key, 0) + 1
        try:
            yield held
        finally:
            mine[key] -= 1
    finally:
        for fd in reversed(fds):
            os.close(fd)


_held_here = threading.local()  # {workspace: how deep this thread holds its own lock}


@contextmanager
def own_lock(root: Path | str, wait: float) -> Iterator[None]:
    """Hold memreview's own lock around a read-modify-write of its files (state.yaml,
    pending.yaml, what was reviewed): a batch run inside takes it again for free."""
    with workspace_locks(root, (), wait):
        yield


# -- who holds what: for ``memreview doctor`` ---------------------------------------------


@dataclass(frozen=True)
class LockState:
    """A lock file as found: ``absent``, ``free``, ``held`` (by ``pid``, when known, through
    ``how``: ``flock`` or a ``pid:ms`` file) or ``stale`` (a ``pid:ms`` file whose process is
    gone); ``refused`` when it is a symlink or leaves the workspace (never followed)."""

    rel: str
    state: str
    pid: int | None = None
    how: str = ""

    def says(self) -> str:
        """One line: ``.memreview/lock: in use by process 123 (running, flock)``."""
        if self.state == "absent":
            return _("{file}: free (no lock file)").format(file=self.rel)
        if self.state == "free":
            return _("{file}: free").format(file=self.rel)
        if self.state == "refused":
            return _("{file}: a symlink or outside the workspace: not read").format(file=self.rel)
        if self.state == "stale":
            return _(
                "{file}: stale: written by process {pid}, which is no longer running "
                "(remove the file)"
            ).format(file=self.rel, pid=self.pid)
        if self.pid:
            return _("{file}: in use by process {pid} (running, {how})").format(
                file=self.rel, pid=self.pid, how=self.how
            )
        return _("{file}: in use by another process ({how})").format(file=self.rel, how=self.how)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.rel,
            "state": self.state,
            "pid": self.pid,
            "how": self.how or None,
            "text": self.says(),
        }


def lock_states(root: Path | str, lock_files: Iterable[str]) -> list[LockState]:
    """memreview's own lock, then each pipeline lock file: free, held (by whom) or stale.
    Reading a lock takes nothing: a shared ``flock`` tried and let go at once, never created."""
    out = []
    for rel in (OWN_LOCK, *lock_files):
        try:
            real = resolve_inside(root, rel)
        except PathEscape:
            out.append(LockState(rel, "refused"))
            continue
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(real, flags | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            out.append(LockState(rel, "absent"))
            continue
        except OSError:
            out.append(LockState(rel, "refused"))
            continue
        try:
            out.append(_state(rel, fd))
        finally:
            os.close(fd)
    return out


def _state(rel: str, fd: int) -> LockState:
    try:
        head = os.pread(fd, 64, 0)
    except OSError:
        head = b""
    match = _PID_LOCK.match(head)
    if match:
        pid = int(match.group(1))
        return LockState(rel, "held" if pid_alive(pid) else "stale", pid, "pid file")
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise
        return LockState(rel, "held", _flock_holder(os.fstat(fd)), "flock")
    fcntl.flock(fd, fcntl.LOCK_UN)
    return LockState(rel, "free")


def _flock_holder(st: os.stat_result) -> int | None:
    """The pid holding a ``flock`` on the file ``st`` describes, from /proc/locks (Linux)."""
    dev = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 6 and parts[1] == "FLOCK" and parts[5] == dev:
                    return int(parts[4]) if parts[4].isdigit() else None
    except OSError:
        return None
    return None
