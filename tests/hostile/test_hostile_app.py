"""The app on every broken and hostile workspace: it opens, says how many warnings there are
and shows them on `h`, shows hostile text literally, survives keys and clicks, and changes
nothing on disk by being opened and closed."""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from pathlib import Path

import hostile_corpus as hc
import pytest
from hostile_app_check import run_case
from hostile_helpers import SIZE, deny_reading, loaded, screen_text

from memreview.app import make_app
from memreview.display import one_line

TODAY = date(2026, 11, 29)
USABLE = [name for name, c in hc.CASES.items() if c.unusable is None]
UNUSABLE = [name for name, c in hc.CASES.items() if c.unusable is not None]


def _app(ws, tmp_path):
    return make_app(ws, today=TODAY, config_path=tmp_path / "user-config" / "config.yaml")


def _health_text(app) -> str:
    """Everything the health view holds, scrolled into view or not."""
    return "\n".join(
        str(w.content) for w in app.screen.query("#health-budgets, #health-lists").results()
    )


async def _poke(app, pilot, keys=("5",)) -> None:
    """Keys and clicks a user might try; none of them decides anything."""
    await pilot.press(*keys)
    await pilot.click("#items", offset=(20, 1))
    assert app.is_running


def _worker_init(*paths: str) -> None:
    sys.path[:0] = paths


@pytest.fixture(scope="module")
def observed(tmp_path_factory) -> dict[str, dict]:
    """Every case opened in the app once, in worker processes (one Textual session per case
    costs over a second of CPU)."""
    workers = max(2, os.cpu_count() or 2)
    ctx = multiprocessing.get_context("spawn")
    here = Path(__file__).parent  # and tests/ itself, for shared_helpers
    with ProcessPoolExecutor(
        workers, mp_context=ctx, initializer=_worker_init, initargs=(str(here), str(here.parent))
    ) as pool:
        futures = {
            name: pool.submit(run_case, name, str(tmp_path_factory.mktemp(name)))
            for name in hc.CASES
        }
        return {name: f.result(timeout=120) for name, f in futures.items()}


@pytest.mark.parametrize("name", USABLE)
def test_the_app_opens_shows_the_warnings_and_writes_nothing(observed, name):
    seen = observed[name]
    assert "error" not in seen, seen.get("error")
    warnings = seen["warnings"]
    assert "Could not load" not in seen["first_screen"]
    if warnings:
        n = len(warnings)
        assert f"{n} warning{'s' if n > 1 else ''} (h)" in seen["first_screen"]
    # h shows every warning: the file and the message, made visible
    assert "Warnings" in seen["health_screen"]
    for w in warnings:
        assert one_line(w["message"]) in seen["health"], w
        assert one_line(w["file"]) in seen["health"], w
    for _file, _line, message in hc.CASES[name].warnings:
        assert any(message in w["message"] for w in warnings)
    for screen in (seen["first_screen"], seen["health_screen"]):
        assert hc.RAW_CONTROL_RE.search(screen) is None
        assert hc.SECRET not in screen
    assert hc.SECRET not in seen["health"]
    assert seen["running_after_poke"], "a key or a click ended the app"
    assert not seen["running_after_quit"], "q did not quit with nothing pending"
    assert seen["unchanged"], "opening and closing the app changed a file"


@pytest.mark.parametrize("name", UNUSABLE)
def test_the_app_on_a_path_that_is_no_workspace_says_why_and_stays_up(observed, name):
    seen = observed[name]
    assert "error" not in seen, seen.get("error")
    assert "Could not load the workspace" in seen["first_screen"]
    assert hc.CASES[name].unusable in seen["first_screen"]
    assert seen["running_after_poke"]
    assert not seen["running_after_quit"]
    assert seen["unchanged"]


async def test_markup_and_escapes_are_shown_literally_and_run_nothing(tmp_path):
    ws, outside = hc.build("markup-and-escapes", tmp_path)
    before = hc.snapshot(ws, outside)
    app = _app(ws, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        seen = []
        for key in ("1", "3", "5", "end", "6"):
            await pilot.press(key)
            await pilot.pause()
            seen.append(screen_text(app))
        text = "\n".join(seen)
        assert "[@click=app.quit]quit[/] [/bold] [red]red[/red]" in text
        assert "␛]0;owned-title␇" in text
        assert "<U+202E>reversed" in text and "zero<U+200B>width" in text
        assert "<U+2066>isolate" in text
        assert hc.RAW_CONTROL_RE.search(text) is None
        # (digits pick a member in the duplicates queue: leave it first)
        await _poke(app, pilot, ("h", "2", "7", "home", "h", "5"))
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        # click right on the hostile text: [@click=app.quit] must not quit
        await pilot.press("5", "end")
        await pilot.pause()
        for x in range(2, 60, 20):
            await pilot.click("#items", offset=(x, 1))
            await pilot.click("#evidence", offset=(x, 4))
        await pilot.pause()
        assert app.is_running
        await pilot.press("q")
    assert hc.snapshot(ws, outside) == before


async def test_a_broken_pending_file_is_reported_when_the_app_opens(tmp_path):
    ws, outside = hc.build("yaml-pending", tmp_path)
    before = hc.snapshot(ws, outside)
    app = _app(ws, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        said = " ".join(n.message for n in app._notifications)
        assert ".memreview/pending.yaml" in said and "broken YAML" in said
        assert app.is_running
        await pilot.press("q")
    assert hc.snapshot(ws, outside) == before


async def test_staging_over_a_broken_pending_file_keeps_its_bytes(tmp_path):
    ws, outside = hc.build("yaml-pending", tmp_path)
    broken = (ws / ".memreview/pending.yaml").read_bytes()
    app = _app(ws, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("5", "d", "5", "r")  # defer, then "not a duplicate": staged
        await pilot.pause()
    copies = list((ws / ".memreview").glob("pending.yaml.broken-*"))
    assert [c.read_bytes() for c in copies] == [broken]


async def test_unreadable_directory_is_a_warning_in_the_app(tmp_path, monkeypatch):
    ws, outside = hc.build("binary-md", tmp_path)
    hc.put(ws, "memory/private/notes.md", "- private entry of the owner\n")
    deny_reading(monkeypatch, ws / "memory/private")
    before = hc.snapshot(ws, outside)
    app = _app(ws, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert "3 warnings (h)" in screen_text(app)
        await pilot.press("h")
        await pilot.pause()
        health = _health_text(app)
        assert "memory/private" in health and "Permission denied" in health
        await pilot.press("q")
    assert hc.snapshot(ws, outside) == before


@pytest.mark.big
async def test_the_app_opens_a_workspace_with_a_50_mb_daily_log(tmp_path):
    ws, outside = hc.build("zero-length", tmp_path)
    hc.make_big_log(ws)
    app = _app(ws, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert "Could not load" not in screen_text(app)
        await pilot.press("6", "h", "q")


async def test_the_diff_of_a_hostile_entry_is_shown_with_visible_escapes(tmp_path):
    ws, outside = hc.build("markup-and-escapes", tmp_path)
    before = hc.snapshot(ws, outside, skip=(".memreview",))
    app = _app(ws, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("5", "end", "a", "w")  # keep the first hostile line, review the diff
        await loaded(app, pilot)
        text = screen_text(app)
        assert "-- Hostile [@click=app.quit]quit[/] [/bold] [red]red[/red] ␛]0;owned-title␇" in text
        assert hc.RAW_CONTROL_RE.search(text) is None
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running
    assert hc.snapshot(ws, outside, skip=(".memreview",)) == before  # staged, not written
