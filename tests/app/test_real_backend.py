"""The app on the real decisions package: staged decisions are saved, written, undone."""

from __future__ import annotations

from app_helpers import SIZE, loaded, review, screen_text

from memreview.app.screens.apply import ApplyScreen


async def test_stage_quit_reopen_write_and_undo_on_a_real_workspace(make, ws):
    memory = (ws / "MEMORY.md").read_bytes()
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("5", "down", "number_sign", "2")  # keep the dated copy of the port bullet
    assert "action: keep" in (ws / ".memreview/pending.yaml").read_text()

    again = make(backend=None)
    async with again.run_test(size=SIZE) as pilot:
        await loaded(again, pilot)
        assert "1 pending" in screen_text(again)
        await pilot.press("w")
        await loaded(again, pilot)
        assert isinstance(again.screen, ApplyScreen)
        text = screen_text(again)
        assert "-- The gateway listens on port 18789 for local clients" in text
        await pilot.press("y")
        await loaded(again, pilot)
        assert "Written: 1 file" in screen_text(again)
        batch = again.screen.outcome.batch
        assert batch and f"batch {batch}: U on the queues takes it back" in screen_text(again)
        await pilot.press("escape")
        await loaded(again, pilot)
        after = (ws / "MEMORY.md").read_text()
        assert "- The gateway listens on port 18789 for local clients\n" not in after
        assert "- The gateway listens on port 18789 for local clients (2026-10-01)\n" in after
        assert len(review(again).staging) == 0
        assert review(again).result.counts["duplicates"] == 2

        await pilot.press("U")
        await pilot.pause()
        assert f"Batch {batch}: 1 decision, 1 file." in screen_text(again)  # which one
        await pilot.press("y")
        await loaded(again, pilot)
        assert (ws / "MEMORY.md").read_bytes() == memory
        assert review(again).result.counts["duplicates"] == 3
        # the batch's decision is staged again: fix what was wrong, write again
        [d] = review(again).staging.decisions()
        assert (d.action, d.keep) == ("keep", 2)
        assert "1 pending" in screen_text(again)


async def test_a_decision_whose_entry_changed_meanwhile_is_a_conflict_and_stays_pending(make, ws):
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("4", "a", "7", "a")  # remove the archived fragment's entry; demote
        memory = ws / "MEMORY.md"
        memory.write_text(
            memory.read_text().replace(
                "- Backups run nightly at 03:00 from the pi cron job\n", "- Backups now at 04:00\n"
            )
        )
        await pilot.press("w")
        await loaded(app, pilot)
        assert "✗ won't be written: the entry '- Backups run nightly" in screen_text(app)
        await pilot.press("y")
        await loaded(app, pilot)
        text = screen_text(app)
        assert "Written: 2 files" in text and "Conflicts (these stay pending):" in text
        assert "archived       remove        Backups run nightly at 03:00" in text
        assert "is gone from MEMORY.md" in text
        await pilot.press("escape")
        await loaded(app, pilot)
        assert [(d.queue, d.action) for d in review(app).staging] == [("archived", "remove")]
        assert "- Backups now at 04:00\n" in memory.read_text()  # the other write is kept


async def test_a_staged_decision_whose_anchor_changed_since_is_marked_and_asked_again(make, ws):
    knowledge = ws / "memory/knowledge.md"
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("1", "b")  # keep-b: win11-gbk is superseded and moved
        [staged] = review(app).staging.decisions()
        assert staged.seen  # what its anchors read when it was decided
        knowledge.write_text(
            knowledge.read_text().replace("still need chcp 65001.", "need chcp 65001 (2026-11).")
        )
        await pilot.press("ctrl+r")
        await loaded(app, pilot)
        await pilot.press("1")
        assert review(app).changed == {staged.item}
        assert "⚠ changed since you decided" in screen_text(app)
        assert "⚠ keep-b" in screen_text(app)
        await pilot.press("w")
        await loaded(app, pilot)
        assert "changed since you decided" in screen_text(app)
        await pilot.press("y")
        await loaded(app, pilot)
        assert "need chcp 65001 (2026-11)." in knowledge.read_text()  # nothing written
        assert "Superseded-By" not in knowledge.read_text()
        await pilot.press("escape")
        await loaded(app, pilot)
        assert [d.item for d in review(app).staging.decisions()] == [staged.item]
        assert review(app).changed == {staged.item}  # still asked again

        await pilot.press("1", "b")  # decided again, on what the anchor reads now
        assert review(app).changed == set()
        await pilot.press("w")
        await loaded(app, pilot)
        await pilot.press("y")
        await loaded(app, pilot)
        assert "Superseded-By: [[win11-utf8]]" in (ws / "memory/archive/superseded.md").read_text()


def test_nothing_to_undo_is_known_before_asking(ws):
    from app_helpers import TODAY

    from memreview.app.backend import Backend, make_decision
    from memreview.scan import scan_workspace

    backend = Backend(ws)
    assert backend.nothing_to_undo().startswith("nothing to undo")
    result = scan_workspace(ws, today=TODAY)
    item = result.queues["demotion"][0]
    outcome = backend.apply(result, [make_decision(item["id"], "approve", "demotion")])
    assert outcome.written
    assert backend.nothing_to_undo() is None
    assert backend.undo_last().ok
    assert backend.nothing_to_undo().startswith("nothing to undo")  # each one undone


def test_the_undo_question_names_the_batch_and_the_redaction_it_leaves(ws):
    from app_helpers import TODAY

    from memreview.app.backend import Backend, make_decision
    from memreview.scan import scan_workspace

    backend = Backend(ws)
    assert backend.last_batch_said() is None
    with open(ws / "MEMORY.md", "a", encoding="utf-8") as f:
        f.write("- the nightly digest's key: sk-or-v1-" + "3f9a1c0e7b2d4a6f" * 4 + "\n")
    result = scan_workspace(ws, today=TODAY)
    demote = result.queues["demotion"][0]
    secret = result.queues["secrets"][0]
    decisions = [
        make_decision(demote["id"], "approve", "demotion"),
        make_decision(secret["id"], "redact", "secrets"),
    ]
    outcome = backend.apply(result, decisions)
    said = backend.last_batch_said()
    assert said == (
        f"Batch {outcome.batch}: 2 decisions, {len(outcome.written)} files. "
        "Its redaction stays: undo never writes a credential back."
    )
    assert backend.undo_last().ok
    assert backend.last_batch_said() is None
