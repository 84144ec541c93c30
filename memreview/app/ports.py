"""What the screens need of the decisions package, as protocols: :class:`Backend` is the one
that writes, and the tests hand the screens fakes that keep everything in memory.

The review screen needs a :class:`ReviewBackend` (stage, check, preview, write, undo the
last batch); the history, archive and hidden-items screens need a :class:`LedgerBackend`
as well (the journal, the archives, what memreview hides).
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from memreview.app.backend import Outcome, Preview, UndoSummary
    from memreview.decisions import Decision


@runtime_checkable
class ReviewBackend(Protocol):
    """Staging, checking, previewing and writing the owner's decisions."""

    def load_pending(self) -> tuple[list[Decision], list[str]]:
        """The staged decisions, and one-line warnings about what could not be read."""
        ...

    def save_pending(self, decisions: list[Decision]) -> object:
        """Replace the staged decisions; a false value says they could not be saved."""
        ...

    def check(self, queue: str, item: dict[str, Any], decision: Decision) -> str | None:
        """Why ``decision`` is not one this item takes, or None."""
        ...

    def clash(self, result: Any, staged: list[Decision], decision: Decision) -> str | None:
        """Why ``decision`` disagrees with one already staged on the same entry, or None."""
        ...

    def seen(self, result: Any, decision: Decision) -> str | None:
        """Why the item changed on disk since it was shown, or None."""
        ...

    def preview(self, result: Any, decisions: list[Decision]) -> Preview:
        """What writing ``decisions`` would change: a diff per file, and the problems."""
        ...

    def apply(self, result: Any, decisions: list[Decision]) -> Outcome:
        """Write ``decisions`` as one batch."""
        ...

    def nothing_to_undo(self) -> str | None:
        """Why there is no batch to undo, or None."""
        ...

    def last_batch_said(self) -> str | None:
        """The batch ``undo_last`` would take back, in a line for the question, or None."""
        ...

    def undo_last(self) -> UndoSummary:
        """Take back the last batch."""
        ...

    def interrupted(self) -> str | None:
        """A notice about a batch cut short, or None."""
        ...


@runtime_checkable
class LedgerBackend(ReviewBackend, Protocol):
    """The journal, the archives and the hidden items, for the screens that show them."""

    def history(self) -> list[Any]:
        """The batches written, newest first."""
        ...

    def batch_diff(self, batch_id: str) -> str:
        """What batch ``batch_id`` changed, as a diff."""
        ...

    def undo_batch(self, batch_id: str) -> UndoSummary:
        """Take back one batch, also an older one."""
        ...

    def archived(self) -> list[Any]:
        """The entries memreview moved to an archive, that can be restored."""
        ...

    def restore(self, item_id: str, dry_run: bool = False) -> UndoSummary:
        """Put one archived entry back where it came from."""
        ...

    def hidden_reasons(self, today: date | None = None) -> dict[str, str]:
        """Each hidden item's id and why it is hidden."""
        ...

    def unhide(self, item_id: str, today: date | None = None, dry_run: bool = False) -> UndoSummary:
        """Show a hidden item again."""
        ...

    def removed_temps(self) -> list[str]:
        """The temp files of memreview's that a run cut short left, removed now."""
        ...

    def finish_interrupted(self) -> UndoSummary:
        """Bring a batch cut short to its end."""
        ...
