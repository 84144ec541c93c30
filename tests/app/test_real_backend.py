"""The app on the real decisions package: staged decisions are saved, written, undone."""

from __future__ import annotations

from conftest import SIZE, loaded, review, screen_text

from memreview.app.screens.apply import ApplyScreen


async def test_stage_quit_reopen_write_and_undo_on_a_real_workspace(make, ws):
    memory = (ws / "MEMORY.md").read_bytes()
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("5", "down", "2")  # keep the dated copy of the port bullet
    assert "action: keep" in (ws / ".memreview/pending.yaml").read_text()

    again = make(backend=None)
    async with again.run_test(size=SIZE) as pilot:
        await loaded(again, pilot)
        assert "1 pending" in screen_text(again)
        await pilot.press("w")
        await loaded(again, pilot)
        assert isinstance(again.screen, ApplyScreen)
        text = screen_text(again)
        assert "-- The gateway listens on port 18789 for local clients" in text
        await pilot.press("y")
        await loaded(again, pilot)
        assert "Written: 1 file(s)" in screen_text(again)
        await pilot.press("escape")
        await loaded(again, pilot)
        after = (ws / "MEMORY.md").read_text()
        assert "- The gateway listens on port 18789 for local clients\n" not in after
        assert "- The gateway listens on port 18789 for local clients (2026-10-01)\n" in after
        assert review(again).pending == {}
        assert review(again).result.counts["duplicates"] == 2

        await pilot.press("U", "y")
        await loaded(again, pilot)
        assert (ws / "MEMORY.md").read_bytes() == memory
        assert review(again).result.counts["duplicates"] == 3
