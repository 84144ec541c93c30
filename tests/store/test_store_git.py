"""Committing an applied batch: only its files, never pull or push."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from store_helpers import append_text, replace_line

from memreview.store import apply_batch, commit_batch, undo_last


def git(root: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
    )
    return proc.stdout


@pytest.fixture
def repo(ws: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for var, value in {
        "GIT_AUTHOR_NAME": "Owner",
        "GIT_AUTHOR_EMAIL": "owner@example.invalid",
        "GIT_COMMITTER_NAME": "Owner",
        "GIT_COMMITTER_EMAIL": "owner@example.invalid",
        "GIT_CONFIG_GLOBAL": "/dev/null",
    }.items():
        monkeypatch.setenv(var, value)
    git(ws, "init", "-q")
    (ws / "other.md").write_text("- unrelated\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "start")
    return ws


def test_commit_batch_commits_only_the_batch_files_and_leaves_other_staged_work(
    repo: Path,
) -> None:
    (repo / "other.md").write_text("- unrelated, edited by the owner\n")
    git(repo, "add", "other.md")
    result = apply_batch(
        repo,
        [replace_line("MEMORY.md", "- beta", "- B"), append_text("memory/archive/s.md", "# S")],
        [{"item": "x", "action": "approve"}],
    )
    message = commit_batch(repo, result, "memreview: approve x")
    assert message is not None and message.startswith("committed ")
    files = git(repo, "show", "--name-only", "--format=", "HEAD").split()
    assert sorted(files) == sorted(
        ["MEMORY.md", "memory/archive/s.md", ".memreview/journal.jsonl", ".memreview/.gitignore"]
    )
    assert git(repo, "log", "-1", "--format=%s") == "memreview: approve x\n"
    assert "M  other.md" in git(repo, "status", "--porcelain")  # still staged, not committed
    assert "backups" not in git(repo, "ls-files")


def test_commit_batch_commits_an_undo_including_the_removal_of_a_created_file(
    repo: Path,
) -> None:
    result = apply_batch(repo, [append_text("memory/archive/s.md", "# S")], [])
    commit_batch(repo, result, "apply")
    assert "memory/archive/s.md" in git(repo, "ls-files")
    undo = undo_last(repo)
    message = commit_batch(repo, undo, "undo")
    assert message is not None and message.startswith("committed")
    assert "memory/archive/s.md" not in git(repo, "ls-files")
    assert git(repo, "status", "--porcelain", "memory") == ""


def test_commit_batch_with_nothing_changed_says_so(repo: Path) -> None:
    result = apply_batch(repo, [replace_line("MEMORY.md", "- beta", "- B")], [])
    commit_batch(repo, result, "apply")
    assert commit_batch(repo, result, "again") == "nothing to commit"


def test_commit_batch_outside_a_repository_returns_none(ws: Path) -> None:
    result = apply_batch(ws, [replace_line("MEMORY.md", "- beta", "- B")], [])
    assert commit_batch(ws, result, "x") is None


def test_git_ignores_a_repository_named_by_the_environment(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # run from a git hook of another repository, GIT_DIR and GIT_INDEX_FILE point there
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git" / "index"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    result = apply_batch(repo, [replace_line("MEMORY.md", "- beta", "- B")], [])
    message = commit_batch(repo, result, "memreview: in the right repository")
    assert message is not None and message.startswith("committed ")
    monkeypatch.delenv("GIT_DIR")
    monkeypatch.delenv("GIT_INDEX_FILE")
    monkeypatch.delenv("GIT_WORK_TREE")
    assert git(repo, "log", "-1", "--format=%s") == "memreview: in the right repository\n"
    no_commit = subprocess.run(["git", "-C", str(other), "rev-parse", "--verify", "HEAD"])
    assert no_commit.returncode != 0  # nothing was committed there
