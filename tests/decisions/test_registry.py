"""The queue table: every queue declared once, and a new one seen by the scan, the planner
and the report without touching them."""

from __future__ import annotations

import json
from datetime import date

from toy_queue import TOY_ANCHOR, register

from memreview.decisions import apply, build_plan, registry
from memreview.decisions.unit import MEMBER, MERGE
from memreview.report import weekly_report
from memreview.scan import scan_workspace

TODAY = date(2026, 11, 29)
QUEUES = (
    "contradictions",
    "supersede",
    "skills",
    "archived",
    "duplicates",
    "dormant",
    "demotion",
    "promotions",
    "secrets",
)


def test_the_table_holds_the_queues_in_order_each_on_known_keys():
    assert registry.queue_names() == QUEUES
    known = {v.name for v in registry.verbs()} | {MEMBER, MERGE}
    for unit in registry.units():
        assert registry.unit(unit.name) is unit
        assert {a.verb for a in unit.acts} <= known, unit.name
        assert unit.actions[-1] == "defer", unit.name
    assert registry.unit("toy") is None


def test_a_queue_added_to_the_table_is_scanned_and_counted(write_files, tmp_path, monkeypatch):
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# Memory\n\n" + TOY_ANCHOR})
    before = scan_workspace(root, TODAY)
    assert "toy" not in before.queues
    register(monkeypatch)
    result = scan_workspace(root, TODAY)
    [item] = result.queues["toy"]
    assert item["anchor"]["anchor"] == "toy-one"
    data = json.loads(json.dumps(result.to_json()))
    assert list(data["counts"]) == [*QUEUES, "toy"] and data["counts"]["toy"] == 1
    assert "toy" not in data["missing"]
    empty = write_files(tmp_path / "empty", {"MEMORY.md": "# Memory\n"})
    assert scan_workspace(empty, TODAY).missing["toy"] == "no Toy: yes anchors"


def test_a_queue_added_to_the_table_is_planned_and_written_by_its_own_builder(
    write_files, tmp_path, monkeypatch
):
    register(monkeypatch)
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# Memory\n\n" + TOY_ANCHOR})
    result = scan_workspace(root, TODAY)
    [item] = result.queues["toy"]
    plan = build_plan(result, [{"item": item["id"], "action": "approve"}])
    [(_d, reason)] = plan.invalid
    assert reason == "action 'approve' is not valid for a toy item; valid: tag, defer"
    plan = build_plan(result, [{"item": item["id"], "action": "tag", "keep": 1}])
    assert "'keep' only goes with contradictions keep-one; duplicates keep or merge" in plan.invalid[0][1]
    plan = build_plan(result, [{"item": item["id"], "action": "tag"}])
    assert not plan.invalid and plan.decisions[0].queue == "toy"
    outcome = apply(result, [{"item": item["id"], "action": "tag"}])
    assert outcome.ok
    text = (root / "MEMORY.md").read_text()
    assert "Toy: tagged" in text and "Toy: yes" not in text


def test_a_queue_added_to_the_table_is_in_the_weekly_report(write_files, tmp_path, monkeypatch):
    register(monkeypatch)
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# Memory\n\n" + TOY_ANCHOR})
    report = weekly_report(root, TODAY)
    assert "| toy | 1 | 0 |" in report
    assert "- toy toy-one — a toy" in report
