"""What planning and applying need from a scan, as a type of this floor.

The scan (:class:`memreview.scan.ScanResult`) lives on the floor above the decisions, so
the planner names only the few things it reads — the workspace as loaded, the review date
and the items by id — and any object that has them will do (the app's and the tests' too).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any, Protocol

from memreview.workspace.model import Workspace


class ScannedWorkspace(Protocol):
    """A loaded workspace with its queues computed on a review date."""

    root: Path
    today: date
    workspace: Workspace

    def item(self, item_id: str) -> tuple[str, dict[str, Any]] | None:
        """(queue, item) for an item id, hidden items included; None when unknown."""
        ...
