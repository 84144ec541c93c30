"""The alarms in the app: a banner under the top bar when one fires (memory text in it shown
harmlessly, secrets masked), ``h`` lists each with its evidence and what to do; no banner on
a workspace where nothing fires."""

from __future__ import annotations

import json

from app_helpers import SIZE, loaded, screen_text

KEY = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
HOSTILE = f"fact [bold]loud[/bold] \x1b]0;title\x07 with {KEY}"


def _seen(ws, keys: dict[str, str]) -> None:
    (ws / ".memreview").mkdir(exist_ok=True)
    doc = {
        "schema": 1,
        "reviewed": "2026-11-22",
        "keys": {
            k: {"file": "MEMORY.md", "hash": "0", "text": t, "seen": "2026-11-22"}
            for k, t in keys.items()
        },
        "gone": {},
    }
    (ws / ".memreview/promotions-seen.json").write_text(json.dumps(doc))


async def test_a_banner_names_each_alarm_and_h_shows_the_evidence(make, ws):
    _seen(ws, {"memory:memory/2026-11-01.md:3:3": HOSTILE})
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        banner = app.screen.query_one("#alarms")
        assert banner.display
        text = screen_text(app)
        assert "⚠ ALARM" in text and "promotion(s) you reviewed on 2026-11-22 are gone" in text
        assert "h: the evidence and what to do" in text
        await pilot.press("h")
        text = screen_text(app)
        assert "Alarms" in text and "memory:memory/2026-11-01.md:3:3" in text
        assert "fact [bold]loud[/bold] ␛]0;title␇ with ghp_…" in text
        assert KEY not in text and "\x1b" not in text
        assert "what to do: OpenClaw deletes the oldest promotion sections" in text


async def test_no_banner_when_nothing_fires(make, ws):
    (ws / "memory/.dreams/short-term-recall.json").unlink(missing_ok=True)
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert not app.screen.query_one("#alarms").display
        assert "⚠ ALARM" not in screen_text(app)


async def test_at_80_columns_each_alarm_keeps_to_one_line_cut_with_an_ellipsis(make, ws):
    long = "a remembered promotion whose text runs far past the width of the screen " * 3
    _seen(ws, {"memory:memory/2026-11-01.md:3:3": long})
    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        banner = app.screen.query_one("#alarms")
        alarms = app.screen.result.health["alarms"]
        shown = min(len(alarms), banner.SHOWN)
        # one line per alarm shown (the hint on its own line below several): nothing wraps
        assert banner.size.height == shown + (1 if len(alarms) > 1 else 0)
        assert "…" in screen_text(app).splitlines()[1]


async def test_the_banner_is_there_before_the_last_queue_so_nothing_moves_later(
    make, ws, monkeypatch
):
    """The alarms come once the first queue is in: the banner shows while a slow queue is
    still computed, not when the last one comes in (it would push the list the owner is
    reading down a few lines)."""
    import threading

    from app_helpers import gated_toy, until, use_units

    from memreview.decisions import registry

    gate = threading.Event()
    use_units(monkeypatch, (*registry.UNITS, gated_toy(gate, slow=True)))
    _seen(ws, {"memory:memory/2026-11-01.md:3:3": "a promotion reviewed then deleted"})
    app = make()
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(
                pilot,
                lambda: "⚠ ALARM" in screen_text(app) and app.screen.query_one("#alarms").display,
                "no banner while a queue was computed",
            )
            screen = app.screen
            assert "toy" in screen.result.pending  # the slow queue is still being computed
            text = screen_text(app)
            assert "⚠ ALARM" in text and "promotion(s) you reviewed on 2026-11-22 are gone" in text
            gate.set()
            await loaded(app, pilot)
            assert "⚠ ALARM" in screen_text(app)
    finally:
        gate.set()
