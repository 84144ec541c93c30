"""The queue table: every queue declared once, and a new one seen by the scan, the planner
and the report without touching them."""

from __future__ import annotations

import json
from datetime import date

from toy_queue import TOY, TOY_ANCHOR, TOY_FULL, TOY_KEY, register

from memreview.decisions import apply, build_plan, registry
from memreview.decisions.state import Hidden, State
from memreview.decisions.unit import MEMBER, MERGE
from memreview.report import weekly_report
from memreview.scan import compute, scan_workspace
from memreview.scan.run import _secret_files, _storable
from memreview.workspace.loader import load_workspace

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
    "dropping",
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
    assert (
        "'keep' only goes with contradictions keep-one; duplicates keep or merge"
        in plan.invalid[0][1]
    )
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


def test_a_queue_adds_its_own_health_figures_under_its_name(write_files, tmp_path, monkeypatch):
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# Memory\n\n" + TOY_ANCHOR})
    register(monkeypatch)
    assert "toy" not in scan_workspace(root, TODAY, cache=False).health
    register(monkeypatch, TOY_FULL)
    health = scan_workspace(root, TODAY, cache=False).to_json()["health"]
    assert health["toy"] == {"count": 1, "on": "2026-11-29"}
    assert "promotions" in health  # the shipped queue's figures, declared the same way
    assert "- Toys waiting: 1\n" in weekly_report(root, TODAY)


def test_a_queue_names_the_scan_option_showing_its_hidden_items(write_files, tmp_path, monkeypatch):
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# Memory\n\n" + TOY_ANCHOR})
    ws = load_workspace(root)
    for unit, shown in ((TOY, 0), (TOY_FULL, 1)):
        register(monkeypatch, unit)
        [item] = compute(ws, TODAY, State()).queues["toy"]
        state = State({item["id"]: Hidden(until=None, reason="rejected")})
        assert compute(ws, TODAY, state).queues["toy"] == []
        assert len(compute(ws, TODAY, state, all_promotions=True).queues["toy"]) == shown


def test_a_queue_finding_credentials_names_their_files_and_is_cached_masked(
    write_files, tmp_path, monkeypatch
):
    anchor = TOY_ANCHOR.replace("a toy anchor to tag", "key " + TOY_KEY)
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# Memory\n\n" + anchor})
    register(monkeypatch)
    result = scan_workspace(root, TODAY, cache=False)
    assert result.queues["toy"] and _secret_files(result) == {"MEMORY.md"}  # the secrets queue's
    items = [{**result.all_queues["toy"][0], "text": "key " + TOY_KEY}]
    assert "toy" not in _storable({"toy": items})  # an item holding a key: not cached
    register(monkeypatch, TOY_FULL)
    assert "toy" in _storable({"toy": items})  # the queue's own finding (masked): cached
    monkeypatch.setattr(registry, "UNITS", (TOY_FULL,))
    assert _secret_files(result) == {"MEMORY.md"}  # the toy's finding alone
    monkeypatch.setattr(registry, "UNITS", (TOY,))
    assert _secret_files(result) is None  # no queue finds credentials: the cache asks per file
