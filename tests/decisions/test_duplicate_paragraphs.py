"""Prose lines (``**Label:** text``) are sides of duplicates, and ``keep`` removes a copy."""

from __future__ import annotations

from datetime import date

from memreview.decisions import apply
from memreview.scan import scan_workspace

TODAY = date(2026, 11, 30)
SETUP = (
    "**Tool installed:** `~/tools/lantern/bin/lantern`\n"
    "**Config:** kept in `~/.config/lantern/lantern.toml`, read at start\n"
    "**Endpoint:** https://lantern.example.org/api/v2/\n"
)


def _dups(root):
    result = scan_workspace(root, today=TODAY, cache=False)
    return result, result.queues["duplicates"]


def test_a_block_of_prose_lines_pasted_twice_is_one_block_and_keep_removes_one(make_ws, tmp_path):
    text = (
        "# M\n\n## Lantern (2026-10-02)\n\n"
        + SETUP
        + "\n## Again\n\n"
        + SETUP
        + "\n## Other\n\n- unrelated note about the garden shed\n"
    )
    make_ws({"MEMORY.md": text})
    root = tmp_path / "ws"
    result, items = _dups(root)
    (item,) = items
    assert item["kind"] == "block"
    assert [(r["line"], r["end_line"]) for r in item["refs"]] == [(5, 7), (11, 13)]
    ok = apply(result, [{"item": item["id"], "action": "keep", "keep": 1}])
    assert ok.applied
    assert (root / "MEMORY.md").read_text() == text.replace(
        "## Again\n\n" + SETUP, "## Again\n\n", 1
    )


def test_prose_lines_with_another_value_are_not_a_block(make_ws, tmp_path):
    other = (
        SETUP.replace("v2", "v3").replace("start", "login").replace("lantern/bin", "lantern/sbin")
    )
    text = "# M\n\n## Lantern\n\n" + SETUP + "\n## Beacon\n\n" + other
    make_ws({"MEMORY.md": text})
    root = tmp_path / "ws"
    _result, items = _dups(root)
    assert items == []


def test_a_labelled_prose_line_and_a_bullet_holding_the_same_value_are_one_fact(make_ws, tmp_path):
    text = "# M\n\n## 设备\n\n- 路由器账号：studio-hub-07（已绑定）\n\n## 发现\n\n**账号**：studio-hub-07（已绑定）\n"
    make_ws({"MEMORY.md": text})
    root = tmp_path / "ws"
    _result, items = _dups(root)
    assert [(i["kind"], [r["line"] for r in i["refs"]]) for i in items] == [
        ("restructured", [5, 9])
    ]
