"""Finding the workspace as OpenClaw does when no path is given (issue shape 10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memreview.workspace.locate import agent_name, find_workspaces, state_dir


def ws(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "MEMORY.md").write_text("# Memory\n")
    return path


@pytest.fixture
def home(tmp_path) -> Path:
    return tmp_path / "home"


def test_the_workspace_variable_wins_and_the_old_name_is_an_alias(tmp_path, home):
    ws(home / ".openclaw" / "workspace")
    explicit, older = ws(tmp_path / "explicit"), ws(tmp_path / "older")
    env = {"HOME": str(home), "OPENCLAW_WORKSPACE_DIR": str(explicit)}
    assert find_workspaces(env | {"OPENCLAW_WORKSPACE": str(older)}, tmp_path) == (
        [("explicit", explicit)],
        "$OPENCLAW_WORKSPACE_DIR",
    )
    assert find_workspaces({"HOME": str(home), "OPENCLAW_WORKSPACE": str(older)}, tmp_path)[0] == [
        ("older", older)
    ]


def test_then_the_state_dir_then_the_profile_then_the_home_state_dir(tmp_path, home):
    default = ws(home / ".openclaw" / "workspace")
    profiled = ws(home / ".openclaw-work" / "workspace")
    state = ws(tmp_path / "state" / "workspace").parent
    env = {"HOME": str(home)}
    assert find_workspaces(env | {"OPENCLAW_STATE_DIR": str(state)}, tmp_path)[0] == [
        ("default", state / "workspace")
    ]
    assert find_workspaces(env | {"OPENCLAW_PROFILE": "work"}, tmp_path)[0] == [
        ("default", profiled)
    ]
    assert find_workspaces(env, tmp_path)[0] == [("default", default)]
    assert state_dir(env | {"OPENCLAW_PROFILE": "default"}) == home / ".openclaw"


def test_other_agents_live_beside_the_default_workspace(home, tmp_path):
    state = home / ".openclaw"
    ws(state / "workspace")
    ws(state / "workspace-coder")
    ws(state / "workspace-research")
    (state / "workspace-empty").mkdir()  # no MEMORY.md: not a workspace
    (state / "logs").mkdir()
    agents, where = find_workspaces({"HOME": str(home)}, tmp_path)
    assert agents == [
        ("default", state / "workspace"),
        ("coder", state / "workspace-coder"),
        ("research", state / "workspace-research"),
    ]
    assert where == str(state)


def test_only_non_default_agents_still_count(home, tmp_path):
    ws(home / ".openclaw" / "workspace-coder")
    assert find_workspaces({"HOME": str(home)}, tmp_path)[0] == [
        ("coder", home / ".openclaw" / "workspace-coder")
    ]


def test_with_nothing_found_the_current_directory_is_used(home, tmp_path):
    assert find_workspaces({"HOME": str(home)}, tmp_path) == (
        [(tmp_path.name, tmp_path)],
        "the current directory",
    )


def test_agent_names_come_from_the_directory_names():
    assert [agent_name(Path(p)) for p in ("/s/workspace", "/s/workspace-bot", "/x/mine")] == [
        "default",
        "bot",
        "mine",
    ]
