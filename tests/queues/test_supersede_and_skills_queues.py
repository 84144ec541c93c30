"""Supersede proposals and skill candidates (docs/design.md §1.3, §1.4, §2)."""

from __future__ import annotations

from datetime import date

from memreview.queues.skills import skills
from memreview.queues.supersede import supersede

TODAY = date(2026, 11, 29)


def anchor(aid: str, *meta: str) -> str:
    return "\n".join([f"## [FACT:{aid}]", *meta, "body", "---", ""])


def proposal(pid="p-1", new="new", old="old", relation="supersedes", **extra) -> dict:
    base = {"id": pid, "ts": "2026-11-20T00:00:00Z", "relation": relation, "new": new, "old": old}
    return base | extra


def test_a_supersedes_proposal_on_two_live_anchors_is_an_item(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("old", "Added: 2026-01-01") + anchor("new", "Added: 2026-09-01"),
            "memory/review/proposals.jsonl": [
                proposal(confidence=0.93, reason="newer measurement")
            ],
        }
    )
    (item,) = supersede(ws, TODAY)
    assert item["new"]["anchor"] == "new" and item["new"]["line"] == 5
    assert item["old"]["anchor"] == "old" and item["old"]["line"] == 1
    assert (item["confidence"], item["reason"], item["proposal"]) == (
        0.93,
        "newer measurement",
        "p-1",
    )


def test_a_proposal_naming_a_missing_anchor_is_not_an_item(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("old") + anchor("new"),
            "memory/review/proposals.jsonl": [
                proposal("p-1", new="ghost"),
                proposal("p-2", old="ghost"),
                proposal("p-3", new="old", old="old"),
            ],
        }
    )
    assert supersede(ws, TODAY) == []


def test_an_anchor_with_superseded_by_on_either_side_blocks_the_item(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("old", "Superseded-By: [[other]] (2026-10-01)")
            + anchor("new")
            + anchor("old2")
            + anchor("new2", "Superseded-By: [[newer]]"),
            "memory/review/proposals.jsonl": [
                proposal("p-1"),
                proposal("p-2", new="new2", old="old2"),
            ],
        }
    )
    assert supersede(ws, TODAY) == []


def test_an_anchor_living_under_memory_archive_counts_as_superseded(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("new"),
            "memory/archive/superseded.md": "# Superseded\n\n" + anchor("old"),
            "memory/review/proposals.jsonl": [proposal()],
        }
    )
    assert supersede(ws, TODAY) == []


def test_a_later_proposal_line_with_the_same_id_wins(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("old") + anchor("new") + anchor("x") + anchor("y"),
            "memory/review/proposals.jsonl": [
                proposal("p-1", confidence=0.4),
                proposal("p-2", new="x", old="y"),
                proposal("p-1", confidence=0.95),
                proposal("p-2", new="x", old="y", relation="complements"),
            ],
        }
    )
    (item,) = supersede(ws, TODAY)
    assert (item["proposal"], item["confidence"]) == ("p-1", 0.95)


def test_contradicts_proposals_are_not_supersede_items(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": anchor("old") + anchor("new"),
            "memory/review/proposals.jsonl": [proposal(relation="contradicts")],
        }
    )
    assert supersede(ws, TODAY) == []


def test_supersede_item_id_is_stable_across_lines_inserted_above(make_ws):
    files = {
        "MEMORY.md": anchor("old") + anchor("new"),
        "memory/review/proposals.jsonl": [proposal()],
    }
    first = supersede(make_ws(files), TODAY)[0]
    files["MEMORY.md"] = "# Top\n- inserted\n\n" + files["MEMORY.md"]
    second = supersede(make_ws(files), TODAY)[0]
    assert first["id"] == second["id"]
    assert second["old"]["line"] == first["old"]["line"] + 3


def test_each_skill_candidate_is_one_item_with_its_fields(make_ws):
    ws = make_ws(
        {
            "memory/skill_candidates.json": {
                "updated_at": "2026-11-28T03:00:00Z",
                "candidates": [
                    {"theme": "部署", "content": "先备份再升级", "count": 4, "reason": "重复 4 次"},
                    {"theme": "部署", "content": "升级后检查端口", "count": 2},
                ],
            }
        }
    )
    items = skills(ws, TODAY)
    assert [(i["theme"], i["content"], i["count"], i["reason"]) for i in items] == [
        ("部署", "先备份再升级", 4, "重复 4 次"),
        ("部署", "升级后检查端口", 2, None),
    ]
    assert len({i["id"] for i in items}) == 2
    assert all(i["title"] for i in items)


def test_no_skill_candidates_file_means_no_skill_items(make_ws):
    assert skills(make_ws({}), TODAY) == []
