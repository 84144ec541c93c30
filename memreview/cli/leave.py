"""Leaving the process once a command is done, without the interpreter's teardown.

A scan's model is millions of objects. Python's normal exit frees each one (0.13–0.16 s
after a cold scan of 25,000 entries) for nothing: the process is going away. ``leave`` flushes the standard
streams, runs the exit handlers, and ends the process at once, but only when nothing else
is running: a thread other than the main one that is not a daemon (a write still going)
gets the usual exit, which waits for it.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn


def leave(code: int) -> NoReturn:
    """End the process with ``code``: at once when only the main thread (and daemons) run
    and both standard streams flushed; else through ``sys.exit``."""
    if not _flushed() or _others_running():
        sys.exit(code)
    atexit._run_exitfuncs()  # what a normal exit runs first (none of memreview's own)
    if not _flushed():
        sys.exit(code)
    os._exit(code)


def _flushed() -> bool:
    """Whether stdout and stderr took everything written to them (a closed pipe: no)."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return False
    return True


def _others_running() -> bool:
    """Whether a thread that is neither the main one nor a daemon is still running."""
    main = threading.main_thread()
    return any(t is not main and not t.daemon and t.is_alive() for t in threading.enumerate())
