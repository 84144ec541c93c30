"""Archived, duplicates and dormant decisions, byte for byte (docs/design.md §3)."""

from __future__ import annotations

import pytest
from decisions_helpers import NOW, decide, only, scan, text

from memreview.decisions import Decision, DecisionError, apply, check_decision
from memreview.decisions.state import load_state

FRAGMENT = {
    "id": "f1",
    "content": "每周日晚上主人会手动清一次浏览器缓存",
    "status": "archived",
    "last_seen": "2026-08-30",
    "theme": "习惯",
}


def test_archived_remove_deletes_every_matching_entry(make_ws):
    root = make_ws(
        {
            "MEMORY.md": (
                "# Memory\n"
                "- 每周日晚上主人会手动清一次浏览器缓存（习惯）（2026-08-30 自动沉淀）\n"
                "- keep this\n"
            ),
            "memory/prefs.md": (
                "# Prefs\n"
                "| 每周日晚上主人会手动清一次浏览器缓存 | 习惯 |\n"
                "- 每周日晚上主人会手动清一次浏览器缓存\n"
                "  with a continuation line\n"
                "- stays\n"
            ),
            "memory/knowledge/dreams.db": [FRAGMENT],
        }
    )
    assert len(only(scan(root), "archived")["matches"]) == 3
    assert decide(root, "archived", "remove").ok
    assert text(root, "MEMORY.md") == "# Memory\n- keep this\n"
    assert text(root, "memory/prefs.md") == "# Prefs\n- stays\n"


def test_archived_keep_hides_the_fragment_for_good(make_ws):
    root = make_ws(
        {
            "MEMORY.md": "# Memory\n- 每周日晚上主人会手动清一次浏览器缓存\n",
            "memory/knowledge/dreams.db": [FRAGMENT],
        }
    )
    outcome = decide(root, "archived", "keep")
    assert (
        outcome.ok
        and text(root, "MEMORY.md") == "# Memory\n- 每周日晚上主人会手动清一次浏览器缓存\n"
    )
    assert [h.until for h in load_state(root).hidden.values()] == [None]
    assert scan(root).queues["archived"] == []


GROUP = (
    "# Memory\n"
    "\n"
    "## Lessons\n"
    "- Galxe bounties need a day for review (2026-04-10)\n"
    "- something else\n"
    "- Galxe bounties need a day for review (2026-05-02)\n"
    "- Galxe bounties need a day for review（2026-06-01）\n"
)


def test_duplicates_keep_n_deletes_the_other_entries(make_ws):
    root = make_ws({"MEMORY.md": GROUP})
    assert decide(root, "duplicates", "keep", {"kind": "fingerprint"}, keep=2).ok
    assert text(root, "MEMORY.md") == (
        "# Memory\n"
        "\n"
        "## Lessons\n"
        "- something else\n"
        "- Galxe bounties need a day for review (2026-05-02)\n"
    )


def test_duplicates_keep_deletes_numbered_items_and_keeps_their_neighbours_lines(make_ws):
    root = make_ws(
        {
            "MEMORY.md": (
                "# Memory\n"
                "\n"
                "## Lessons\n"
                "1. Galxe bounties need a day for review (2026-04-10)\n"
                "2. something else\n"
                "   with a continuation line\n"
                "3) Galxe bounties need a day for review (2026-05-02)\n"
            )
        }
    )
    assert decide(root, "duplicates", "keep", {"kind": "fingerprint"}, keep=2).ok
    assert text(root, "MEMORY.md") == (
        "# Memory\n"
        "\n"
        "## Lessons\n"
        "2. something else\n"
        "   with a continuation line\n"
        "3) Galxe bounties need a day for review (2026-05-02)\n"
    )


def test_duplicates_merge_replaces_the_kept_entry_with_the_text(make_ws):
    root = make_ws({"MEMORY.md": GROUP})
    outcome = decide(
        root,
        "duplicates",
        "merge",
        {"kind": "fingerprint"},
        keep=3,
        text="- Galxe bounties need a day for review\n  (seen 3 times)\n",
    )
    assert outcome.ok, outcome
    assert text(root, "MEMORY.md") == (
        "# Memory\n"
        "\n"
        "## Lessons\n"
        "- something else\n"
        "- Galxe bounties need a day for review\n"
        "  (seen 3 times)\n"
    )


def test_keep_on_a_copy_removes_the_copy_in_the_other_file(make_ws):
    root = make_ws(
        {
            "MEMORY.md": "# Memory\n- Config lives in ~/.agent/config.toml, not in the repo\n",
            "memory/facts-tools.md": (
                "# Tools\n- Config lives in ~/.agent/config.toml, not in the repo\n- stays\n"
            ),
        }
    )
    item = only(scan(root), "duplicates", kind="exact")
    assert [r["file"] for r in item["refs"]] == ["MEMORY.md", "memory/facts-tools.md"]
    assert decide(root, "duplicates", "keep", {"kind": "exact"}, keep=1).ok
    assert (
        text(root, "MEMORY.md")
        == "# Memory\n- Config lives in ~/.agent/config.toml, not in the repo\n"
    )
    assert text(root, "memory/facts-tools.md") == "# Tools\n- stays\n"


BLOCK = (
    "- Pull main and run the smoke tests before tagging\n"
    "- Bump the version in pyproject.toml and the changelog\n"
    "- Tag as vX.Y.Z and push the tag, never the branch\n"
)


def test_keep_on_a_copied_block_removes_every_line_of_the_other_copy(make_ws):
    root = make_ws(
        {
            "MEMORY.md": "# Memory\n## Deploy\n" + BLOCK + "\n## Other\n- x\n",
            "memory/facts-deploy.md": "# Deploy\n- before\n\n## Copied\n" + BLOCK + "- after\n",
        }
    )
    item = only(scan(root), "duplicates", kind="block")
    assert [(r["file"], r["lines"]) for r in item["refs"]] == [
        ("MEMORY.md", [3, 4, 5]),
        ("memory/facts-deploy.md", [5, 6, 7]),
    ]
    assert decide(root, "duplicates", "keep", {"kind": "block"}, keep=1).ok
    assert text(root, "memory/facts-deploy.md") == "# Deploy\n- before\n\n## Copied\n- after\n"
    assert "Bump the version" in text(root, "MEMORY.md")


def test_merge_on_a_record_replaces_the_kept_record_lines_and_removes_the_copy(make_ws):
    record = (
        "### 2026-11-03 选择向量库\n- **时间**: 10:01\n- **结论**: 用 pgvector，不上独立向量库\n"
    )
    root = make_ws(
        {
            "MEMORY.md": "# M\n" + record,
            "memory/facts-decisions.md": "# 备份\n" + record + "- 其他\n",
        }
    )
    item = only(scan(root), "duplicates", kind="restructured")
    assert [r["file"] for r in item["refs"]] == ["MEMORY.md", "memory/facts-decisions.md"]
    outcome = decide(
        root,
        "duplicates",
        "merge",
        {"kind": "restructured"},
        keep=1,
        text="- 2026-11-03 10:01 选 pgvector\n",
    )
    assert outcome.ok, outcome
    assert (
        text(root, "MEMORY.md")
        == "# M\n### 2026-11-03 选择向量库\n- 2026-11-03 10:01 选 pgvector\n"
    )
    assert text(root, "memory/facts-decisions.md") == "# 备份\n### 2026-11-03 选择向量库\n- 其他\n"


CHRONICLE = (
    "# Memory\n"
    "\n"
    "### 编年史\n"
    "| 日期 | 事件 | 备注 |\n"
    "|---|---|---|\n"
    "| 2026-10-14 | dreaming 断线恢复 | |\n"
    "| 2026-10-14 | 补跑两晚；dreaming 断线恢复 | 主人在场 |\n"
    "| 2026-10-15 | 其他 | |\n"
)


def test_chronicle_merge_without_text_uses_the_proposed_merge(make_ws):
    root = make_ws({"MEMORY.md": CHRONICLE})
    item = only(scan(root), "duplicates", kind="chronicle")
    assert item["merged"] == "| 2026-10-14 | 补跑两晚；dreaming 断线恢复 | 主人在场 |"
    assert decide(root, "duplicates", "merge", {"kind": "chronicle"}).ok
    assert text(root, "MEMORY.md") == CHRONICLE.replace(
        "| 2026-10-14 | dreaming 断线恢复 | |\n", ""
    )


def test_duplicates_not_duplicate_hides_the_group_for_good(make_ws):
    root = make_ws({"MEMORY.md": GROUP})
    assert decide(root, "duplicates", "not-duplicate", {"kind": "fingerprint"}).ok
    assert text(root, "MEMORY.md") == GROUP
    assert scan(root).queues["duplicates"] == []


PROJECTS = {
    "NOW.md": (
        "# NOW\r\n"
        "\r\n"
        "**待办**:\r\n"
        "- [ ] first (2026-11-27)\r\n"
        "  detail\r\n"
        "- [x] done (2026-11-08)\r\n"
        "\r\n"
        "**进行中**:\r\n"
        "- something\r\n"
    ),
    "memory/projects/job-radar.md": (
        "# 职位雷达\n\nStatus: active\nAdded: 2026-05-01\n\n## Notes\n- scraping\n"
    ),
    "memory/projects/diary.md": "# 深夜日记\n\nAdded: 2026-06-01\n- write\n",
    "MEMORY.md": (
        "# Memory\n"
        "\n"
        "## [PROJECT:wiki]\n"
        "Added: 2026-07-30\n"
        "Summary: Obsidian wiki\n"
        "Source: owner\n"
        "---\n"
        "- airdrop notes <!-- project: zora -->\n"
    ),
}


def test_dormant_revive_adds_a_todo_to_now_md_and_snoozes_the_project(make_ws):
    root = make_ws(PROJECTS)
    outcome = decide(root, "dormant", "revive", {"project": "diary"})
    assert outcome.ok, outcome
    assert text(root, "NOW.md") == PROJECTS["NOW.md"].replace(
        "- [x] done (2026-11-08)\r\n",
        "- [x] done (2026-11-08)\r\n- [ ] Revisit 深夜日记 (2026-11-29)\r\n",
    )
    (hidden,) = load_state(root).hidden.values()
    assert str(hidden.until) == "2026-12-27"


def test_dormant_revive_creates_now_md_when_missing(make_ws):
    files = {k: v for k, v in PROJECTS.items() if k != "NOW.md"}
    root = make_ws(files)
    result = scan(root)
    ids = [only(result, "dormant", project=p)["id"] for p in ("diary", "wiki")]
    assert apply(result, [{"item": i, "action": "revive"} for i in ids], now=NOW).ok
    assert text(root, "NOW.md") == (
        "# NOW\n\n**待办**:\n- [ ] Revisit 深夜日记 (2026-11-29)\n"
        "- [ ] Revisit Obsidian wiki (2026-11-29)\n"
    )


def test_dormant_revive_adds_the_block_to_a_now_md_without_one(make_ws):
    root = make_ws({**PROJECTS, "NOW.md": "# NOW\n\nupdated today"})
    assert decide(root, "dormant", "revive", {"project": "diary"}).ok
    assert text(root, "NOW.md") == (
        "# NOW\n\nupdated today\n\n**待办**:\n- [ ] Revisit 深夜日记 (2026-11-29)\n"
    )


def test_dormant_revive_goes_right_after_an_empty_todo_heading(make_ws):
    root = make_ws({**PROJECTS, "NOW.md": "# NOW\n\n## Todo\n\n## Doing\n- x\n"})
    assert decide(root, "dormant", "revive", {"project": "diary"}).ok
    assert text(root, "NOW.md") == (
        "# NOW\n\n## Todo\n- [ ] Revisit 深夜日记 (2026-11-29)\n\n## Doing\n- x\n"
    )


def test_dormant_archive_replaces_the_status_line_of_the_project_file(make_ws):
    root = make_ws(PROJECTS)
    assert decide(root, "dormant", "archive", {"project": "job-radar"}).ok
    assert text(root, "memory/projects/job-radar.md") == (
        "# 职位雷达\n\nStatus: archived (2026-11-29)\nAdded: 2026-05-01\n\n## Notes\n- scraping\n"
    )
    assert [p["project"] for p in scan(root).all_queues["dormant"]].count("job-radar") == 0


def test_dormant_done_inserts_a_status_line_after_the_title(make_ws):
    root = make_ws(PROJECTS)
    assert decide(root, "dormant", "done", {"project": "diary"}).ok
    assert text(root, "memory/projects/diary.md") == (
        "# 深夜日记\nStatus: done (2026-11-29)\n\nAdded: 2026-06-01\n- write\n"
    )


@pytest.mark.parametrize(
    "before, after",
    [
        ("**Status:** Planned", "**Status:** done (2026-11-29)"),
        ("**Status**: Planned", "**Status**: done (2026-11-29)"),
        ("- **Status:** Planned", "- **Status:** done (2026-11-29)"),
        ("状态：进行中", "状态：已完成（2026-11-29）"),
        ("**状态**： 进行中", "**状态**： 已完成（2026-11-29）"),
    ],
)
def test_dormant_done_rewrites_the_status_line_in_place_in_its_own_form(make_ws, before, after):
    page = "# Radar\n\n{}\nAdded: 2026-05-01\n\n## Notes\n- Status: of the parts order\n"
    root = make_ws({"memory/projects/radar/main.md": page.format(before)})
    assert decide(root, "dormant", "done", {"project": "radar"}).ok
    assert text(root, "memory/projects/radar/main.md") == page.format(after)


def test_dormant_archive_rewrites_a_front_matter_status(make_ws):
    page = "---\nstatus: {}\ntags: [home]\n---\n# Radar\n\n- wiring\n"
    root = make_ws({"memory/projects/radar.md": page.format("active")})
    assert decide(root, "dormant", "archive", {"project": "radar"}).ok
    assert text(root, "memory/projects/radar.md") == page.format("archived (2026-11-29)")


def test_dormant_done_on_a_project_anchor_sets_its_status_metadata(make_ws):
    root = make_ws(PROJECTS)
    assert decide(root, "dormant", "done", {"project": "wiki"}).ok
    assert text(root, "MEMORY.md") == PROJECTS["MEMORY.md"].replace(
        "Source: owner\n", "Source: owner\nStatus: done (2026-11-29)\n"
    )


def test_dormant_archive_of_a_marker_only_project_is_refused_with_a_reason(make_ws):
    root = make_ws(PROJECTS)
    outcome = decide(root, "dormant", "archive", {"project": "zora"})
    assert outcome.exit_code == 1
    assert "only known from <!-- project: --> markers" in outcome.failures[0].reason
    assert text(root, "MEMORY.md") == PROJECTS["MEMORY.md"]


def test_dormant_archive_of_a_marker_only_project_is_refused_when_it_is_decided(make_ws):
    # the app's key says why at once (and a decisions file holding it is refused whole),
    # rather than a decision that is staged, written and then fails
    root = make_ws(PROJECTS)
    item = only(scan(root), "dormant", project="zora")
    for action in ("archive", "done"):
        with pytest.raises(DecisionError, match="only known from <!-- project: --> markers"):
            check_decision("dormant", item, Decision(item=item["id"], action=action))
    for action in ("snooze", "revive", "defer"):
        check_decision("dormant", item, Decision(item=item["id"], action=action))


def test_dormant_snooze_hides_the_project_for_28_days(make_ws):
    root = make_ws(PROJECTS)
    assert decide(root, "dormant", "snooze", {"project": "diary"}).ok
    (hidden,) = load_state(root).hidden.values()
    assert (str(hidden.until), hidden.reason) == ("2026-12-27", "snoozed")
    assert text(root, "NOW.md") == PROJECTS["NOW.md"]
