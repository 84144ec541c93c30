"""Each screen's key bar lists the keys that act on it, in the interface's language; the
one-line queue bar of a narrow terminal chooses a queue on a click; the palette's own entries
are in that language too."""

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


async def test_the_palettes_own_entries_speak_chinese_and_none_repeats_ours(make):
    from textual.command import CommandInput

    i18n.use_language("zh")
    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert titles == ["退出", "最大化", "截图"], titles  # no Theme, no Keys: ours do that
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen.query_one(CommandInput).placeholder == "搜索命令…"


async def test_the_archive_list_shows_a_markup_looking_entry_as_written_on_one_row(make, ws):
    archive = ws / "memory" / "archive"
    archive.mkdir(parents=True, exist_ok=True)
    entry = "- [b]bold[/b] [@click=app.quit]quit[/] " + "记忆召回只走全文检索，" * 8
    (archive / "superseded.md").write_text(f"# Superseded\n\n{entry}\n", encoding="utf-8")
    app = make(backend=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        await pilot.press("R")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        [row] = [x for x in lines if "superseded" in x and "[b]bold[/b]" in x]
        assert "[@click=app.quit]quit[/]" in row and "…" in row
        assert not any(x.startswith("▊ 记忆") for x in lines)  # not folded onto a 2nd row
        await pilot.click("#rows", offset=(30, 0))
        assert app.is_running


async def test_the_help_says_how_to_leave_it_and_nothing_else(make):
    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert screen_text(app).splitlines()[-1].rstrip() == " esc close"
        await pilot.press("L")  # not from the help
        await pilot.pause()
        assert not isinstance(app.screen, HistoryScreen)


async def test_the_diff_screen_says_it_is_writing_in_chinese(make, backend):
    import threading

    gate = threading.Event()
    applied = backend.apply

    def slow(result, decisions):
        gate.wait(10)
        return applied(result, decisions)

    backend.apply = slow
    i18n.use_language("zh")
    app = make()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await loaded(app, pilot)
            await pilot.press("a", "w")
            await loaded(app, pilot)
            await pilot.press("y")
            await pilot.pause()
            assert "正在写入…" in screen_text(app) and "Writing" not in screen_text(app)
            gate.set()
            await loaded(app, pilot)
            assert "已写入" in screen_text(app)
    finally:
        gate.set()
