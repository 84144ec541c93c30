"""A 10,000-item queue: only visible rows are drawn, and every key is timed by the app."""

from __future__ import annotations

from app_helpers import SIZE, loaded, screen_text
from fake_result import big_scan

from memreview.app.widgets.item_list import ItemList


async def test_a_large_queue_draws_only_the_visible_rows(make, monkeypatch):
    drawn: list[int] = []
    original = ItemList.render_line

    def counting(self, y):
        drawn.append(y)
        return original(self, y)

    monkeypatch.setattr(ItemList, "render_line", counting)
    app = make(scan=big_scan(10_000))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        items = app.screen.query_one(ItemList)
        assert items.count == 10_000
        height = items.size.height
        drawn.clear()
        await pilot.press(*["down"] * 10, "pagedown", "end")
        assert items.cursor == 9_999
        assert "Contradictions   10,000 of 10,000" in screen_text(app)
        nav = [ln for ln in screen_text(app).splitlines() if ln.startswith(" 1 Contradict")]
        assert nav and "… 10,000 ▕" in nav[0]  # the left pane writes it alike
        # every refresh draws at most one screenful, never the whole queue
        assert len(drawn) <= 12 * height
        assert max(drawn) < height


async def test_each_key_records_its_own_handling_time(make):
    app = make(scan=big_scan(10_000))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        app.key_latencies.clear()
        await pilot.press(*["down"] * 6, "a", "5", "down", "number_sign", "2")
        await pilot.pause()
        assert len(app.key_latencies) == 11
        assert all(0 < t < 5 for t in app.key_latencies)


async def test_clearing_a_filter_keeps_the_item_it_found_in_view(make):
    app = make(scan=big_scan(200))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("/", *"anchor-a-150 ", "enter")
        await pilot.pause()
        items = app.screen.query_one(ItemList)
        assert items.count == 1
        await pilot.press("escape")
        await pilot.pause()
        assert items.count == 200 and items.cursor == 150
        text = screen_text(app)
        assert "Contradictions   151 of 200" in text
        assert "▌· anchor-a-150 ⟷" in text  # the row with the cursor is on the screen


async def test_the_cursor_stays_in_view_when_the_terminal_gets_smaller(make):
    """On the last item of a long queue, a smaller terminal: the rows above it filled the
    list and the cursor's row was below it, unseen until a key moved it."""
    app = make(scan=big_scan(400))
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(app, pilot)
        await pilot.press("end")
        items = app.screen.query_one(ItemList)
        assert items.cursor == 399
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        top = round(items.scroll_y)
        assert top <= items.cursor < top + items.size.height, (top, items.size.height)
        assert "▌· anchor-a-399 ⟷" in screen_text(app)
