"""Skill candidates: solidify, create-skill, skip, and the candidates file left as it was."""

from __future__ import annotations

import json

import pytest
from decisions_helpers import NOW, decide, only, scan, text

from memreview.cli import main
from memreview.decisions import Decision, DecisionError, apply, skill_slug

CANDIDATES = (
    "{\n"
    '    "updated_at": "2026-11-28T03:06:02+08:00",\n'
    '    "candidates": [\n'
    '        {"theme": "日报推送", "content": "每天 07:00 前推日报", "count": 6},\n'
    '        {"theme": "Windows UTF-8 启动", "content": "先设 PYTHONUTF8=1", "count": 4},\n'
    '        {"theme": "Galxe 截止", "content": "当天做完", "count": 3, "extra": ["é"]}\n'
    "    ],\n"
    '    "note": "kept"\n'
    "}\n"
)

MEMORY = (
    "# Memory\n"
    "\n"
    "## Identity\n"
    "- name: 小满\n"
    "\n"
    "## Rules\n"
    "- rule one\n"
    "- rule two\n"
    "  continued\n"
    "\n"
    "## Later\n"
    "- other\n"
)


def test_solidify_inserts_after_the_last_entry_of_the_rules_section(make_ws):
    root = make_ws({"MEMORY.md": MEMORY, "memory/skill_candidates.json": CANDIDATES})
    assert decide(root, "skills", "solidify", {"theme": "日报推送"}).ok
    assert text(root, "MEMORY.md") == MEMORY.replace(
        "  continued\n", "  continued\n- 每天 07:00 前推日报\n"
    )
    # the candidate's object leaves with its comma; every other byte stays
    assert text(root, "memory/skill_candidates.json") == CANDIDATES.replace(
        '        {"theme": "日报推送", "content": "每天 07:00 前推日报", "count": 6},\n', ""
    )


def test_solidify_goes_directly_under_a_rules_heading_without_entries(make_ws):
    memory = "# Memory\n\n## 规则\n\n## Other\n- x\n"
    root = make_ws({"MEMORY.md": memory, "memory/skill_candidates.json": CANDIDATES})
    assert decide(root, "skills", "solidify", {"theme": "Galxe 截止"}).ok
    assert text(root, "MEMORY.md") == "# Memory\n\n## 规则\n- 当天做完\n\n## Other\n- x\n"
    assert text(root, "memory/skill_candidates.json") == CANDIDATES.replace(
        '},\n        {"theme": "Galxe 截止", "content": "当天做完", "count": 3, "extra": ["é"]}',
        "}",
    )


def test_solidify_without_a_rules_heading_appends_one(make_ws):
    root = make_ws({"MEMORY.md": "# Memory\n- loose", "memory/skill_candidates.json": CANDIDATES})
    result = scan(root)
    ids = [only(result, "skills", theme=t)["id"] for t in ("日报推送", "Galxe 截止")]
    outcome = apply(result, [{"item": i, "action": "solidify"} for i in ids], now=NOW)
    assert outcome.ok, outcome
    assert text(root, "MEMORY.md") == (
        "# Memory\n- loose\n\n## Rules\n- 每天 07:00 前推日报\n- 当天做完\n"
    )
    doc = json.loads(text(root, "memory/skill_candidates.json"))
    assert [c["theme"] for c in doc["candidates"]] == ["Windows UTF-8 启动"]
    assert list(doc) == ["updated_at", "candidates", "note"]


def test_the_first_rules_heading_of_the_root_memory_file_is_used(make_ws):
    root = make_ws(
        {
            "MEMORY.md": "# M\n\n## Preferences\n- p\n\n## Rules\n- r\n",
            "memory/MEMORY.md": "# Other\n\n## Rules\n- x\n",
            "memory/skill_candidates.json": CANDIDATES,
        }
    )
    assert decide(root, "skills", "solidify", {"theme": "日报推送"}).ok
    assert (
        text(root, "MEMORY.md")
        == "# M\n\n## Preferences\n- p\n- 每天 07:00 前推日报\n\n## Rules\n- r\n"
    )
    assert text(root, "memory/MEMORY.md") == "# Other\n\n## Rules\n- x\n"


def test_create_skill_writes_skill_md_with_front_matter(make_ws):
    root = make_ws({"memory/skill_candidates.json": CANDIDATES})
    assert decide(root, "skills", "create-skill", {"theme": "Windows UTF-8 启动"}).ok
    assert text(root, "skills/windows-utf-8-qidong/SKILL.md") == (
        "---\nname: windows-utf-8-qidong\ndescription: Windows UTF-8 启动\n---\n\n"
        "先设 PYTHONUTF8=1\n"
    )
    doc = json.loads(text(root, "memory/skill_candidates.json"))
    assert len(doc["candidates"]) == 2


def test_create_skill_refuses_to_overwrite_an_existing_skill(make_ws):
    root = make_ws(
        {
            "memory/skill_candidates.json": CANDIDATES,
            "skills/windows-utf-8-qidong/SKILL.md": "mine\n",
        }
    )
    outcome = decide(root, "skills", "create-skill", {"theme": "Windows UTF-8 启动"})
    assert outcome.exit_code == 1
    assert "already exists" in outcome.conflicts[0].reason
    assert text(root, "skills/windows-utf-8-qidong/SKILL.md") == "mine\n"
    assert text(root, "memory/skill_candidates.json") == CANDIDATES  # not half-done


def test_skill_slug_keeps_ascii_words_and_spells_chinese_in_pinyin():
    assert skill_slug("Windows UTF-8 启动") == "windows-utf-8-qidong"
    assert skill_slug("  Galxe: deadline!! check ") == "galxe-deadline-check"
    assert skill_slug("每日日报推送") == "meiri-ribao-tuisong"
    assert skill_slug("重庆银行") == "chongqing-yinhang"  # the dictionary's words, read right
    assert skill_slug("绿色") == "lvse"  # ü as v: ASCII only
    long = skill_slug("任务" * 60)
    assert len(long) <= 64 and not long.endswith("-")


def test_skill_slug_falls_back_to_a_hash_when_nothing_is_readable():
    slug = skill_slug("ひらがな！")
    assert slug.startswith("skill-") and len(slug) == 14
    assert all(c in "0123456789abcdef" for c in slug[6:])


def test_description_that_is_not_plain_yaml_is_quoted(make_ws):
    root = make_ws(
        {
            "memory/skill_candidates.json": {
                "candidates": [{"theme": "Deploy: step #1", "content": "do it"}]
            }
        }
    )
    assert decide(root, "skills", "create-skill").ok
    assert text(root, "skills/deploy-step-1/SKILL.md") == (
        "---\nname: deploy-step-1\ndescription: 'Deploy: step #1'\n---\n\ndo it\n"
    )


def test_skip_removes_only_the_candidate(make_ws):
    root = make_ws({"MEMORY.md": MEMORY, "memory/skill_candidates.json": CANDIDATES})
    assert decide(root, "skills", "skip", {"theme": "Windows UTF-8 启动"}).ok
    assert text(root, "MEMORY.md") == MEMORY
    assert text(root, "memory/skill_candidates.json") == CANDIDATES.replace(
        '        {"theme": "Windows UTF-8 启动", "content": "先设 PYTHONUTF8=1", "count": 4},\n', ""
    )


def test_removing_the_last_candidate_leaves_an_empty_list(make_ws):
    data = '{\n  "candidates": [\n    {"theme": "t", "content": "c"}\n  ],\n  "x": 1\n}'
    root = make_ws({"memory/skill_candidates.json": data})
    assert decide(root, "skills", "skip").ok
    assert text(root, "memory/skill_candidates.json") == '{\n  "candidates": [],\n  "x": 1\n}'


def test_json_that_cannot_be_cut_cleanly_is_rewritten_in_its_own_style(make_ws):
    # two "candidates" keys: JSON readers take the last, a textual cut can't be trusted
    data = (
        '{\n\t"candidates": [],\n\t"candidates": [\n\t\t{"theme": "t", "content": "c"},\n'
        '\t\t{"theme": "ü", "content": "d"}\n\t]\n}\n'
    )
    root = make_ws({"memory/skill_candidates.json": data})
    assert decide(root, "skills", "skip", {"theme": "t"}).ok
    assert text(root, "memory/skill_candidates.json") == (
        '{\n\t"candidates": [\n\t\t{\n\t\t\t"theme": "ü",\n\t\t\t"content": "d"\n\t\t}\n\t]\n}\n'
    )


def test_the_scan_names_each_candidates_folder(make_ws):
    root = make_ws({"memory/skill_candidates.json": CANDIDATES})
    assert only(scan(root), "skills", theme="日报推送")["slug"] == "ribao-tuisong"


def test_a_chinese_theme_gets_a_pinyin_folder_not_a_hash(make_ws):
    root = make_ws({"memory/skill_candidates.json": CANDIDATES})
    assert decide(root, "skills", "create-skill", {"theme": "日报推送"}).ok
    assert text(root, "skills/ribao-tuisong/SKILL.md").startswith("---\nname: ribao-tuisong\n")


def test_a_decisions_file_may_choose_the_folder(make_ws):
    root = make_ws({"memory/skill_candidates.json": CANDIDATES})
    outcome = decide(root, "skills", "create-skill", {"theme": "日报推送"}, slug="daily-digest")
    assert outcome.ok, outcome
    assert text(root, "skills/daily-digest/SKILL.md").startswith("---\nname: daily-digest\n")
    assert not (root / "skills/ribao-tuisong").exists()


@pytest.mark.parametrize(
    "slug",
    ["../outside", "a/b", "/etc", "Daily", "daily digest", "-daily", "a--b", "", "x" * 65, 7],
)
def test_a_folder_name_that_could_leave_the_skills_folder_is_refused(slug):
    raw = {"item": "k-1", "action": "create-skill", "slug": slug}
    with pytest.raises(DecisionError, match="can't name a skill's folder: use a-z, 0-9"):
        Decision.from_dict(raw)


def test_a_decisions_file_with_a_path_trick_is_refused_whole(make_ws, tmp_path, capsys):
    root = make_ws({"memory/skill_candidates.json": CANDIDATES})
    item = only(scan(root), "skills", theme="日报推送")["id"]
    other = only(scan(root), "skills", theme="Galxe 截止")["id"]
    f = tmp_path / "decisions.yaml"
    f.write_text(
        f"- {{item: {other}, action: skip}}\n"
        f"- {{item: {item}, action: create-skill, slug: ../../outside}}\n"
    )
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert main(["apply", str(root), "--decisions", str(f), "--today", "2026-11-29"]) == 2
    err = capsys.readouterr().err
    assert "slug '../../outside' can't name a skill's folder" in err and "nothing written" in err
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
    assert not (root.parent / "outside").exists()


def test_a_slug_goes_only_with_create_skill(make_ws):
    root = make_ws({"memory/skill_candidates.json": CANDIDATES})
    outcome = decide(root, "skills", "solidify", {"theme": "日报推送"}, slug="daily")
    assert not outcome.ok
    assert "'slug' only goes with skills create-skill" in outcome.failures[0].reason
