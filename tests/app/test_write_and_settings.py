"""Writing a batch, undo, help, palette, themes, keymap, loading and failures."""

from __future__ import annotations

import threading

from app_helpers import SIZE, TODAY, loaded, review, screen_text

from memreview.app.screens.apply import ApplyScreen
from memreview.app.screens.dialogs import ConfirmDialog
from memreview.app.screens.help import HelpScreen
from memreview.app.widgets.panels import LoadingPane
from memreview.scan import scan_workspace


async def test_write_shows_the_diff_and_escape_writes_nothing(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("7", "a", "r", "w")
        await loaded(app, pilot)
        assert isinstance(app.screen, ApplyScreen)
        text = screen_text(app)
        assert "Review 2 pending decisions" in text
        assert "── memory/knowledge.md" in text
        assert "+new line [@click=app.quit]" in text  # a diff is text, never markup
        assert "1 file would change.  y: write   escape: back" in text
        await pilot.press("escape")
        assert backend.applied == []
        assert len(backend.store["pending"]) == 2


async def test_the_write_reviews_keys_show_whole_on_a_narrow_screen(make, backend):
    """The line saying what would change and which keys write or go back was cut at the
    screen's edge ("…hidden items would change.  y: write   escape:" at 80 columns); it
    goes on in a second line."""
    app = make()
    async with app.run_test(size=(40, 24)) as pilot:
        await loaded(app, pilot)
        await pilot.press("7", "a", "r", "w")
        await loaded(app, pilot)
        assert isinstance(app.screen, ApplyScreen)
        lines = [ln.strip() for ln in screen_text(app).splitlines()]
        at = next(k for k, ln in enumerate(lines) if ln.startswith("1 file would change."))
        assert "escape: back" in " ".join(lines[at : at + 2]), lines[at : at + 2]


async def test_y_on_the_result_screen_says_it_is_written_already(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("7", "a", "w")
        await loaded(app, pilot)
        await pilot.press("y")
        await loaded(app, pilot)
        assert len(backend.applied) == 1
        await pilot.press("y")  # written already: said, not written twice
        await loaded(app, pilot)
        assert len(backend.applied) == 1
        assert "already written: escape goes back" in list(app._notifications)[-1].message
        assert isinstance(app.screen, ApplyScreen)


async def test_undo_asks_first_then_undoes_and_reloads(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("U")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        assert backend.undone == 0
        await pilot.press("U", "y")
        await loaded(app, pilot)
        assert backend.undone == 1
        assert any("undone" in n.message for n in app._notifications)


async def test_help_opens_on_question_mark_and_f1_and_never_follows_links(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = app.screen.query_one("#help-text").content
        assert "keep-a" in shown.plain
        assert not [s for s in shown.spans if getattr(s.style, "link", None)]  # nothing to follow
        text = screen_text(app)
        assert "Contradictions" in text and "keep-a" in text
        await pilot.press("escape")
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("f1")
        assert not isinstance(app.screen, HelpScreen)


async def test_palette_offers_queues_decisions_apply_undo_and_theme(make, backend):
    from memreview.app.commands import MemReviewCommands

    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("7", "a")
        provider = MemReviewCommands(app.screen)
        names = [name for name, _run, _help in provider._commands()]
        assert "queue: Dormant" in names and "queue: Health" in names
        assert "decision: approve" in names and "decision: pin" in names
        assert {"apply", "undo", "theme"} <= set(names)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"dorma")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert review(app).queue == "dormant"


async def test_theme_from_the_command_line_and_saved_when_changed(make, tmp_path):
    app = make(theme="light")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert app.theme == "memreview-light"
        assert app.theme_variables["action-approve"] == "#1E7B3A"
        app.theme = "memreview-dark"
        await pilot.pause()
    saved = (tmp_path / "user-config" / "config.yaml").read_text()
    assert "theme: memreview-dark" in saved
    again = make()
    async with again.run_test(size=SIZE) as pilot:
        assert again.theme == "memreview-dark"


async def test_a_broken_theme_file_is_reported_once_and_the_default_used(make, tmp_path):
    themes = tmp_path / "themes"
    themes.mkdir()
    (themes / "broken.yaml").write_text("name: broken\nprimary: not-a-colour\n")
    (themes / "bad-yaml.yaml").write_text("primary: [\n")
    app = make(themes_dir=themes, theme="broken")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert app.theme == "memreview-dark"
        notes = [n for n in app._notifications if n.title == "Settings"]
        assert len(notes) == 1
        assert "broken.yaml" in notes[0].message and "bad-yaml.yaml" in notes[0].message


async def test_keymap_from_the_user_config_rebinds_a_verb(make, tmp_path, backend):
    cfg = tmp_path / "user-config" / "config.yaml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text("# mine\nkeymap:\n  decide.approve: y\n  queue.health: f2\n")
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("7", "y")
        assert backend.store["pending"][0].action == "approve"
        assert "y approve" in screen_text(app)
        await pilot.press("f2")
        assert review(app).queue == "health"


async def test_loading_shows_progress_and_the_ui_keeps_running(make, ws):
    gate = threading.Event()

    def slow_scan(root, today=None, progress=None, **kw):
        progress("reading MEMORY.md", 0.25)
        gate.wait(10)
        return scan_workspace(root, today=today, progress=progress)

    app = make(scan=slow_scan)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        pane = app.screen.query_one(LoadingPane)
        assert pane.display
        text = screen_text(app)
        assert "Loading the workspace…" in text and "reading MEMORY.md" in text
        await pilot.press("question_mark")  # the UI answers while the scan runs
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        gate.set()
        await loaded(app, pilot)
        assert not pane.display
        assert review(app).result.today == TODAY


async def test_a_workspace_that_cannot_be_loaded_is_reported_not_raised(make):
    def broken_scan(root, today=None, progress=None, **kw):
        raise ValueError("memory/MEMORY.md: not a workspace")

    app = make(scan=broken_scan)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert app.is_running
        assert "memory/MEMORY.md: not a workspace" in screen_text(app)
        await pilot.press("a", "1", "w")  # nothing to act on; nothing breaks
        assert app.is_running


async def test_health_view_shows_budgets_growth_and_lists(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("h")
        lines = screen_text(app).splitlines()
        text = "\n".join(lines)
        assert any("MEMORY.md lines" in x and "20 / 500  (4%)" in x for x in lines)
        assert any("MEMORY.md tokens" in x and "/ 12,000" in x for x in lines)
        assert "Entries added per week (last 14 weeks)" in text
        assert "Daily logs missing in the last 7 days  6" in text
        assert "2026-11-22, 2026-11-23" in text
        assert "Warnings  0" in text


async def test_a_batch_stopped_part_way_is_said_so_not_nothing_written(make, backend):
    from memreview.store import BatchStopped, PathEscape

    def stopped(result, decisions):
        cause = PathEscape(".memreview turned into a symlink; refused, nothing written there")
        raise BatchStopped("B1", 1, 3, cause)

    backend.apply = stopped
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("7", "a", "w")
        await loaded(app, pilot)
        await pilot.press("y")
        await loaded(app, pilot)
        text = " ".join(screen_text(app).split())
        assert "The batch stopped part way: batch B1 stopped after 1 of 3 file(s)" in text
        assert "Nothing was written" not in text
        assert len(backend.store["pending"]) == 1


async def test_the_diff_screen_lists_one_line_per_decision_at_80_columns(make, backend):
    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        await pilot.press("3", "down", "a", "w")  # a skill with a long hostile title
        await loaded(app, pilot)
        lines = screen_text(app).splitlines()
        assert lines[1].startswith("   skills") and lines[1].rstrip().endswith("…")
        assert lines[2].startswith("▁")  # the rule under the list: nothing wrapped
