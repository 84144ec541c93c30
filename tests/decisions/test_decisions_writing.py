"""Writing safely: composed rewrites, encodings, files changed since the scan, dry runs."""

from __future__ import annotations

import json
import os

from decisions_helpers import NOW, decide, only, scan, snapshot, text

from memreview.decisions import Decision, apply, load_pending, preview
from memreview.store import batches

MIXED = (
    "# Memory\n"
    "\n"
    "## Rules\n"
    "- rule one\n"
    "\n"
    "## Lessons\n"
    "- bounties need a day for review (2026-04-10)\n"
    "- bounties need a day for review (2026-05-02)\n"
    "- 每周日晚上主人会手动清一次浏览器缓存\n"
    "\n"
    "## [RULE:port-a]\n"
    "Added: 2026-03-01\n"
    "Summary: port 1\n"
    "CONFLICTS-WITH: [[port-b]]\n"
    "---\n"
    "\n"
    "## [FACT:port-b]\n"
    "Added: 2026-05-01\n"
    "Summary: port 2\n"
    "---\n"
)
MIXED_FILES = {
    "MEMORY.md": MIXED,
    "memory/recall_log.jsonl": "",
    "memory/skill_candidates.json": {"candidates": [{"theme": "t", "content": "rule two"}]},
    "memory/knowledge/dreams.db": [
        {
            "id": "f1",
            "content": "每周日晚上主人会手动清一次浏览器缓存",
            "status": "archived",
            "last_seen": "2026-08-30",
        },
    ],
}


def _all_decisions(result):
    return [
        {"item": only(result, "contradictions")["id"], "action": "keep-both"},
        {"item": only(result, "duplicates")["id"], "action": "keep", "keep": 1},
        {"item": only(result, "skills")["id"], "action": "solidify"},
        {"item": only(result, "archived")["id"], "action": "remove"},
        {"item": only(result, "demotion", title="[FACT:port-b]")["id"], "action": "pin"},
    ]


def test_several_decisions_on_one_file_compose_into_one_rewrite(make_ws):
    root = make_ws(MIXED_FILES)
    result = scan(root)
    outcome = apply(result, _all_decisions(result), now=NOW)
    assert outcome.ok, outcome
    assert text(root, "MEMORY.md") == (
        "# Memory\n"
        "\n"
        "## Rules\n"
        "- rule one\n"
        "- rule two\n"
        "\n"
        "## Lessons\n"
        "- bounties need a day for review (2026-04-10)\n"
        "\n"
        "## [RULE:port-a]\n"
        "Added: 2026-03-01\n"
        "Summary: port 1\n"
        "SEE-ALSO: [[port-b]]\n"
        "---\n"
        "\n"
        "## [FACT:port-b]\n"
        "Added: 2026-05-01\n"
        "Summary: port 2\n"
        "SEE-ALSO: [[port-a]]\n"  # metadata is added in the order of the decisions
        "Importance: high\n"
        "---\n"
    )
    (batch,) = batches(root)
    memory_lines = [f for f in batch.files if f.file == "MEMORY.md"]
    assert len(memory_lines) == 1 and memory_lines[0].written  # one rewrite, one backup


def test_a_gbk_crlf_file_changes_only_the_lines_decided(make_ws):
    def gbk(s: str) -> bytes:
        return s.encode("gb18030")

    head = "# 记忆\r\n\r\n## 规则\r\n- 所有日志只能追加\r\n\r\n## 教训\r\n"
    first = "- 网关重启要主人确认并在场（2026-05-02）\r\n"
    middle = "- 技术社区每天最多发三篇\r\n"
    second = "- 网关重启要主人确认并在场（2026-06-01）\r\n"
    tail = "- 结尾没有换行"
    root = make_ws(
        {
            "MEMORY.md": gbk(head + first + middle + second + tail),
            "memory/skill_candidates.json": {
                "candidates": [{"theme": "日报", "content": "早上推日报"}]
            },
        }
    )
    result = scan(root)
    decisions = [
        {
            "item": only(result, "duplicates")["id"],
            "action": "merge",
            "keep": 1,
            "text": "- 网关重启前要主人确认并在场",
        },
        {"item": only(result, "skills")["id"], "action": "solidify"},
    ]
    assert apply(result, decisions, now=NOW).ok
    expected = gbk(
        head.replace("- 所有日志只能追加\r\n", "- 所有日志只能追加\r\n- 早上推日报\r\n")
        + "- 网关重启前要主人确认并在场\r\n"
        + middle
        + tail
    )
    assert (root / "MEMORY.md").read_bytes() == expected


def test_a_character_the_encoding_cannot_hold_fails_that_decision_only(make_ws):
    # invalid UTF-8 that isn't GBK either: its bytes can't be written into a UTF-8 archive
    memory = (
        b"# M\n\n## [FACT:blob]\nAdded: 2026-01-01\nSummary: raw \xff\xfe bytes\n---\n\n"
        b"## [FACT:other]\nAdded: 2026-01-02\nSummary: fine\n---\n"
    )
    root = make_ws({"MEMORY.md": memory, "memory/recall_log.jsonl": ""})
    result = scan(root)
    decisions = [
        {"item": only(result, "demotion", title="[FACT:blob]")["id"], "action": "approve"},
        {"item": only(result, "demotion", title="[FACT:other]")["id"], "action": "pin"},
    ]
    outcome = apply(result, decisions, now=NOW)
    assert outcome.exit_code == 1
    (failure,) = outcome.failures
    assert failure.decision.item == decisions[0]["item"]
    assert "cannot be written in this file's encoding" in failure.reason
    assert (root / "MEMORY.md").read_bytes() == memory.replace(
        b"Summary: fine\n", b"Summary: fine\nImportance: high\n"
    )
    assert not (root / "memory/archive/demoted.md").exists()
    assert [d.item for d in load_pending(root)[0]] == [decisions[0]["item"]]


def test_lines_appended_after_the_scan_survive_the_apply(make_ws):
    root = make_ws(MIXED_FILES)
    result = scan(root)
    with open(root / "MEMORY.md", "ab") as f:
        f.write(b"- appended by the agent meanwhile\n")
    with open(root / "memory/skill_candidates.json", "r+b") as f:
        doc = json.load(f)
        doc["candidates"].append({"theme": "new", "content": "fresh"})
        f.seek(0)
        f.write(json.dumps(doc, indent=2).encode())
    outcome = apply(result, _all_decisions(result), now=NOW)
    assert outcome.ok, outcome
    assert text(root, "MEMORY.md").endswith("---\n- appended by the agent meanwhile\n")
    assert "- rule two\n" in text(root, "MEMORY.md")
    doc = json.loads(text(root, "memory/skill_candidates.json"))
    assert doc["candidates"] == [{"theme": "new", "content": "fresh"}]


def test_a_target_deleted_after_the_scan_is_a_conflict_that_stays_pending(make_ws):
    root = make_ws(MIXED_FILES)
    result = scan(root)
    memory = text(root, "MEMORY.md")
    (root / "MEMORY.md").write_bytes(
        memory.replace("- bounties need a day for review (2026-05-02)\n", "").encode()
    )
    decisions = _all_decisions(result)
    outcome = apply(result, decisions, now=NOW)
    assert outcome.exit_code == 1
    (conflict,) = outcome.conflicts
    assert conflict.decision.item == decisions[1]["item"]
    assert "is gone from MEMORY.md" in conflict.reason
    assert len(outcome.applied) == 4
    assert "- rule two\n" in text(root, "MEMORY.md")
    assert "- bounties need a day for review (2026-04-10)\n" in text(root, "MEMORY.md")
    pending, warnings = load_pending(root)
    assert pending == [Decision(decisions[1]["item"], "keep", keep=1, queue="duplicates")]
    assert not warnings


def test_an_entry_with_an_identical_twin_added_since_is_ambiguous(make_ws):
    root = make_ws(MIXED_FILES)
    result = scan(root)
    with open(root / "MEMORY.md", "ab") as f:
        f.write("- 每周日晚上主人会手动清一次浏览器缓存\n".encode())
    outcome = apply(result, [{"item": only(result, "archived")["id"], "action": "remove"}], now=NOW)
    assert "ambiguous" in outcome.conflicts[0].reason


def test_a_decision_spanning_files_is_never_half_done(make_ws):
    root = make_ws(
        {
            "MEMORY.md": "# M\n\n## [FACT:old]\nAdded: 2026-01-01\nSummary: old\n---\n",
            "memory/new.md": "# N\n\n## [FACT:new]\nAdded: 2026-06-01\nSummary: new\n---\n",
            "memory/review/proposals.jsonl": [
                {"id": "p-1", "relation": "supersedes", "new": "new", "old": "old"}
            ],
        }
    )
    result = scan(root)
    (root / "memory/new.md").write_bytes(
        b"# N\n\n## [FACT:new]\nAdded: 2026-06-01\nSummary: edited\n---\n"
    )
    before = snapshot(root)
    outcome = apply(
        result, [{"item": only(result, "supersede")["id"], "action": "approve"}], now=NOW
    )
    assert outcome.exit_code == 1 and "anchor new is gone" in outcome.conflicts[0].reason
    assert snapshot(root) == before  # the old anchor was not moved, no verdict written


def test_dry_run_and_preview_write_nothing_at_all(make_ws):
    root = make_ws(MIXED_FILES)
    result = scan(root)
    before = snapshot(root, skip_private=False)
    outcome = apply(result, _all_decisions(result), dry_run=True, now=NOW)
    assert outcome.ok and "+- rule two" in outcome.diff
    diffs = preview(result, _all_decisions(result))
    assert set(diffs) == {"MEMORY.md", "memory/skill_candidates.json", ".memreview/state.yaml"}
    assert snapshot(root, skip_private=False) == before
    assert not (root / ".memreview").exists()


def test_a_held_pipeline_lock_writes_nothing_and_keeps_the_batch_pending(make_ws):
    stamp = f"{os.getppid()}:1764400000000"  # an OpenClaw lock of a running process
    root = make_ws({**MIXED_FILES, "memory/.dreams/short-term-promotion.lock": stamp})
    before = snapshot(root)
    result = scan(root)
    outcome = apply(result, _all_decisions(result), now=NOW, lock_wait=0.1)
    assert outcome.exit_code == 1 and not outcome.applied
    assert "held" in outcome.failures[0].reason
    assert snapshot(root) == before
    assert len(load_pending(root)[0]) == 5


def test_state_only_decisions_are_journaled_so_undo_can_take_them_back(make_ws):
    from memreview.decisions import undo

    root = make_ws(MIXED_FILES)
    outcome = decide(root, "duplicates", "not-duplicate")
    assert outcome.ok and outcome.batch and outcome.hidden
    assert scan(root).queues["duplicates"] == []
    assert undo(root).unhidden == outcome.hidden
    assert len(scan(root).queues["duplicates"]) == 1
