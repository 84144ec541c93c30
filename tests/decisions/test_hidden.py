"""Hidden items: listed with why and since when; unhide puts one back in its queue as a
journaled batch that undo takes back (the item is hidden again)."""

from __future__ import annotations

from datetime import date

from decisions_helpers import NOW, TODAY, decide, scan
from test_decisions_anchors import OLD_NEW

from memreview.cli import main
from memreview.decisions import undo
from memreview.decisions.hidden import hidden_items, unhide
from memreview.decisions.state import load_state
from memreview.store import batches

PROJECT = {"memory/projects/diary.md": "# Diary\nAdded: 2026-01-01\n"}


def test_a_rejected_supersede_is_listed_with_why_and_since(make_ws):
    root = make_ws(OLD_NEW)
    out = decide(root, "supersede", "reject")
    [h] = hidden_items(root, TODAY)
    assert (h.reason, h.until, h.batch, h.queue, h.action) == (
        "rejected",
        None,
        out.batch,
        "supersede",
        "reject",
    )
    assert h.title == "new-fact supersedes old-fact"
    assert h.since == next(b for b in batches(root) if b.batch_id == out.batch).ts[:10]
    assert h.why() == "rejected"


def test_a_snooze_says_until_when_and_is_gone_from_the_list_after(make_ws):
    root = make_ws(PROJECT)
    assert decide(root, "dormant", "snooze").ok
    [h] = hidden_items(root, TODAY)
    assert h.why() == "snoozed, hidden until 2026-12-27"
    assert hidden_items(root, date(2026, 12, 27)) == []


def test_unhide_shows_the_item_again_and_undo_hides_it_again(make_ws):
    root = make_ws(OLD_NEW)
    item_id = scan(root).all_queues["supersede"][0]["id"]
    first = decide(root, "supersede", "reject").batch
    assert scan(root).queues["supersede"] == []
    out = unhide(root, item_id, today=TODAY, now=NOW)
    assert out.ok, out.message
    assert [i["id"] for i in scan(root).queues["supersede"]] == [item_id]
    record = batches(root)[-1]
    assert record.kind == "unhide" and record.batch_id == out.batch and record.committed
    assert record.decisions[0]["hidden"] == {"until": None, "reason": "rejected", "batch": first}
    back = undo(root)
    assert back.ok and back.rehidden == [item_id]
    assert load_state(root).hidden[item_id].batch == first
    assert scan(root).queues["supersede"] == []
    assert not unhide(root, "nope", today=TODAY).ok


def test_cli_hidden_and_unhide(make_ws, capsys):
    root = make_ws(OLD_NEW)
    item_id = scan(root).all_queues["supersede"][0]["id"]
    decide(root, "supersede", "reject")
    assert main(["hidden", str(root), "--today", "2026-11-29"]) == 0
    out = capsys.readouterr().out
    assert f"{item_id}  supersede" in out and "rejected; since" in out
    assert main(["hidden", str(root), "--json", "--today", "2026-11-29"]) == 0
    assert f'"id": "{item_id}"' in capsys.readouterr().out
    assert main(["unhide", str(root), item_id, "--today", "2026-11-29"]) == 0
    assert "shows again in supersede" in capsys.readouterr().err
    assert main(["hidden", str(root), "--today", "2026-11-29"]) == 0
    assert "nothing hidden" in capsys.readouterr().out
    assert main(["unhide", str(root), item_id]) == 1
    assert "is not hidden" in capsys.readouterr().err


def test_undo_of_an_unhide_leaves_a_broken_state_file_alone(make_ws):
    root = make_ws(OLD_NEW)
    item_id = scan(root).all_queues["supersede"][0]["id"]
    decide(root, "supersede", "reject")
    assert unhide(root, item_id, today=TODAY, now=NOW).ok
    state = root / ".memreview/state.yaml"
    state.write_bytes(b"hidden: [broken\n")
    back = undo(root)
    assert back.ok and back.rehidden == []
    assert state.read_bytes() == b"hidden: [broken\n"
