"""The help screen: the keys and how the review works, drawn from Markdown once.

Textual's Markdown widget builds a widget per block and took most of a second to open on a
busy two-core machine; Rich's Markdown, rendered once per width into plain styled text and
kept, makes `?` a matter of milliseconds after the first time (the app renders it ahead, in
a thread, while the workspace loads). Links are shown, never followed.
"""

from __future__ import annotations

from importlib import resources

from rich.console import Console
from rich.markdown import Markdown as RichMarkdown
from rich.markdown import Paragraph, TableDataElement
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from memreview.app.keys import QUEUE_KEYS, queue_acts, queue_names, queue_title, verb_key
from memreview.app.widgets.keybar import KeyBar
from memreview.app.wrap import WrappedText
from memreview.i18n import N_, _, current_language

HELP_WIDTH = 100  # the help box at most; its text is 6 columns narrower (border, padding, bar)
_rendered: dict[tuple[str, int], Text] = {}


class _Paragraph(Paragraph):
    def on_enter(self, context) -> None:
        super().on_enter(context)
        self.text = WrappedText(justify="left")


class _Cell(TableDataElement):
    def __init__(self, justify) -> None:
        super().__init__(justify)
        self.content = WrappedText("", justify=justify)


class HelpMarkdown(RichMarkdown):
    """Rich's Markdown with paragraphs and table cells that wrap Chinese between characters
    (:mod:`memreview.app.wrap`), not only at spaces."""

    elements = {
        **RichMarkdown.elements,
        "paragraph_open": _Paragraph,
        "td_open": _Cell,
        "th_open": _Cell,
    }


def key_table(key_for) -> str:
    """The per-queue key table as Markdown, with the keys currently bound."""
    lines = ["| " + _("queue") + " | " + _("keys") + " |", "|---|---|"]
    english = current_language() == "en"
    for queue in queue_names():
        cells = []
        for verb, act in queue_acts(queue).items():
            # in another language the action's English id too: the name a decisions file uses
            label = _(act.label) if english else _(act.label) + f" ({act.action})"
            cells.append(f"`{verb_key(verb, key_for, members='# 1–9')}` {label}")
        lines.append(f"| {queue_title(queue)} | {' · '.join(cells)} |")
    return "\n".join(lines)


def help_markdown(key_for) -> str:
    folder = resources.files("memreview.app")
    localized = folder.joinpath(f"help.{current_language()}.md")
    source = localized if localized.is_file() else folder.joinpath("help.md")
    text = source.read_text(encoding="utf-8")
    last = min(len(queue_names()), QUEUE_KEYS)
    keys = f"`1`–`{min(last, 9)}`" + (", `0`" if last >= 10 else "")
    return text.replace("{{QUEUE_KEYS}}", keys).replace("{{KEY_TABLE}}", key_table(key_for))


def text_width(screen_width: int) -> int:
    """The width the help text is drawn at on a screen ``screen_width`` columns wide."""
    return max(20, min(HELP_WIDTH, screen_width - 2) - 6)


def help_text(markdown: str, width: int) -> Text:
    """``markdown`` drawn at ``width`` columns as styled text (kept: the help doesn't change
    while the app runs)."""
    key = (markdown, width)
    found = _rendered.get(key)
    if found is None:
        console = Console(width=width, force_terminal=True, color_system="truecolor")
        lines = console.render_lines(HelpMarkdown(markdown, hyperlinks=False), pad=False)
        found = Text(end="", no_wrap=True)
        for n, line in enumerate(lines):
            if n:
                found.append("\n")
            for seg in line:
                if not seg.control:
                    found.append(seg.text, seg.style)
        _rendered[key] = found
    return found


class HelpScreen(Screen[None]):
    BINDINGS = [
        Binding(
            "escape,q,question_mark,f1",
            "close",
            N_("close"),
            id="help.close",
            tooltip=N_("Close the help"),
        ),
    ]

    APP_KEYS_OFF = frozenset({"history", "archive"})  # the bar says how to leave, no more

    def __init__(self, markdown: str) -> None:
        super().__init__(classes="help-screen")
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            text = help_text(self.markdown, text_width(self.app.size.width))
            yield Static(text, id="help-text", markup=False)
        yield KeyBar(id="keybar", tail=False)

    def on_mount(self) -> None:
        self.query_one("#help").focus()  # arrows and page keys scroll the help

    def action_close(self) -> None:
        self.dismiss(None)
        self.app.key_done()
