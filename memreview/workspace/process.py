"""Whether a process named in a lock file still runs (lock files of memreview and the agent's
pipelines)."""

from __future__ import annotations

import os


def pid_alive(pid: int) -> bool:
    """True when a process with this pid exists (one we may not signal counts as alive)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OSError, OverflowError):  # a pid past what the kernel allows runs nowhere
        return False
    return True
