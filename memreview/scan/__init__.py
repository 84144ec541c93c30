"""Load a workspace and compute every queue: the model the CLI and the app share.

- ``run``: :func:`scan_workspace`, through the scan cache;
- ``computing``: the queues of a loaded workspace and the health figures (:func:`compute`);
- ``result``: :class:`ScanResult`, what ``scan --json`` prints and the app shows;
- ``events``: what a scan tells a screen on the way (:class:`Counts`, :class:`Loaded`,
  :class:`QueueDone`, :class:`AlarmsDone`, :class:`HealthDone`).

Importing this package imports only ``run`` and ``events``: the registry, the detectors and
the result's model are imported by the scan itself, after it has told the counts it knows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memreview import names_imported_on_use
from memreview.scan.events import AlarmsDone, Counts, Emit, HealthDone, Loaded, QueueDone
from memreview.scan.run import scan_workspace

_LATER = {
    "ScanResult": "result",
    "new_result": "result",
    "visible_items": "result",
    "limited": "result",
    "sorted_pending": "result",
    "compute": "computing",
    "ready_detectors": "computing",
    "ready_rescan": "computing",
}

__all__ = [
    "AlarmsDone",
    "Counts",
    "Emit",
    "HealthDone",
    "Loaded",
    "QueueDone",
    "ScanResult",
    "compute",
    "limited",
    "new_result",
    "ready_detectors",
    "ready_rescan",
    "scan_workspace",
    "sorted_pending",
    "visible_items",
]


__getattr__ = names_imported_on_use(__name__, _LATER)


if TYPE_CHECKING:
    from memreview.scan.computing import compute, ready_detectors, ready_rescan
    from memreview.scan.result import (
        ScanResult,
        limited,
        new_result,
        sorted_pending,
        visible_items,
    )
