"""The first screen fills in as the scan goes: a queue's count and items as soon as it is
computed, "…" for the others, and keys work in the computed queues meanwhile."""

from __future__ import annotations

import threading
from contextlib import asynccontextmanager
from dataclasses import replace

from app_helpers import SIZE, gated_toy, loaded, review, screen_text, until, use_units
from toy_queue import TOY_ANCHOR

from memreview.app.screens.review import ReviewScreen
from memreview.decisions import registry


def _slow_toy(monkeypatch, ws, gate: threading.Event) -> None:
    """A queue (the ninth) whose detector waits for ``gate``: a deliberately slow queue."""
    use_units(monkeypatch, (*registry.UNITS[:8], gated_toy(gate)))
    (ws / "memory" / "toy.md").write_text("# Toys\n\n" + TOY_ANCHOR, encoding="utf-8")


async def _first_queue_computed(pilot, screen) -> None:
    await until(
        pilot, lambda: screen.result is not None and "contradictions" not in screen.result.pending
    )


@asynccontextmanager
async def _toy_held_back(make, ws, monkeypatch, size=SIZE):
    """The app with its first queue computed while the toy queue waits for the gate
    (opened at the end whatever happens): (app, pilot, screen, gate)."""
    gate = threading.Event()
    _slow_toy(monkeypatch, ws, gate)
    app = make()
    try:
        async with app.run_test(size=size) as pilot:
            screen = review(app)
            await _first_queue_computed(pilot, screen)
            yield app, pilot, screen, gate
    finally:
        gate.set()


async def test_the_first_queue_is_usable_while_a_slow_queue_is_computed(
    make, ws, backend, monkeypatch
):
    async with _toy_held_back(make, ws, monkeypatch) as (app, pilot, screen, gate):
        await pilot.pause()
        await pilot.pause()
        assert "toy" in screen.result.pending  # still waiting for the gate
        text = screen_text(app)
        assert " 9 Toy …" in text and "Contradictions 1" in text
        assert "Contradictions   1 of 1" in text  # the first queue's items are listed
        await pilot.press("k")  # keep both sides
        [d] = backend.store["pending"]
        assert d.queue == "contradictions" and d.action == "keep-both"
        await pilot.press("2")  # another computed queue answers too
        assert screen.queue == "supersede" and "Supersede   1 of 1" in screen_text(app)
        await pilot.press("9")  # the slow one says so, and nothing blocks
        assert "computing this queue" in screen_text(app)
        from memreview.app.commands import MemReviewCommands

        about = {n: h for n, _run, h in MemReviewCommands(app.screen)._commands()}
        assert about["queue: Toy"] == "being computed — key 9"  # not "0 items"
        assert about["queue: Supersede"] == "1 item — key 2"
        assert "toy" in screen.result.pending and not gate.is_set()
        gate.set()
        await loaded(app, pilot)
        assert not screen.result.pending
        text = screen_text(app)
        assert " 9 Toy 1" in text and "Toy   1 of 1" in text
        assert screen.result.health  # the health figures come last


async def test_a_reload_shows_dots_for_the_counts_not_known_yet_not_the_old_ones(
    make, ws, backend, monkeypatch
):
    """After a write the counts on screen are from before it: they show "…" from the moment
    the rescan starts until each queue is told again."""
    from memreview.app.widgets.panels import QueueNav

    gate = threading.Event()
    gate.set()
    _slow_toy(monkeypatch, ws, gate)
    app = make()
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = review(app)
            await loaded(app, pilot)
            assert " 9 Toy 1" in screen_text(app)
            old = screen.result
            gate.clear()
            screen.reload()
            nav = screen.query_one(QueueNav)
            rows = [str(nav.row(q).render()) for q in ("contradictions", "toy")]
            assert all("…" in row for row in rows), rows  # at once, before any reading
            await until(pilot, lambda: screen.result is not old)
            await until(pilot, lambda: "contradictions" not in screen.result.pending)
            await pilot.pause()
            text = screen_text(app)
            assert "Contradictions 1" in text and " 9 Toy …" in text
            gate.set()
            await loaded(app, pilot)
            assert " 9 Toy 1" in screen_text(app)
    finally:
        gate.set()


async def test_the_top_bar_counts_every_warning_once_the_scan_is_over(make, ws):
    """The warnings about anchors, promotion sources and the fragments come with parts the
    scan reads after the first queue: the top bar's count is told again at the end."""
    from memreview.workspace.loader import load_workspace

    (ws / "memory" / "dates.md").write_text(
        "# Dates\n\n## [FACT:nas-bought]\nAdded: 2026-02-30\nSummary: the NAS\n---\n\n"
        "## [FACT:ups-bought]\nAdded: 2026-13-01\nSummary: the UPS\n---\n",
        encoding="utf-8",
    )
    at_once = len(load_workspace(ws).warnings)
    assert at_once >= 2  # the two dates, warned by the checks across files
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        screen = review(app)
        await until(pilot, lambda: screen.result is not None and screen.result.health)
        await pilot.pause()
        assert f"{at_once} warnings (h)" in screen_text(app).splitlines()[0]


async def test_the_health_view_lists_the_sources_not_found_in_the_queues_order(make, tmp_path):
    """Some reasons are told after the first queue (they need a part read later): the
    health view lists them in the queues' order all the same."""
    from memreview.app.keys import queue_title

    root = tmp_path / "bare"
    root.mkdir()
    (root / "MEMORY.md").write_text("# Memory\n\n- the NAS has 4 disks\n", encoding="utf-8")
    app = make(root=root)
    async with app.run_test(size=(120, 60)) as pilot:
        screen = review(app)
        await until(pilot, lambda: screen.result is not None and screen.result.health)
        await pilot.press("h")
        await pilot.pause()
        missing = screen.result.missing
        assert {"archived", "dormant", "contradictions"} <= set(missing)
        titles = [queue_title(q) for q in registry.queue_names() if q in missing]
        lines = [line.split("▕", 1)[-1].strip() for line in screen_text(app).splitlines()]
        start = next(k for k, line in enumerate(lines) if "Sources not found" in line)
        shown = [
            t
            for line in lines[start + 1 : start + 1 + len(titles)]
            for t in titles
            if line.startswith(f"{t}:")
        ]
        assert shown == titles


async def test_a_queue_still_computed_shows_no_preview_of_the_item_shown_before(
    make, ws, monkeypatch
):
    """The preview of the item left is not drawn under a queue that has no item yet (it
    was asked for, and arrived after the owner moved on)."""
    async with _toy_held_back(make, ws, monkeypatch) as (app, pilot, _screen, _gate):
        await pilot.pause()
        assert "Contradictions   1 of 1" in screen_text(app)
        await pilot.press("9")  # the toy queue, still computed
        await pilot.pause(0.6)  # the left item's preview would be ready by now
        text = screen_text(app)
        assert "computing this queue" in text
        assert "Preview —" not in text


async def test_the_health_view_says_its_figures_are_computed_until_they_are(make, ws, monkeypatch):
    async with _toy_held_back(make, ws, monkeypatch, (120, 48)) as (app, pilot, screen, gate):
        await pilot.press("h")
        await pilot.pause()
        assert "computing the health figures" in screen_text(app)
        gate.set()
        await until(pilot, lambda: bool(screen.result.health))
        await pilot.pause()
        text = screen_text(app)
        assert "computing the health figures" not in text
        assert "Totals" in text


async def test_the_rescan_s_needs_are_made_ready_in_a_thread_once_the_scan_is_over(
    make, monkeypatch
):
    """An open from the scan cache imports no detector and unpickles no parsed file: both
    are done while the owner reviews, so that the rescan after a write does not wait."""
    calls: list[tuple[str, object]] = []
    monkeypatch.setattr(
        "memreview.scan.ready_rescan",
        lambda ws: calls.append((threading.current_thread().name, ws)),
        raising=False,
    )
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await app.workers.wait_for_complete()
        assert len(calls) == 1
        assert calls[0][0] != threading.main_thread().name
        screen = app.screen
        assert calls[0][1] is screen.session.result.workspace


async def test_a_queue_computed_later_adds_its_also_in_line_to_the_item_shown(
    make, monkeypatch, tmp_path
):
    """The sample's win11 contradiction is also a supersede proposal: when supersede comes
    in after the contradiction is shown, the item's "also in" line names it."""
    import shutil
    from pathlib import Path

    sample = Path(shutil.copytree(Path(__file__).parents[2] / "sample_workspace", tmp_path / "s"))
    gate = threading.Event()
    units = list(registry.UNITS)
    k = next(n for n, u in enumerate(units) if u.name == "supersede")
    held = units[k].detect

    def held_back(workspace, today):
        gate.wait(30)
        return held(workspace, today)

    units[k] = replace(units[k], detect=held_back)
    monkeypatch.setattr(registry, "UNITS", tuple(units))
    app = make(root=sample, backend=None)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            screen = review(app)
            await _first_queue_computed(pilot, screen)
            for _ in range(10):
                if screen.items.current["id"] == "c-b11f2638588a":
                    break
                await pilot.press("down")
            assert screen.items.current["id"] == "c-b11f2638588a"
            assert "also in Supersede" not in screen_text(app)
            gate.set()
            await loaded(app, pilot)
            assert "also in Supersede: s-ad900f249d91" in screen_text(app)
            assert screen.items.current["id"] == "c-b11f2638588a"
    finally:
        gate.set()


async def test_w_while_a_queue_is_computed_says_the_staged_decisions_wait_for_it(
    make, ws, backend, monkeypatch
):
    async with _toy_held_back(make, ws, monkeypatch) as (app, pilot, screen, gate):
        await pilot.press("k")  # keep both sides: one decision staged
        assert "1 pending" in screen_text(app)
        await pilot.press("w")
        await pilot.pause()
        said = [n.message for n in app._notifications]
        wait = "the staged decisions are written once every queue is computed ({} still computing)"
        assert wait.format(len(screen.session.pending_queues())) in said
        assert "toy" in screen.session.pending_queues()
        assert not any("nothing is staged" in m for m in said)
        gate.set()
        await loaded(app, pilot)


async def test_the_rescan_computes_the_queue_shown_before_the_others(make):
    """After a write the scan runs again: the queue the owner looks at is computed first
    (on a large workspace the others take seconds)."""
    from memreview.app import _scan_workspace

    asked: list[str | None] = []

    def scan(root, **kw):
        asked.append(kw.get("first"))
        return _scan_workspace(root, **kw)

    app = make(scan=scan)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        await pilot.press("8")  # promotions
        await pilot.pause()
        assert screen.queue == "promotions"
        screen.reload()
        await loaded(app, pilot)
        assert asked == ["contradictions", "promotions"]
        assert "promotions" not in screen.result.pending


async def test_a_rescan_shows_every_queue_computing_not_the_items_of_before(make):
    """After a write the items shown before may be written already: until the rescan has
    them, each queue says it is being computed and counts "…" (no loading pane flashing
    over the list, no list of before)."""
    from memreview.app import _scan_workspace
    from memreview.app.widgets.panels import LoadingPane

    gate = threading.Event()
    gate.set()

    def scan(root, **kw):
        gate.wait(30)
        return _scan_workspace(root, **kw)

    app = make(scan=scan)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        assert "Contradictions   1 of" in screen_text(app)
        gate.clear()
        try:
            screen.reload()
            await pilot.pause(0.2)
            text = screen_text(app)
            assert not screen.query_one(LoadingPane).display
            assert "computing this queue" in text
            assert "Contradictions …" in text and "Dropping …" in text
            assert "1 of" not in text
        finally:
            gate.set()
        await loaded(app, pilot)
        assert "Contradictions   1 of" in screen_text(app)


async def test_a_rescan_that_fails_says_why_in_the_loading_pane(make):
    from memreview.app import _scan_workspace
    from memreview.app.widgets.panels import LoadingPane

    broken = [False]

    def scan(root, **kw):
        if broken[0]:
            raise OSError("the disk went away")
        return _scan_workspace(root, **kw)

    app = make(scan=scan)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        broken[0] = True
        screen.reload()
        await loaded(app, pilot)
        await pilot.pause(0.1)
        assert screen.query_one(LoadingPane).display
        text = screen_text(app)
        assert "Could not load the workspace" in text and "the disk went away" in text
