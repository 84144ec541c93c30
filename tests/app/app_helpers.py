"""What the app's tests share: the review date, the screen size, a fake decisions backend,
waiting for workers and reading the screen as text."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from shared_helpers import screen_text  # noqa: F401 (the tests import it from here)
from textual.worker import WorkerState

from memreview.app.backend import Outcome, Preview, UndoSummary
from memreview.decisions import DecisionError, check_decision

TODAY = date(2026, 11, 29)
SIZE = (160, 48)


@dataclass
class FakeBackend:
    """Stands in for the decisions package: remembers what the app asked for."""

    store: dict = field(default_factory=dict)  # shared between two apps = "on disk"
    conflict_action: str | None = None  # decisions with this action conflict on apply
    applied: list = field(default_factory=list)
    undone: int = 0
    undoable: bool = True  # whether a written batch is there to undo

    def load_pending(self):
        return list(self.store.get("pending", [])), []

    def save_pending(self, decisions) -> bool:
        self.store["pending"] = list(decisions)
        return True

    def check(self, queue, item, decision) -> str | None:
        try:
            check_decision(queue, item, decision)
        except DecisionError as exc:
            return str(exc)
        return None

    def interrupted(self) -> str | None:
        return None

    def clash(self, result, staged, decision) -> str | None:
        return None

    def seen(self, result, decision) -> str | None:
        return None

    def preview(self, result, decisions) -> Preview:
        diff = (
            "--- a/memory/knowledge.md\n+++ b/memory/knowledge.md\n"
            "@@ -1,2 +1,2 @@\n-old line\n+new line [@click=app.quit]\n"
            + "".join(f" {d.action}\n" for d in decisions)
        )
        return Preview({"memory/knowledge.md": diff})

    def apply(self, result, decisions) -> Outcome:
        self.applied.append(list(decisions))
        bad = [d for d in decisions if d.action == self.conflict_action]
        return Outcome(
            written=["memory/knowledge.md"],
            conflicts=[(d, "the entry changed since it was loaded") for d in bad],
            keep_pending=bad,
        )

    def nothing_to_undo(self) -> str | None:
        return None if self.undoable or self.applied else "nothing to undo"

    def last_batch_said(self) -> str | None:
        return "Batch fake-1: 1 decision, 1 file." if self.nothing_to_undo() is None else None

    def undo_last(self) -> UndoSummary:
        self.undone += 1
        return UndoSummary(True, "undone: 1 file(s) restored")


async def loaded(app, pilot) -> None:
    """Wait for the workers (the scan, a write, an undo) and the messages they posted."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()
    screen = review(app)
    for _ in range(200):  # a reload may have been started by a message just handled
        busy = [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        if not screen.scanning or not busy:
            break
        await app.workers.wait_for_complete()
        await pilot.pause(0.02)


def review(app):
    from memreview.app.screens.review import ReviewScreen

    return next(s for s in app.screen_stack if isinstance(s, ReviewScreen))


async def until(pilot, done, what: str = "the app never got there") -> None:
    """Wait (up to 10 s) until ``done()`` holds."""
    for _ in range(1000):
        if done():
            return
        await pilot.pause(0.01)
    raise AssertionError(what)


def gated_toy(gate, slow: bool = False):
    """The toy queue (tests/toy_queue.py) with a detector that waits for ``gate``: a queue
    still being computed for as long as a test needs (``slow``: computed in the scan's
    thread for slow queues, beside the others)."""
    from dataclasses import replace

    from toy_queue import TOY, toys

    def held_toys(workspace, today):
        gate.wait(30)
        return toys(workspace, today)

    return replace(TOY, detect=held_toys, slow=slow)


def use_units(monkeypatch, units) -> None:
    """The registry's table made ``units`` for the test, with the review screen's keys."""
    from memreview.app.keys import review_bindings
    from memreview.app.screens.review import ReviewScreen
    from memreview.decisions import registry

    monkeypatch.setattr(registry, "UNITS", tuple(units))
    monkeypatch.setattr(ReviewScreen, "BINDINGS", review_bindings())
    monkeypatch.setattr(ReviewScreen, "_merged_bindings", ReviewScreen._merge_bindings())
