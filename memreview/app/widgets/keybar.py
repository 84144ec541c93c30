"""The last line: the keys that apply now, as many as fit, then `? more` (or `? help`).

Textual's Footer rebuilds a widget per key each time the bindings change (every queue switch,
every filter, every screen): a tenth of a second or more on a slow machine. This bar is one
line of text drawn from the screen's active bindings, cut to the width it has: the keys are
listed in the order the screen declares them (the decision keys first), and what doesn't fit
is left to the help screen, which the bar always names. A click on a key presses it (a
greyed one then says why it can't act).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.widget import Widget

from memreview.i18n import _

HELP_KEYS = ("question_mark", "f1")


class KeyBar(Widget):
    """One line of ``key label`` pairs; greyed when a key can't act now."""

    COMPONENT_CLASSES = {"keybar--key", "keybar--label", "keybar--disabled", "keybar--more"}

    def __init__(self, *, id: str | None = None, tail: bool = True) -> None:
        super().__init__(id=id)
        self.tail = tail  # `? help` and `^p palette` at the right (not on the help itself)
        self._entries: list[tuple[str, str, bool, str]] | None = None
        self._spans: list[tuple[int, int, str]] = []  # (first cell, past the last, key) drawn

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def _bindings_changed(self, _screen) -> None:
        self._entries = None
        self.refresh()

    def on_resize(self, _event: events.Resize) -> None:
        self.refresh()

    def entries(self) -> list[tuple[str, str, bool, str]]:
        """(key as shown, label, enabled, key) of every shown binding, the help key left
        out."""
        if self._entries is None:
            out = []
            seen: set[str] = set()
            for key, active in self.screen.active_bindings.items():
                binding = active.binding
                if not binding.show or key in HELP_KEYS or binding.action in seen:
                    continue
                seen.add(binding.action)
                shown = binding.key_display or self.app.get_key_display(binding)
                out.append((shown, _(binding.description), bool(active.enabled), key))
            self._entries = out
        return self._entries

    def render(self) -> Text:
        width = self.size.width
        key_style = self.get_component_rich_style("keybar--key")
        label_style = self.get_component_rich_style("keybar--label")
        off_style = self.get_component_rich_style("keybar--disabled")
        more_style = self.get_component_rich_style("keybar--more")
        palette = [("^p", _("palette"), "ctrl+p")] if self.app.use_command_palette else []

        def tail(cut: bool) -> list[tuple[str, str, str]]:
            if not self.tail:
                return []
            return [("?", _("more") if cut else _("help"), "question_mark"), *palette]

        def size(pairs) -> int:
            return sum(cell_len(f" {k} {label} ") for k, label, _key in pairs)

        entries = self.entries()
        parts: list[tuple[str, str, bool, str]] = []
        used = 0
        cut = False
        for shown, label, enabled, key in entries:
            piece = cell_len(f" {shown} {label} ")
            if used + piece + size(tail(True)) > width:
                cut = True
                break
            parts.append((shown, label, enabled, key))
            used += piece
        pinned = tail(cut)
        if used + size(pinned) > width:  # a very narrow screen: the help key alone
            pinned = pinned[:1]
        t = Text(no_wrap=True, overflow="crop", end="")
        spans: list[tuple[int, int, str]] = []
        for shown, label, enabled, key in parts:
            start = t.cell_len
            t.append(f" {shown}", key_style if enabled else off_style)
            t.append(f" {label} ", label_style if enabled else off_style)
            spans.append((start, t.cell_len, key))
        t.append(" " * max(0, width - used - size(pinned)))
        for shown, label, key in pinned:
            start = t.cell_len
            t.append(f" {shown}", key_style)
            t.append(f" {label} ", more_style)
            spans.append((start, t.cell_len, key))
        self._spans = spans
        return t

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                event.stop()
                self.app.simulate_key(key)
                return
