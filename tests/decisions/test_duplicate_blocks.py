"""A copied block is one item; ``keep`` leaves exactly one copy of it, headings and all
(docs/design.md §2, §3)."""

from __future__ import annotations

from decisions_helpers import NOW, decide, only, scan, snapshot, text

from memreview.decisions import apply, undo

OLD_MEMORY = (
    "# MEMORY.md\n"
    "\n"
    "## Owner\n"
    "- Name: Dana Whitfield, works from Lisbon, prefers replies in English\n"
    "- Calendar lives in Fastmail, never suggest Google Calendar\n"
    "- Morning standup at 09:30 Lisbon time, keep summaries under ten lines\n"
    "\n"
    "## Infrastructure\n"
    "- Home server is a NUC at 192.168.4.20 running Proxmox 8.2\n"
    "- Backups go to the Hetzner storage box every night at 03:00\n"
    "- The VPN endpoint is wg.danaw.net on port 51820\n"
)
NEW_PART = "\n## Recent\n- Moved the photo library to the NAS in November\n"
# a merged MEMORY.md: the new one, then the older one pasted in whole, three times
MERGED = OLD_MEMORY + NEW_PART + "\n" + OLD_MEMORY + "\n" + OLD_MEMORY + "\n" + OLD_MEMORY


def test_a_whole_memory_pasted_in_three_times_is_one_block_item(make_ws):
    root = make_ws({"MEMORY.md": MERGED})
    (item,) = scan(root).queues["duplicates"]
    assert item["kind"] == "block"
    assert [(r["line"], r["end_line"]) for r in item["refs"]] == [
        (1, 11),
        (16, 26),
        (28, 38),
        (40, 50),
    ]
    assert item["refs"][1]["headings"] == [16, 18, 23]


def test_keep_on_a_pasted_memory_leaves_exactly_one_copy_and_undo_restores_it(make_ws):
    root = make_ws({"MEMORY.md": MERGED})
    before = snapshot(root)
    result = scan(root)
    item = only(result, "duplicates", kind="block")
    dry = apply(result, [{"item": item["id"], "action": "keep", "keep": 1}], dry_run=True, now=NOW)
    assert dry.ok and dry.diff.count("-# MEMORY.md") == 3
    assert dry.diff.count("-- The VPN endpoint is wg.danaw.net on port 51820") == 3
    assert snapshot(root) == before
    assert decide(root, "duplicates", "keep", {"kind": "block"}, keep=1).ok
    assert text(root, "MEMORY.md") == OLD_MEMORY + NEW_PART
    assert scan(root).queues["duplicates"] == []
    undo(root)
    assert snapshot(root) == before


def test_keep_on_a_later_copy_removes_the_first_one_from_the_top_of_the_file(make_ws):
    root = make_ws({"MEMORY.md": OLD_MEMORY + NEW_PART + "\n" + OLD_MEMORY})
    assert decide(root, "duplicates", "keep", {"kind": "block"}, keep=2).ok
    assert text(root, "MEMORY.md") == "\n" + NEW_PART.lstrip("\n") + "\n" + OLD_MEMORY


SECTION = (
    "## 部署\n"
    "- 发版前先拉 main 跑冒烟测试，全部通过再打标签\n"
    "- 版本号写在 pyproject.toml 和 CHANGELOG 两处，一起改\n"
    "- 只推标签 vX.Y.Z，从不直接推分支\n"
)


def test_a_copied_section_goes_with_its_heading_when_nothing_else_is_under_it(make_ws):
    root = make_ws(
        {
            "MEMORY.md": "# 记忆\n\n" + SECTION + "\n## 其他\n- 周五不发版\n",
            "memory/facts-deploy.md": "# 部署笔记\n- 测试机在 10.0.3.7\n\n" + SECTION,
        }
    )
    item = only(scan(root), "duplicates", kind="block")
    assert [r.get("headings") for r in item["refs"]] == [[3], [4]]
    assert decide(root, "duplicates", "keep", {"kind": "block"}, keep=1).ok
    assert text(root, "memory/facts-deploy.md") == "# 部署笔记\n- 测试机在 10.0.3.7\n"
    assert SECTION in text(root, "MEMORY.md")


def test_a_heading_whose_section_goes_on_beyond_the_copy_stays(make_ws):
    root = make_ws(
        {
            "MEMORY.md": "# 记忆\n\n" + SECTION,
            "memory/facts-deploy.md": "# 部署笔记\n\n" + SECTION + "- 回滚用上一个标签重新部署\n",
        }
    )
    item = only(scan(root), "duplicates", kind="block")
    assert [r.get("headings") for r in item["refs"]] == [[3], None]
    assert decide(root, "duplicates", "keep", {"kind": "block"}, keep=1).ok
    assert (
        text(root, "memory/facts-deploy.md")
        == "# 部署笔记\n\n## 部署\n- 回滚用上一个标签重新部署\n"
    )
