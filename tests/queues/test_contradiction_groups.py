"""An anchor in more than a handful of conflicts: one group item, not one item per pair."""

from __future__ import annotations

import json
import tempfile
from datetime import date
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memreview.decisions.unit import Caption, RefBlock
from memreview.decisions.units.contradictions import evidence
from memreview.queues import contradictions as contradiction_queue
from memreview.queues.contradictions import HANDFUL, contradictions
from memreview.workspace.loader import load_workspace

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


def test_an_anchor_between_two_hubs_joins_their_groups_into_one(make_ws):
    # h1 and h2 are not in conflict with each other; both are with "shared", which is in
    # only two conflicts. Joined by the hubs' conflicts, all of them are one group, whatever
    # order the hubs are visited in.
    one = [f"a{k}" for k in range(HANDFUL)]
    two = [f"b{k}" for k in range(HANDFUL)]
    text = (
        anchor("h1", "CONFLICTS-WITH: " + ", ".join(f"[[{x}]]" for x in [*one, "shared"]))
        + anchor("h2", "CONFLICTS-WITH: " + ", ".join(f"[[{x}]]" for x in [*two, "shared"]))
        + "".join(anchor(x) for x in [*one, *two, "shared"])
    )
    (group,) = contradictions(make_ws({"MEMORY.md": text}), TODAY)
    assert sorted(r["anchor"] for r in group["refs"]) == sorted(["h1", "h2", "shared", *one, *two])
    assert group["conflicts"] == 2 * (HANDFUL + 1) and group["hubs"] == 2
    shared = next(r for r in group["refs"] if r["anchor"] == "shared")
    assert shared["conflicts"] == 2


@settings(max_examples=40, deadline=None)
@given(
    named=st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13)), max_size=60),
    judged=st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13)), max_size=10),
)
def test_groups_and_pairs_agree_with_a_plain_count_of_the_conflicts(named, judged):
    """Both ways of counting the hubs (plain Python for a few conflicts, arrays for many)
    give these items."""
    ids = [f"n{k:02d}" for k in range(14)]
    names: dict[int, list[int]] = {}
    for x, y in named:
        names.setdefault(x, []).append(y)
    text = "".join(
        anchor(
            aid,
            f"Added: 2026-01-{k + 1:02d}",
            "CONFLICTS-WITH: " + ", ".join(f"[[{ids[y]}]]" for y in names[k]),
        )
        if k in names
        else anchor(aid, f"Added: 2026-01-{k + 1:02d}")
        for k, aid in enumerate(ids)
    )
    proposals = [
        {"id": f"p-{k}", "relation": "contradicts", "new": ids[x], "old": ids[y]}
        for k, (x, y) in enumerate(judged)
    ]
    with tempfile.TemporaryDirectory() as tmp:  # a fresh workspace for each example
        root = Path(tmp)
        (root / "MEMORY.md").write_text(text, encoding="utf-8")
        if proposals:
            (root / "memory/review").mkdir(parents=True)
            lines = "".join(json.dumps(p) + "\n" for p in proposals)
            (root / "memory/review/proposals.jsonl").write_text(lines, encoding="utf-8")
        ws = load_workspace(root)
        items = contradictions(ws, TODAY)  # few conflicts: the hubs counted in plain Python
        few = contradiction_queue.FEW
        contradiction_queue.FEW = -1
        try:
            in_arrays = contradictions(ws, TODAY)  # as a workspace with many is (numpy)
        finally:
            contradiction_queue.FEW = few
    assert items == in_arrays

    # the plain count: a set of neighbours per anchor
    near: dict[str, set[str]] = {aid: set() for aid in ids}
    for x, y in [*named, *judged]:
        if x != y:
            near[ids[x]].add(ids[y])
            near[ids[y]].add(ids[x])
    hubs = {x for x in ids if len(near[x]) > HANDFUL}
    pairs = {frozenset((x, y)) for x in ids for y in near[x] if x not in hubs and y not in hubs}
    joined: dict[str, set[str]] = {}  # hub-conflict components, by union
    for h in sorted(hubs):
        group = {h, *near[h]}
        for other in [g for g in joined.values() if g & group]:
            group |= other
        for x in group:
            joined[x] = group
    groups = {frozenset(g) for g in joined.values()}

    got_pairs = {
        frozenset((it["a"]["anchor"], it["b"]["anchor"])) for it in items if "kind" not in it
    }
    got_groups = [it for it in items if it.get("kind") == "group"]
    assert got_pairs == pairs
    assert {frozenset(r["anchor"] for r in g["refs"]) for g in got_groups} == groups
    for g in got_groups:
        members = {r["anchor"] for r in g["refs"]}
        assert all(r["conflicts"] == len(near[r["anchor"]]) for r in g["refs"])
        touching = {frozenset((x, y)) for x in members & hubs for y in near[x]}
        assert g["conflicts"] == len(touching)
        assert g["hubs"] == len(members & hubs)


def test_a_workspace_with_few_conflicts_computes_its_contradictions_without_numpy(tmp_path):
    """The first queue shown: numpy (60–100 ms to import) waits for a queue that needs it."""
    import subprocess
    import sys

    (tmp_path / "MEMORY.md").write_text(
        anchor("p", "Added: 2026-01-01", "CONFLICTS-WITH: [[q]]") + anchor("q"), encoding="utf-8"
    )
    code = (
        "import sys\n"
        "from datetime import date\n"
        "from pathlib import Path\n"
        "from memreview.queues.contradictions import contradictions\n"
        "from memreview.workspace.loader import load_workspace\n"
        f"items = contradictions(load_workspace(Path({str(tmp_path)!r})), date(2026, 11, 29))\n"
        "print(len(items), 'numpy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["1", "False"], done.stderr[-500:]


def test_a_clique_named_past_the_few_is_counted_in_arrays(make_ws, monkeypatch):
    from memreview.queues import contradictions as queue

    made = []
    graph = queue._Graph

    def counted(named):
        made.append(named.size)
        return graph(named)

    monkeypatch.setattr(queue, "_Graph", counted)
    ws = make_ws({"MEMORY.md": clique(12)})
    (item,) = contradictions(ws, TODAY)
    assert made == [132]  # the hubs found in plain Python; the arrays for the group only
    monkeypatch.setattr(queue, "FEW", 10)  # the clique names 132 conflicts: more than that
    assert contradictions(ws, TODAY) == [item]
    assert made == [132, 132]  # counted once, in arrays
