"""An anchor in more than a handful of conflicts: one group item, not one item per pair."""

from __future__ import annotations

from datetime import date

from memreview.decisions.unit import Caption, RefBlock
from memreview.decisions.units.contradictions import evidence
from memreview.queues.contradictions import HANDFUL, contradictions

TODAY = date(2026, 11, 29)


def anchor(aid: str, *meta: str) -> str:
    return "\n".join([f"## [KNOWLEDGE:{aid}]", *meta, "body", "---", ""])


def clique(n: int) -> str:
    ids = [f"c{k:02d}" for k in range(n)]
    return "".join(
        anchor(
            x,
            f"Added: 2026-01-{k + 1:02d}",
            "CONFLICTS-WITH: " + ", ".join(f"[[{y}]]" for y in ids if y != x),
        )
        for k, x in enumerate(ids)
    )


def test_a_clique_of_anchors_that_all_conflict_is_one_group_item(make_ws):
    ws = make_ws({"MEMORY.md": clique(12)})
    (item,) = contradictions(ws, TODAY)  # 66 pairs before
    assert item["kind"] == "group"
    assert item["title"] == "12 anchors in conflict (66 conflicts)"
    assert item["conflicts"] == 66 and item["hubs"] == 12
    assert [r["anchor"] for r in item["refs"]] == [f"c{k:02d}" for k in range(12)]  # oldest first
    assert all(r["conflicts"] == 11 for r in item["refs"])
    assert item["source"] == "marker"


def test_a_hub_and_its_anchors_are_one_item_other_pairs_stay_pairs(make_ws):
    leaves = [f"leaf{k}" for k in range(HANDFUL + 1)]
    ws = make_ws(
        {
            "MEMORY.md": anchor("hub", "Added: 2026-09-01", "CONFLICTS-WITH: [[leaf0]], [[leaf1]]")
            + "".join(anchor(x, "Added: 2026-02-01") for x in leaves[:2])
            + "".join(anchor(x, "CONFLICTS-WITH: [[hub]]") for x in leaves[2:])
            + anchor("p", "Added: 2026-01-01", "CONFLICTS-WITH: [[q]]")
            + anchor("q", "Added: 2026-01-02"),
        }
    )
    pair, group = contradictions(ws, TODAY)
    assert pair["title"] == "p ⟷ q"
    assert group["title"] == f"hub conflicts with {HANDFUL + 1} anchors"
    assert [r["anchor"] for r in group["refs"]] == ["hub", *leaves]
    assert group["conflicts"] == HANDFUL + 1


def test_a_handful_of_conflicts_stays_pairs(make_ws):
    leaves = [f"leaf{k}" for k in range(HANDFUL)]
    ws = make_ws(
        {
            "MEMORY.md": anchor("hub", "CONFLICTS-WITH: " + ", ".join(f"[[{x}]]" for x in leaves))
            + "".join(anchor(x) for x in leaves)
        }
    )
    items = contradictions(ws, TODAY)
    assert len(items) == HANDFUL and all("kind" not in it for it in items)


def test_judge_proposals_around_a_hub_join_its_group(make_ws):
    leaves = [f"leaf{k}" for k in range(HANDFUL + 1)]
    ws = make_ws(
        {
            "MEMORY.md": anchor("hub") + "".join(anchor(x) for x in leaves),
            "memory/review/proposals.jsonl": [
                {"id": f"p-{k}", "relation": "contradicts", "new": "hub", "old": x}
                for k, x in enumerate(leaves)
            ],
        }
    )
    (group,) = contradictions(ws, TODAY)
    assert group["source"] == "judge" and group["conflicts"] == HANDFUL + 1


def test_the_group_id_is_the_same_whatever_the_order_and_lines(make_ws):
    id_one = contradictions(make_ws({"MEMORY.md": clique(8)}), TODAY)[0]["id"]
    blocks = [b + "---\n" for b in clique(8).split("---\n")[:-1]]
    moved = "# Moved\n\n\n" + "".join(reversed(blocks))
    assert contradictions(make_ws({"MEMORY.md": moved}), TODAY)[0]["id"] == id_one


def test_a_group_shows_nine_members_and_says_how_many_more(make_ws):
    ws = make_ws({"MEMORY.md": clique(14)})
    (item,) = contradictions(ws, TODAY)
    blocks = evidence(item)
    refs = [b for b in blocks if isinstance(b, RefBlock)]
    assert len(refs) == 9 and refs[0].label == "#1  in 13 conflicts"
    assert blocks[-1] == Caption(
        "… and 5 more members (a decisions file's 'keep: N' picks any of them)"
    )
