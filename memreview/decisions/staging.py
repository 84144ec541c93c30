"""The decisions staged during a review and not written yet (docs/design.md §4).

A :class:`Staging` holds at most one decision per item, in the order they were staged (a
re-staged item moves to the end), keeps a count per queue, and saves the whole list after
every change, so a quit or a crash loses none of the human's work. It reads and writes
through a :class:`PendingStore`: :class:`PendingFile` is ``.memreview/pending.yaml`` by way
of :mod:`memreview.decisions.pending`; the app hands in its decisions backend, tests a fake.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Protocol

from memreview.decisions.model import Decision
from memreview.decisions.pending import load_pending, merge_pending
from memreview.i18n import _


class PendingStore(Protocol):
    """Where staged decisions live between runs."""

    def load_pending(self) -> tuple[list[Decision], list[str]]:
        """The staged decisions, and one-line warnings about what could not be read."""
        ...

    def save_pending(self, decisions: list[Decision]) -> object:
        """Replace the staged decisions with ``decisions``."""
        ...


class PendingFile:
    """``.memreview/pending.yaml`` of the workspace at ``root``, as one stager sees it: a
    save writes what this stager changed since it last read or wrote the file, and keeps
    what another memreview (a second app, an undo, an apply) did meanwhile."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self._base: list[Decision] = []  # what this stager last read or wrote

    def load_pending(self) -> tuple[list[Decision], list[str]]:
        """The staged decisions and warnings; a missing or broken file is an empty list."""
        decisions, warnings = load_pending(self.root)
        self._base = list(decisions)
        return decisions, warnings

    def save_pending(self, decisions: list[Decision]) -> str | None:
        """Write this stager's changes (``decisions`` against what it last read or wrote)
        under memreview's lock; returns the name of a broken file's kept copy."""
        kept = merge_pending(self.root, self._base, decisions)
        self._base = list(decisions)
        return kept


class Staging:
    """The staged decisions of one review, saved to ``store`` after every change."""

    def __init__(self, store: PendingStore) -> None:
        self.store = store
        self._by_item: dict[str, Decision] = {}
        self._per_queue: Counter[str | None] = Counter()
        self.saved = True  # False while the last save failed: the decisions live in memory only
        self.save_error: str | None = None  # why the last save failed, one line

    # -- reading -----------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._by_item)

    def __bool__(self) -> bool:
        return bool(self._by_item)

    def __iter__(self) -> Iterator[Decision]:
        """The decisions, oldest first."""
        return iter(list(self._by_item.values()))

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._by_item

    def decisions(self) -> list[Decision]:
        """The decisions, oldest first."""
        return list(self._by_item.values())

    def for_item(self, item_id: str) -> Decision | None:
        """What is staged for ``item_id``, or None."""
        return self._by_item.get(item_id)

    def newest(self) -> Decision | None:
        """The decision staged last, or None when nothing is staged."""
        return next(reversed(self._by_item.values()), None)

    def count(self, queue: str) -> int:
        """How many decisions are staged in ``queue``."""
        return self._per_queue[queue]

    def counts(self) -> dict[str, int]:
        """The number of staged decisions per queue (queues with none left out)."""
        return {q: n for q, n in self._per_queue.items() if n and q is not None}

    # -- changing ----------------------------------------------------------------------------
    def load(self) -> list[str]:
        """Replace what is staged by what the store holds; returns one-line warnings.

        A store that can't be read at all is a warning and nothing staged, never an error.
        """
        try:
            decisions, warnings = self.store.load_pending()
        except Exception as exc:  # a broken pending file must not stop the review
            decisions, warnings = [], [_("pending decisions not loaded: {error}").format(error=exc)]
        self._set(decisions)
        return list(warnings)

    def stage(self, decision: Decision) -> Decision | None:
        """Stage ``decision`` (replacing its item's earlier one, which is returned) and save."""
        old = self._drop(decision.item)
        self._by_item[decision.item] = decision
        self._per_queue[decision.queue] += 1
        self._save()
        return old

    def unstage(self, item_id: str) -> Decision | None:
        """Drop what is staged for ``item_id`` and save; returns it (None: nothing was)."""
        old = self._drop(item_id)
        if old is not None:
            self._save()
        return old

    def replace(self, decisions: Iterable[Decision]) -> None:
        """Stage exactly ``decisions`` (e.g. those a write left pending) and save."""
        self._set(decisions)
        self._save()

    # -- inside ------------------------------------------------------------------------------
    def _set(self, decisions: Iterable[Decision]) -> None:
        self._by_item = {}
        for d in decisions:
            self._by_item[d.item] = d  # of two for one item the later one wins
        self._per_queue = Counter(d.queue for d in self._by_item.values())

    def _drop(self, item_id: str) -> Decision | None:
        old = self._by_item.pop(item_id, None)
        if old is not None:
            self._per_queue[old.queue] -= 1
        return old

    def _save(self) -> None:
        try:
            self.store.save_pending(self.decisions())
        except Exception as exc:  # the decisions stay staged in memory; the caller says so
            self.saved = False
            self.save_error = _("pending decisions not saved: {error}").format(error=exc)
            return
        self.saved = True
        self.save_error = None
