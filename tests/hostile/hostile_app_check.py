"""Open the app on one corpus case the way a user would, and report what was seen.

Run in worker processes by ``test_hostile_app.py`` (a Textual session costs over a second of
CPU, and there is one per case): everything observed comes back as plain data, and the test
makes its assertions on that.
"""

from __future__ import annotations

import asyncio
import os
import traceback
from datetime import date
from pathlib import Path

from shared_helpers import screen_text

TODAY = date(2026, 11, 29)
SIZE = (160, 48)


def health_text(app) -> str:
    """Everything the health view holds, scrolled into view or not."""
    return "\n".join(
        str(w.content) for w in app.screen.query("#health-budgets, #health-lists").results()
    )


async def loaded(app, pilot) -> None:
    """Wait for the scan worker and the messages it posted."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def observe(name: str, tmp: Path) -> dict:
    import hostile_corpus as hc

    from memreview.app import make_app
    from memreview.scan import scan_workspace

    ws, outside = hc.build(name, tmp)
    before = hc.snapshot(ws, outside)
    seen: dict = {"name": name}
    if hc.CASES[name].unusable is None:
        seen["warnings"] = scan_workspace(ws, today=TODAY).warnings
    app = make_app(ws, today=TODAY, config_path=tmp / "user-config" / "config.yaml")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        seen["first_screen"] = screen_text(app)
        await pilot.press("h")
        await pilot.pause()
        seen["health_screen"] = screen_text(app)
        seen["health"] = health_text(app)
        seen["notifications"] = [n.message for n in app._notifications]
        # a key that chooses a queue and a click on its list: nothing is decided by them
        await pilot.press("5")
        try:
            await pilot.click("#items", offset=(20, 1))
        except Exception:  # no list when the workspace could not be loaded
            await pilot.press("a", "w")
        seen["running_after_poke"] = app.is_running
        await pilot.press("q")
        await pilot.pause()
        seen["running_after_quit"] = app.is_running
    seen["unchanged"] = hc.snapshot(ws, outside) == before
    return seen


def run_case(name: str, tmp: str) -> dict:
    """``observe`` in this process; an exception comes back as its traceback."""
    os.environ["MEMREVIEW_CONFIG"] = str(Path(tmp) / "user-config" / "config.yaml")
    os.environ["EDITOR"] = "true"
    os.environ.pop("VISUAL", None)
    try:
        return asyncio.run(observe(name, Path(tmp)))
    except Exception:
        return {"name": name, "error": traceback.format_exc()}
