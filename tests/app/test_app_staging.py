"""The staged decisions in the app when pending.yaml can't be written or read."""

from __future__ import annotations

from app_helpers import SIZE, FakeBackend, loaded, review, screen_text


class FullDisk(FakeBackend):
    def save_pending(self, decisions) -> bool:
        raise OSError(28, "No space left on device")


class Unreadable(FakeBackend):
    def load_pending(self):
        raise PermissionError("pending.yaml: permission denied")


async def test_a_failed_save_keeps_the_decision_says_so_and_quitting_warns(make):
    app = make(backend=FullDisk())
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("2", "a")
        await pilot.pause()
        assert [d.action for d in review(app).staging] == ["approve"]
        text = screen_text(app)
        assert "1 pending" in text and "NOT SAVED (see the error)" in text
        errors = [n.message for n in app._notifications if n.severity == "error"]
        assert errors == ["pending decisions not saved: [Errno 28] No space left on device"]
        await pilot.press("q")
        await pilot.pause()
        assert "They could not be saved and will be lost." in screen_text(app)


async def test_pending_decisions_that_cannot_be_read_are_a_warning_and_none_staged(make):
    app = make(backend=Unreadable())
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert "No decisions staged." in screen_text(app)
        [note] = [n for n in app._notifications if n.title == "Pending decisions"]
        assert note.message == "pending decisions not loaded: pending.yaml: permission denied"
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
