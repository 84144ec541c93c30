"""The History view (L: every batch, Enter its diff, u undoes any batch) and the Archive view
(R: search what was archived, Enter puts it back), on the real decisions package."""

from __future__ import annotations

from app_helpers import SIZE, TODAY, loaded, review, screen_text

from memreview.app.screens.dialogs import ConfirmDialog, DiffDialog
from memreview.app.screens.history import ArchiveScreen, HistoryScreen
from memreview.decisions import apply
from memreview.scan import scan_workspace


def _decide(ws, queue: str, action: str, title: str) -> str:
    result = scan_workspace(ws, today=TODAY)
    item = next(it for it in result.queues[queue] if title in it["title"])
    out = apply(result, [{"item": item["id"], "action": action}])
    assert out.ok, out
    return out.batch


async def test_history_lists_batches_shows_a_diff_and_undoes_an_older_one(make, ws):
    first = _decide(ws, "supersede", "approve", "new-port supersedes old-port")
    second = _decide(ws, "dormant", "snooze", "Gateway upgrade")
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("L")
        await loaded(app, pilot)  # the batches are read in a worker
        assert isinstance(app.screen, HistoryScreen)
        text = screen_text(app)
        assert text.index("dormant snooze: Gateway upgrade") < text.index(
            "supersede approve: new-port supersedes old-port"
        )
        assert f"{second}" in text and "can be undone (u)" in text
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, DiffDialog)
        assert "+Superseded-By: [[new-port]]" in screen_text(app)
        await pilot.press("escape", "u")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert f"Undo batch {first}?" in screen_text(app)
        await pilot.press("y")
        await loaded(app, pilot)
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        assert f"undo of {first}" in screen_text(app)
        # the later batch stays: the project is still snoozed
        dormant = [it["title"] for it in review(app).result.queues["dormant"]]
        assert "Gateway upgrade" not in dormant
    live = "".join(
        p.read_text(encoding="utf-8") for p in ws.rglob("*.md") if ".memreview" not in p.parts
    )
    assert "[[new-port]]" not in live and "## [FACT:old-port]" in live


def _live(ws) -> dict:
    return {p: p.read_bytes() for p in ws.rglob("*.md") if ".memreview" not in p.parts}


async def test_archive_view_searches_and_puts_an_entry_back(make, ws):
    header = b"## [KNOWLEDGE:win11-gbk]"
    copies = sum(data.count(header) for data in _live(ws).values())
    _decide(ws, "demotion", "approve", "[KNOWLEDGE:win11-gbk]")
    archive = ws / "memory/archive/demoted.md"
    assert "win11-gbk" in archive.read_text(encoding="utf-8")
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("R")
        await loaded(app, pilot)  # the archive is read in a worker
        assert isinstance(app.screen, ArchiveScreen)
        await pilot.press(*"gbk")
        await pilot.pause()
        text = screen_text(app)
        assert "demoted" in text and "## [KNOWLEDGE:win11-gbk]" in text
        assert "goes back to" in text
        await pilot.press("enter", "enter")
        await loaded(app, pilot)  # the dry run is worked out in a worker
        assert isinstance(app.screen, ConfirmDialog)
        assert "+## [KNOWLEDGE:win11-gbk]" in screen_text(app)
        await pilot.press("y")
        await loaded(app, pilot)
        await pilot.pause()
        assert isinstance(app.screen, ArchiveScreen)
        assert "Nothing archived to restore." in screen_text(app)
    assert "win11-gbk" not in archive.read_text(encoding="utf-8")
    assert sum(data.count(header) for data in _live(ws).values()) == copies


async def test_hidden_items_show_marked_with_a_and_z_puts_one_back(make, ws):
    from memreview.decisions.state import load_state

    _decide(ws, "supersede", "reject", "new-port supersedes old-port")
    [hidden_id] = list(load_state(ws).hidden)
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("2")
        await pilot.pause()
        assert "new-port supersedes old-port" not in screen_text(app)
        await pilot.press("A")
        await pilot.pause()
        text = screen_text(app)
        assert "⊘ rejected" in text and "new-port supersedes old-port" in text
        await pilot.press("Z")
        await loaded(app, pilot)
        await pilot.pause()
        assert hidden_id in [it["id"] for it in review(app).result.queues["supersede"]]
        assert "⊘ rejected" not in screen_text(app)
    assert hidden_id not in load_state(ws).hidden


async def test_a_skipped_skill_shows_with_a_and_z_puts_its_candidate_back(make, ws):
    candidates = ws / "memory/skill_candidates.json"
    before = candidates.read_bytes()
    result = scan_workspace(ws, today=TODAY)
    item = result.queues["skills"][0]
    assert apply(result, [{"item": item["id"], "action": "skip"}]).ok
    assert candidates.read_bytes() != before
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("3")
        await pilot.pause()
        assert "⊘ skipped" not in screen_text(app)
        await pilot.press("A")
        await pilot.pause()
        assert "⊘ skipped" in screen_text(app)
        while review(app).items.current["id"] != item["id"]:
            await pilot.press("down")
        cut = candidates.read_bytes()
        await pilot.press("Z")  # the diff first, asked
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        asked = screen_text(app)
        assert "memory/skill_candidates.json" in asked and item["theme"] in asked
        await pilot.press("n")
        await pilot.pause()
        assert candidates.read_bytes() == cut  # no: nothing written
        await pilot.press("Z")
        await pilot.pause()
        await pilot.press("y")
        await loaded(app, pilot)
        await pilot.pause()
        assert item["id"] in [it["id"] for it in review(app).result.queues["skills"]]
    assert candidates.read_bytes() == before


async def test_z_refuses_a_candidates_file_that_does_not_parse_and_writes_nothing(make, ws):
    from memreview.decisions.state import load_state

    candidates = ws / "memory/skill_candidates.json"
    result = scan_workspace(ws, today=TODAY)
    item = result.queues["skills"][0]
    assert apply(result, [{"item": item["id"], "action": "skip"}]).ok
    broken = candidates.read_bytes().rstrip().rstrip(b"}").rstrip().rstrip(b"]") + b",]}\n"
    candidates.write_bytes(broken)
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("3")
        await pilot.press("A")
        await pilot.pause()
        while review(app).items.current["id"] != item["id"]:
            await pilot.press("down")
        await pilot.press("Z")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmDialog)
        errors = [n.message for n in app._notifications if n.severity == "error"]
        assert any("not valid JSON" in m for m in errors), errors
    assert candidates.read_bytes() == broken
    assert item["id"] in load_state(ws).hidden


async def test_the_views_read_in_a_worker_say_so_and_keys_stay_live(make, ws):
    import threading

    _decide(ws, "dormant", "snooze", "Gateway upgrade")
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        backend = review(app).backend
        gate = threading.Event()
        history = backend.history

        def slow_history():
            gate.wait(10)  # the journal is read in the worker: the UI doesn't wait for it
            return history()

        backend.history = slow_history
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        assert "Reading the journal…" in screen_text(app)
        await pilot.press("escape")  # keys are live while it reads
        await pilot.pause()
        assert not isinstance(app.screen, HistoryScreen)
        await pilot.press("L")
        await pilot.pause()
        gate.set()
        await loaded(app, pilot)
        text = screen_text(app)
        assert "dormant snooze: Gateway upgrade" in text and "Reading" not in text


async def test_in_chinese_the_hidden_mark_has_room_for_its_wide_characters(make, ws):
    from memreview import i18n

    result = scan_workspace(ws, today=TODAY)
    assert apply(result, [{"item": result.queues["skills"][0]["id"], "action": "skip"}]).ok
    i18n.use_language("zh")
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("3", "A")
        await pilot.pause()
        assert "⊘ 已跳过" in screen_text(app)  # 6 cells, not cut at its 4 characters


async def test_a_temp_file_a_stopped_write_left_is_removed_and_named_on_start(make, ws):
    """A finished batch whose temp file is still there (a kill at an instant between steps):
    the app removes it when it starts, since it holds the batch's version, and says so; a
    file of that shape memreview never named stays."""
    import json

    _decide(ws, "supersede", "reject", "new-port supersedes old-port")
    _decide(ws, "skills", "skip", "")
    lines = (ws / ".memreview/journal.jsonl").read_text().splitlines()
    intent = next(json.loads(x) for x in reversed(lines) if '"type": "intent"' in x)
    f = next(f for f in intent["files"] if f.get("tmp") and f.get("after_copy"))
    (ws / f["tmp"]).write_bytes((ws / f["after_copy"]).read_bytes())
    decoy = ws / "memory/.infra.md.0badf00d.tmp"
    decoy.write_bytes(b"an agent's file\n")
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.pause()
        said = [n.message for n in app._notifications]
    assert not (ws / f["tmp"]).exists()
    assert any(f"removed {f['tmp']}" in m for m in said), said
    assert decoy.read_bytes() == b"an agent's file\n"


async def test_a_restore_from_the_archive_shows_in_the_history_under_it(make, ws):
    _decide(ws, "demotion", "approve", "[KNOWLEDGE:win11-gbk]")
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("L")
        await loaded(app, pilot)
        assert isinstance(app.screen, HistoryScreen)
        assert "restore" not in screen_text(app)
        await pilot.press("R")
        await loaded(app, pilot)
        assert isinstance(app.screen, ArchiveScreen)
        await pilot.press(*"gbk")
        await pilot.pause()
        await pilot.press("enter", "enter")
        await loaded(app, pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await loaded(app, pilot)
        await pilot.press("escape")  # back to the History view opened first
        await loaded(app, pilot)
        assert isinstance(app.screen, HistoryScreen)
        rows = [line for line in screen_text(app).splitlines() if "restore" in line]
        assert rows and "win11-gbk" in rows[0], rows


async def test_down_in_the_archive_search_goes_to_the_entries(make, ws):
    from textual.widgets import OptionList

    _decide(ws, "demotion", "approve", "[KNOWLEDGE:win11-gbk]")
    _decide(ws, "supersede", "approve", "new-port supersedes old-port")
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("R")
        await loaded(app, pilot)
        screen = app.screen
        assert isinstance(screen, ArchiveScreen) and len(screen.shown()) >= 2
        first, second = (row for _i, row in screen.shown()[:2])
        await pilot.press("down")  # from the search box: into the list, on its first entry
        assert isinstance(app.focused, OptionList)
        assert screen.current() is first
        await pilot.press("down")
        assert screen.current() is second
        assert second.lines[0] in screen_text(app)  # its details shown
