"""Small things the owner reads: counts that stay whole in a narrow queue pane, titles cut in
cells with "…", notifications that leave the pending bar readable."""

from __future__ import annotations

import pytest
from app_helpers import loaded, review, screen_text
from rich.cells import cell_len
from textual.app import App, ComposeResult

from memreview.app.widgets.item_list import ItemList
from memreview.app.widgets.panels import QueueNav
from memreview.workspace.cells import cut_cells


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


LONG_CJK = "主人喜欢早上七点前收到日报摘要，不要超过一屏，周末也一样，节假日改到九点"


@pytest.mark.parametrize(
    "text, cells, shown",
    [
        (LONG_CJK, 11, "主人喜欢早…"),  # an odd width: the last whole character, then "…"
        (LONG_CJK, 12, "主人喜欢早…"),
        ("gateway restart", 8, "gateway…"),
        ("short", 5, "short"),
        ("主人", 1, "…"),
    ],
)
def test_a_title_is_cut_by_cells_and_says_so(text, cells, shown):
    assert cut_cells(text, cells) == shown
    assert cell_len(cut_cells(text, cells)) <= cells


class _ListApp(App):
    def compose(self) -> ComposeResult:
        yield ItemList(id="items")


async def test_a_cjk_title_in_a_list_with_a_scrollbar_ends_in_an_ellipsis_that_shows():
    app = _ListApp()
    async with app.run_test(size=(41, 6)) as pilot:
        items = app.query_one(ItemList)
        items.styles.scrollbar_size_vertical = 1
        items.set_items([{"id": f"p-{n}", "title": f"{n:02d} {LONG_CJK}"} for n in range(20)])
        await pilot.pause()
        assert items.scrollable_size.width == 40  # one column is the scrollbar's
        text = screen_text(app)
        rows = [line for line in text.splitlines() if "主人" in line]
        assert rows
        for line in rows:
            visible = line.rstrip()
            assert "…" in visible, visible
            assert cell_len(visible[: visible.index("…") + 1]) <= 40, visible


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_a_notification_leaves_the_pending_bar_readable(make, size):
    from textual.widgets._toast import Toast

    from memreview.app.widgets.panels import PendingBar

    app = make()
    async with app.run_test(size=size, notifications=True) as pilot:
        await loaded(app, pilot)
        await pilot.press("2", "a")
        app.notify("a long notification " * 6, title="Written", timeout=30)
        await pilot.pause(0.3)
        bar = review(app).query_one(PendingBar).region
        toasts = list(app.screen.query(Toast))
        assert toasts
        for toast in toasts:
            assert not toast.region.overlaps(bar), (toast.region, bar)
        line = screen_text(app).splitlines()[bar.y]
        assert "1 pending" in line and "saved" in line


def test_the_archive_and_history_rows_cut_a_chinese_title_by_cells():
    from types import SimpleNamespace

    from memreview.app.screens.history import ROW_CELLS, ArchiveScreen

    item = SimpleNamespace(kind="rejected-promotion", title="- " + LONG_CJK * 4)
    line = ArchiveScreen(None).line(item)
    assert line.endswith("…") and cell_len(line) <= ROW_CELLS


async def test_a_pending_bar_too_long_for_the_screen_keeps_its_count_and_saved_mark(make):
    from memreview.app.widgets.panels import PendingBar

    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        await pilot.press("1", "a", "k", "2", "r", "d", "5", "r")
        await pilot.pause()
        bar = review(app).query_one(PendingBar).region
        line = screen_text(app).splitlines()[bar.y].rstrip()
        staged = len(review(app).staging.decisions())
        assert staged >= 3 and line.lstrip().startswith(f"{staged} pending"), line
        assert line.endswith("— saved"), line  # the saved mark is never the part cut off
        assert "  …" in line, line  # and the tallies left out are said to be
        assert cell_len(line) <= 80


async def test_the_longest_decision_label_shows_whole_in_the_list(make):
    app = make()
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(app, pilot)
        await pilot.press("5", "r")
        await pilot.pause()
        rows = [ln for ln in screen_text(app).splitlines() if "not-dup" in ln]
        assert rows and all("not-duplicate " in ln for ln in rows), rows


async def test_show_all_and_unhide_say_why_when_nothing_is_hidden(make):
    app = make()
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        assert not screen.hidden
        said = []
        for keys in (("8", "A"), ("8", "Z"), ("h", "A"), ("h", "Z")):
            await pilot.press(keys[0])
            app.clear_notifications()
            await pilot.press(keys[1])
            assert len(app._notifications) == 1, keys  # never silent
            said.append(list(app._notifications)[-1].message)
        assert "Promotions has no hidden items" in said[0]
        assert "this item is not hidden" in said[1]
        assert all("health view has no hidden items" in m for m in said[2:])


async def test_show_all_lists_a_limited_queue_s_items_past_its_limit_with_none_hidden(make, ws):
    """The dormant queue shows its longest sleepers only (``dormant_limit``): A lists every
    one even when no decision has hidden any, unmarked (nothing for Z to put back)."""
    (ws / "memreview.yaml").write_text("dormant_limit: 1\n", encoding="utf-8")
    with open(ws / "MEMORY.md", "a", encoding="utf-8") as f:
        for name in ("kestrel-wiki", "plover-ledger"):
            f.write(f"\n## [PROJECT:{name}]\nAdded: 2026-03-02\nSummary: {name}\n---\n")
    app = make(backend=None)  # the real one: it says why a decision hid an item
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        await pilot.press("6")
        await pilot.pause()
        assert len(screen.session.queue_items("dormant")) == 1
        total = len(screen.result.all_queues["dormant"])
        assert total >= 3
        app.clear_notifications()
        await pilot.press("A")
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert said == ["Dormant: every item, past the first ones it shows too"]
        text = screen_text(app)
        assert f"Dormant   1 of {total}" in text
        assert [ln for ln in text.splitlines() if "▕ ⊘" in ln] == []  # no row marked hidden
