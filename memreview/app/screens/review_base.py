"""What the parts of the review screen share: the review's state (a
:class:`~memreview.app.session.ReviewSession`), the backend, the panes, and the few steps
one part asks of another. ``ReviewScreen`` is made of ``ReviewKeys``, ``ReviewDecisions``
and ``ReviewQueues``, each a ``ReviewBase``: what each reads is declared here, once."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from textual.notifications import Notification
from textual.screen import Screen

from memreview.app.keys import HEALTH
from memreview.app.ports import LedgerBackend
from memreview.app.session import ReviewSession
from memreview.app.widgets.evidence import Evidence
from memreview.app.widgets.item_list import ItemList
from memreview.app.widgets.items_pane import ItemsPane
from memreview.decisions.staging import Staging
from memreview.decisions.unit import Act


class ReviewBase(Screen[None]):
    """The review screen's shared parts (the screen itself is ``screens.review``)."""

    root: Path
    today: date | None
    backend: LedgerBackend
    session: ReviewSession
    member_prompt: bool  # `#` was pressed: the next digit keeps that member
    _binding_state: tuple[object, ...] | None
    _done_note: tuple[str, int, Notification] | None  # the queue-done toast, while true

    # -- the review's state, as the session holds it -----------------------------------------
    @property
    def result(self) -> Any:
        return self.session.result

    @property
    def scanning(self) -> bool:
        return self.session.scanning

    @property
    def queue(self) -> str:
        return self.session.queue

    @property
    def in_queue(self) -> bool:
        """A queue is shown (not the health view)."""
        return self.session.queue != HEALTH

    @property
    def staging(self) -> Staging:
        return self.session.staging

    @property
    def changed(self) -> set[str]:
        return self.session.changed

    @property
    def hidden(self) -> dict[str, str]:
        return self.session.hidden

    @property
    def show_all(self) -> set[str]:
        return self.session.show_all

    # -- the panes ---------------------------------------------------------------------------
    @property
    def pane(self) -> ItemsPane:
        return self.query_one(ItemsPane)

    @property
    def items(self) -> ItemList:
        return self.query_one("#items", ItemList)

    @property
    def evidence(self) -> Evidence:
        return self.query_one("#evidence", Evidence)

    # -- steps one part asks of another (each defined by the part named) ----------------------
    def reload(self) -> None:  # review
        raise NotImplementedError

    def show_queue(self, queue: str) -> None:  # review_queues
        raise NotImplementedError

    def _show_current(self) -> None:  # review
        raise NotImplementedError

    def _refusal(self, act: Act) -> str | None:  # review
        raise NotImplementedError

    def _hints(self) -> list[tuple[str, Act]]:  # review
        raise NotImplementedError

    def _sync_bindings(self) -> None:  # review_keys
        raise NotImplementedError

    def _show_mark_width(self) -> None:  # review_decide
        raise NotImplementedError

    def _queue_done_note(self) -> None:  # review_queues
        raise NotImplementedError

    def _withdraw_stale_done_note(self) -> None:  # review_queues
        raise NotImplementedError

    def _fit_list(self) -> None:  # review_queues
        raise NotImplementedError

    def action_keep_member(self, n: int) -> None:  # review_decide
        raise NotImplementedError
