"""A queue added to the registry's table shows up in the app: sidebar, keys, footer,
evidence, help and palette, without any app module naming it."""

from __future__ import annotations

from app_helpers import SIZE, loaded, review, screen_text
from toy_queue import TOY_ANCHOR, TOY_FULL, register

from memreview.app.keys import review_bindings
from memreview.app.screens.help import HelpScreen
from memreview.app.screens.review import ReviewScreen
from memreview.app.widgets.health import _lists
from memreview.decisions import registry


def _with_toy(monkeypatch, ws) -> None:
    register(monkeypatch)
    # digits reach nine queues: the toy takes the ninth place here (the last queue steps
    # aside) so that its digit can be pressed
    monkeypatch.setattr(registry, "UNITS", (*registry.UNITS[:8], registry.UNITS[-1]))
    # A screen's bindings are merged once, when its class is created; the table is read
    # again here as it would be when the app is imported with the toy queue in it.
    monkeypatch.setattr(ReviewScreen, "BINDINGS", review_bindings())
    monkeypatch.setattr(ReviewScreen, "_merged_bindings", ReviewScreen._merge_bindings())
    (ws / "memory" / "toy.md").write_text("# Toys\n\n" + TOY_ANCHOR, encoding="utf-8")


async def test_a_queue_added_to_the_table_is_in_the_sidebar_keys_and_evidence(
    make, ws, backend, monkeypatch
):
    _with_toy(monkeypatch, ws)
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        text = screen_text(app)
        assert " 9 Toy 1" in text
        await pilot.press("9")
        text = screen_text(app)
        assert "Toy   1 of 1" in text
        assert "toy anchor toy-one" in text and "anchor  memory/toy.md:3" in text
        assert "T tag it" in text  # the footer names the key as the queue does
        await pilot.press("T")
        [d] = backend.store["pending"]
        assert (d.queue, d.action) == ("toy", "tag")
        assert "toy tag it ×1" in screen_text(app)


async def test_a_queue_added_to_the_table_is_in_the_help_and_the_palette(make, ws, monkeypatch):
    from memreview.app.commands import MemReviewCommands

    _with_toy(monkeypatch, ws)
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("9")
        names = [name for name, _run, _help in MemReviewCommands(app.screen)._commands()]
        assert "queue: Toy" in names and "decision: tag it" in names
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        assert "1–9 choose a queue" in screen_text(app)
        assert "| Toy | `T` tag it · `d` defer |" in app.screen.markdown
        await pilot.press("escape")
        assert review(app).queue == "toy"


def test_a_queue_declaring_a_health_view_is_in_the_app_health_view(monkeypatch):
    figures = {"toy": {"count": 2}, "promotions": {"count": 0}}
    register(monkeypatch)
    assert "Toys waiting" not in _lists(figures, [], {}, "red").plain
    register(monkeypatch, TOY_FULL)
    text = _lists(figures, [], {}, "red").plain
    assert "Toy  2\n  Toys waiting: 2" in text
    assert "Promotions" not in text  # none waiting: its view shows nothing
