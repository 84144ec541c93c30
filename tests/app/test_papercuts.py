"""Small things the owner reads: counts that stay whole in a narrow queue pane, titles cut in
cells with "…", notifications that leave the pending bar readable."""

from __future__ import annotations

from app_helpers import loaded, review

from memreview.app.widgets.panels import QueueNav


def _row_line(app, queue: str) -> str:
    row = review(app).query_one(QueueNav).row(queue)
    return str(row.render()).split("\n")[0].rstrip()


async def test_a_queue_with_decisions_keeps_its_count_visible_at_120_columns(make):
    app = make()
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(app, pilot)
        await pilot.press("1", "a")
        await pilot.pause()
        line = _row_line(app, "contradictions")
        assert line.endswith(" 1 ✓1"), line  # the count and the staged mark, whole
        assert line.startswith("1 Contradicti")
        assert "…" in line  # the name gave way, and says so


async def test_a_queue_row_with_room_is_not_cut(make):
    app = make()
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(app, pilot)
        await pilot.press("2", "a")
        await pilot.pause()
        assert _row_line(app, "supersede") == "2 Supersede 1  ✓1"
