"""The health view scrolls with the keyboard (issue 29): it has the focus while it shows."""

from __future__ import annotations

import pytest
from app_helpers import loaded

from memreview.app.widgets.health import HealthView


@pytest.mark.parametrize(
    ("keys", "where"),
    [
        (("end",), "bottom"),
        (("pagedown",), "down"),
        (("j",), "down"),
        (("down",), "down"),
        (("end", "home"), "top"),
        (("end", "up"), "up"),
    ],
)
async def test_the_health_view_scrolls_with_the_keys(make, keys, where):
    app = make(backend=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        await pilot.press("h")
        await loaded(app, pilot)
        view = app.screen.query_one(HealthView)
        assert view.max_scroll_y > 2  # more than a screen of figures at 80×24
        assert app.focused is view
        for key in keys:
            await pilot.press(key)
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
        y = view.scroll_y
        if where == "bottom":
            assert y == view.max_scroll_y
        elif where == "top":
            assert y == 0
        elif where == "down":
            assert y > 0
        else:
            assert 0 < y < view.max_scroll_y


async def test_leaving_the_health_view_gives_the_keys_back_to_the_items(make):
    app = make(backend=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        await pilot.press("h")
        await loaded(app, pilot)
        await pilot.press("1")
        await pilot.pause()
        assert app.focused is app.screen.items
