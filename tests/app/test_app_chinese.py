"""The app in Chinese: the queues, the keys, the evidence labels, the help and the health
view from the zh catalogue; memory text as written; widths measured in terminal cells."""

from __future__ import annotations

from app_helpers import loaded, screen_text
from rich.cells import cell_len

from memreview import i18n


async def chinese_screens(make, size, *keys: str) -> list[str]:
    """The screen in Chinese once loaded, then after each of ``keys``."""
    i18n.use_language("zh")
    app = make()
    async with app.run_test(size=size) as pilot:
        await loaded(app, pilot)
        seen = [screen_text(app)]
        for key in keys:
            await pilot.press(key)
            await loaded(app, pilot)
            seen.append(screen_text(app))
    return seen


async def test_main_screen_in_chinese_names_the_queues_and_keys_in_chinese(make):
    first, staged = await chinese_screens(make, (120, 36), "a")
    for name in ("待审队列", "矛盾", "取代", "技能候选", "已归档碎片", "重复", "沉睡项目"):
        assert name in first, name
    assert "健康状况" in first and "没有暂存的决定。" in first
    assert "保留 A" in first and "推迟" in first  # the decision keys of the first queue
    assert "A（较早）" in first and "B（较新）" in first  # evidence labels
    assert "Contradictions" not in first and "No decisions staged" not in first
    # the pending bar names the queue by its Chinese title
    assert "1 项待定" in staged and "矛盾 保留 A ×1" in staged


async def test_help_in_chinese_shows_each_action_with_its_english_id(make):
    _first, shown = await chinese_screens(make, (120, 36), "question_mark")
    assert "移动" in shown
    assert "批准 (approve)" in shown and "保留 A (keep-a)" in shown


async def test_health_view_in_chinese(make):
    _first, shown = await chinese_screens(make, (120, 36), "h")
    assert "每周新增条目（最近 14 周）" in shown
    assert "NOW.md 中过期的待办（超过 3 天）" in shown


async def test_main_screen_at_80x24_in_chinese_keeps_every_line_in_its_cells(make):
    (first,) = await chinese_screens(make, (80, 24))
    lines = first.splitlines()
    assert lines[1].startswith(" 1 矛盾 1  2·1")  # below 100 columns: the queues on one line
    assert all(cell_len(line) <= 80 for line in lines)
    assert "? 帮助" in lines[-1] or "? 更多" in lines[-1]


async def test_the_palette_switches_the_language_live_and_remembers_it(make, tmp_path):
    from memreview.app.commands import MemReviewCommands

    app = make()
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(app, pilot)
        await pilot.press("a")  # a staged decision survives the switch
        await loaded(app, pilot)
        assert "Queues" in screen_text(app)
        provider = MemReviewCommands(app.screen)
        (run,) = [run for name, run, _help in provider._commands() if name == "language: 中文"]
        run()
        await loaded(app, pilot)
        text = screen_text(app)
        assert "待审队列" in text and "1 项待定" in text
        assert "Queues" not in text
    config = (tmp_path / "user-config" / "config.yaml").read_text(encoding="utf-8")
    # the app's own setting: the command line keeps its language (lang:, else the locale)
    assert "app_lang: zh" in config.splitlines()
    assert "lang: zh" not in config.splitlines()
