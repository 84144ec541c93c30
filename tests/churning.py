"""A race made to show: ``call`` over and over while another thread runs ``churn`` (one
step at a time), both switching as often as the interpreter can. For the subprocess tests
of code that two threads reach at once (the interval is the whole process's)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable


def while_churning(churn: Callable[[], None], call: Callable[[], object], times: int) -> list[str]:
    """The RuntimeErrors ``call()`` raised in ``times`` calls while ``churn()`` ran."""
    sys.setswitchinterval(1e-6)
    stop: list[bool] = []

    def run() -> None:
        while not stop:
            churn()

    thread = threading.Thread(target=run)
    thread.start()
    failed = []
    try:
        for _ in range(times):
            try:
                call()
            except RuntimeError as exc:
                failed.append(str(exc))
    finally:
        stop.append(True)
        thread.join()
    return failed
