"""Undoing the last written batch: asked first, run in a worker thread, then reported.

The worker only calls the backend and posts :class:`UndoDone` to the node that started it,
which reports it with :func:`report_undo` and loads the workspace again when files changed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.app import App
from textual.dom import DOMNode
from textual.worker import Worker

from memreview.app.messages import UndoDone
from memreview.app.ports import ReviewBackend
from memreview.app.screens.dialogs import ConfirmDialog, DiffDialog
from memreview.display import one_line
from memreview.i18n import _


def ask_undo(app: App, undo: Callable[[], object], batch: str | None = None) -> None:
    """Ask before undoing (``batch``: which one, its decisions and files, said first);
    ``undo()`` runs only on yes."""

    def answer(yes: bool | None) -> None:
        if yes:
            undo()

    how = _(
        "Files it wrote are restored from their backups; its items show again with "
        "its decisions staged, so you can change one and write again."
    )
    app.push_screen(
        ConfirmDialog(
            _("Undo the last written batch?"),
            f"{one_line(batch)}\n\n{how}" if batch else how,  # the journal is the workspace's
            yes=_("Undo"),
            no=_("Keep"),
        ),
        answer,
    )


SAY_AFTER = 0.3  # seconds: an undo that takes longer says it is under way


def start_undo(node: DOMNode, backend: ReviewBackend) -> Worker[None]:
    """Undo the last batch in a thread; ``node`` receives the :class:`UndoDone`. One that
    takes longer than SAY_AFTER (a large workspace: seconds) says so meanwhile."""
    worker = node.run_worker(
        partial(_undo, node, backend), name="undo", group="undo", exclusive=True, thread=True
    )

    def still_undoing() -> None:
        if worker.is_running:
            node.app.notify(_("Undoing the last batch…"), timeout=4, markup=False)

    node.set_timer(SAY_AFTER, still_undoing)
    return worker


def _undo(node: DOMNode, backend: ReviewBackend) -> None:
    try:
        res = backend.undo_last()
    except Exception as exc:  # a held lock or an unreadable journal: shown, not raised
        node.post_message(UndoDone(str(exc) or type(exc).__name__, False))
        return
    node.post_message(UndoDone(res.message, res.ok, res.diff))


def report_undo(app: App, message: UndoDone) -> None:
    """Show how the undo went: a notification, or the diff of what stopped it."""
    if message.diff:
        heading = _("{action} stopped").format(action=_(message.title))
        app.push_screen(DiffDialog(heading, message.summary, message.diff))
        return
    app.notify(
        message.summary,
        title=_(message.title)
        if message.ok
        else _("{action} failed").format(action=_(message.title)),
        severity="information" if message.ok else "error",
        markup=False,
    )
