"""What every alarm module shares: the :class:`Alarm` record and the workspace's files and
state database as the alarms read them (only inside the workspace, read-only)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memreview.workspace.model import Workspace
from memreview.workspace.openclaw import find_state_db
from memreview.workspace.paths import safe_open_read


@dataclass(frozen=True)
class Alarm:
    """One alarm: a stable id, a one-line title, the evidence, and what to do."""

    id: str
    title: str
    evidence: tuple[str, ...]
    todo: str

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "evidence": list(self.evidence),
            "todo": self.todo,
        }


def file_size(ws: Workspace, rel: str) -> int | None:
    """The size of the regular file ``rel`` inside the workspace; None when there is none
    (or the setting names a path outside it)."""
    try:
        fd, st = safe_open_read(ws.root, rel)
    except (OSError, ValueError):
        return None
    os.close(fd)
    return st.st_size


def state_db(ws: Workspace) -> Path | None:
    return find_state_db(ws.root, ws.config.openclaw_state_db, os.environ)
