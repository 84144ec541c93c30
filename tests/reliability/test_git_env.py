"""``apply --commit`` commits into the workspace's repository even when started with GIT_DIR,
GIT_INDEX_FILE and GIT_WORK_TREE pointing at another one (as from a git hook)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from refusal_helpers import TODAY, WS, item_ids, run, write_tree

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

IDENTITY = {
    "GIT_AUTHOR_NAME": "Owner",
    "GIT_AUTHOR_EMAIL": "owner@example.invalid",
    "GIT_COMMITTER_NAME": "Owner",
    "GIT_COMMITTER_EMAIL": "owner@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}


def _git(root: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | IDENTITY
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True, env=env
    )
    return done.stdout.strip()


def _repo(root: Path) -> Path:
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "start")
    return root


def test_apply_commit_ignores_git_dir_and_index_of_another_repository(
    tmp_path, capsys, monkeypatch
):
    ws = _repo(write_tree(tmp_path / "ws", WS))
    other = _repo(write_tree(tmp_path / "other", {"README": "another project\n"}))
    other_head = _git(other, "rev-parse", "HEAD")
    other_index = (other / ".git/index").read_bytes()
    ws_head = _git(ws, "rev-parse", "HEAD")
    dormant = item_ids(capsys, ws)["dormant"][0]
    decisions = tmp_path / "d.yaml"
    decisions.write_text(f"- {{item: {dormant}, action: done}}\n")

    for var, value in IDENTITY.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git/index"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    code, _out, err = run(
        capsys, "apply", ws, "--decisions", decisions, "--commit", "--today", TODAY
    )

    assert code == 0, err
    assert "committed " in err
    assert _git(other, "rev-parse", "HEAD") == other_head
    assert (other / ".git/index").read_bytes() == other_index
    assert _git(ws, "rev-parse", "HEAD^") == ws_head
    assert "memory/projects/diary.md" in _git(ws, "show", "--name-only", "--format=", "HEAD")
    assert _git(ws, "status", "--porcelain", "--", "memory") == ""
