"""Committing an applied batch when the workspace is a git repository (DESIGN §4).

Only the files the batch wrote (and memreview's journal and ``.gitignore``) are staged and
committed: whatever else the owner has staged or changed stays out of the commit. memreview
never pulls or pushes.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

from memreview.store.private import PRIVATE_DIR
from memreview.store.safewrite import BatchResult
from memreview.store.undo import UndoResult

_OWN_FILES = (f"{PRIVATE_DIR}/journal.jsonl", f"{PRIVATE_DIR}/.gitignore")


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    return subprocess.run(
        ["git", "-C", str(root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def is_git_repo(root: Path | str) -> bool:
    """True when ``root`` is inside a git work tree (and git is installed)."""
    try:
        proc = _git(Path(root), "rev-parse", "--is-inside-work-tree")
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0 and proc.stdout.strip() == "true"


def _first_line(text: str) -> str:
    return next((ln.strip() for ln in text.splitlines() if ln.strip()), "unknown error")


def commit_batch(
    root: Path | str,
    result: BatchResult | UndoResult,
    message: str,
    *,
    extra: Iterable[str] = (),
) -> str | None:
    """Commit the files an apply (or undo) wrote, with ``message``; None if not a repo.

    ``extra`` names more workspace-relative paths to include (e.g. ``.memreview/state.yaml``).
    Returns a short message for the user: the new commit, "nothing to commit", or why git
    refused.
    """
    real = Path(root).resolve()
    if not is_git_repo(real):
        return None
    wanted = [f.rel for f in result.files if f.written]
    wanted += [p for p in (*_OWN_FILES, *extra) if p not in wanted]
    present, gone = [], []
    for rel in wanted:
        if (real / rel).exists():
            if not _ignored(real, rel):
                present.append(rel)
        elif _git(real, "ls-files", "--error-unmatch", "--", rel).returncode == 0:
            gone.append(rel)  # a tracked file the batch removed: commit its removal
    if present:
        proc = _git(real, "add", "--", *present)
        if proc.returncode != 0:
            return f"git add failed: {_first_line(proc.stderr)}"
    paths = present + gone
    if not paths or not _differs(real, paths):
        return "nothing to commit"
    # A pathspec commits exactly these paths, whatever else is staged.
    proc = _git(real, "commit", "--quiet", "-m", message, "--", *paths)
    if proc.returncode != 0:
        return f"git commit failed: {_first_line(proc.stderr or proc.stdout)}"
    head = _git(real, "rev-parse", "--short", "HEAD").stdout.strip()
    return f"committed {head}: {_first_line(message)}"


def _ignored(root: Path, rel: str) -> bool:
    return _git(root, "check-ignore", "--quiet", "--", rel).returncode == 0


def _differs(root: Path, paths: list[str]) -> bool:
    """Do these paths differ from HEAD (in the index or the work tree)?"""
    if _git(root, "rev-parse", "--verify", "--quiet", "HEAD").returncode != 0:
        return True  # no commit yet
    return _git(root, "diff", "HEAD", "--quiet", "--", *paths).returncode != 0
