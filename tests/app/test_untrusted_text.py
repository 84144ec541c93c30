"""Text from memory files is shown literally and harmlessly (docs/design.md §5)."""

from __future__ import annotations

from app_helpers import SIZE, loaded, screen_text

from memreview.app.widgets.item_list import ItemList
from memreview.display import one_line, visible


def test_visible_escapes_controls_bidi_and_zero_width_but_keeps_tab_and_newline():
    raw = "a\x1b]0;title\x07b\u202ec\u2066d\x7fe\x85f\u200bg\ufeffh\ti\nj"
    assert visible(raw) == ("a␛]0;title␇b<U+202E>c<U+2066>d␡e<U+0085>f<U+200B>g<U+FEFF>h\ti\nj")
    assert one_line("x\ny\tz") == "x y z"


async def test_markup_and_escape_sequences_in_memory_are_shown_as_text(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("3", "down")  # the hostile skill candidate
        text = screen_text(app)
        assert "Evil [@click=app.quit] click [/bold] ␛]0;title␇ and <U+202E>reversed" in text
        assert "\x1b" not in text and "\u202e" not in text
        # clicking the text runs nothing
        items = app.screen.query_one(ItemList)
        await pilot.click(ItemList, offset=(20, items.cursor))
        await pilot.click("#evidence", offset=(10, 0))
        await pilot.pause()
        assert app.is_running
        # the duplicate group made of hostile lines: members numbered, text literal
        await pilot.press("5", "end")
        text = screen_text(app)
        assert "#1  MEMORY.md:12" in text and "#2  MEMORY.md:13" in text
        assert "[/bold] ␛]0;title␇ and <U+202E>reversed one!" in text
        # the merge editor holds the visible form, not the raw escape
        await pilot.press("m")
        assert "\x1b" not in app.screen.query_one("#merge-text").text
        await pilot.press("escape")
        assert app.is_running


def test_a_dormant_projects_partial_mentions_are_shown_as_plain_text():
    import io

    from rich.console import Console

    from memreview.app.render import item_body

    item = {
        "project": "radar",
        "title": "Radar",
        "last_mentioned": None,
        "days_dormant": 40,
        "source": "file",
        "partial_mentions": [
            {
                "file": "memory/2026-11-20.md",
                "line": 3,
                "date": "2026-11-20",
                "text": "[bold]esp32[/bold] \x1b[31m arrived",
                "words": ["esp32"],
            },
        ],
    }
    console = Console(width=120, record=True, color_system=None, file=io.StringIO())
    for part in item_body("dormant", item, lambda *a, **k: [], lambda name: ""):
        console.print(part)
    shown = console.export_text()
    assert "partial mentions since" in shown
    assert "2026-11-20  memory/2026-11-20.md:3  [bold]esp32[/bold] ␛[31m arrived" in shown


def test_an_unused_promotion_in_the_demotion_queue_says_when_it_was_promoted():
    import io

    from rich.console import Console

    from memreview.app.render import item_body

    ref = {"file": "MEMORY.md", "line": 6, "end_line": 6, "text": "- x", "anchor": None}
    item = {"recalls_90d": 0, "age_days": 45, "promoted": "2026-10-16", "anchor": ref}
    console = Console(width=120, record=True, color_system=None, file=io.StringIO())
    for part in item_body("demotion", item, lambda *a, **k: [(6, "- x")], lambda name: ""):
        console.print(part)
    shown = console.export_text()
    assert "2026-10-16" in shown and "never" in shown and "promoted entry" in shown
