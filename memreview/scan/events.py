"""The scan's events, in the order a scan emits them to a screen that shows them one by
one: :class:`Counts` (from the cache, before anything is read; with the last scan's
:class:`AlarmsDone`), :class:`Loaded`, a :class:`QueueDone` per queue computed (with
:class:`AlarmsDone` after the first of them when none came before), :class:`HealthDone`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memreview.scan.result import ScanResult


@dataclass(frozen=True)
class Counts:
    """Event: the shown counts of the queues known from the cache, before anything is read."""

    counts: dict[str, int]


@dataclass(frozen=True)
class Loaded:
    """Event: the workspace is read; ``result`` holds the queues known so far and names the
    others in ``result.pending`` (the scan never changes this object afterwards)."""

    result: ScanResult


@dataclass(frozen=True)
class QueueDone:
    """Event: one queue computed (its items before hiding)."""

    name: str
    items: list[dict]


@dataclass(frozen=True)
class AlarmsDone:
    """Event: the alarms (``health["alarms"]``), once the first queue computed is out and
    before the others: a screen shows them long before the health figures. Or, on an open
    from the scan cache, those the last scan showed, with the counts known (the
    workspace's own then come with the health figures)."""

    alarms: list[dict]


def well_made(alarms: object) -> bool:
    """Whether ``alarms`` is a list of alarms as the health figures hold them (``Alarm.to_json``:
    id, title, evidence, todo): a scan cache's copy may be damaged, or written by someone
    else, and is then not told nor shown."""
    return isinstance(alarms, list) and all(
        isinstance(a, dict)
        and isinstance(a.get("id"), str)
        and isinstance(a.get("title"), str)
        and isinstance(a.get("todo"), str)
        and isinstance(a.get("evidence"), list)
        and all(isinstance(e, str) for e in a["evidence"])
        for a in alarms
    )


@dataclass(frozen=True)
class HealthDone:
    """Event: the health figures, last of all."""

    health: dict


Emit = Callable[[object], None]
