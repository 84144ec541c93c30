"""The first screen at a cold open: whichever queue is ready first with items is the one shown,
the loading pane stays until there is one, and a queue still being computed never reads
"0 of 0" or "Nothing to review here." (it is not empty: it is not known yet)."""

from __future__ import annotations

import threading

from app_helpers import SIZE, gated_toy, loaded, review, screen_text, until, use_units
from toy_queue import TOY_ANCHOR

from memreview.decisions import registry

NOT_YET = ("0 of 0", "Nothing to review here")


def _gated_toy_first(monkeypatch, ws, gate: threading.Event, others: int) -> None:
    """A queue first in the table whose detector waits for ``gate`` (a slow one: computed
    beside the others, as the archived queue is); then ``others`` of the shipped queues."""
    use_units(monkeypatch, (gated_toy(gate, slow=True), *registry.UNITS[:others]))
    (ws / "memory" / "toy.md").write_text("# Toys\n\n" + TOY_ANCHOR, encoding="utf-8")


async def test_the_queue_ready_first_is_shown_first_when_the_first_one_is_slow(
    make, ws, monkeypatch
):
    gate = threading.Event()
    _gated_toy_first(monkeypatch, ws, gate, others=8)
    app = make()
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = review(app)
            await until(
                pilot,
                lambda: screen.result is not None and "contradictions" not in screen.result.pending,
            )
            await pilot.pause()
            text = screen_text(app)
            assert "toy" in screen.result.pending  # the first queue in order: not ready
            assert screen.queue == "contradictions"
            assert "Contradictions   1 of 1" in text
            assert not [t for t in NOT_YET if t in text], text
            assert " 1 Toy …" in text
            await pilot.press("1")  # the owner asks for the slow one: it says it is computing
            text = screen_text(app)
            assert screen.queue == "toy" and "computing this queue" in text
            assert "Toy   …" in text  # its header: not known yet
            assert not [t for t in NOT_YET if t in text], text
            gate.set()
            await loaded(app, pilot)
            assert screen.queue == "toy" and "Toy   1 of 1" in screen_text(app)
    finally:
        gate.set()


async def test_the_loading_pane_stays_until_a_queue_with_items_is_ready(make, ws, monkeypatch):
    gate = threading.Event()
    _gated_toy_first(monkeypatch, ws, gate, others=0)
    app = make()
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = review(app)
            await until(pilot, lambda: screen.result is not None)
            await pilot.pause()
            text = screen_text(app)
            assert screen.result.pending == {"toy"}
            assert "Loading the workspace…" in text
            assert not [t for t in (*NOT_YET, "computing this queue") if t in text], text
            gate.set()
            await loaded(app, pilot)
            text = screen_text(app)
            assert "Toy   1 of 1" in text and "Loading the workspace…" not in text
    finally:
        gate.set()


async def test_a_workspace_with_every_queue_empty_shows_the_first_queue_once_computed(
    make, ws, monkeypatch
):
    """No queue has items: once every one is computed, the first queue is shown (empty)."""
    gate = threading.Event()
    _gated_toy_first(monkeypatch, ws, gate, others=0)
    (ws / "memory" / "toy.md").unlink()  # the toy queue finds nothing
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        screen = review(app)
        await until(pilot, lambda: screen.result is not None)
        gate.set()
        await loaded(app, pilot)
        text = screen_text(app)
        assert screen.queue == "toy" and "Toy   0 of 0" in text
        assert "Loading the workspace…" not in text


async def test_the_scan_runs_with_fewer_garbage_collections(make):
    """The app's scan builds a long-lived model: the collector's thresholds are raised while
    it runs (a fifth of the reading time at scale 1 went to collections), and put back."""
    import gc

    from memreview.scan import scan_workspace
    from memreview.scan.collector import SCAN_THRESHOLD

    before = gc.get_threshold()
    seen = []

    def scan(*args, **kw):
        seen.append(gc.get_threshold())
        return scan_workspace(*args, **kw)

    app = make(scan=scan)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert seen == [SCAN_THRESHOLD] and "Contradictions   1 of" in screen_text(app)
    assert gc.get_threshold() == before


async def test_the_theme_files_are_read_after_the_first_frame_and_taken(
    make, tmp_path, monkeypatch
):
    """With no theme asked for, the app starts with the built-in themes and reads the theme
    files after: one that changes the default theme restyles it, a broken one is told."""
    from memreview.app import themes

    folder = tmp_path / "themes"
    folder.mkdir()
    (folder / "dark.yaml").write_text(
        "name: memreview-dark\ndark: true\nprimary: '#AA3366'\n", encoding="utf-8"
    )
    (folder / "broken.yaml").write_text("primary: [\n", encoding="utf-8")
    monkeypatch.setattr(themes, "themes_dir", lambda: folder)
    app = make()
    assert not app.theme_set.files_read  # what the first frame had: the built-in ones
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert app.theme == "memreview-dark"
        assert app.current_theme.primary == "#AA3366"
        styled = app.get_css_variables()["primary"]  # the stylesheet's, as Textual made it
        assert styled == app.current_theme.to_color_system().generate()["primary"]
        assert styled.upper() != "#5AA9E6"  # not the built-in one's any more
        told = "\n".join(str(n.message) for n in app._notifications)
        assert "theme broken.yaml" in told


async def test_the_stylesheet_is_parsed_once_with_the_default_theme_s_colours(make, monkeypatch):
    """The default theme set in ``__init__`` made Textual parse the whole stylesheet a second
    time as the app started, before its first frame; the stylesheet now has that theme's
    colours from its first parse (without them, it had Textual's own theme's)."""
    from textual.color import Color
    from textual.css.stylesheet import Stylesheet

    from memreview.app.themes import BUILTIN

    reparsed: list[int] = []
    real = Stylesheet.reparse

    def counted(self) -> None:
        reparsed.append(1)
        real(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        dark = next(t for t in BUILTIN if t.name == "memreview-dark")
        assert app.theme == dark.name
        assert app.screen.styles.background == Color.parse(dark.background)
        assert app.get_css_variables()["primary"].upper() == dark.primary.upper()
        assert reparsed == []


async def test_a_theme_file_that_makes_the_default_theme_light_is_taken_whole(make, tmp_path):
    """Textual made the app's classes for a dark theme before memreview's were registered:
    a default theme made light by a theme file is set, so that its watcher makes them again."""
    from textual.color import Color

    folder = tmp_path / "themes"
    folder.mkdir()
    (folder / "dark.yaml").write_text(
        "name: memreview-dark\ndark: false\nprimary: '#AA3366'\n"
        "background: '#FFFFFF'\nforeground: '#000000'\n",
        encoding="utf-8",
    )
    app = make(theme="dark", themes_dir=folder)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert app.theme == "memreview-dark" and not app.current_theme.dark
        assert app.has_class("-light-mode") and not app.has_class("-dark-mode")
        assert app.has_class("-theme-memreview-dark")
        assert app.screen.styles.background == Color.parse("#FFFFFF")


async def test_the_default_theme_has_its_class_as_textual_gives_it(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert app.has_class("-theme-memreview-dark") and app.has_class("-dark-mode")
