"""The items of other queues that name what an item names ("also in …"): ``relates`` answers
for one queue what ``related`` lists for all, and ``related`` lists them in queue order."""

from __future__ import annotations

from pathlib import Path

from memreview.scan import scan_workspace

SAMPLE = Path(__file__).resolve().parents[1] / "sample_workspace"


def test_relates_agrees_with_related_for_every_item_and_queue():
    result = scan_workspace(SAMPLE, cache=False)
    pairs = 0
    for items in result.queues.values():
        for it in items:
            listed = {q for q, _other in result.related(it["id"])}
            for queue in result.queues:
                assert result.relates(it["id"], queue) == (queue in listed), (it["id"], queue)
                pairs += queue in listed
    assert pairs >= 2  # the sample has items named in two queues (a contradiction's pair)


def _naming(item_id: str) -> dict:
    return {"id": item_id, "refs": [{"file": "memory/notes.md", "line": 4, "text": "- x"}]}


def test_related_lists_in_the_queues_order_whatever_order_they_were_computed_in():
    result = scan_workspace(SAMPLE, cache=False).copy()
    # three queues naming one entry, finished last to first (the app's result is never
    # put in order: its queues stay in the order they came in)
    result.queues = {
        "duplicates": [_naming("d-1")],
        "supersede": [_naming("s-1"), _naming("s-2")],
        "contradictions": [_naming("c-1")],
    }
    result.all_queues = dict(result.queues)
    assert [it["id"] for _q, it in result.related("c-1")] == ["s-1", "s-2", "d-1"]
    assert [it["id"] for _q, it in result.related("d-1")] == ["c-1", "s-1", "s-2"]
