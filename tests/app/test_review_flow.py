"""The review screen driven as a user would: queues, decisions, filter, merge, quit."""

from __future__ import annotations

import shutil

from app_helpers import SIZE, loaded, review, screen_text
from textual import events

from memreview.app.screens.dialogs import ConfirmDialog
from memreview.app.screens.merge import MergeEditor
from memreview.app.widgets.item_list import ItemList
from memreview.app.widgets.panels import LoadingPane

# what the evidence pane shows for the first item of each queue
EVIDENCE = {
    "1": ("Contradictions", ["A (older)", "B (newer)", "memory/knowledge.md:3–8", "keep-a"]),
    "2": ("Supersede", ["OLD (would be superseded)", "NEW", "the port moved", "approve"]),
    "3": ("Skills", ["deploy checklist", "Run the smoke test after deploys", "solidify"]),
    "4": ("Archived", ["archived fragment", "still lives in 1 entry", "MEMORY.md:9", "remove"]),
    "6": ("Dormant", ["gateway-upgrade", "last mentioned never", "revive"]),
    "7": ("Demotion", ["recalls in 90 days 1", "[[win11-gbk]]", "approve"]),
    # last: in the duplicates queue the digits pick members
    "5": ("Duplicates", ["#1  MEMORY.md:18", "#2  MEMORY.md:19", "proposed merge", "keep #1"]),
}


async def test_each_queue_key_shows_its_items_and_their_evidence(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        for key, (title, shown) in EVIDENCE.items():
            await pilot.press(key)
            text = screen_text(app)
            assert f"{title}   1 of" in text, key
            for s in shown:
                assert s in text, (key, s)


async def test_loading_then_counts_on_the_left(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert not app.screen.query_one(LoadingPane).display
        lines = screen_text(app).splitlines()
        assert lines[0].startswith(" memreview ")
        assert "review date 2026-11-29" in lines[0]
        left = [line.split("▕")[0].rstrip() for line in lines[2:24:2]]
        assert left == [
            " 1 Contradictions 1",
            " 2 Supersede 1",
            " 3 Skills 2",
            " 4 Archived 1",
            " 5 Duplicates 3",
            " 6 Dormant 1",
            " 7 Demotion 5",
            " 8 Promotions 0",
            " 9 Secrets 0",
            " 0 Dropping 0",
            " h Health",
        ]


async def test_a_decision_is_staged_marked_and_the_cursor_advances(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        await pilot.press("7", "a")
        items = screen.query_one(ItemList)
        assert items.cursor == 1
        [d] = backend.store["pending"]
        assert (d.queue, d.action) == ("demotion", "approve")
        text = screen_text(app)
        assert "1 pending" in text and "demotion approve ×1" in text
        # the mark column is as wide as the widest staged label of the queue
        assert " approve [KNOWLEDGE:win11-gbk]" in text
        assert "7 Demotion 5  ✓1" in text
        # a second verb on the same item replaces the first
        await pilot.press("up", "p")
        [d] = backend.store["pending"]
        assert d.action == "pin"


async def test_unstage_takes_back_the_highlighted_or_last_decision(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("7", "a", "r")
        assert [d.action for d in backend.store["pending"]] == ["approve", "reject"]
        await pilot.press("up")  # on the rejected one
        await pilot.press("u")
        assert [d.action for d in backend.store["pending"]] == ["approve"]
        await pilot.press("end", "u")  # nothing staged here: the last staged goes
        assert backend.store["pending"] == []
        assert "No decisions staged." in screen_text(app)


async def test_every_queue_maps_its_verbs_and_ignores_the_others(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        script = [
            ("1", "b", "keep-b"),
            ("2", "r", "reject"),
            ("3", "c", "create-skill"),
            ("4", "k", "keep"),
            ("6", "D", "done"),
            ("7", "p", "pin"),
        ]
        for queue_key, verb, action in script:
            await pilot.press(queue_key, "x" if queue_key != "6" else "z", verb)
            assert backend.store["pending"][-1].action == action, queue_key
        # x (archive) means nothing outside dormant: nothing was staged by it
        assert len(backend.store["pending"]) == len(script)


async def test_digits_always_choose_queues_and_hash_then_digit_keeps_a_member(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        await pilot.press("5", "2")  # a digit is a queue, in the duplicates queue too
        assert screen.queue == "supersede"
        assert "pending" not in backend.store
        await pilot.press("5", "number_sign", "2")
        [d] = backend.store["pending"]
        assert (d.action, d.keep) == ("keep", 2)
        assert screen.queue == "duplicates"
        await pilot.press("up")
        assert "keep #2" in screen_text(app)
        await pilot.press("number_sign", "6")  # no sixth member: said, not staged
        assert screen.queue == "duplicates"
        assert len(backend.store["pending"]) == 1
        assert "this group has 2 members" in list(app._notifications)[-1].message
        await pilot.press("number_sign", "x")  # any other key: nothing kept, and said
        assert len(backend.store["pending"]) == 1
        assert "no member kept" in list(app._notifications)[-1].message
        await pilot.press("right_square_bracket")
        assert screen.queue == "dormant"
        await pilot.press("1")
        assert screen.queue == "contradictions"


async def test_hash_and_its_digit_in_one_terminal_read_keep_that_member(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        await pilot.press("5")
        for key, char in (("number_sign", "#"), ("2", "2")):  # pasted, or typed fast
            event = events.Key(key, char)
            event.set_sender(app)
            app._driver.send_message(event)  # both queued before either is handled
        await pilot.pause()
        assert screen.queue == "duplicates"  # the digit was not taken for a queue
        [d] = backend.store["pending"]
        assert (d.action, d.keep) == ("keep", 2)
        assert not screen.member_prompt  # the next key is a key again


async def test_keys_that_do_nothing_here_say_why(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)

        def last() -> str:
            return list(app._notifications)[-1].message

        for key in ["x", "c", "v", "p", "D", "r"]:
            await pilot.press(key)
            assert f"{key} does nothing in Contradictions" in last(), key
            assert "a keep-a" in last() and "d defer" in last()
        assert "pending" not in backend.store
        await pilot.press("number_sign")  # a pair of contradictions has no member to pick
        assert "keeps one member of a group; this item is a pair" in last()
        assert "a keep-a" in last() and not screen.member_prompt
        await pilot.press("w")  # nothing staged
        assert "nothing is staged to write" in last()
        await pilot.press("6", "a")
        assert "a does nothing in Dormant" in last() and "v revive" in last()
        await pilot.press("number_sign")
        assert "does nothing in Dormant" in last()
        assert screen.queue == "dormant"
        backend.undoable = False
        await pilot.press("U")  # said before asking: no dialog
        assert "nothing to undo" in last()
        assert not isinstance(app.screen, ConfirmDialog)
        assert "pending" not in backend.store


async def test_deciding_the_last_item_says_the_queue_is_done_and_where_next_goes(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        await pilot.press("1", "a")  # the only contradiction
        assert list(app._notifications)[-1].message == (
            "Contradictions done — ] next: Supersede (1)"
        )
        await pilot.press("7", "end", "d")
        note = list(app._notifications)[-1].message
        assert note.startswith("last item of Demotion; 4 above still undecided")
        # promotions and secrets are empty in this workspace: ] passes over them
        assert note.endswith("next: Health")
        await pilot.press("right_square_bracket")
        assert screen.queue == "health"
        await pilot.press("left_square_bracket")
        assert screen.queue == "demotion"


async def test_the_queue_done_note_is_taken_back_once_it_is_no_longer_true(make):
    app = make()
    done = "Contradictions done — ] next: Supersede (1)"

    def told() -> list[str]:
        return [n.message for n in app._notifications]

    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("1", "a")
        assert done in told()
        await pilot.press("u")  # unstaged: the contradiction is undecided again
        await pilot.pause()
        assert done not in told()
        assert "Contradictions done" not in screen_text(app)
        await pilot.press("a")  # decided again: said again
        assert done in told()
        await pilot.press("2")  # another queue: the note spoke of the one left
        await pilot.pause()
        assert done not in told()
        await pilot.press("7", "end", "d")
        assert any(m.startswith("last item of Demotion; 4 above") for m in told())
        await pilot.press("u")  # now 5 are undecided, not 4
        await pilot.pause()
        assert not any(m.startswith("last item of Demotion") for m in told())


async def test_footer_names_the_keys_of_this_queue_and_greys_what_cannot_apply(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        active = {
            k: (b.binding.description, b.enabled) for k, b in app.screen.active_bindings.items()
        }
        assert active["a"] == ("keep-a", True)
        assert active["b"] == ("keep-b", True)
        assert active["w"] == ("write…", False)  # nothing pending yet
        assert "x" not in active  # archive means nothing here
        await pilot.press("6")
        active = {
            k: (b.binding.description, b.enabled) for k, b in app.screen.active_bindings.items()
        }
        assert active["x"] == ("archive", True)
        assert "b" not in active
        await pilot.press("v")
        active = {k: b.enabled for k, b in app.screen.active_bindings.items()}
        assert active["w"] is True
        last = screen_text(app).splitlines()[-1]
        assert "v revive" in last and "s snooze" in last and "w write…" in last


async def test_filter_narrows_the_list_and_escape_clears_it(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("7", "slash")
        await pilot.press(*"port")
        items = app.screen.query_one(ItemList)
        assert items.count == 2
        assert "Demotion   1 of 2" in screen_text(app)
        await pilot.press("enter")
        assert items.has_focus
        await pilot.press("a")  # keys act on the list again
        await pilot.press("escape")
        assert items.count == 5


async def test_a_filter_kept_with_enter_stays_when_the_queue_is_drawn_anew_after_a_write(make):
    """The owner filters, keeps it (enter), decides and writes: the rescan draws the queue
    anew, still filtered; another queue shows unfiltered."""
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("7", "slash", *"port", "enter")
        items = app.screen.query_one(ItemList)
        assert items.count == 2
        review(app).reload()  # as after a write
        await loaded(app, pilot)
        assert items.filter_text == "port" and items.count == 2
        assert "Demotion   1 of 2" in screen_text(app)
        await pilot.press("1")
        assert items.filter_text == "" and not app.screen.pane.filtering


async def test_merge_editor_is_prefilled_and_stages_the_edited_text(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("5", "m")
        editor = app.screen
        assert isinstance(editor, MergeEditor)
        area = editor.query_one("#merge-text")
        assert area.text == "| 2026-10-01 | gateway upgraded; cron fixed |"
        area.text = "| 2026-10-01 | gateway upgraded; cron fixed; merged |"
        await pilot.press("ctrl+s")
        assert not isinstance(app.screen, MergeEditor)
        [d] = backend.store["pending"]
        assert (d.action, d.text) == (
            "merge",
            "| 2026-10-01 | gateway upgraded; cron fixed; merged |",
        )
        # a fingerprint group proposes its first member's text; a text that isn't a bullet
        # is refused with the reason; escape stages nothing
        await pilot.press("m")
        area = app.screen.query_one("#merge-text")
        assert area.text.startswith("- The gateway listens on port 18789")
        area.text = "The gateway listens on port 18789"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MergeEditor)
        assert "starting with '- '" in str(app.screen.query_one("#merge-problem").content)
        await pilot.press("escape")
        assert len(backend.store["pending"]) == 1


async def test_quit_asks_when_decisions_are_pending(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("7", "a", "q")
        assert isinstance(app.screen, ConfirmDialog)
        assert "1 decision is pending" in screen_text(app)
        await pilot.press("n")
        assert app.is_running and not isinstance(app.screen, ConfirmDialog)
        await pilot.press("q", "y")
        await pilot.pause()
    assert app.return_code == 0


async def test_quit_says_where_pending_decisions_go_on_a_real_copy_and_on_the_demo(make):
    for throwaway, said in (
        (False, "They are saved in .memreview/pending.yaml and offered again next time."),
        (True, "it is deleted when you quit, and they with it. Run memreview demo --keep"),
    ):
        app = make(throwaway=throwaway)
        async with app.run_test(size=SIZE) as pilot:
            await loaded(app, pilot)
            await pilot.press("7", "a", "q")
            assert isinstance(app.screen, ConfirmDialog)
            assert said in app.screen.detail
            assert ("offered again" in app.screen.detail) is not throwaway
            assert "is pending" in screen_text(app)


def test_demo_deletes_its_copy_unless_kept(monkeypatch, capsys):
    from memreview.cli import launch, main

    seen = []

    def run_app(root, today, theme, throwaway=False):
        seen.append((root, throwaway))
        return 0

    monkeypatch.setattr(launch, "run_app", run_app)
    assert main(["demo"]) == 0
    assert main(["demo", "--keep"]) == 0
    (gone, deleted), (kept, not_deleted) = seen
    assert deleted and not gone.exists()
    assert not not_deleted and kept.is_dir()
    assert f"the demo workspace is kept at {kept}" in capsys.readouterr().out
    shutil.rmtree(kept.parent)


async def test_quit_without_pending_does_not_ask(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_pending_decisions_survive_a_restart(make, backend):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("2", "a")
    again = make()
    async with again.run_test(size=SIZE) as pilot:
        await loaded(again, pilot)
        await pilot.press("2")
        text = screen_text(again)
        assert "1 pending" in text and "supersede approve ×1" in text
        assert "staged: approve" in text


async def test_open_runs_the_editor_at_the_line_then_reloads(make, monkeypatch):
    import contextlib
    import subprocess

    calls = []
    monkeypatch.setattr(subprocess, "call", lambda argv: calls.append(argv) or 0)
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        monkeypatch.setattr(app, "suspend", contextlib.nullcontext)
        await pilot.press("2", "o")
        await loaded(app, pilot)
        assert calls and calls[0][0] == "true" and calls[0][1] == "+15"
        assert calls[0][2].endswith("memory/knowledge.md")
        assert review(app).result is not None


async def test_opening_an_editor_where_it_cannot_suspend_says_so(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("o")
        await pilot.pause()
        assert app.is_running
        assert any("editor" in n.message for n in app._notifications)


async def test_the_main_screen_at_160x48_reads_like_this(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        lines = screen_text(app).splitlines()
        assert len(lines) == 48
        assert lines[0].startswith(" memreview   review date 2026-11-29  /")
        # the items above the evidence (as tall as they need), both as wide as the screen
        assert lines[1].split("▕")[1].rstrip() == " Contradictions   1 of 1"
        assert lines[2].split("▕")[1].rstrip() == "▌· win11-gbk ⟷ win11-utf8"
        assert lines[5].split("▕")[1].rstrip() == " win11-gbk ⟷ win11-utf8"  # the evidence
        assert lines[7].split("▕")[1].rstrip() == " not decided"  # the keys under the title
        assert lines[8].split("▕")[1].startswith(" a keep-a   b keep-b   k keep-both")
        assert lines[-2].rstrip() == " No decisions staged."
        assert lines[-1].startswith(
            " a keep-a  b keep-b  k keep-both  d defer  u unstage  o open  / filter  w write…"
        )
        assert lines[-1].rstrip().endswith("^p palette")


async def test_the_key_bar_fits_the_width_and_a_click_presses_its_key(make, backend):
    from memreview.app.screens.help import HelpScreen

    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(app, pilot)
        bar = screen_text(app).splitlines()[-1]
        assert bar.startswith(" a keep-a  b keep-b  k keep-both  d defer")
        assert bar.rstrip().endswith("? more  ^p palette")  # what doesn't fit is in the help
        assert "w write…" not in bar
        await pilot.click("#keybar", offset=(bar.index("d defer") + 1, 0))
        [d] = backend.store["pending"]
        assert d.action == "defer"
        await pilot.click("#keybar", offset=(bar.index("? more") + 1, 0))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
    backend.store.clear()  # nothing staged on "disk"
    async with make().run_test(size=SIZE) as pilot:
        app = pilot.app
        await loaded(app, pilot)
        bar = screen_text(app).splitlines()[-1]
        assert "w write…" in bar and "q quit" in bar and bar.rstrip().endswith("? help  ^p palette")
        await pilot.click("#keybar", offset=(bar.index("w write…") + 1, 0))  # greyed: says why
        await pilot.pause()
        assert "nothing is staged to write" in list(app._notifications)[-1].message


async def test_a_filter_never_says_a_queue_is_done_while_items_it_hides_are_undecided(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        await pilot.press("7", "end")
        title = screen.items.current["title"]
        await pilot.press("slash", *title, "enter")
        assert screen.items.count == 1 and screen.items.total == 5
        await pilot.press("d")
        note = list(app._notifications)[-1].message
        assert "done" not in note.split(";")[0]
        assert note.startswith("every item the filter shows is decided; 4 more of Demotion")


async def test_u_on_an_undecided_item_says_which_decision_of_another_queue_it_unstaged(make):
    """``u`` where nothing is staged unstages the decision staged last, in whatever queue:
    the note names its queue and item, or the owner can't tell what went."""
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        await pilot.press("1")
        title = screen.items.current["title"]
        await pilot.press("a", "7", "end", "u")
        note = list(app._notifications)[-1].message
        assert note.startswith("unstaged the decision staged last: ")
        assert f"— Contradictions: {title[:40]}" in note
        assert "contradictions" not in screen.session.pending_queues()
        await pilot.press("a", "u")  # its own decision: said as before
        assert list(app._notifications)[-1].message.startswith("unstaged: ")
