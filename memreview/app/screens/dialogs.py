"""A yes/no question."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from memreview.app.wrap import Indented
from memreview.i18n import N_, _


class ConfirmDialog(ModalScreen[bool]):
    """Ask before something that can't be taken back by a keypress; answers True or False."""

    BINDINGS = [
        Binding("y", "answer(True)", N_("yes"), id="confirm.yes", tooltip=N_("Yes, go ahead")),
        Binding("n,escape", "answer(False)", N_("no"), id="confirm.no", tooltip=N_("No, go back")),
    ]

    def __init__(
        self, question: str, detail: str = "", yes: str | None = None, no: str | None = None
    ) -> None:
        super().__init__(classes="dialog-screen")
        self.question = question
        self.detail = detail
        self.yes = yes if yes is not None else _("Yes")
        self.no = no if no is not None else _("No")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-question", markup=False)
            if self.detail:
                # Chinese wraps between characters, not only at spaces
                yield Static(Indented(Text(self.detail)), classes="dialog-detail")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.yes} (y)", variant="primary", id="yes")
                yield Button(f"{self.no} (n)", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class DiffDialog(ModalScreen[None]):
    """A message and a diff (e.g. why an undo stopped); escape closes it."""

    BINDINGS = [
        Binding("escape,enter", "close", N_("close"), id="diff.close", tooltip=N_("Close")),
    ]

    def __init__(self, title: str, message: str, diff: str) -> None:
        super().__init__(classes="dialog-screen")
        self.heading = title
        self.message = message
        self.diff = diff

    def compose(self) -> ComposeResult:
        from memreview.display import visible

        with Vertical(classes="dialog diff-dialog"):
            yield Label(self.heading, classes="dialog-question", markup=False)
            yield Static(visible(self.message), classes="dialog-detail", markup=False)
            with VerticalScroll():
                yield Static(visible(self.diff), markup=False)

    def action_close(self) -> None:
        self.dismiss(None)
