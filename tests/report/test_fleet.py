"""A fleet: several workspaces, one per agent, scanned and reported together."""

from __future__ import annotations

import json

import pytest
from report_helpers import TODAY, write_files

from memreview.fleet import expand_fleet, expand_workspaces, fleet_scan_json, is_fleet
from memreview.report import weekly_report
from memreview.scan import scan_workspace
from memreview.workspace.loader import NotAWorkspace

FACTS = [
    "the printer on the second floor jams on thick paper",
    "weekly backups rotate every sunday night",
    "owner drinks green tea, never coffee, after lunch",
]
SAID_TWICE = ["deploys happen on tuesdays only", "gateway tokens expire after ninety days"]


def agent(root, stamped_days, duplicates=0, broken_proposal=False):
    lines = ["# Memory", ""]
    lines += [f"- {FACTS[k]}（{d} 自动沉淀）" for k, d in enumerate(stamped_days)]
    for k in range(duplicates):
        lines += [f"- {SAID_TWICE[k]}"] * 2 + [""]
    files: dict[str, object] = {"MEMORY.md": "\n".join(lines) + "\n"}
    if broken_proposal:
        files["memory/review/proposals.jsonl"] = "{oops\n"
    return write_files(root, files)


@pytest.fixture
def fleet(tmp_path):
    top = tmp_path / "fleet"
    agent(top / "euler", ["2026-07-01"], duplicates=1)
    agent(top / "gauss", ["2026-07-02", "2026-07-03", "2026-06-24"], duplicates=2,
          broken_proposal=True)  # fmt: skip
    (top / "shared").mkdir()  # not a workspace: skipped
    agent(top / ".hidden", [])  # hidden: never an agent
    return top


def test_a_fleet_directory_expands_to_its_agent_workspaces(fleet):
    assert expand_fleet([fleet]) == [
        ("euler", (fleet / "euler").resolve()),
        ("gauss", (fleet / "gauss").resolve()),
    ]
    assert expand_workspaces([fleet]) == [(fleet / "euler").resolve(), (fleet / "gauss").resolve()]
    assert is_fleet([fleet]) and not is_fleet([fleet / "euler"])
    assert is_fleet([fleet / "euler", fleet / "gauss"])


def test_workspaces_named_twice_count_once_and_equal_names_get_a_suffix(fleet, tmp_path):
    other = agent(tmp_path / "elsewhere" / "euler", [])
    found = expand_fleet([fleet / "euler", fleet, other])
    assert [name for name, _ in found] == ["euler", "gauss", "euler-2"]


def test_a_workspace_is_never_searched_for_sub_agents(tmp_path):
    ws = agent(tmp_path / "ws", [])
    agent(ws / "nested", [])
    assert expand_workspaces([ws]) == [ws.resolve()]


def test_nothing_found_is_not_a_workspace(tmp_path):
    (tmp_path / "empty" / "sub").mkdir(parents=True)
    with pytest.raises(NotAWorkspace, match="no subdirectory is one"):
        expand_workspaces([tmp_path / "empty"])
    with pytest.raises(NotAWorkspace, match="no such directory"):
        expand_workspaces([tmp_path / "missing"])
    (tmp_path / "file.md").write_text("x")
    with pytest.raises(NotAWorkspace, match="not a directory"):
        expand_workspaces([tmp_path / "file.md"])


def test_fleet_scan_json_has_one_scan_object_per_agent_and_the_sums(fleet):
    out = fleet_scan_json([fleet], TODAY)
    assert json.loads(json.dumps(out, ensure_ascii=False)) == out
    assert out["schema"] == 1 and out["today"] == "2026-07-06"
    assert list(out["agents"]) == ["euler", "gauss"]
    single = scan_workspace(fleet / "gauss", TODAY).to_json()
    assert out["agents"]["gauss"] == single
    assert out["total"]["counts"]["duplicates"] == 3
    assert out["total"]["counts"]["promotions"] == 4  # the 自动沉淀 entries of both agents
    assert sum(out["total"]["counts"].values()) == 7
    assert out["total"]["warnings"] == len(single["warnings"]) >= 1


def test_fleet_scan_json_without_a_date_uses_each_agents_own(fleet):
    write_files(fleet / "euler", {"memreview.yaml": "review_date: 2026-07-01\n"})
    write_files(fleet / "gauss", {"memreview.yaml": "review_date: 2026-07-03\n"})
    out = fleet_scan_json([fleet])
    assert out["today"] == "2026-07-03"
    assert out["agents"]["euler"]["today"] == "2026-07-01"


def test_fleet_report_has_a_total_and_a_section_per_agent(fleet):
    report = weekly_report([fleet], TODAY)
    assert report.startswith("# Weekly memory review — 2 agents — 2026-07-06\n")
    total = report[report.index("## Total") : report.index("## Agent: euler")]
    assert "| queue | euler | gauss | total |" in total
    assert "| duplicates | 1 | 2 | 3 |" in total
    assert "| promotions | 1 | 3 | 4 |" in total
    assert "| **all** | 2 | 5 | 7 |" in total
    assert "entries 10" in total  # 3 + 7 entries
    # Growth summed per week: euler 1 + gauss 2 in the last week, gauss 1 the week before.
    assert "| 2026-06-23 | 1 |\n| 2026-06-30 | 3 |" in total
    assert "### The judge's report card" in total
    assert report.index("## Agent: euler") < report.index("## Agent: gauss")
    gauss = report[report.index("## Agent: gauss") :]
    assert "### Queues" in gauss and "### Health" in gauss and "### Growth" in gauss
    assert "| 2026-06-30 | 2 |" in gauss


def test_fleet_report_counts_each_agents_alarms_in_the_total(fleet):
    body = "".join(f"- fact number {k} about the workspace and its habits\n" for k in range(600))
    write_files(fleet / "gauss", {"MEMORY.md": "# Memory\n" + body})  # past the bootstrap cut
    report = weekly_report([fleet], TODAY)
    total = report[report.index("## Total") : report.index("## Agent: euler")]
    assert "Alarms: 1 (gauss: memory-over-bootstrap)." in total
    euler = report[report.index("## Agent: euler") : report.index("## Agent: gauss")]
    assert "### Alarms (0)\n\nNo alarm fired." in euler
    assert "### Alarms (1)" in report[report.index("## Agent: gauss") :]
