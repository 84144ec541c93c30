"""`memreview`, `scan` and `report` with no path: OpenClaw's workspaces, a fleet when there
are several agents, a picker in the app (issue shape 10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import memreview.cli.launch as cli
from memreview.cli import main

TODAY = "2026-11-29"


def ws(path: Path, project: str) -> Path:
    (path / "memory" / "projects").mkdir(parents=True)
    (path / "MEMORY.md").write_text("# Memory\n")
    (path / "memory" / "projects" / f"{project}.md").write_text(f"# {project}\n")
    return path


@pytest.fixture
def state(tmp_path, monkeypatch) -> Path:
    """An OpenClaw state directory with the default agent and one more."""
    for var in ("OPENCLAW_WORKSPACE_DIR", "OPENCLAW_WORKSPACE", "OPENCLAW_PROFILE"):
        monkeypatch.delenv(var, raising=False)
    top = tmp_path / "oc-state"
    ws(top / "workspace", "radar")
    ws(top / "workspace-coder", "compiler")
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(top))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return top


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_scan_without_a_path_covers_every_agent_as_a_fleet(state, capsys):
    code, out, err = run(capsys, "scan", "--json", "--today", TODAY)
    assert code == 0, err
    doc = json.loads(out)
    agents = doc["agents"]
    assert sorted(agents) == ["workspace", "workspace-coder"]
    assert [i["project"] for i in agents["workspace-coder"]["queues"]["dormant"]] == ["compiler"]
    assert doc["total"]["counts"]["dormant"] == 2


def test_scan_without_a_path_and_one_agent_is_that_workspace(state, capsys, monkeypatch):
    monkeypatch.setenv("OPENCLAW_WORKSPACE_DIR", str(state / "workspace-coder"))
    code, out, err = run(capsys, "scan", "--json", "--today", TODAY)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["workspace"] == str((state / "workspace-coder").resolve())


def test_report_without_a_path_covers_every_agent(state, capsys):
    code, out, err = run(capsys, "report", "--today", TODAY)
    assert code == 0, err
    assert "compiler" in out and "radar" in out


def test_scan_without_a_path_and_no_workspace_anywhere_says_so(tmp_path, capsys, monkeypatch):
    for var in ("OPENCLAW_WORKSPACE_DIR", "OPENCLAW_WORKSPACE", "OPENCLAW_PROFILE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "nothing"))
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "scan", "--json")
    assert code == 2 and out == ""
    assert err.startswith("memreview: no workspace found") and err.count("\n") == 1


def test_the_app_without_a_path_asks_which_agent_then_opens_it(state, monkeypatch):
    asked, opened = [], []

    def pick(agents, where):
        asked.append((agents, where))
        return agents[1][1]

    monkeypatch.setattr(cli, "pick_agent", pick)
    monkeypatch.setattr(cli, "run_app", lambda root, today, theme: opened.append(root) or 0)
    assert main([]) == 0
    assert asked == [
        (
            [("default", state / "workspace"), ("coder", state / "workspace-coder")],
            str(state),
        )
    ]
    assert opened == [state / "workspace-coder"]


def test_the_app_without_a_path_and_one_agent_opens_it_without_asking(state, monkeypatch):
    import shutil

    shutil.rmtree(state / "workspace-coder")
    opened = []
    monkeypatch.setattr(cli, "pick_agent", lambda *a: pytest.fail("asked"))
    monkeypatch.setattr(cli, "run_app", lambda root, today, theme: opened.append(root) or 0)
    assert main([]) == 0 and opened == [state / "workspace"]


def test_quitting_the_picker_opens_nothing(state, monkeypatch):
    monkeypatch.setattr(cli, "pick_agent", lambda agents, where: None)
    monkeypatch.setattr(cli, "run_app", lambda *a: pytest.fail("opened"))
    assert main([]) == 0
