"""Chinese wraps between characters, Latin words stay whole, lines fit in cells, and a
wrapped line keeps its indent."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from memreview import i18n
from memreview.app.screens.help import help_markdown, help_text, text_width
from memreview.app.wrap import Indented, WrappedText, tokens

CONSOLE = Console(width=200)
TODO = (
    "处理办法：召回来自会话中的记忆搜索：检查智能体是否真的在搜索记忆"
    "（只靠每日导入，recallCount 会一直是 0）"
)


def lines(text: Text | str, width: int) -> list[str]:
    wrapped = WrappedText(text) if isinstance(text, str) else text
    return [line.plain for line in wrapped.wrap(CONSOLE, width)]


def test_chinese_breaks_between_characters_never_inside_a_latin_word():
    for width in range(12, 60):  # recallCount: 11 cells
        shown = lines(TODO, width)
        assert "".join(shown).replace(" ", "") == TODO.replace(" ", "")
        assert all(cell_len(line) <= width for line in shown), (width, shown)
        assert any("recallCount" in line for line in shown), (width, shown)
        # a line is full unless the next piece couldn't fit: no early break before a run
        for line, after in zip(shown, shown[1:], strict=False):
            first = next(tokens(after))[1].rstrip()
            assert cell_len(line) + cell_len(first) > width - 1, (width, line, after)


def test_a_closing_mark_never_starts_a_line_and_an_opening_one_never_ends_one():
    for width in range(6, 40):
        for line in lines(TODO, width):
            assert line[:1] not in "，。：）", (width, line)
            assert line[-1:] != "（", (width, line)


def test_a_line_that_fits_in_cells_keeps_its_last_character_under_an_ellipsis_overflow():
    # Rich measured the trailing space in characters and cut '推迟' to '推 …'
    text = "a 批准 (approve) · r 拒绝 (reject) · p 钉住 (pin) · d 推迟 (defer)"
    for width in range(30, 70):
        shown = lines(WrappedText(text, overflow="ellipsis"), width)
        assert not any("…" in line for line in shown), (width, shown)


def test_english_wraps_as_rich_does():
    text = "Every decision stays pending until you look at the diff and confirm it with w."
    for width in range(12, 80, 7):
        assert lines(text, width) == [x.plain for x in Text(text).wrap(CONSOLE, width)]
    for width in (4, 8, 13):  # a word wider than the line: cut with "…", not emptied
        for overflow in ("ellipsis", "fold", "crop"):
            ours = WrappedText("Contradictions", overflow=overflow).wrap(CONSOLE, width)
            rich = Text("Contradictions", overflow=overflow).wrap(CONSOLE, width)
            assert [x.plain for x in ours] == [x.plain for x in rich], (width, overflow)


def test_the_english_help_is_drawn_as_rich_draws_it():
    from rich.markdown import Markdown

    from memreview.app.screens.help import HelpMarkdown

    markdown = help_markdown(lambda _id, key: key)
    for width in range(24, 100, 5):
        console = Console(width=width)
        ours = console.render_lines(HelpMarkdown(markdown, hyperlinks=False), pad=False)
        rich = console.render_lines(Markdown(markdown, hyperlinks=False), pad=False)
        assert ours == rich, width


def test_the_help_table_in_chinese_cuts_no_action_at_80_columns():
    i18n.use_language("zh")
    shown = help_text(help_markdown(lambda _id, key: key), text_width(80)).plain
    assert "…" not in shown
    assert "d 推迟 (defer)" in shown
    assert "底栏会告诉你 ] 将去往哪里" in shown  # no early break before the Chinese run


def test_indented_text_wraps_under_its_text_not_at_the_margin():
    t = Text("  ⚠ title\n      " + TODO)
    out = Console(width=40, record=True)
    out.print(Indented(t))
    shown = out.export_text().splitlines()
    assert shown[0] == "  ⚠ title"
    assert all(line.startswith("      ") for line in shown[1:]), shown
    assert all(cell_len(line) <= 40 for line in shown)
    assert str(Indented(t)) == t.plain


def test_a_wrapped_diff_line_continues_past_its_marker():
    from memreview.app.wrap import DIFF_INDENT

    diff = Text(" Summary: " + TODO + "\n+" + TODO)
    out = Console(width=40, record=True)
    out.print(Indented(diff, DIFF_INDENT))
    shown = out.export_text().splitlines()
    context = shown.index(next(x for x in shown if x.startswith("+")))
    assert all(x.startswith(" ") and not x.startswith("  ") for x in shown[1:context])
    assert all(x.startswith(" ") for x in shown[context + 1 :])  # under the text, not the +


async def test_a_dialogs_chinese_explanation_fills_its_lines(make):
    from app_helpers import loaded, screen_text

    from memreview.app.screens.merge import MergeEditor

    i18n.use_language("zh")
    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        await pilot.press("5", "m")
        await loaded(app, pilot)
        await pilot.pause()
        assert isinstance(app.screen, MergeEditor), app.screen_stack
        # Textual broke the line at the space after '- ' and left half of it empty
        assert "（保留开头的 '- ' 或表格竖线）。控制字符" in screen_text(app)


async def test_a_list_row_too_long_for_the_screen_ends_in_an_ellipsis(make, ws):
    import json

    from app_helpers import loaded, screen_text

    content = "每天 07:00 前把前一天的日志压成一屏摘要推到飞书，超过一屏就只留标题" * 2
    candidate = {"theme": "每日日报推送", "content": content, "count": 6, "reason": "催了 6 次"}
    (ws / "memory/skill_candidates.json").write_text(
        json.dumps({"updated_at": "2026-11-28T00:00:00Z", "candidates": [candidate]})
    )
    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        await pilot.press("3")
        await pilot.pause()
        [row] = [x for x in screen_text(app).splitlines() if x.startswith("▌· 每日日报推送")]
        assert row.rstrip().endswith("…") and cell_len(row.rstrip()) <= 80, row


def test_each_row_of_a_wrapped_removed_or_added_line_keeps_its_mark():
    """A removed line that wraps: its second row is not a line kept (no mark there read as
    context in a terminal without colours)."""
    from memreview.app.wrap import DIFF_INDENT

    diff = Text("-" + TODO + "\n+" + TODO + "\n " + TODO)
    out = Console(width=40, record=True)
    out.print(Indented(diff, DIFF_INDENT, "+-"))
    shown = out.export_text().splitlines()
    added = shown.index(next(x for x in shown if x.startswith("+")))
    context = shown.index(next(x for x in shown if x.startswith(" ")))
    assert added > 1 and context > added + 1  # each line took rows of its own
    assert all(x.startswith("-") for x in shown[:added])
    assert all(x.startswith("+") for x in shown[added:context])
    assert all(x.startswith(" ") for x in shown[context:])
    assert str(Indented(diff, DIFF_INDENT, "+-")) == diff.plain


def test_the_diff_shows_memory_files_before_memreviews_own_list_of_hidden_items():
    from memreview.app.render import diff_text

    diffs = {
        ".memreview/state.yaml": "+hidden: pm-1",
        "memory/notes.md": "-- a line",
        "MEMORY.md": "-- a promotion",
    }
    shown = diff_text(diffs, lambda _name: "").plain
    heads = [line for line in shown.splitlines() if line.startswith("── ")]
    assert heads == ["── MEMORY.md", "── memory/notes.md", "── .memreview/state.yaml"]


def test_a_diff_row_that_a_line_goes_on_from_ends_in_a_return_mark():
    """One line of the file that wraps into three rows must not read as three lines: each
    row it goes on from ends in ↵, its last row and a line that fits do not."""
    from memreview.app.wrap import DIFF_INDENT, GOES_ON

    line = "+<!-- openclaw-memory-promotion:memory:memory/2026-11-02-reflection-prep.md:8:8 -->"
    diff = Text(" kept\n" + line + "\n-short")
    out = Console(width=40, record=True)
    out.print(Indented(diff, DIFF_INDENT, "+-"))
    shown = out.export_text().splitlines()
    rows = [x for x in shown if x.startswith("+")]
    assert len(rows) >= 3
    assert all(x.rstrip().endswith(GOES_ON) for x in rows[:-1])
    assert not rows[-1].rstrip().endswith(GOES_ON)
    assert "".join(x.rstrip().rstrip(GOES_ON)[1:] for x in rows).replace(" ", "") == line[
        1:
    ].replace(" ", "")
    assert shown[0] == " kept" and shown[-1] == "-short"
    assert all(cell_len(x) <= 40 for x in shown)
