"""Every message the app's widgets, screens and workers post, in one place.

A widget or a worker posts one of these; whoever shows its consequence handles it by name
(``on_workspace_loaded``…). Keeping them here shows at a glance what travels between the
parts of the app, and lets a screen handle a widget's message without importing the widget.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

from memreview.i18n import N_

if TYPE_CHECKING:
    from memreview.app.backend import Outcome, Preview

# What the preview of a decision shows: the diffs by file (or None) and a note.
PreviewResult = tuple[dict[str, str] | None, str]


@dataclass
class SessionChanged(Message):
    """The review's state changed (``change`` says what): the review screen redraws that."""

    change: Any  # memreview.app.session.Change


@dataclass
class QueueChosen(Message):
    """A queue was clicked in the left pane."""

    queue: str


@dataclass
class LoadProgress(Message):
    """The scan of the workspace reached ``stage``; ``fraction`` of it is done."""

    stage: str
    fraction: float


@dataclass
class WorkspaceLoaded(Message):
    """The workspace is read: ``result`` is its model and the queues computed so far (the
    others are in ``result.pending`` and follow as :class:`QueueReady`)."""

    result: Any


@dataclass
class QueueCounts(Message):
    """The cache knows the queues' counts before the workspace is read."""

    counts: dict[str, int]


@dataclass
class QueueReady(Message):
    """One more queue of the loaded workspace was computed: ``items`` before hiding."""

    name: str
    items: list[dict]


@dataclass
class AlarmsReady(Message):
    """The alarms of the workspace being scanned, before its last queues and health."""

    alarms: list[dict]


@dataclass
class HealthReady(Message):
    """The last of a scan: its health figures (every queue is computed)."""

    health: dict


class ScanOver(Message):
    """The scan's worker is done: the scan cache saved, nothing more made by it."""


@dataclass
class LoadFailed(Message):
    """The scan raised; ``reason`` is one line for the user."""

    reason: str


@dataclass
class PreviewReady(Message):
    """A worker computed what the decision named by ``key`` would write, on the workspace
    as it was when the previews were last forgotten ``generation`` times."""

    key: tuple
    heading: str
    result: PreviewResult
    generation: int = 0


@dataclass
class DiffPreviewed(Message):
    """The diff of every pending decision is ready (or ``problem`` says why not)."""

    preview: Preview | None
    problem: str | None


@dataclass
class BatchWritten(Message):
    """The pending decisions were written (or ``problem`` says why nothing was; ``stopped``:
    why the batch stopped part way)."""

    outcome: Outcome | None
    problem: str | None
    stopped: bool = False


@dataclass
class UndoDone(Message):
    """The last written batch was undone (or a batch cut short finished: ``title``), or not
    (``diff``: what stopped it)."""

    summary: str
    ok: bool
    diff: str = ""
    title: str = N_("Undo")
