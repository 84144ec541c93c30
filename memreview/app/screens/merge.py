"""Edit the merged entry of a duplicate group."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static, TextArea

from memreview.app.wrap import Indented
from memreview.i18n import N_, _


def merge_proposal(item: dict, context) -> str:
    """The text a merge starts from: the group's proposed merge (a promoted entry: its text
    without the pipeline's tail), else its first member's lines as the file has them
    (``context(file, line, end_line, before, after)``)."""
    proposal = item.get("merged") or item.get("text")
    if proposal:
        return proposal
    refs = item.get("refs") or []
    if not refs:
        return ""
    ref = refs[0]
    lines = context(ref["file"], ref["line"], ref["end_line"], 0, 0)
    return "\n".join(text for _n, text in lines) or ref.get("text", "")


class MergeEditor(ModalScreen[str | None]):
    """A TextArea prefilled with the proposed merge; ctrl+s stages it, escape cancels."""

    BINDINGS = [
        Binding(
            "ctrl+s",
            "stage",
            N_("stage merge"),
            id="merge.stage",
            priority=True,
            tooltip=N_("Stage the merge with this text"),
        ),
        Binding(
            "escape", "cancel", N_("cancel"), id="merge.cancel", tooltip=N_("Leave without staging")
        ),
    ]

    def __init__(
        self,
        title: str,
        text: str,
        check=None,
        detail: str | None = None,
        hint: str | None = None,
        at_end: bool = False,
    ) -> None:
        """``check(text)`` says why a text can't be staged (None when it can); ``detail``
        and ``hint`` replace the merge's explanation and key hint (a skill's folder name);
        ``at_end``: the cursor after the text (a name one adds to), not before it."""
        super().__init__(classes="dialog-screen")
        self.heading = title
        self.text = text
        self.at_end = at_end
        self.check = check
        self.detail = detail or _(
            "The whole entry as it should read (keep its '- ' or pipes). "
            "Control characters are shown as visible escapes and written as shown."
        )
        self.hint = hint or _("ctrl+s stage the merge   escape cancel")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog merge-dialog"):
            yield Label(self.heading, classes="dialog-question", markup=False)
            yield Static(Indented(Text(self.detail)), classes="dialog-detail")
            yield TextArea(self.text, id="merge-text", soft_wrap=True, show_line_numbers=True)
            yield Static("", id="merge-problem", markup=False)
            yield Label(self.hint, classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        if self.at_end:
            area.move_cursor(area.document.end)

    def action_stage(self) -> None:
        text = self.query_one(TextArea).text
        problem = self.check(text) if self.check is not None else None
        if problem:
            self.query_one("#merge-problem", Static).update(f"✗ {problem}")
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
