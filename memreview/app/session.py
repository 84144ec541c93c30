"""The review's state, apart from any screen: the scan result, the queue shown, the decisions
staged, the items a decision hides, the staged decisions to be asked again, and the queues
showing every item.

Each method that changes something says what changed with a :class:`Change`, handed to the
listener (the review screen posts it as a message and redraws what it names). The methods
never draw; they can be tried without an app (``tests/app/test_session.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from memreview.app.backend import make_decision
from memreview.app.keys import HEALTH, decision_label, queue_names
from memreview.app.ports import ReviewBackend
from memreview.decisions import Decision
from memreview.decisions.staging import Staging
from memreview.decisions.unit import Act
from memreview.i18n import _


@dataclass(frozen=True)
class Change:
    """What a step of the review changed, for whoever shows it."""

    queues: frozenset[str] = frozenset()  # queues whose count or staged number changed
    items: frozenset[str] = frozenset()  # items whose mark changed
    pending: bool = False  # the staged decisions changed
    listing: bool = False  # the shown queue's list is another now
    current: bool = False  # the highlighted item reads otherwise (its evidence)
    loaded: bool = False  # a new scan result: everything
    health: bool = False  # the health view and the alarms
    asked_again: int = 0  # staged decisions found changed on disk (to be said once)

    def __or__(self, other: Change) -> Change:
        return Change(
            self.queues | other.queues,
            self.items | other.items,
            self.pending or other.pending,
            self.listing or other.listing,
            self.current or other.current,
            self.loaded or other.loaded,
            self.health or other.health,
            max(self.asked_again, other.asked_again),
        )


@dataclass
class Staged:
    """What staging a decision came to: the change, or why it was not staged."""

    change: Change = field(default_factory=Change)
    refused: str | None = None


Listener = Callable[[Change], None]


class ReviewSession:
    """One owner's review of one workspace, between two scans and across them."""

    def __init__(self, backend: ReviewBackend, listener: Listener | None = None) -> None:
        self.backend = backend
        self.listener = listener
        self.result: Any = None
        self.scanning = True
        self.queue = queue_names()[0]
        self.staging = Staging(backend)  # the decisions staged and not written yet
        self.changed: set[str] = set()  # items whose staged decision is to be asked again
        self.show_all: set[str] = set()  # queues showing the items reviewed before too
        self.hidden: dict[str, str] = {}  # item id -> why a decision hides it
        self._hidden_why: dict[str, str] | None = None  # the backend's reasons, read once

    def _tell(self, change: Change) -> Change:
        if self.listener is not None:
            self.listener(change)
        return change

    # -- loading -----------------------------------------------------------------------------
    def load_staged(self) -> list[str]:
        """The staged decisions from disk; warnings about what could not be read."""
        warnings = self.staging.load()
        self._tell(Change(pending=True, queues=frozenset(queue_names())))
        return warnings

    def rescanning(self) -> Change:
        """A scan has started: the counts shown are from before until it reports, and a
        rescan shows no item of the scan before (every queue is being computed again)."""
        self.scanning = True
        return self._tell(Change(listing=self.result is not None))

    @property
    def rescanning_now(self) -> bool:
        """A scan after the first is under way and has not loaded the workspace yet."""
        return self.scanning and self.result is not None

    def loaded(self, result: Any) -> Change:
        """A scan's result (some queues may still be computing)."""
        self.result = result
        self.scanning = False
        self._hidden_why = None
        self._find_hidden()
        asked = 0 if self.pending_queues() else self._find_changed()
        everything = frozenset(queue_names())
        return self._tell(
            Change(
                everything,
                pending=True,
                listing=True,
                loaded=True,
                health=bool(result.health),
                asked_again=asked,
            )
        )

    def queue_ready(self, name: str, items: list[dict[str, Any]]) -> Change:
        """One more queue computed."""
        if self.result is None:
            return Change()
        self.result.add_queue(name, items)
        self._find_hidden()
        return self._tell(Change(frozenset({name}), listing=name == self.queue))

    def health_ready(self, health: dict[str, Any]) -> Change:
        """The scan's end: health, and the staged decisions checked against every queue."""
        if self.result is None:
            return Change()
        self.result.health = health
        asked = self._find_changed()
        return self._tell(Change(items=frozenset(self.changed), health=True, asked_again=asked))

    def _find_hidden(self) -> None:
        """The items a decision hides, and why (shown with ``A``, marked, ``Z`` unhides)."""
        every = getattr(self.result, "all_queues", None) or {}
        shown = {it.get("id") for items in self.result.queues.values() for it in items}
        hidden_ids = {it.get("id") for items in every.values() for it in items} - shown
        # an item a limited queue (dormant, dropping) shows only with ``A`` and no decision
        # hid is past the limit, not hidden: no ⊘, nothing for ``Z`` to put back
        for past in (getattr(self.result, "past_limit", None) or {}).values():
            hidden_ids -= past
        reasons = getattr(self.backend, "hidden_reasons", None)
        if hidden_ids and reasons is not None and self._hidden_why is None:
            self._hidden_why = reasons(self.result.today)  # read once per load
        why = self._hidden_why or {}
        self.hidden = {i: why.get(i, _("hidden")) for i in hidden_ids}

    def _find_changed(self) -> int:
        """The staged decisions whose targets read otherwise than when they were decided
        (an agent wrote meanwhile; a write left them pending after a conflict): they are
        marked and not written until decided again. Returns how many."""
        self.changed = {
            d.item
            for d in self.staging
            if d.seen is not None and self.backend.seen(self.result, d) != d.seen
        }
        return len(self.changed)

    # -- the queues --------------------------------------------------------------------------
    def pending_queues(self) -> set[str]:
        """The queues the scan has not computed yet (every one while a rescan loads)."""
        if self.rescanning_now:
            return set(queue_names())
        return getattr(self.result, "pending", None) or set()

    def queue_items(self, queue: str) -> list[dict[str, Any]]:
        """The queue's items: the new ones, or every one when asked (``A``); none while a
        rescan loads (those of before may be written already)."""
        if self.result is None or self.rescanning_now:
            return []
        if queue in self.show_all:
            return list(self.result.all_queues.get(queue, []))
        return list(self.result.queues.get(queue, []))

    def choose(self, queue: str) -> Change:
        """Show ``queue`` (or the health view)."""
        self.queue = queue
        return self._tell(Change(listing=True))

    def toggle_all(self) -> bool:
        """The shown queue with every item, or only the new ones again; True: every item."""
        every = self.queue not in self.show_all
        if every:
            self.show_all.add(self.queue)
        else:
            self.show_all.discard(self.queue)
        self._tell(Change(listing=True))
        return every

    def next_queue(self, delta: int) -> str:
        """The queue ``delta`` steps from this one, passing over the empty ones (the
        health view is never passed over)."""
        order = [*queue_names(), HEALTH]
        k = order.index(self.queue) if self.queue in order else 0
        for step in range(1, len(order)):
            queue = order[(k + delta * step) % len(order)]
            if queue == HEALTH or self.queue_items(queue):
                return queue
        return self.queue

    # -- deciding ----------------------------------------------------------------------------
    def stage(
        self,
        item: dict[str, Any],
        act: Act,
        keep: int | None = None,
        text: str | None = None,
        slug: str | None = None,
    ) -> Staged:
        """Stage ``act`` on ``item`` of the shown queue, unless the backend refuses it (not
        an action the item takes, or disagreeing with a decision staged on the same entry)."""
        d = make_decision(item["id"], act.action, self.queue, keep=keep, text=text, slug=slug)
        problem = self.backend.check(self.queue, item, d)
        if not problem and self.result is not None:
            problem = self.backend.clash(self.result, self.staging.decisions(), d)
        if problem:
            return Staged(refused=problem)
        d = replace(d, seen=self.backend.seen(self.result, d))
        self.changed.discard(d.item)  # decided again, on what the item reads now
        old = self.staging.stage(d)
        queues = {d.queue, old.queue if old else d.queue}
        change = Change(frozenset(queues), frozenset({d.item}), pending=True)
        return Staged(self._tell(change))

    def unstage(self, item_id: str | None) -> Decision | None:
        """Unstage the decision on ``item_id``, else the one staged last; it, or None."""
        d = self.staging.for_item(item_id) if item_id is not None else None
        d = d or self.staging.newest()
        if d is None:
            return None
        self.staging.unstage(d.item)
        self._tell(
            Change(
                frozenset({d.queue}),
                frozenset({d.item}),
                pending=True,
                current=d.queue == self.queue,
            )
        )
        return d

    def replace_staged(self, decisions: Iterable[Decision]) -> Change:
        """The staged decisions are these now (what a write left pending)."""
        self.staging.replace(list(decisions))
        return self._tell(Change(frozenset(queue_names()), pending=True))

    def reload_staged(self) -> Change:
        """The staged decisions again from disk (an undo staged a batch's decisions again)."""
        self.staging.load()
        return self._tell(Change(frozenset(queue_names()), pending=True))

    def mark_of(self, item_id: str) -> tuple[str, str] | None:
        """The mark an item carries in its list: its staged decision, ⚠ when it is to be
        decided again, ⊘ and why when a decision hides it; None when nothing."""
        d = self.staging.for_item(item_id)
        if d is None:
            if item_id in self.hidden:
                return f"⊘ {self.hidden[item_id]}", "defer"
            return None
        label, act = decision_label(d)
        if d.item in self.changed:
            return f"⚠ {label}", "reject"
        return label, act.tone if act else "defer"

    def undecided(self, items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """Those of ``items`` with no decision staged."""
        return [it for it in items if self.staging.for_item(it["id"]) is None]
