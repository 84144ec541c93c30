"""The last line: the keys that apply now, as many as fit, then `? more` (or `? help`).

Textual's Footer rebuilds a widget per key each time the bindings change (every queue switch,
every filter, every screen): a tenth of a second or more on a slow machine. This bar is one
line of text drawn from the screen's active bindings, cut to the width it has: the keys are
listed in the order the screen declares them (the decision keys first), and what doesn't fit
is left to the help screen, which the bar always names.
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

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._entries: list[tuple[str, str, bool]] | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def _bindings_changed(self, _screen) -> None:
        self._entries = None
        self.refresh()

    def on_resize(self, _event: events.Resize) -> None:
        self.refresh()

    def entries(self) -> list[tuple[str, str, bool]]:
        """(key as shown, label, enabled) of every shown binding, the help key left out."""
        if self._entries is None:
            out = []
            seen: set[str] = set()
            for key, active in self.screen.active_bindings.items():
                binding = active.binding
                if not binding.show or key in HELP_KEYS or binding.action in seen:
                    continue
                seen.add(binding.action)
                shown = binding.key_display or self.app.get_key_display(binding)
                out.append((shown, _(binding.description), bool(active.enabled)))
            self._entries = out
        return self._entries

    def render(self) -> Text:
        width = self.size.width
        key_style = self.get_component_rich_style("keybar--key")
        label_style = self.get_component_rich_style("keybar--label")
        off_style = self.get_component_rich_style("keybar--disabled")
        more_style = self.get_component_rich_style("keybar--more")
        palette = [("^p", _("palette"))] if self.app.use_command_palette else []

        def tail(cut: bool) -> list[tuple[str, str]]:
            return [("?", _("more") if cut else _("help")), *palette]

        def size(pairs) -> int:
            return sum(cell_len(f" {k} {label} ") for k, label in pairs)

        entries = self.entries()
        parts: list[tuple[str, str, bool]] = []
        used = 0
        cut = False
        for shown, label, enabled in entries:
            piece = cell_len(f" {shown} {label} ")
            if used + piece + size(tail(True)) > width:
                cut = True
                break
            parts.append((shown, label, enabled))
            used += piece
        pinned = tail(cut)
        if used + size(pinned) > width:  # a very narrow screen: the help key alone
            pinned = pinned[:1]
        t = Text(no_wrap=True, overflow="crop", end="")
        for shown, label, enabled in parts:
            t.append(f" {shown}", key_style if enabled else off_style)
            t.append(f" {label} ", label_style if enabled else off_style)
        t.append(" " * max(0, width - used - size(pinned)))
        for shown, label in pinned:
            t.append(f" {shown}", key_style)
            t.append(f" {label} ", more_style)
        return t
