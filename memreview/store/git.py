"""git for the workspace's repository: the one runner (commits here, the growth history in
:mod:`memreview.growth`) and committing an applied batch (DESIGN §4).

Only the files the batch wrote (and memreview's journal and ``.gitignore``) are staged and
committed: whatever else the owner has staged or changed stays out of the commit. memreview
never pulls or pushes.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

from memreview.i18n import _
from memreview.store.private import PRIVATE_DIR
from memreview.store.safewrite import BatchResult
from memreview.store.undo import UndoResult

_OWN_FILES = (f"{PRIVATE_DIR}/journal.jsonl", f"{PRIVATE_DIR}/.gitignore")


# Started from a git hook, or a shell inside another repository, the caller's GIT_DIR,
# GIT_INDEX_FILE, GIT_WORK_TREE, GIT_CONFIG_PARAMETERS… would make git read or commit
# somewhere else: every GIT_* variable is dropped but the commit identity and the user's own
# config files.
_KEPT_ENV = ("GIT_AUTHOR_", "GIT_COMMITTER_", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")
GIT_TIMEOUT = 60.0


def _git_env() -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k.startswith(_KEPT_ENV)
    }
    env.update(GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    return env


def run_git(
    root: Path, *args: str, timeout: float = GIT_TIMEOUT, text: bool = True
) -> subprocess.CompletedProcess:
    """Run ``git -C root args…`` for the repository that holds ``root`` and nothing else.

    Never prompts, never reads stdin, never colours; raises OSError (git missing) and
    subprocess.TimeoutExpired like subprocess.run.
    """
    return subprocess.run(
        ["git", "-c", "core.quotepath=off", "-c", "color.ui=never", "-C", str(root), *args],
        capture_output=True,
        text=text,
        env=_git_env(),
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
    )


def is_git_repo(root: Path | str) -> bool:
    """True when ``root`` is inside a git work tree (and git is installed)."""
    try:
        proc = run_git(Path(root), "rev-parse", "--is-inside-work-tree")
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0 and proc.stdout.strip() == "true"


def _first_line(text: str) -> str:
    return next((ln.strip() for ln in text.splitlines() if ln.strip()), _("unknown error"))


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
        elif run_git(real, "ls-files", "--error-unmatch", "--", rel).returncode == 0:
            gone.append(rel)  # a tracked file the batch removed: commit its removal
    if present:
        proc = run_git(real, "add", "--", *present)
        if proc.returncode != 0:
            return _("git add failed: {error}").format(error=_first_line(proc.stderr))
    paths = present + gone
    if not paths or not _differs(real, paths):
        return _("nothing to commit")
    # A pathspec commits exactly these paths, whatever else is staged.
    proc = run_git(real, "commit", "--quiet", "-m", message, "--", *paths)
    if proc.returncode != 0:
        return _("git commit failed: {error}").format(error=_first_line(proc.stderr or proc.stdout))
    head = run_git(real, "rev-parse", "--short", "HEAD").stdout.strip()
    return _("committed {commit}: {message}").format(commit=head, message=_first_line(message))


def _ignored(root: Path, rel: str) -> bool:
    return run_git(root, "check-ignore", "--quiet", "--", rel).returncode == 0


def _differs(root: Path, paths: list[str]) -> bool:
    """Do these paths differ from HEAD (in the index or the work tree)?"""
    if run_git(root, "rev-parse", "--verify", "--quiet", "HEAD").returncode != 0:
        return True  # no commit yet
    return run_git(root, "diff", "HEAD", "--quiet", "--", *paths).returncode != 0
