"""The items of one queue, drawn a line at a time: only the visible rows are ever rendered.

A queue can hold tens of thousands of items; a DataTable or OptionList builds a widget or a
rendered row for each of them up front. This list keeps plain dicts and renders the rows in
view on demand (Textual's Line API), so moving the cursor costs the same at any length.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from memreview.decisions.unit import TONES
from memreview.display import one_line
from memreview.i18n import N_, _
from memreview.workspace.cells import cut_cells

Mark = tuple[str, str]  # (label, tone) of a staged decision
MARK_WIDTH = 13  # the longest label, not-duplicate, whole


class ItemList(ScrollView, can_focus=True):
    """A virtual list of queue items with a cursor and a filter."""

    BINDINGS = [
        Binding("up", "cursor(-1)", N_("up"), show=False, id="nav.up", tooltip=N_("Previous item")),
        Binding(
            "down", "cursor(1)", N_("down"), show=False, id="nav.down", tooltip=N_("Next item")
        ),
        Binding(
            "pageup",
            "page(-1)",
            N_("page up"),
            show=False,
            id="nav.pageup",
            tooltip=N_("One page up"),
        ),
        Binding(
            "pagedown",
            "page(1)",
            N_("page down"),
            show=False,
            id="nav.pagedown",
            tooltip=N_("One page down"),
        ),
        Binding(
            "home", "jump(0)", N_("first"), show=False, id="nav.first", tooltip=N_("First item")
        ),
        Binding("end", "jump(-1)", N_("last"), show=False, id="nav.last", tooltip=N_("Last item")),
    ]

    COMPONENT_CLASSES = {
        "item-list--cursor",
        "item-list--unmarked",
        "item-list--empty",
        *(f"item-list--{tone}" for tone in TONES),
    }

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._items: list[dict] = []
        self._view: list[int] = []  # indices into _items that pass the filter
        self._filter = ""
        self._search: list[str] | None = None  # lower-cased haystacks, built on first filter
        self.cursor = 0
        self.mark_of: Callable[[str], Mark | None] = lambda _id: None
        # called synchronously on every move, so that whoever shows the item does it within
        # the same key press (and the same refresh)
        self.on_move: Callable[[int, dict | None], None] | None = None
        self.empty_text = _("nothing to review")
        self.mark_width = 1  # the widest staged label in the queue, up to MARK_WIDTH
        self._styles: dict[str, Style] = {}

    # -- data --------------------------------------------------------------------------------
    def set_items(
        self, items: list[dict], keep_id: str | None = None, filter_text: str = ""
    ) -> None:
        """Show ``items``; put the cursor on ``keep_id`` when it is still there."""
        self._items = items
        self._search = None
        self._filter = filter_text.strip().lower()
        self._apply_filter(keep_id)

    def set_filter(self, text: str) -> None:
        current = self.current
        self._filter = text.strip().lower()
        self._apply_filter(current["id"] if current else None)

    @property
    def filter_text(self) -> str:
        return self._filter

    def _haystacks(self) -> list[str]:
        if self._search is None:
            self._search = [_haystack(it) for it in self._items]
        return self._search

    def _apply_filter(self, keep_id: str | None) -> None:
        if self._filter:
            needle = self._filter
            hay = self._haystacks()
            self._view = [i for i, h in enumerate(hay) if needle in h]
        else:
            self._view = list(range(len(self._items)))
        index = 0
        if keep_id is not None:
            for pos, i in enumerate(self._view):
                if self._items[i].get("id") == keep_id:
                    index = pos
                    break
            else:
                index = min(self.cursor, max(0, len(self._view) - 1))
        self.virtual_size = Size(0, len(self._view))
        self.cursor = index
        self.scroll_to(y=max(0, index - self._page() // 2), animate=False)
        self.refresh()
        self._announce()
        # the list's height follows its items (the pane fits it to them): once it has its
        # new height, the cursor is brought into view again (a filter cleared on item 86)
        self.call_after_refresh(self.keep_cursor_in_view)

    def on_resize(self, _event: events.Resize) -> None:
        # a smaller terminal: the rows above the cursor may now fill the list
        self.call_after_refresh(self.keep_cursor_in_view)

    def keep_cursor_in_view(self) -> None:
        """Scroll so that the cursor's row shows (centred when it was out of view)."""
        top, page = round(self.scroll_y), self._page()
        if not top <= self.cursor < top + page:
            self.scroll_to(y=max(0, self.cursor - page // 2), animate=False)

    @property
    def count(self) -> int:
        """How many items pass the filter."""
        return len(self._view)

    def in_view(self) -> list[dict]:
        """The items that pass the filter, in order."""
        return [self._items[i] for i in self._view]

    @property
    def total(self) -> int:
        return len(self._items)

    def all_items(self) -> list[dict]:
        """Every item of the queue, whatever the filter."""
        return list(self._items)

    @property
    def current(self) -> dict | None:
        if 0 <= self.cursor < len(self._view):
            return self._items[self._view[self.cursor]]
        return None

    # -- moving ------------------------------------------------------------------------------
    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height or self.size.height or 1)

    def move_to(self, index: int) -> None:
        n = len(self._view)
        if n == 0:
            return
        index = max(0, min(n - 1, index))
        if index == self.cursor:
            return
        old = self.cursor
        self.cursor = index
        top = round(self.scroll_y)
        page = self._page()
        if index < top:
            self.scroll_to(y=index, animate=False)
        elif index >= top + page:
            self.scroll_to(y=index - page + 1, animate=False)
        else:
            self.refresh_line(old)
            self.refresh_line(index)
        self._announce()

    def advance(self) -> None:
        """After a decision: the next item (or stay on the last one)."""
        self.refresh_line(self.cursor)
        self.move_to(self.cursor + 1)

    def refresh_item(self, item_id: str) -> None:
        """Redraw the row of ``item_id`` if it is in view."""
        top = round(self.scroll_y)
        for row in range(top, min(len(self._view), top + self._page())):
            if self._items[self._view[row]].get("id") == item_id:
                self.refresh_line(row)

    def _announce(self) -> None:
        if self.on_move is not None:
            self.on_move(self.cursor, self.current)

    def action_cursor(self, delta: int) -> None:
        self.move_to(self.cursor + delta)
        self.app.key_done()

    def action_page(self, delta: int) -> None:
        self.move_to(self.cursor + delta * self._page())
        self.app.key_done()

    def action_jump(self, index: int) -> None:
        self.move_to(index if index >= 0 else len(self._view) - 1)
        self.app.key_done()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        self.move_to(offset.y + round(self.scroll_y))

    def set_mark_width(self, width: int) -> None:
        width = max(1, min(MARK_WIDTH, width))
        if width != self.mark_width:
            self.mark_width = width
            self.refresh()

    # -- drawing -----------------------------------------------------------------------------
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = {}

    def _style(self, name: str) -> Style:
        """The widget's style ("base") or a component's; cached, as rich_style walks every
        ancestor: once per restyle rather than once per line."""
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = (
                self.rich_style if name == "base" else self.get_component_rich_style(name)
            )
        return style

    def _ink(self, name: str) -> Style:
        """Only the foreground of a component (a mark keeps its row's background)."""
        key = f"ink:{name}"
        style = self._styles.get(key)
        if style is None:
            full = self._style(name)
            style = self._styles[key] = Style(
                color=full.color, bold=full.bold, italic=full.italic, dim=full.dim
            )
        return style

    def on_focus(self) -> None:
        self._styles = {}  # the cursor row is brighter while the list has focus
        self.refresh()

    def on_blur(self) -> None:
        self._styles = {}
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_size.width  # a title's "…" is not hidden by the scrollbar
        base = self._style("base")
        row = round(self.scroll_y) + y
        if not self._view:
            if y == 0:
                style = self._style("item-list--empty")
                return _line([Segment(f" {self.empty_text}", style)], width, base)
            return Strip.blank(width, base)
        if row >= len(self._view):
            return Strip.blank(width, base)
        item = self._items[self._view[row]]
        row_style = base
        if row == self.cursor:
            row_style = self._style("item-list--cursor")
        mark = self.mark_of(item.get("id", ""))
        if mark is None:
            mark_text, mark_style = "·", row_style + self._ink("item-list--unmarked")
        else:
            label, tone = mark
            mark_text = label
            mark_style = row_style + self._ink(f"item-list--{tone}")
        pointer = "▌" if row == self.cursor else " "
        title = " " + one_line(str(item.get("title", "")))
        room = width - 1 - self.mark_width
        if room > 1:
            title = cut_cells(title, room)  # in cells, and said so
        segments = [
            Segment(pointer, row_style),
            Segment(_fit(mark_text, self.mark_width), mark_style),
            Segment(title, row_style),
        ]
        return _line(segments, width, row_style)


def _line(segments: list[Segment], width: int, style: Style) -> Strip:
    """One row cut or padded to ``width`` cells."""
    return Strip(Segment.adjust_line_length(segments, width, style), width)


def _fit(text: str, width: int) -> str:
    """``text`` cut (with "…") or padded to ``width`` terminal cells."""
    return set_cell_size(cut_cells(text, width), width)


def _haystack(item: dict) -> str:
    """The text a filter searches: the title and the first line of every ref."""
    parts = [str(item.get("title", ""))]
    for key in ("a", "b", "new", "old", "ref", "anchor"):
        ref = item.get(key)
        if isinstance(ref, dict):
            parts.append(str(ref.get("text", "")))
            parts.append(str(ref.get("file", "")))
    for ref in item.get("refs") or item.get("matches") or ():
        if isinstance(ref, dict):
            parts.append(str(ref.get("text", "")))
    for key in ("content", "theme", "reason", "project"):
        if item.get(key):
            parts.append(str(item[key]))
    return "\n".join(parts).lower()
