"""The child the app forked before its first thread (``memreview.ahead``), kept here until
the app's first scan of its workspace takes it (``memreview.scan.ahead``), or the app's end
ends it. Imports nothing of memreview: the launcher and the scan both reach it.
"""

from __future__ import annotations

import os
import signal
import threading
from dataclasses import dataclass
from datetime import date
from pathlib import Path


@dataclass
class Started:
    """The child forked ahead: its workspace, review date, process and pipe's read end."""

    root: str
    today: date | None
    pid: int
    fd: int
    started: float  # time.monotonic() at the fork


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
