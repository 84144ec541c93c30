"""Weekly growth read from git history, on repositories built with chosen commit dates."""

from __future__ import annotations

import shutil

import pytest
from report_helpers import TODAY, commit_files, git_init, write_files

from memreview.growth import git_growth, is_memory_path
from memreview.report import weekly_report

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

MEMORY_V1 = (
    "# Memory\n\n## Facts\n- one\n- two\n- three\n\n"
    "## Chronicle\n| date | event |\n|---|---|\n| 2026-06-01 | a |\n| 2026-06-02 | b |\n"
)
MEMORY_V2 = MEMORY_V1.replace("- three\n", "")


def build_history(root):
    git_init(root)
    commit_files(root, {"MEMORY.md": "# Memory\n\n- ancient\n"}, "2026-03-01T12:00:00+00:00")
    # Week from 06-09: three bullets and two table rows (the header and separator don't count).
    commit_files(root, {"MEMORY.md": MEMORY_V1}, "2026-06-10T12:00:00+00:00")
    # Week from 06-23: "- three" only moves to another memory file; one anchor is new; an
    # indented line is part of an entry, not an entry.
    commit_files(
        root,
        {
            "MEMORY.md": MEMORY_V2,
            "memory/notes.md": "# Notes\n\n- three\n  - a detail\n\n## [FACT:x]\nAdded: 2026-06-24\n---\n",
        },
        "2026-06-24T09:30:00+02:00",
    )
    # Week from 06-30: daily logs and the archive are not memory files.
    commit_files(
        root,
        {
            "memory/2026-07-01.md": "- logged today\n",
            "memory/archive/superseded.md": "# Superseded\n\n- archived\n",
            "memory/notes.md": "# Notes\n\n- three\n  - a detail\n\n## [FACT:x]\nAdded: 2026-06-24\n---\n- four\n- five\n",
        },
        "2026-07-01T18:00:00+00:00",
    )
    # After the review date: not counted.
    commit_files(root, {"memory/notes.md": "# Notes\n\n- later\n"}, "2026-07-10T08:00:00+00:00")


def test_entries_added_per_commit_week(tmp_path):
    root = tmp_path / "ws"
    build_history(root)
    g = git_growth(root, TODAY)
    assert g["available"] and g["reason"] is None
    assert g["week_starts"][10] == "2026-06-09"
    assert g["weeks"] == [0] * 10 + [5, 0, 1, 2]
    assert g["commits"] == 3
    # [5, 0, 1, 2] falls: slope -0.8; the four weeks before were flat.
    assert g["slope_4w"] == -0.8 and g["slope_prev_4w"] == 0.0 and not g["accelerating"]


def test_report_shows_the_git_column_next_to_the_dated_one(tmp_path):
    root = tmp_path / "ws"
    build_history(root)
    report = weekly_report(root, TODAY)
    assert "| week from | dated | git |" in report
    assert "| 2026-06-09 | 0 | 5 |" in report
    assert "| 2026-06-30 | 0 | 2 |" in report
    assert "- Git: " in report and "changed by -0.80 a week" in report


def test_a_workspace_inside_a_larger_repository_counts_only_its_own_files(tmp_path):
    repo = tmp_path / "fleet"
    git_init(repo)
    commit_files(
        repo,
        {
            "euler/MEMORY.md": "# M\n\n- e1\n- e2\n",
            "gauss/MEMORY.md": "# M\n\n- g1\n",
            "README.md": "- not memory\n",
        },
        "2026-07-02T12:00:00+00:00",
    )
    assert git_growth(repo / "euler", TODAY)["weeks"][-1] == 2
    assert git_growth(repo / "gauss", TODAY)["weeks"][-1] == 1


def test_accelerating_git_growth(tmp_path):
    root = tmp_path / "ws"
    git_init(root)
    text = "# M\n"
    days = {"2026-06-10": 1, "2026-06-17": 2, "2026-06-24": 3, "2026-07-01": 5}
    for day, n in days.items():
        text += "".join(f"- entry {day} {k}\n" for k in range(n))
        commit_files(root, {"MEMORY.md": text}, f"{day}T12:00:00+00:00")
    g = git_growth(root, TODAY)
    assert g["weeks"][-4:] == [1, 2, 3, 5]
    assert g["slope_4w"] == 1.3 and g["accelerating"]


def test_no_repository_or_no_git_is_a_reason_not_an_error(tmp_path, monkeypatch):
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# M\n"})
    assert git_growth(root, TODAY) == {"available": False, "reason": "not a git repository"}
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    assert git_growth(root, TODAY) == {"available": False, "reason": "git is not installed"}


def test_a_repository_without_commits_is_not_used(tmp_path):
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# M\n"})
    git_init(root)
    g = git_growth(root, TODAY)
    assert not g["available"] and g["reason"] == "no commits yet"


def test_memory_paths_follow_the_design():
    yes = ["MEMORY.md", "memory.md", "memory/MEMORY.md", "memory/projects/x.md", "memory/a.md"]
    no = [
        "NOW.md",
        "memory/2026-07-01.md",
        "memory/2026-07-01-notes.md",
        "memory/archive/superseded.md",
        "memory/review/x.md",
        "memory/.dreams/x.md",
        "memory/notes.txt",
        "other/MEMORY.md",
    ]
    assert all(is_memory_path(p) for p in yes)
    assert not any(is_memory_path(p) for p in no)
