"""Runaway writes: a daily log far larger than the median of the ones before it, or whose
managed dreaming blocks are."""

from __future__ import annotations

import re
import statistics
from datetime import date, timedelta

from memreview.alarms.base import Alarm
from memreview.i18n import _
from memreview.workspace.model import Workspace

MANAGED_BLOCK_RE = re.compile(
    r"<!--\s*openclaw:dreaming:([\w-]+):start\s*-->.*?<!--\s*openclaw:dreaming:\1:end\s*-->",
    re.S | re.I,
)


def check_runaway(ws: Workspace, today: date) -> list[Alarm]:
    logs = sorted((d for d in ws.daily_logs if d.date <= today), key=lambda d: d.date)
    out: list[Alarm] = []
    sizes = [len(d.text_lower) for d in logs]
    for k, log in enumerate(logs):
        if log.date < today - timedelta(days=7):
            continue
        before = sizes[max(0, k - 28) : k]
        if len(before) < 7:
            continue
        median = statistics.median(before)
        if median > 0 and sizes[k] > ws.config.alarms_runaway_size * median:
            out.append(
                Alarm(
                    "runaway-write",
                    _("{file} is {times}× the median daily log").format(
                        file=log.rel, times=f"{sizes[k] / median:.0f}"
                    ),
                    (
                        _(
                            "{size} characters against a median of {median} over the previous "
                            "{count} logs"
                        ).format(size=f"{sizes[k]:,}", median=f"{median:,.0f}", count=len(before)),
                    ),
                    _("look for a loop writing into the log (dreaming fragments, a heartbeat)"),
                )
            )
    out.extend(_runaway_blocks(ws, today, logs))
    return out


def _block_chars(log) -> int:
    if "openclaw:dreaming:" not in log.text_lower:
        return 0
    return sum(len(m.group(0)) for m in MANAGED_BLOCK_RE.finditer(log.text_lower))


def _runaway_blocks(ws: Workspace, today: date, logs: list) -> list[Alarm]:
    """A daily log of the last week whose managed dreaming blocks are more than
    ``alarms.runaway_blocks`` times the median of the previous 14 logs' blocks."""
    blocks = [_block_chars(log) for log in logs]
    out: list[Alarm] = []
    for k, log in enumerate(logs):
        if log.date < today - timedelta(days=7) or not blocks[k]:
            continue
        before = [b for b in blocks[max(0, k - 14) : k] if b]
        if len(before) < 3:
            continue
        median = statistics.median(before)
        if blocks[k] > ws.config.alarms_runaway_blocks * median:
            out.append(
                Alarm(
                    "runaway-write",
                    _("{file}: its dreaming blocks are {times}× the median").format(
                        file=log.rel, times=f"{blocks[k] / median:.0f}"
                    ),
                    (
                        _(
                            "{size} characters in openclaw:dreaming blocks against a median of "
                            "{median} over the previous {count} logs with blocks"
                        ).format(size=f"{blocks[k]:,}", median=f"{median:,.0f}", count=len(before)),
                    ),
                    _(
                        "a dreaming phase wrote far more than usual: look at the log for "
                        "repeated fragments and at the dreaming cron's log"
                    ),
                )
            )
    return out
