"""The promotions queue in the app: flagged entries first with their reasons in the
evidence, the toggle that shows promotions reviewed before, and the bulk archive's confirm
screen (flagged items in view, their flags, the diff; escape writes nothing)."""

from __future__ import annotations

import shutil
from pathlib import Path

from app_helpers import SIZE, loaded, review, screen_text

from memreview.app.screens.bulk import BulkArchiveScreen

CASE = Path(__file__).parents[1] / "realistic" / "cases" / "en-openclaw-promotion-night" / "ws"
PROMOTIONS = "8"


def _copy(tmp_path) -> Path:
    root = tmp_path / "night"
    shutil.copytree(CASE, root)
    return root


async def test_flagged_promotions_come_first_with_their_reasons_and_source(make, tmp_path):
    app = make(root=_copy(tmp_path), backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press(PROMOTIONS)
        screen = review(app)
        assert screen.queue == "promotions"
        first = screen.items.current
        assert first["flags"] and first["promoted"] == "2026-11-29"
        assert not screen.items.in_view()[-1]["flags"]
        text = screen_text(app)
        assert "shell command or code: reads as a command line" in text
        assert "never recalled" not in text  # recalls=0 is evidence, never a flag
        assert "sudo apt remove --purge snapd" in text
        assert "source memory/2026-11-27.md:7-7" in text


async def test_keep_written_hides_the_promotion_and_the_toggle_shows_it_again(make, tmp_path):
    root = _copy(tmp_path)
    app = make(root=root, backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press(PROMOTIONS)
        screen = review(app)
        before = screen.items.count
        kept = screen.items.current["id"]
        await pilot.press("a", "w")
        await loaded(app, pilot)
        await pilot.press("y")
        await loaded(app, pilot)
        await pilot.press("escape")
        await loaded(app, pilot)
        await pilot.press(PROMOTIONS)
        assert screen.items.count == before - 1
        assert kept not in {it["id"] for it in screen.items.in_view()}
        await pilot.press("A")
        assert screen.items.count == before
        assert kept in {it["id"] for it in screen.items.in_view()}
        await pilot.press("A")
        assert screen.items.count == before - 1
    verdicts = (root / "memory/review/verdicts.jsonl").read_text()
    assert '"relation": "promotion"' in verdicts and '"verdict": "kept"' in verdicts


async def test_bulk_archive_confirm_lists_the_flagged_items_in_view_and_escape_writes_nothing(
    make, tmp_path
):
    root = _copy(tmp_path)
    memory = (root / "MEMORY.md").read_bytes()
    app = make(root=root, backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press(PROMOTIONS)
        flagged = [it for it in review(app).items.in_view() if it["flags"]]
        await pilot.press("X")
        await loaded(app, pilot)
        assert isinstance(app.screen, BulkArchiveScreen)
        text = screen_text(app)
        assert f"Archive {len(flagged)} flagged items in view" in text
        assert "⚑ shell command or code" in text
        assert "── MEMORY.md" in text  # the diff of what it would write, memory files first
        assert "state.yaml" not in text.split("── MEMORY.md")[0]
        await pilot.press("escape")
        await loaded(app, pilot)
        assert len(review(app).staging) == 0
    assert (root / "MEMORY.md").read_bytes() == memory

    again = make(root=root, backend=None)
    async with again.run_test(size=SIZE) as pilot:
        await loaded(again, pilot)
        await pilot.press(PROMOTIONS, "X")
        await loaded(again, pilot)
        await pilot.press("y")
        await loaded(again, pilot)
        assert "Written: 3 files" in screen_text(again)
        await pilot.press("escape")
        await loaded(again, pilot)
        await pilot.press(PROMOTIONS)
        assert not [it for it in review(again).items.in_view() if it["flags"]]
    archived = (root / "memory/archive/rejected-promotions.md").read_text()
    assert archived.count("Rejected: ") == len(flagged) + 1  # and the earlier one
    assert "sudo apt remove --purge snapd" not in (root / "MEMORY.md").read_text()


async def test_editing_a_promotion_speaks_of_an_edit_not_a_merge(make, tmp_path):
    from memreview.app.screens.merge import MergeEditor

    app = make(root=_copy(tmp_path), backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press(PROMOTIONS, "m")
        await pilot.pause()
        assert isinstance(app.screen, MergeEditor)
        text = screen_text(app)
        assert "Edit: " in text and "Merge" not in text and "merge" not in text
        assert "ctrl+s stage edit" in text


async def test_strip_is_greyed_out_on_an_entry_with_nothing_to_strip(make, tmp_path):
    from memreview.queues.promotions.flags import stripped_body

    app = make(root=_copy(tmp_path), backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press(PROMOTIONS)
        screen = review(app)
        seen = set()
        for _ in range(screen.items.count):
            item = screen.items.current
            clean = stripped_body(str(item.get("text") or "")) == item.get("text")
            seen.add(clean)
            assert screen.check_action("decide", ("strip",)) is (None if clean else True)
            await pilot.press("down")
        assert seen == {True, False}  # the case has both kinds


async def test_strip_on_an_entry_with_nothing_to_strip_says_why_and_is_not_offered(make, tmp_path):
    from memreview.queues.promotions.flags import stripped_body

    app = make(root=_copy(tmp_path), backend=None)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await loaded(app, pilot)
        await pilot.press(PROMOTIONS)
        screen = review(app)
        seen = set()
        for _ in range(screen.items.count):
            item = screen.items.current
            clean = stripped_body(str(item.get("text") or "")) == item.get("text")
            seen.add(clean)
            evidence = "\n".join(screen_text(app).splitlines()[:-1])  # without the footer
            assert ("m edit   t strip" in evidence) is (not clean), evidence
            if clean:
                app.clear_notifications()
                await pilot.press("t")
                assert len(app._notifications) == 1  # never silent
                said = list(app._notifications)[-1].message
                assert "nothing of the pipeline's to strip" in said, said
                assert screen.staging.for_item(item["id"]) is None
            await pilot.press("down")
        assert seen == {True, False}  # the case has both kinds


async def test_bulk_archive_leaves_a_flagged_item_the_owner_has_decided(make, tmp_path):
    root = _copy(tmp_path)
    app = make(root=root, backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press(PROMOTIONS)
        screen = review(app)
        flagged = [it for it in screen.items.in_view() if it["flags"]]
        assert len(flagged) >= 2 and screen.items.current is flagged[0]
        kept = flagged[0]["id"]
        await pilot.press("a")  # keep the first flagged entry
        await pilot.press("X")
        await loaded(app, pilot)
        assert isinstance(app.screen, BulkArchiveScreen)
        text = screen_text(app)
        assert f"Archive {len(flagged) - 1} flagged item" in text, text
        await pilot.press("y")
        await loaded(app, pilot)
        await pilot.press("escape")
        await loaded(app, pilot)
        [d] = screen.staging.decisions()  # the keep is still staged, not replaced
        assert (d.item, d.action) == (kept, "keep")
    archived = (root / "memory/archive/rejected-promotions.md").read_text()
    assert archived.count("Rejected: ") == len(flagged)  # the others and the earlier one
