"""The help screen: Markdown that never opens links."""

from __future__ import annotations

from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from memreview.app.keys import QUEUE_KEYS, queue_acts, queue_names, queue_title, verb_key


def key_table(key_for) -> str:
    """The per-queue key table as Markdown, with the keys currently bound."""
    lines = ["| queue | keys |", "|---|---|"]
    for queue in queue_names():
        cells = []
        for verb, act in queue_acts(queue).items():
            cells.append(f"`{verb_key(verb, key_for, members='1–9')}` {act.label}")
        lines.append(f"| {queue_title(queue)} | {' · '.join(cells)} |")
    return "\n".join(lines)


def help_markdown(key_for) -> str:
    text = resources.files("memreview.app").joinpath("help.md").read_text(encoding="utf-8")
    last = min(len(queue_names()), QUEUE_KEYS)
    return text.replace("{{QUEUE_KEYS}}", f"`1`–`{last}`").replace(
        "{{KEY_TABLE}}", key_table(key_for)
    )


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding(
            "escape,q,question_mark,f1", "close", "close", id="help.close", tooltip="Close the help"
        ),
    ]

    def __init__(self, markdown: str) -> None:
        super().__init__(classes="dialog-screen")
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(self.markdown, open_links=False, id="help-text")

    def on_mount(self) -> None:
        self.query_one("#help").focus()  # arrows and page keys scroll the help

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()  # links are shown, never followed

    def action_close(self) -> None:
        self.dismiss(None)
