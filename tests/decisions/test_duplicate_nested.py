"""A line nested in a longer item is a side of a duplicate: not-duplicate hides the item,
keep refuses (the nested line is no entry of its own), and nothing is written."""

from __future__ import annotations

from datetime import date

from memreview.decisions import apply
from memreview.scan import scan_workspace

TODAY = date(2026, 11, 30)
MEMORY = (
    "# M\n\n## Changes\n- Fixes applied by the owner:\n"
    "  - Default speaker set to the office mini as fallback\n"
    "  - Thermostat schedule moved to 06:30\n\n"
    "## Speakers\n- Office mini is the default speaker as fallback\n"
)


def _item(root):
    result = scan_workspace(root, today=TODAY, cache=False)
    (item,) = result.queues["duplicates"]
    return result, item


def test_a_nested_line_pairs_and_not_duplicate_hides_it(make_ws, tmp_path):
    make_ws({"MEMORY.md": MEMORY})
    root = tmp_path / "ws"
    result, item = _item(root)
    assert item["kind"] in ("restructured", "paraphrase")
    assert [r["line"] for r in item["refs"]] == [5, 9]
    ok = apply(result, [{"item": item["id"], "action": "not-duplicate"}])
    assert ok.applied
    assert (root / "MEMORY.md").read_text() == MEMORY
    assert scan_workspace(root, today=TODAY, cache=False).queues["duplicates"] == []


def test_keep_refuses_a_nested_line_and_writes_nothing(make_ws, tmp_path):
    make_ws({"MEMORY.md": MEMORY})
    root = tmp_path / "ws"
    result, item = _item(root)
    out = apply(result, [{"item": item["id"], "action": "keep", "keep": 2}])
    assert not out.applied
    assert (root / "MEMORY.md").read_text() == MEMORY
