"""Decisions: their shape, the actions of each queue, and clear reasons when invalid."""

from __future__ import annotations

import pytest
from decisions_helpers import scan

from memreview.decisions import Decision, DecisionError, build_plan, registry

GROUP = {
    "MEMORY.md": (
        "# Memory\n\n## Lessons\n"
        "- Galxe bounties need a day for review (2026-04-10)\n"
        "- Galxe bounties need a day for review (2026-05-02)\n"
        "\n### 编年史\n| 日期 | 事件 |\n|---|---|\n| 2026-10-14 | a |\n| 2026-10-14 | b |\n"
    ),
    "memory/projects/p.md": "# P\nAdded: 2026-01-01\n",
}


def test_every_queue_has_defer_and_the_actions_of_design_section_2():
    # keep-one: a group of contradictions (an anchor in more than a handful of conflicts)
    assert registry.unit("contradictions").actions == (
        "keep-a",
        "keep-b",
        "keep-both",
        "keep-one",
        "defer",
    )
    assert registry.unit("dormant").actions == ("revive", "snooze", "archive", "done", "defer")
    assert registry.unit("duplicates").actions == ("keep", "merge", "not-duplicate", "defer")
    assert all("defer" in u.actions for u in registry.units())


def test_a_decision_round_trips_through_a_dict():
    d = Decision("d-1", "merge", keep=2, text="- x")
    assert Decision.from_dict(d.to_dict()) == d
    assert Decision.from_dict({"item": "c-1", "action": "keep-a"}).to_dict() == {
        "item": "c-1",
        "action": "keep-a",
    }


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("just text", "must be a mapping"),
        ({"action": "keep"}, "needs 'item'"),
        ({"item": "x"}, "needs 'action'"),
        ({"item": "x", "action": "keep", "keep": "two"}, "'keep' must be a whole number"),
        ({"item": "x", "action": "keep", "kept": 2}, "unknown key 'kept'"),
    ],
)
def test_malformed_decisions_say_what_is_wrong(raw, message):
    with pytest.raises(DecisionError, match=message):
        Decision.from_dict(raw)


def _invalid(make_ws, decisions):
    result = scan(make_ws(GROUP))
    plan = build_plan(result, decisions(result) if callable(decisions) else decisions)
    return [reason for _d, reason in plan.invalid]


def _dup(result, kind):
    return next(i for i in result.all_queues["duplicates"] if i["kind"] == kind)["id"]


def test_unknown_item_id_is_invalid(make_ws):
    assert _invalid(make_ws, [{"item": "d-nope", "action": "keep", "keep": 1}]) == [
        "unknown item id 'd-nope' (not in any queue)"
    ]


def test_action_not_valid_for_the_queue_lists_the_valid_ones(make_ws):
    (reason,) = _invalid(make_ws, lambda r: [{"item": _dup(r, "fingerprint"), "action": "approve"}])
    assert reason == (
        "action 'approve' is not valid for a duplicates item; "
        "valid: keep, merge, not-duplicate, defer"
    )


def test_keep_out_of_range_and_missing_keep_are_invalid(make_ws):
    reasons = _invalid(
        make_ws,
        lambda r: [
            {"item": _dup(r, "fingerprint"), "action": "keep", "keep": 3},
            {"item": _dup(r, "chronicle"), "action": "keep"},
        ],
    )
    assert "keep 3 is out of range; this group has 2 entries (1-2)" in reasons[0]
    assert "keep needs 'keep: N'" in reasons[1]


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [
        ("fingerprint", "Galxe merged", "starting with '- ' or '* '"),
        ("fingerprint", "- merged\nnot indented", "must be indented"),
        ("fingerprint", "   ", "merge text is empty"),
        ("chronicle", "2026-10-14 | a；b", "starts and ends with '|'"),
        ("chronicle", "| a |\n| b |", "must be one line"),
    ],
)
def test_merge_text_must_read_like_the_entry_it_replaces(make_ws, kind, text, message):
    (reason,) = _invalid(
        make_ws, lambda r: [{"item": _dup(r, kind), "action": "merge", "text": text}]
    )
    assert message in reason


def test_merge_without_text_is_invalid_except_for_the_chronicle(make_ws):
    reasons = _invalid(
        make_ws,
        lambda r: [
            {"item": _dup(r, "fingerprint"), "action": "merge"},
            {"item": _dup(r, "chronicle"), "action": "merge"},
        ],
    )
    assert len(reasons) == 1 and "merge needs 'text'" in reasons[0]


def test_keep_and_text_belong_only_to_duplicates_and_an_item_is_decided_once(make_ws):
    reasons = _invalid(
        make_ws,
        lambda r: [
            {"item": r.all_queues["dormant"][0]["id"], "action": "snooze", "keep": 1},
            {"item": _dup(r, "fingerprint"), "action": "not-duplicate", "text": "- x"},
            {"item": _dup(r, "chronicle"), "action": "defer"},
            {"item": _dup(r, "chronicle"), "action": "not-duplicate"},
        ],
    )
    assert "'keep' only goes with contradictions keep-one; duplicates keep or merge" in reasons[0]
    assert "'text' only goes with duplicates merge" in reasons[1]
    assert "decided twice" in reasons[2]
