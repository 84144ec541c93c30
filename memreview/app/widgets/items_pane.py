"""The middle column: the queue's header line, its items, and the filter box under them."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Static

from memreview.app.widgets.item_list import ItemList
from memreview.display import one_line
from memreview.i18n import _


class ListHeader(Static):
    """Above the item list: the queue's title, the cursor's place and the filter."""

    def show(
        self,
        title: str,
        cursor: int,
        count: int,
        filter_text: str,
        total: int,
        pending: bool = False,
    ) -> None:
        """``pending``: the queue is still being computed ("…" in place of "0 of 0")."""
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        t.append(title, "bold")
        if pending and not count:
            t.append("   …", "dim")
        elif count:
            t.append("   " + _("{n} of {count}").format(n=f"{cursor + 1:,}", count=f"{count:,}"))
        else:
            t.append("   " + _("{n} of {count}").format(n=0, count=0))
        if filter_text:
            shown = _("filter “{text}” · {total} in all").format(
                text=one_line(filter_text), total=f"{total:,}"
            )
            t.append("   " + shown, "dim")
        self.update(t, layout=False)


class ItemsPane(Vertical):
    """The items of the current queue; ``/`` opens the filter box, which filters as it is
    typed; enter keeps the filter (an empty one closes the box)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._queue: str | None = None  # the queue whose items show
        self._cursor_ids: dict[str, str] = {}  # per queue, the item the cursor was on

    def compose(self) -> ComposeResult:
        yield ListHeader(id="list-header", markup=False)
        yield ItemList(id="items")
        yield Input(placeholder=_("filter…"), id="filter")

    def on_mount(self) -> None:
        self.filter_box.display = False

    @property
    def items(self) -> ItemList:
        return self.query_one(ItemList)

    @property
    def filter_box(self) -> Input:
        return self.query_one("#filter", Input)

    @property
    def filtering(self) -> bool:
        """Whether the filter box shows."""
        return bool(self.filter_box.display)

    def show_queue(self, queue: str, items: list[dict], empty_text: str) -> None:
        """Show the items of ``queue``, the cursor on the item it was on when the queue last
        showed (at the same place in the list when that item is gone): unfiltered, unless
        it is the queue shown already (drawn anew after a write) with a filter kept."""
        current = self.items.current
        if current is not None and self._queue is not None:
            self._cursor_ids[self._queue] = current["id"]
        kept = self.items.filter_text if queue == self._queue and self.filtering else ""
        self._queue = queue
        if not kept:
            self.hide_filter()
        self.items.empty_text = empty_text
        self.items.set_items(items, keep_id=self._cursor_ids.get(queue), filter_text=kept)
        self.items.focus()

    def show_header(self, title: str, pending: bool = False) -> None:
        lst = self.items
        self.query_one(ListHeader).show(
            title, lst.cursor, lst.count, lst.filter_text, lst.total, pending
        )

    def open_filter(self) -> None:
        box = self.filter_box
        box.display = True
        box.value = self.items.filter_text
        self.screen.set_focus(box)  # now, not after the keys already queued

    def clear_filter(self) -> None:
        """No filter: every item shows, the box closes and the list has the focus."""
        self.items.set_filter("")
        self.hide_filter()
        self.items.focus()

    def hide_filter(self) -> None:
        box = self.filter_box
        box.value = ""
        box.display = False

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.items.set_filter(event.value)

    @on(Input.Submitted, "#filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        # the message bubbles on to the screen, which refreshes its keys
        if not event.value.strip():
            self.hide_filter()
        self.items.focus()
