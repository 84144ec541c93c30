"""Each screen's key bar lists the keys that act on it, in the interface's language; the
one-line queue bar of a narrow terminal chooses a queue on a click."""

from __future__ import annotations

from app_helpers import SIZE, loaded, review, screen_text

from memreview import i18n
from memreview.app.screens.apply import ApplyScreen
from memreview.app.screens.history import ArchiveScreen, HistoryScreen


async def test_the_diff_and_result_screens_list_only_their_own_keys(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert "L history" in screen_text(app).splitlines()[-1]
        await pilot.press("a", "w")
        await loaded(app, pilot)
        assert isinstance(app.screen, ApplyScreen)
        bar = screen_text(app).splitlines()[-1]
        assert bar.startswith(" y write  esc back  q quit"), bar
        assert "history" not in bar and "archive" not in bar
        await pilot.press("L", "R")  # not over the diff
        await pilot.pause()
        assert isinstance(app.screen, ApplyScreen)
        await pilot.press("y")
        await loaded(app, pilot)
        assert "Written:" in screen_text(app)
        bar = screen_text(app).splitlines()[-1]
        assert bar.startswith(" esc back  q quit"), bar  # written: no `y` any more


async def test_the_history_views_key_bar_speaks_the_interface_language(make):
    i18n.use_language("zh")
    app = make(backend=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        bar = screen_text(app).splitlines()[-1]
        assert bar.startswith(" esc 返回  u 撤销一批  R 归档  q 退出"), bar
        assert bar.rstrip().endswith("? 帮助  ^p 命令面板")
        assert "L 历史" not in bar  # the view it is already in
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, ArchiveScreen)
        bar = screen_text(app).splitlines()[-1]
        assert bar.startswith(" esc 返回  / 搜索"), bar
        assert "R 归档" not in bar and "help" not in bar and "palette" not in bar


async def test_a_click_on_the_one_line_queue_bar_chooses_that_queue(make):
    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        line = next(x for x in screen_text(app).splitlines() if x.startswith(" 1 Contradictions"))
        assert review(app).queue == "contradictions"
        await pilot.click("#queuebar", offset=(line.index(" 5·") + 2, 0))
        await pilot.pause()
        assert review(app).queue == "duplicates"
        line = next(x for x in screen_text(app).splitlines() if x.startswith(" 1·"))
        assert " 5 Duplicates " in line
        await pilot.click("#queuebar", offset=(line.index(" h") + 1, 0))
        await pilot.pause()
        assert review(app).queue == "health"
