"""Deciding a group of conflicts: keep one member (the ones in conflict with it are
superseded) or keep them all (their conflicts become SEE-ALSO), by apply."""

from __future__ import annotations

import json

from decisions_helpers import NOW, decide, only, scan, text

from memreview.decisions import apply
from memreview.decisions.planner import check_decisions


def anchor(aid: str, *meta: str) -> str:
    return "\n".join([f"## [KNOWLEDGE:{aid}]", *meta, f"Body of {aid}.", "---", ""])


def star() -> dict:
    """hub conflicts with six leaves (one by a judge proposal); leaf0 also with leaf1."""
    leaves = [f"leaf{k}" for k in range(6)]
    return {
        "MEMORY.md": "# Memory\n\n"
        + anchor(
            "hub",
            "Added: 2026-09-01",
            "CONFLICTS-WITH: " + ", ".join(f"[[{x}]]" for x in leaves[:5]),
        )
        + anchor("leaf0", "Added: 2026-01-01", "CONFLICTS-WITH: [[hub]], [[leaf1]]")
        + "".join(anchor(x, "Added: 2026-02-01", "SEE-ALSO: [[hub]]") for x in leaves[1:]),
        "memory/review/proposals.jsonl": [
            {"id": "p-5", "relation": "contradicts", "new": "hub", "old": "leaf5"},
        ],
    }


def test_keep_one_supersedes_every_member_in_conflict_with_it(make_ws):
    root = make_ws(star())
    outcome = decide(root, "contradictions", "keep-one", {"kind": "group"}, keep=1)
    assert outcome.ok, outcome
    memory = text(root, "MEMORY.md")
    assert memory == "# Memory\n\n" + anchor(
        "hub",
        "Added: 2026-09-01",
        "Supersedes: " + ", ".join(f"[[leaf{k}]]" for k in range(6)),
    )
    archive = text(root, "memory/archive/superseded.md")
    for k in range(6):
        assert f"## [KNOWLEDGE:leaf{k}]\n" in archive
    assert archive.count("Superseded-By: [[hub]] (2026-11-29)") == 6
    verdict = json.loads(text(root, "memory/review/verdicts.jsonl"))
    assert (verdict["proposal"], verdict["verdict"], verdict["kept"]) == ("p-5", "approved", "hub")
    assert scan(root).queues["contradictions"] == []


def test_keep_one_of_a_leaf_supersedes_only_what_it_conflicts_with(make_ws):
    root = make_ws(star())
    group = only(scan(root), "contradictions", kind="group")
    keep = 1 + [r["anchor"] for r in group["refs"]].index("leaf0")
    outcome = decide(root, "contradictions", "keep-one", {"kind": "group"}, keep=keep)
    assert outcome.ok, outcome
    archive = text(root, "memory/archive/superseded.md")
    assert "## [KNOWLEDGE:hub]" in archive and "## [KNOWLEDGE:leaf1]" in archive
    assert "leaf2]\n" not in archive
    memory = text(root, "MEMORY.md")
    assert anchor("leaf0", "Added: 2026-01-01", "Supersedes: [[hub]], [[leaf1]]") in memory
    assert "## [KNOWLEDGE:leaf2]" in memory


def test_keep_both_turns_every_conflict_of_the_group_into_see_also(make_ws):
    root = make_ws(star())
    outcome = decide(root, "contradictions", "keep-both", {"kind": "group"})
    assert outcome.ok, outcome
    memory = text(root, "MEMORY.md")
    assert "CONFLICTS-WITH" not in memory
    assert (
        anchor(
            "hub", "Added: 2026-09-01", "SEE-ALSO: " + ", ".join(f"[[leaf{k}]]" for k in range(6))
        )
        in memory
    )
    assert anchor("leaf0", "Added: 2026-01-01", "SEE-ALSO: [[hub]], [[leaf1]]") in memory
    assert anchor("leaf1", "Added: 2026-02-01", "SEE-ALSO: [[hub]], [[leaf0]]") in memory
    assert anchor("leaf5", "Added: 2026-02-01", "SEE-ALSO: [[hub]]") in memory  # not twice
    verdict = json.loads(text(root, "memory/review/verdicts.jsonl"))
    assert (verdict["proposal"], verdict["verdict"]) == ("p-5", "kept-both")
    assert scan(root).queues["contradictions"] == []  # the judge's proposal stays hidden


def test_a_group_refuses_keep_a_and_a_pair_refuses_keep_one(make_ws):
    files = star()
    files["MEMORY.md"] += anchor("p", "CONFLICTS-WITH: [[q]]") + anchor("q")
    root = make_ws(files)
    result = scan(root)
    group = only(result, "contradictions", kind="group")
    pair = only(result, "contradictions", title="p ⟷ q")
    items = {it["id"]: ("contradictions", it) for it in (group, pair)}
    problems = check_decisions(
        [
            {"item": group["id"], "action": "keep-a"},
            {"item": pair["id"], "action": "keep-one", "keep": 1},
        ],
        items,
    )
    assert problems == [
        f"item 1: {group['id']} is a group of 7 anchors in conflict: keep-one with 'keep: N' "
        "(1-7) keeps one of them, keep-both keeps them all",
        f"item 2: {pair['id']} is a pair: keep-a or keep-b keeps one side",
    ]
    before = text(root, "MEMORY.md")
    outcome = apply(result, [{"item": group["id"], "action": "keep-one", "keep": 8}], now=NOW)
    assert not outcome.ok and text(root, "MEMORY.md") == before
