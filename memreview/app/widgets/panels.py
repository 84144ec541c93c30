"""The small panes around the item list: queue list, pending bar, loading pane, top bar."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from rich.cells import cell_len, chop_cells
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, ProgressBar, Static
from textual.worker import get_current_worker

from memreview.app.keys import (
    HEALTH,
    decision_label,
    queue_key,
    queue_names,
    queue_short,
    queue_title,
)
from memreview.app.messages import (
    AlarmsReady,
    HealthReady,
    LoadFailed,
    LoadProgress,
    QueueChosen,
    QueueCounts,
    QueueReady,
    ScanOver,
    WorkspaceLoaded,
)
from memreview.app.widgets import theme_colour
from memreview.display import one_line
from memreview.i18n import _, ngettext
from memreview.workspace.cells import cut_cells

if TYPE_CHECKING:  # the first frame shows these panes: nothing of the decisions is imported
    from memreview.decisions import Decision


class QueueRow(Static):
    """One queue in the left pane: key, name, count; a click chooses it."""

    def __init__(self, queue: str, key: str) -> None:
        super().__init__(markup=False, classes="queue-row", id=f"queue-row-{queue}")
        self.queue = queue
        self.key = key
        self.title = queue_title(queue)
        self._shown: tuple | None = None  # what show() was last given, for a resize

    def show(
        self, count: int | None, staged: int = 0, note: str | None = None, hidden: int = 0
    ) -> None:
        self._shown = (count, staged, note, hidden)
        self.update(self._text(self.content_size.width, *self._shown), layout=False)
        empty = count == 0 and self.queue != HEALTH
        if self.has_class("-empty") != empty:
            self.set_class(empty, "-empty")

    def on_resize(self, _event: events.Resize) -> None:
        if self._shown is not None:
            self.update(self._text(self.content_size.width, *self._shown), layout=False)

    def _text(
        self, width: int, count: int | None, staged: int, note: str | None, hidden: int
    ) -> Text:
        """Two lines: key, name, count and staged mark (the name cut with "…" when the row
        is too narrow, never the count: a "…" at the end means "being computed"), then why
        the queue is empty or how many of its items are hidden."""
        tail = Text(end="")
        if count is not None:
            tail.append(f" {count:,}", "bold")  # as the list header writes it: 2,376
        elif self.queue != HEALTH:
            tail.append(" …", "dim")  # not known yet: the queue is being computed
        room = width - cell_len(self.key) - 1 - tail.cell_len
        if staged:
            mark = f"  ✓{staged}"
            if width and cell_len(self.title) + len(mark) > room:
                mark = mark[1:]  # short of room: one space, and the name gives way
            tail.append(mark)
            room -= len(mark)
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        t.append(f"{self.key} ", "bold")
        t.append(cut_cells(self.title, room) if width else self.title)
        t.append_text(tail)
        t.append("\n")
        if note and not count:
            t.append(f"  {one_line(note)}", "dim")
        elif hidden:
            t.append("  " + _("{count} hidden").format(count=hidden), "dim")
        return t

    def on_click(self, event: events.Click) -> None:
        self.post_message(QueueChosen(self.queue))


class QueueNav(Vertical, can_focus=False):
    """Left pane: the queues with their counts, and the health view."""

    def compose(self) -> ComposeResult:
        yield Label(_("Queues"), classes="pane-title")
        for k, q in enumerate(queue_names(), 1):
            yield QueueRow(q, queue_key(k))
        yield QueueRow(HEALTH, "h")

    def on_mount(self) -> None:
        for r in self.query(QueueRow):
            r.show(None)  # "…": not known until the scan says

    def show_counts(self, counts: dict[str, int]) -> None:
        """Counts known before the workspace is read (the cache's); the others "…" (being
        computed: a count from before a write would be stale)."""
        for queue in queue_names():
            self.row(queue).show(counts.get(queue))

    def row(self, queue: str) -> QueueRow:
        return self.query_one(f"#queue-row-{queue}", QueueRow)

    def show_queue(
        self, queue: str, result, staged: int, computing: set[str] | None = None
    ) -> None:
        """The row of ``queue``: its items in ``result`` ("…" while it is computed: a queue
        of ``result``'s pending ones, or of ``computing`` when given), ``staged`` decisions,
        why it is empty or how many of its items are hidden."""
        if computing is None:
            computing = getattr(result, "pending", None) or set()
        pending = queue in computing
        self.row(queue).show(
            None if pending else len(result.queues.get(queue, [])),
            staged,
            result.missing.get(queue),
            (getattr(result, "hidden", None) or {}).get(queue, 0),
        )

    def set_current(self, queue: str) -> None:
        for r in self.query(QueueRow):
            current = r.queue == queue
            if r.has_class("-current") != current:  # a class change restyles the row
                r.set_class(current, "-current")


class QueueBar(Static):
    """The queues on one line, for screens too narrow for the left pane: the current one
    named in full, the others as short as the width needs (``2 Supe 3``, then ``2·3``).
    A click on a queue chooses it."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(markup=False, id=id)
        self.counts: dict[str, int | None] = {}
        self.current = ""
        self._spans: list[tuple[int, int, str]] = []  # (first cell, past the last, queue)

    def show(self, counts: dict[str, int | None], current: str) -> None:
        self.counts, self.current = dict(counts), current
        self.refresh()

    def on_resize(self, _event: events.Resize) -> None:
        self.refresh()

    def render(self) -> Text:
        rows = [(queue_key(k), q) for k, q in enumerate(queue_names(), 1)] + [("h", HEALTH)]
        width = self.size.width
        for shorten in (None, 4, 0):
            t, spans = self._line(rows, shorten)
            if t.cell_len <= width:
                break
        self._spans = spans
        return t

    def _line(self, rows, shorten: int | None) -> tuple[Text, list[tuple[int, int, str]]]:
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        spans = []
        for key, queue in rows:
            count = self.counts.get(queue)
            title = queue_title(queue)
            current = queue == self.current
            if not current and shorten is not None:
                title = chop_cells(title, shorten)[0] if shorten else ""  # 4 cells: 2 CJK
            shown = f" {key} {title}" if title else f" {key}"
            if count is not None:
                shown += f" {count}" if title else f"·{count}"
            start = t.cell_len
            t.append(shown + " ", "bold reverse" if current else ("dim" if not count else ""))
            spans.append((start, t.cell_len, queue))
        return t, spans

    def on_click(self, event: events.Click) -> None:
        for start, end, queue in self._spans:
            if start <= event.x < end:
                event.stop()
                self.post_message(QueueChosen(queue))
                return


class PendingBar(Static):
    """The staged decisions, one line: count, then each kind of action with its tally, then
    whether they are saved. When the tallies don't fit, they end in "…": the count and the
    saved mark always show."""

    _shown: tuple[list[Decision], bool] | None = None

    def show(self, decisions: list[Decision], saved: bool) -> None:
        """``decisions``: every staged decision, oldest first; ``saved``: whether they are
        in pending.yaml."""
        self._shown = (decisions, saved)
        self._draw()

    def on_resize(self, _event: events.Resize) -> None:
        if self._shown is not None:
            self._draw()

    def _draw(self) -> None:
        assert self._shown is not None
        decisions, saved = self._shown
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        if not decisions:
            t.append(" " + _("No decisions staged."), "dim")
            self.update(t, layout=False)
            self.set_class(False, "-pending")
            return
        t.append(" " + _("{count} pending").format(count=len(decisions)) + " ", "bold reverse")
        tail = Text("   — ", end="")
        if saved:
            tail.append(_("saved"), "dim")
        else:
            tail.append(_("NOT SAVED (see the error)"), "bold")
        room = (self.size.width or self.app.size.width) - t.cell_len - tail.cell_len
        tallies = self._tallies(decisions)
        if sum(x.cell_len for x in tallies) > room:
            room -= 3  # for the "  …" saying some are left out
        for tally in tallies:
            if tally.cell_len > room:
                t.append("  …", "dim")
                break
            t.append_text(tally)
            room -= tally.cell_len
        t.append_text(tail)
        self.update(t, layout=False)
        self.set_class(True, "-pending")

    def _tallies(self, decisions: list[Decision]) -> list[Text]:
        """``  queue label ×n`` for each kind of staged action, in the order first staged."""
        tally: dict[tuple[str, str], int] = {}
        tones: dict[tuple[str, str], str] = {}
        for d in decisions:
            label, act = decision_label(d)
            k = (d.queue, label)
            tally[k] = tally.get(k, 0) + 1
            tones[k] = act.tone if act else "defer"
        out = []
        for (queue, label), n in tally.items():
            piece = Text(f"  {queue_short(queue)} ", "dim", end="")
            piece.append(label, f"bold {self._tone_colour(tones[(queue, label)])}")
            piece.append(f" ×{n}")
            out.append(piece)
        return out

    def _tone_colour(self, tone: str) -> str:
        return theme_colour(self.app, f"action-{tone}")


class LoadingPane(Vertical):
    """Loads the workspace in a worker thread, showing a progress bar and the current stage
    meanwhile; posts :class:`WorkspaceLoaded` or :class:`LoadFailed` (they bubble up).

    No spinner: its animation redraws many times a second on the same GIL as the scan, which
    made loading a 25,000-entry workspace half a second slower. The bar moves with the
    stages."""

    def compose(self) -> ComposeResult:
        yield Label(_("Loading the workspace…"), id="loading-title")
        yield ProgressBar(total=100, show_eta=False, id="loading-bar")
        yield Static("", id="loading-stage", markup=False)

    def start(
        self, scan, root: Path, today: date | None, first: str | None = None, shown: bool = True
    ) -> None:
        """Show the pane (unless not ``shown``: a rescan, whose queues say "computing…") and
        run ``scan(root, today=…, progress=…, first=…)`` in a worker (``first``: the queue
        to compute before the others)."""
        self.display = shown
        self.query_one("#loading-title", Label).update(_("Loading the workspace…"))
        self.query_one(ProgressBar).update(progress=0)
        self._load(scan, root, today, first)

    @work(thread=True, exclusive=True, group="scan")
    def _load(self, scan, root: Path, today: date | None, first: str | None = None) -> None:
        last = [-1.0, ""]

        def progress(stage: str, fraction: float) -> None:
            if stage != last[1] or fraction - last[0] >= 0.02:  # not a message per file
                last[0], last[1] = fraction, stage
                self.post_message(LoadProgress(stage, fraction))

        worker = get_current_worker()
        posted = [False]

        def emit(event) -> None:
            """The scan's events as messages, each as it happens (see memreview.scan)."""
            if worker.is_cancelled:  # a newer load is under way: its result wins
                return
            message = _message_of(event)
            if message is not None:
                posted[0] = posted[0] or isinstance(message, WorkspaceLoaded)
                self.post_message(message)

        from memreview.scan.collector import fewer_collections

        try:
            with fewer_collections():
                result = scan(root, today=today, progress=progress, emit=emit, first=first)
        except Exception as exc:  # shown in the pane: no traceback reaches the user
            if not worker.is_cancelled:
                self.post_message(LoadFailed(str(exc) or type(exc).__name__))
            return
        if not worker.is_cancelled and not posted[0]:  # a scan that tells nothing on the way
            self.post_message(WorkspaceLoaded(result))
        if not worker.is_cancelled:
            self.post_message(ScanOver())

    def on_load_progress(self, message: LoadProgress) -> None:
        message.stop()
        self.query_one(ProgressBar).update(progress=round(message.fraction * 100, 1))
        self.query_one("#loading-stage", Static).update(one_line(message.stage))

    def on_load_failed(self, message: LoadFailed) -> None:
        self.query_one("#loading-title", Label).update(_("Could not load the workspace"))
        self.query_one("#loading-stage", Static).update(one_line(message.reason))


def _message_of(event):
    """The app's message for one of the scan's events."""
    from memreview.scan import AlarmsDone, Counts, HealthDone, Loaded, QueueDone

    if isinstance(event, AlarmsDone):
        return AlarmsReady(event.alarms)
    if isinstance(event, Counts):
        return QueueCounts(event.counts)
    if isinstance(event, Loaded):
        return WorkspaceLoaded(event.result)
    if isinstance(event, QueueDone):
        return QueueReady(event.name, event.items)
    if isinstance(event, HealthDone):
        return HealthReady(event.health)
    return None


class TopBar(Static):
    """The first line: the workspace, its review date and how many warnings it raised."""

    def show(self, root: Path, result) -> None:
        # the review date and the warnings first: the path is what a narrow screen cuts
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        t.append(" memreview ", "bold reverse")
        if result is not None:
            t.append("  " + _("review date {date}").format(date=result.today.isoformat()))
            n = len(result.warnings)
            if n:
                warned = ngettext("{count} warning (h)", "{count} warnings (h)", n).format(count=n)
                t.append("  " + warned, "bold")
        else:
            t.append("  " + _("loading…"), "dim")
        t.append(f"  {one_line(str(root))}", "dim")
        self.update(t, layout=False)


class AlarmBanner(Static):
    """Under the top bar when an alarm fires: one line per alarm (at most ``SHOWN``), and
    ``h`` for the evidence and what to do. Hidden when nothing fires."""

    SHOWN = 3

    def show(self, alarms: list[dict]) -> None:
        """``alarms``: ``result.health["alarms"]`` (titles may quote memory text: made
        visible and masked by ``one_line``)."""
        self.display = bool(alarms)
        if not alarms:
            return
        alert = theme_colour(self.app, "budget-over", "red")
        t = Text(end="", no_wrap=True, overflow="ellipsis")
        for k, alarm in enumerate(alarms[: self.SHOWN]):
            if k:
                t.append("\n")
            t.append(" ⚠ " + _("ALARM") + " ", f"bold reverse {alert}")
            t.append(" " + one_line(str(alarm.get("title", ""))))
        more = len(alarms) - self.SHOWN
        t.append("\n " if len(alarms) > 1 or more > 0 else "   ")
        if more > 0:
            t.append(
                ngettext("   … and {n} more alarm", "   … and {n} more alarms", more).format(n=more)
                + "   ",
                "bold",
            )
        t.append(_("h: the evidence and what to do"), "dim")
        self.update(t)
