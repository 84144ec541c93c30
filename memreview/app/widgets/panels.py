"""The small panes around the item list: queue list, pending bar, loading pane."""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, ProgressBar, Static
from textual.worker import get_current_worker

from memreview.app.keys import HEALTH, QUEUE_TITLES, QUEUES, Act
from memreview.app.widgets import theme_colour
from memreview.display import one_line


class QueueRow(Static):
    """One queue in the left pane: key, name, count; a click chooses it."""

    class Chosen(Message):
        def __init__(self, queue: str) -> None:
            super().__init__()
            self.queue = queue

    def __init__(self, queue: str, key: str) -> None:
        super().__init__(markup=False, classes="queue-row", id=f"queue-row-{queue}")
        self.queue = queue
        self.key = key
        self.title = QUEUE_TITLES.get(queue, "Health")

    def show(
        self, count: int | None, staged: int = 0, note: str | None = None, hidden: int = 0
    ) -> None:
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        t.append(f"{self.key} ", "bold")
        t.append(self.title)
        if count is not None:
            t.append(f" {count}", "bold")
        if staged:
            t.append(f"  ✓{staged}")
        t.append("\n")
        if note and not count:
            t.append(f"  {one_line(note)}", "dim")
        elif hidden:
            t.append(f"  {hidden} hidden", "dim")
        self.update(t, layout=False)  # always two lines: no layout needed
        empty = not count and self.queue != HEALTH
        if self.has_class("-empty") != empty:
            self.set_class(empty, "-empty")

    def on_click(self, event: events.Click) -> None:
        self.post_message(self.Chosen(self.queue))


class QueueNav(Vertical, can_focus=False):
    """Left pane: the seven queues with their counts, and the health view."""

    def compose(self) -> ComposeResult:
        yield Label("Queues", classes="pane-title")
        for k, q in enumerate(QUEUES, 1):
            yield QueueRow(q, str(k))
        yield QueueRow(HEALTH, "h")

    def row(self, queue: str) -> QueueRow:
        return self.query_one(f"#queue-row-{queue}", QueueRow)

    def set_current(self, queue: str) -> None:
        for r in self.query(QueueRow):
            current = r.queue == queue
            if r.has_class("-current") != current:  # a class change restyles the row
                r.set_class(current, "-current")


class PendingBar(Static):
    """The staged decisions, one line: count, then each kind of action with its tally."""

    def show(self, decisions: list[tuple[str, Act, str]], saved: bool) -> None:
        """``decisions``: (queue, act, label) of every staged decision, oldest first."""
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        if not decisions:
            t.append(" No decisions staged.", "dim")
            self.update(t, layout=False)
            self.set_class(False, "-pending")
            return
        t.append(f" {len(decisions)} pending ", "bold reverse")
        tally: dict[tuple[str, str], int] = {}
        tones: dict[tuple[str, str], str] = {}
        for queue, act, label in decisions:
            k = (queue, label)
            tally[k] = tally.get(k, 0) + 1
            tones[k] = act.tone
        for (queue, label), n in tally.items():
            t.append(f"  {queue} ", "dim")
            t.append(label, f"bold {self._tone_colour(tones[(queue, label)])}")
            t.append(f" ×{n}")
        t.append("   — ")
        if saved:
            t.append("saved", "dim")
        else:
            t.append("NOT SAVED (see the error)", "bold")
        self.update(t, layout=False)
        self.set_class(True, "-pending")

    def _tone_colour(self, tone: str) -> str:
        return theme_colour(self.app, f"action-{tone}")


class LoadingPane(Vertical):
    """Loads the workspace in a worker thread, showing a progress bar and the current stage
    meanwhile; posts :class:`Loaded` or :class:`Failed` (they bubble up).

    No spinner: its animation redraws many times a second on the same GIL as the scan, which
    made loading a 25,000-entry workspace half a second slower. The bar moves with the
    stages."""

    class Progress(Message):
        def __init__(self, stage: str, fraction: float) -> None:
            super().__init__()
            self.stage = stage
            self.fraction = fraction

    class Loaded(Message):
        def __init__(self, result, seconds: float) -> None:
            super().__init__()
            self.result = result
            self.seconds = seconds

    class Failed(Message):
        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    def compose(self) -> ComposeResult:
        yield Label("Loading the workspace…", id="loading-title")
        yield ProgressBar(total=100, show_eta=False, id="loading-bar")
        yield Static("", id="loading-stage", markup=False)

    def start(self, scan, root: Path, today: date | None) -> None:
        """Show the pane and run ``scan(root, today=…, progress=…)`` in a worker."""
        self.display = True
        self.query_one("#loading-title", Label).update("Loading the workspace…")
        self.query_one(ProgressBar).update(progress=0)
        self._load(scan, root, today)

    @work(thread=True, exclusive=True, group="scan")
    def _load(self, scan, root: Path, today: date | None) -> None:
        last = [-1.0, ""]

        def progress(stage: str, fraction: float) -> None:
            if stage != last[1] or fraction - last[0] >= 0.02:  # not a message per file
                last[0], last[1] = fraction, stage
                self.post_message(self.Progress(stage, fraction))

        start = time.perf_counter()
        worker = get_current_worker()
        try:
            result = scan(root, today=today, progress=progress)
        except Exception as exc:  # shown in the pane: no traceback reaches the user
            if not worker.is_cancelled:
                self.post_message(self.Failed(str(exc) or type(exc).__name__))
            return
        if not worker.is_cancelled:  # a newer load is under way: its result wins
            self.post_message(self.Loaded(result, time.perf_counter() - start))

    def on_loading_pane_progress(self, message: Progress) -> None:
        message.stop()
        self.query_one(ProgressBar).update(progress=round(message.fraction * 100, 1))
        self.query_one("#loading-stage", Static).update(one_line(message.stage))

    def on_loading_pane_failed(self, message: Failed) -> None:
        self.query_one("#loading-title", Label).update("Could not load the workspace")
        self.query_one("#loading-stage", Static).update(one_line(message.reason))
