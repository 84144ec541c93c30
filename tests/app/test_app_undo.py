"""Undo from the review screen: asked, run in a worker, reported by the app's own message."""

from __future__ import annotations

from app_helpers import SIZE, FakeBackend, loaded, review, screen_text

from memreview.app.backend import UndoSummary
from memreview.app.messages import UndoDone, WorkspaceLoaded
from memreview.app.screens.dialogs import DiffDialog


class LockedBackend(FakeBackend):
    def undo_last(self) -> UndoSummary:
        raise TimeoutError("another memreview holds the workspace lock")


class StoppedBackend(FakeBackend):
    def undo_last(self) -> UndoSummary:
        return UndoSummary(
            False, "MEMORY.md changed since the batch", "--- a/MEMORY.md\n+++ b/MEMORY.md\n-x\n+y\n"
        )


def _once(seen: list) -> list:
    """The messages in the order first handled (a message that bubbles is seen at each
    node it reaches)."""
    return list({id(m): m for m in seen}.values())


async def test_undo_posts_undo_done_and_then_loads_the_workspace_again(make, backend):
    seen = []
    app = make()
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        await loaded(app, pilot)
        await pilot.press("U")
        await pilot.pause()
        assert "Undo the last written batch?" in screen_text(app)
        await pilot.press("y")
        await loaded(app, pilot)
        assert backend.undone == 1
        assert any("undone: 1 file(s) restored" in n.message for n in app._notifications)
    posted = _once(seen)
    [done] = [m for m in posted if isinstance(m, UndoDone)]
    assert done.ok and done.diff == ""
    loads = [k for k, m in enumerate(posted) if isinstance(m, WorkspaceLoaded)]
    assert len(loads) == 2 and loads[0] < posted.index(done) < loads[1]


async def test_keeping_the_batch_undoes_nothing(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("U", "n")
        await loaded(app, pilot)
        assert backend.undone == 0


async def test_an_undo_that_raises_is_a_notification_and_no_reload(make):
    seen = []
    app = make(backend=LockedBackend())
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        await loaded(app, pilot)
        await pilot.press("U", "y")
        await loaded(app, pilot)
        assert app.is_running and not review(app).scanning
        [note] = [n for n in app._notifications if n.title == "Undo failed"]
        assert note.message == "another memreview holds the workspace lock"
    assert sum(isinstance(m, WorkspaceLoaded) for m in _once(seen)) == 1


async def test_an_undo_stopped_by_a_changed_file_shows_the_diff(make):
    app = make(backend=StoppedBackend())
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("U", "y")
        await loaded(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        text = screen_text(app)
        assert "Undo stopped" in text and "MEMORY.md changed since the batch" in text
        assert "+++ b/MEMORY.md" in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, DiffDialog)


class SlowBackend(FakeBackend):
    def __init__(self) -> None:
        super().__init__()
        import threading

        self.release = threading.Event()

    def undo_last(self) -> UndoSummary:
        self.release.wait(30)
        return super().undo_last()


async def test_an_undo_that_takes_a_while_says_it_is_under_way(make):
    backend = SlowBackend()
    app = make(backend=backend)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        try:
            await pilot.press("U", "y")
            await pilot.pause(0.6)
            assert "Undoing the last batch…" in [n.message for n in app._notifications]
        finally:
            backend.release.set()
        await loaded(app, pilot)
        assert backend.undone == 1


async def test_a_quick_undo_says_only_how_it_went(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("U", "y")
        await loaded(app, pilot)
        await pilot.pause(0.5)
        messages = [n.message for n in app._notifications]
        assert "Undoing the last batch…" not in messages
        assert any("undone: 1 file(s) restored" in m for m in messages)
