"""Whether this process ends with the command it runs (``memreview scan``, ``apply``…), set
by the program's entry point (``memreview.cli.run``), or goes on after it: the app, a test,
another program calling ``memreview.cli.main``. What only that changes reads it here (the
collector after a scan, ``memreview.scan.collector``); and how many cores it may run on.
"""

from __future__ import annotations

import os

_ends_with_command = False


def ends_with_its_command(value: bool = True) -> None:
    """This process ends once its command is done (``value``)."""
    global _ends_with_command
    _ends_with_command = value


def one_shot() -> bool:
    """Whether this process ends once its command is done."""
    return _ends_with_command


def cores() -> int:
    """How many cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # (not Linux)
        return os.cpu_count() or 1
