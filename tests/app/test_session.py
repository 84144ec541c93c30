"""The review's state without a screen (memreview/app/session.py): each step changes the
state and says what changed, and the screen only redraws what it is told."""

from __future__ import annotations

from dataclasses import replace

import pytest
from app_helpers import TODAY, FakeBackend

from memreview.app.keys import HEALTH, act_for, queue_names
from memreview.app.session import Change, ReviewSession
from memreview.scan import scan_workspace


@pytest.fixture
def session(ws):
    told: list[Change] = []
    s = ReviewSession(FakeBackend(), told.append)
    s.told = told
    s.load_staged()
    s.loaded(scan_workspace(ws, today=TODAY, cache=False))
    told.clear()
    return s


def first_queue_with_items(s: ReviewSession, at_least: int = 1) -> str:
    return next(q for q in queue_names() if len(s.queue_items(q)) >= at_least)


def test_a_scan_result_is_a_change_of_everything(ws):
    told: list[Change] = []
    s = ReviewSession(FakeBackend(), told.append)
    assert s.scanning and s.result is None
    change = s.loaded(scan_workspace(ws, today=TODAY, cache=False))
    assert not s.scanning
    assert told == [change]
    assert change.loaded and change.listing and change.pending
    assert change.queues == frozenset(queue_names())


def test_staging_names_the_queue_and_the_item_and_the_list_is_left_alone(session):
    queue = first_queue_with_items(session)
    session.choose(queue)
    session.told.clear()
    item = session.queue_items(queue)[0]
    act = act_for(queue, "defer")
    staged = session.stage(item, act)
    assert staged.refused is None
    assert session.staging.for_item(item["id"]).action == "defer"
    assert session.told == [staged.change]
    assert staged.change.items == {item["id"]} and staged.change.queues == {queue}
    assert staged.change.pending and not staged.change.listing
    assert session.mark_of(item["id"])[0]  # its staged label in the list


def test_a_refused_decision_changes_nothing_and_says_why(session):
    queue = first_queue_with_items(session)
    session.choose(queue)
    session.told.clear()
    item = session.queue_items(queue)[0]
    bad = replace(act_for(queue, "defer"), action="no-such-action")
    staged = session.stage(item, bad)
    assert staged.refused
    assert session.told == []
    assert not session.staging


def test_unstage_takes_the_items_decision_else_the_newest(session):
    queue = first_queue_with_items(session, 2)
    session.choose(queue)
    a, b = session.queue_items(queue)[:2]
    act = act_for(queue, "defer")
    session.stage(a, act)
    session.stage(b, act)
    session.told.clear()
    assert session.unstage(a["id"]).item == a["id"]
    assert session.told[-1].items == {a["id"]} and session.told[-1].current
    assert session.unstage("not-staged").item == b["id"]  # the one staged last
    assert session.unstage(None) is None
    assert not session.staging


def test_next_queue_passes_over_empty_queues_but_never_the_health_view(session):
    session.choose(queue_names()[0])
    seen = [session.queue]
    for _ in range(len(queue_names()) + 1):
        session.choose(session.next_queue(1))
        seen.append(session.queue)
    assert HEALTH in seen
    assert all(q == HEALTH or session.queue_items(q) for q in seen[1:])


def test_toggle_all_shows_every_item_then_the_new_ones_again(session):
    queue = first_queue_with_items(session)
    session.choose(queue)
    session.told.clear()
    assert session.toggle_all() is True
    assert queue in session.show_all
    assert session.queue_items(queue) == session.result.all_queues[queue]
    assert session.toggle_all() is False
    assert queue not in session.show_all
    assert [c.listing for c in session.told] == [True, True]


def test_a_decision_to_ask_again_is_marked(session):
    queue = first_queue_with_items(session)
    session.choose(queue)
    item = session.queue_items(queue)[0]
    session.stage(item, act_for(queue, "defer"))
    session.changed.add(item["id"])
    assert session.mark_of(item["id"])[0].startswith("⚠")
    assert session.mark_of(item["id"])[1] == "reject"


def test_what_a_write_left_pending_replaces_the_staged_decisions(session):
    queue = first_queue_with_items(session, 2)
    session.choose(queue)
    a, b = session.queue_items(queue)[:2]
    act = act_for(queue, "defer")
    session.stage(a, act)
    session.stage(b, act)
    kept = [d for d in session.staging if d.item == b["id"]]
    change = session.replace_staged(kept)
    assert [d.item for d in session.staging] == [b["id"]]
    assert change.pending and change.queues == frozenset(queue_names())


def test_an_item_past_a_queue_s_limit_is_not_marked_hidden(ws):
    """``A`` lists every item of a queue that shows only its first ones (the dormant queue:
    the longest sleepers): those past the limit, which no decision hid, carry no ⊘ (there is
    nothing for ``Z`` to put back); an item a decision hid keeps its reason."""
    from memreview.app.backend import Backend, make_decision

    (ws / "memreview.yaml").write_text("dormant_limit: 1\n", encoding="utf-8")
    with open(ws / "MEMORY.md", "a", encoding="utf-8") as f:
        for name in ("kestrel-wiki", "plover-ledger", "dunlin-radar"):
            f.write(f"\n## [PROJECT:{name}]\nAdded: 2026-03-02\nSummary: {name}\n---\n")
    backend = Backend(ws)
    before = scan_workspace(ws, today=TODAY, cache=False)
    [first] = before.queues["dormant"]
    assert backend.apply(before, [make_decision(first["id"], "snooze", "dormant")]).written == []
    result = scan_workspace(ws, today=TODAY, cache=False)
    every = {it["id"] for it in result.all_queues["dormant"]}
    shown = {it["id"] for it in result.queues["dormant"]}
    assert len(every) >= 4 and len(shown) == 1 and first["id"] not in shown
    s = ReviewSession(backend)
    s.load_staged()
    s.loaded(result)
    past = every - shown - {first["id"]}
    assert past == result.past_limit["dormant"]
    assert past and not past & s.hidden.keys()
    assert s.hidden[first["id"]].startswith("snoozed")
    assert s.mark_of(first["id"])[0].startswith("⊘ snoozed")
