"""The skills queue: the new skill's folder is shown, and `m` names another before staging."""

from __future__ import annotations

from app_helpers import SIZE, loaded, screen_text

from memreview.app.screens.merge import MergeEditor


async def test_m_in_skills_names_the_folder_and_refuses_a_path_trick(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("3")
        assert "folder deploy-checklist/" in screen_text(app)
        await pilot.press("m")
        editor = app.screen
        assert isinstance(editor, MergeEditor)
        area = editor.query_one("#merge-text")
        assert area.text == "deploy-checklist"
        await pilot.press("-", "v", "2")  # typed after the name suggested, not before it
        assert area.text == "deploy-checklist-v2"
        area.text = "../outside"
        await pilot.press("ctrl+s")
        assert app.screen is editor
        assert "can't name a skill's folder" in str(editor.query_one("#merge-problem").content)
        assert not backend.store.get("pending")
        area.text = "deploy-steps\n"
        await pilot.press("ctrl+s")
        assert not isinstance(app.screen, MergeEditor)
        [d] = backend.store["pending"]
        assert (d.action, d.slug) == ("create-skill", "deploy-steps")
        await pilot.press("up")
        assert "create-skill → deploy-steps/" in screen_text(app)


async def test_the_folder_dialog_fits_an_80_column_terminal(make):
    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        await pilot.press("3", "m")
        dialog = app.screen.query_one(".merge-dialog")
        assert dialog.region.right <= 80 and dialog.region.bottom <= 24
        assert "A folder name is a-z, 0-9" in screen_text(app)
