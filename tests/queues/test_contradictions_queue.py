"""Contradictions: CONFLICTS-WITH markers and judge proposals, one item per pair (docs/design.md §2)."""

from __future__ import annotations

from datetime import date

from memreview.queues.contradictions import contradictions

TODAY = date(2026, 11, 29)


def anchor(aid: str, *meta: str, type: str = "KNOWLEDGE") -> str:
    return "\n".join([f"## [{type}:{aid}]", *meta, "body", "---", ""])


def pair(item) -> tuple[str, str]:
    return item["a"]["anchor"], item["b"]["anchor"]


def test_a_conflicts_with_marker_on_one_side_makes_one_item(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("gbk", "Added: 2026-06-22", "CONFLICTS-WITH: [[utf8]]")
            + anchor("utf8", "Added: 2026-07-01")
        }
    )
    (item,) = contradictions(ws, TODAY)
    assert pair(item) == ("gbk", "utf8")
    assert item["source"] == "marker"
    assert item["confidence"] is None and item["reason"] is None
    assert item["a"] == {
        "file": "MEMORY.md",
        "line": 1,
        "end_line": 5,
        "text": "## [KNOWLEDGE:gbk]",
        "anchor": "gbk",
    }


def test_markers_on_both_sides_are_one_item_for_the_unordered_pair(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("x", "Added: 2026-01-01", "CONFLICTS-WITH: [[y]]")
            + anchor("y", "Added: 2026-01-02", "CONFLICTS-WITH: [[x]]")
        }
    )
    assert len(contradictions(ws, TODAY)) == 1


def test_a_contradicts_proposal_gives_source_judge_with_its_confidence_and_reason(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("old", "Added: 2026-01-01") + anchor("new", "Added: 2026-02-01"),
            "memory/review/proposals.jsonl": [
                {
                    "id": "p-1",
                    "relation": "contradicts",
                    "new": "new",
                    "old": "old",
                    "confidence": 0.91,
                    "reason": "opposite defaults",
                }
            ],
        }
    )
    (item,) = contradictions(ws, TODAY)
    assert item["source"] == "judge"
    assert (item["confidence"], item["reason"]) == (0.91, "opposite defaults")
    assert pair(item) == ("old", "new")


def test_marker_and_proposal_on_the_same_pair_merge_into_source_both(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("p", "Added: 2026-01-01")
            + anchor("q", "Added: 2026-02-01", "CONFLICTS-WITH: [[p]]"),
            "memory/review/proposals.jsonl": [
                {"id": "p-9", "relation": "contradicts", "new": "p", "old": "q", "confidence": 0.7}
            ],
        }
    )
    (item,) = contradictions(ws, TODAY)
    assert item["source"] == "both"
    assert item["confidence"] == 0.7


def test_proposals_in_both_directions_are_one_item_with_the_later_proposals_figures(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("p", "Added: 2026-01-01") + anchor("q", "Added: 2026-02-01"),
            "memory/review/proposals.jsonl": [
                {"id": "p-1", "relation": "contradicts", "new": "q", "old": "p", "confidence": 0.6},
                {
                    "id": "p-2",
                    "relation": "contradicts",
                    "new": "p",
                    "old": "q",
                    "confidence": 0.8,
                    "reason": "later",
                },
            ],
        }
    )
    (item,) = contradictions(ws, TODAY)
    assert (item["confidence"], item["reason"]) == (0.8, "later")


def test_other_relations_are_not_contradictions(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("p") + anchor("q"),
            "memory/review/proposals.jsonl": [
                {"id": "p-1", "relation": "supersedes", "new": "q", "old": "p"},
                {"id": "p-2", "relation": "complements", "new": "q", "old": "p"},
                {"id": "p-3", "relation": "duplicate", "new": "q", "old": "p"},
            ],
        }
    )
    assert contradictions(ws, TODAY) == []


def test_a_is_the_older_anchor_by_added_whatever_side_holds_the_marker(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("newer", "Added: 2026-08-01", "CONFLICTS-WITH: [[older]]")
            + anchor("older", "Added: 2026-03-01")
        }
    )
    (item,) = contradictions(ws, TODAY)
    assert pair(item) == ("older", "newer")


def test_a_missing_added_sorts_as_newest(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("undated", "CONFLICTS-WITH: [[dated]]")
            + anchor("dated", "Added: 2026-11-01")
        }
    )
    (item,) = contradictions(ws, TODAY)
    assert pair(item) == ("dated", "undated")


def test_an_unparsable_or_future_added_sorts_as_newest(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("bad", "Added: 2026-02-30", "CONFLICTS-WITH: [[good]]")
            + anchor("future", "Added: 2027-01-01", "CONFLICTS-WITH: [[good]]")
            + anchor("good", "Added: 2026-11-01")
        }
    )
    items = {frozenset(pair(i)): pair(i) for i in contradictions(ws, TODAY)}
    assert items[frozenset({"bad", "good"})] == ("good", "bad")
    assert items[frozenset({"future", "good"})] == ("good", "future")


def test_equal_added_ties_break_by_relative_path_then_line(make_ws):
    ws = make_ws(
        {
            "memory/b.md": anchor("in-b", "Added: 2026-05-01", "CONFLICTS-WITH: [[in-a]]"),
            "memory/a.md": "# A\n\n" + anchor("in-a", "Added: 2026-05-01"),
            "MEMORY.md": anchor("late", "CONFLICTS-WITH: [[early]]") + anchor("early"),
        }
    )
    items = {frozenset(pair(i)): pair(i) for i in contradictions(ws, TODAY)}
    assert items[frozenset({"in-a", "in-b"})] == ("in-a", "in-b")
    # both undated, same file: the earlier line is a
    assert items[frozenset({"late", "early"})] == ("late", "early")


def test_missing_added_on_both_sides_ties_break_across_files_by_path(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("root", "CONFLICTS-WITH: [[nested]]"),
            "memory/MEMORY.md": anchor("nested"),
        }
    )
    (item,) = contradictions(ws, TODAY)
    assert pair(item) == ("root", "nested")  # "MEMORY.md" < "memory/MEMORY.md"


def test_unknown_or_archived_anchors_make_no_item(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("live", "CONFLICTS-WITH: [[ghost]], [[gone]]"),
            "memory/archive/superseded.md": "# Superseded\n\n" + anchor("gone"),
            "memory/review/proposals.jsonl": [
                {"id": "p-1", "relation": "contradicts", "new": "live", "old": "nobody"},
                {"id": "p-2", "relation": "contradicts", "new": "live", "old": "gone"},
            ],
        }
    )
    assert contradictions(ws, TODAY) == []
    assert any("unknown anchor 'ghost'" in w.message for w in ws.warnings)


def test_the_item_id_depends_on_the_pair_not_on_direction_source_or_lines(make_ws, tmp_path):
    one = make_ws(
        {
            "MEMORY.md": anchor("x", "Added: 2026-01-01", "CONFLICTS-WITH: [[y]]")
            + anchor("y", "Added: 2026-01-02")
        }
    )
    id_one = contradictions(one, TODAY)[0]["id"]
    two = make_ws(
        {
            "MEMORY.md": "# Moved\n\n\n"
            + anchor("y", "Added: 2026-01-02", "CONFLICTS-WITH: [[x]]")
            + anchor("x", "Added: 2026-01-01")
        }
    )
    assert contradictions(two, TODAY)[0]["id"] == id_one
