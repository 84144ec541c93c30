"""A batch cut short by a crash, offered on start: finish it, roll it back, or decide later.

The backend names it (and removes the temp files its journal names); the choice runs in a
worker thread and is reported like an undo (:class:`UndoDone`), which reloads the workspace.
"""

from __future__ import annotations

from functools import partial

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from memreview.app.messages import UndoDone
from memreview.app.ports import LedgerBackend
from memreview.app.screens.undo import start_undo
from memreview.display import visible
from memreview.i18n import N_, _


class RecoveryDialog(ModalScreen[str | None]):
    """Finish (f), roll back (r) or later (escape)."""

    BINDINGS = [
        Binding(
            "f", "choose('finish')", N_("finish"), id="recover.finish", tooltip=N_("Finish it")
        ),
        Binding(
            "r", "choose('rollback')", N_("roll back"), id="recover.rollback", tooltip=N_("Undo it")
        ),
        Binding(
            "l,escape", "choose('')", N_("later"), id="recover.later", tooltip=N_("Decide later")
        ),
    ]

    def __init__(self, notice: str) -> None:
        super().__init__(classes="dialog-screen")
        self.notice = notice

    def compose(self) -> ComposeResult:
        head, _sep, rest = self.notice.partition("\n")
        with Vertical(classes="dialog"):
            yield Label(visible(head), classes="dialog-question", markup=False)
            if rest:
                yield Static(visible(rest), classes="dialog-detail", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Finish it (f)"), variant="primary", id="finish")
                yield Button(_("Roll it back (r)"), id="rollback")
                yield Button(_("Later (l)"), id="later")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss("" if event.button.id == "later" else event.button.id)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


def offer_recovery(app: App, node: DOMNode, backend: LedgerBackend) -> None:
    """If a batch was cut short, ask what to do with it; ``node`` gets the outcome. The
    temp files a stopped memreview left are removed first, and named."""
    removed = getattr(backend, "removed_temps", None)
    for rel in removed() if removed is not None else []:
        app.notify(
            visible(_("removed {file}, a temp file a stopped memreview left").format(file=rel)),
            severity="warning",
            markup=False,
        )
    notice = backend.interrupted()
    if not notice:
        return

    def answer(choice: str | None) -> None:
        if choice == "finish":
            node.run_worker(
                partial(_finish, node, backend), name="finish", group="undo", thread=True
            )
        elif choice == "rollback":
            start_undo(node, backend)

    app.push_screen(RecoveryDialog(notice), answer)


def _finish(node: DOMNode, backend: LedgerBackend) -> None:
    try:
        res = backend.finish_interrupted()
    except Exception as exc:  # a held lock or an unreadable journal: shown, not raised
        node.post_message(UndoDone(str(exc) or type(exc).__name__, False, title=N_("Finish")))
        return
    node.post_message(UndoDone(res.message, res.ok, res.diff, title=N_("Finish")))
