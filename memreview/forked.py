"""Forking a child that sends to its parent down a pipe (``fork_child``: the scan's second
process, ``memreview.scan.apart``, and the app's, ``memreview.ahead``), and the child the
app forked before its first thread, kept here until the app's first scan of its workspace
takes it (``memreview.scan.ahead``) or the app's end ends it. Imports nothing of memreview:
the launcher and the scan both reach it.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Started:
    """The child forked ahead: its workspace, process and pipe's read end."""

    root: str
    pid: int
    fd: int
    started: float  # time.monotonic() at the fork


def fork_child(child: Callable[[int, int, set[signal.Signals]], None]) -> tuple[int, int]:
    """Fork, and in the child run ``child(write_end, parent_pid, mask)``, which never returns
    (it ends with ``os._exit``); in the parent, the child's pid and the pipe's read end
    (OSError: no process or pipe to be had). ^C is held back across the fork: a
    KeyboardInterrupt raised in the interpreter's own after-fork handlers would be printed and
    dropped. It comes once the fork is done, and then the child is ended first."""
    read_end, write_end = os.pipe()
    parent = os.getpid()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except BaseException:
        os.close(read_end)
        os.close(write_end)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        raise
    if pid == 0:  # the child
        os.close(read_end)
        try:
            child(write_end, parent, held)
        finally:
            os._exit(1)
    os.close(write_end)
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a ^C held back comes now
    except BaseException:
        end(Started("", pid, read_end, 0.0))
        raise
    return pid, read_end


_lock = threading.Lock()
_started: Started | None = None


def keep(started: Started) -> None:
    """Keep the child just forked (one at a time: one kept before is ended)."""
    global _started
    with _lock:
        before, _started = _started, started
    if before is not None:
        end(before)


def take(root: Path | str) -> Started | None:
    """The child forked ahead for ``root``, now the caller's to read and end (None: there is
    none, or a scan took it already)."""
    global _started
    with _lock:
        started = _started
        if started is None or started.root != os.path.realpath(root):
            return None
        _started = None
    return started


def stop_ahead() -> None:
    """The child ended, if no scan took it (the app is quitting, or its first scan needed
    none of its queues)."""
    global _started
    with _lock:
        started, _started = _started, None
    if started is not None:
        end(started)


def end(started: Started) -> None:
    """The child killed and reaped, its pipe closed."""
    os.close(started.fd)
    try:
        os.kill(started.pid, signal.SIGKILL)
        os.waitpid(started.pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass
