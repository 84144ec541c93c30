"""The app's first frame: the title bar and the queues' names, shown while the rest of the
app (the review screen, the decisions, the store) is imported in a worker thread.

Only Textual, the small panes (``widgets/panels``) and the queue list as shipped
(``decisions/queue_list``) are imported for it, so that the first frame is on the screen
within a few hundredths of a second of Textual itself; the review screen then takes its
place, laid out the same way, and starts the scan.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen

from memreview.app.keys import HEALTH, queue_names
from memreview.app.widgets.panels import LoadingPane, QueueBar, QueueNav, TopBar


class StartScreen(Screen):
    """The review screen's frame (title bar, queues, loading pane) with nothing loaded."""

    # the review screen's widths (memreview.tcss): below 100 columns a line of queues
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-medium"), (140, "-wide"), (200, "-huge")]
    # the app's views wait for the review screen (it takes this screen's place); quit works
    APP_KEYS_OFF = ("help", "history", "archive", "command_palette")

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = Path(root)

    def compose(self) -> ComposeResult:
        yield TopBar(id="topbar", markup=False)
        yield QueueBar(id="queuebar")
        with Horizontal(id="body"):
            yield QueueNav(id="nav")
            yield LoadingPane(id="loading")

    def on_mount(self) -> None:
        self.query_one(TopBar).show(self.root, None)
        self.query_one(QueueBar).show({HEALTH: None}, queue_names()[0])
