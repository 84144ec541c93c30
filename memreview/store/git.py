"""git for the workspace's repository: the one runner (commits here, the growth history in
:mod:`memreview.growth`) and committing an applied batch (docs/design.md §4).

Only the files the batch wrote (and memreview's journal and ``.gitignore``) are staged and
committed: whatever else the owner has staged or changed stays out of the commit. memreview
never pulls or pushes.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memreview.i18n import _
from memreview.store.private import PRIVATE_DIR
from memreview.store.safewrite import BatchResult
from memreview.store.undo import UndoResult

_OWN_FILES = (f"{PRIVATE_DIR}/journal.jsonl", f"{PRIVATE_DIR}/.gitignore")


# Started from a git hook, or a shell inside another repository, the caller's GIT_DIR,
# GIT_INDEX_FILE, GIT_WORK_TREE, GIT_CONFIG_PARAMETERS, GIT_EXEC_PATH, GIT_SSH… would make git
# read, commit or run something else: every GIT_* variable is dropped but the commit
# identity, the owner's own config files and the owner's safety switches (which only ever
# make git do less).
_KEPT_ENV = ("GIT_AUTHOR_", "GIT_COMMITTER_")
_KEPT_NAMES = frozenset(
    {
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_NOSYSTEM",
        "GIT_ATTR_NOSYSTEM",
        "GIT_NO_LAZY_FETCH",
        "GIT_NO_REPLACE_OBJECTS",
        "GIT_CEILING_DIRECTORIES",
        "GIT_ALLOW_PROTOCOL",
        "GIT_PROTOCOL_FROM_USER",
    }
)
GIT_TIMEOUT = 60.0

# The workspace's .git/config is the agent's to write: whatever it names, git runs no
# program of it. No hooks (core.hooksPath at /dev/null holds none), no fsmonitor, no pager,
# no transport at all (a promisor remote's lazy fetch would run its uploadpack), no
# credential helper or askpass, no signing or signature check (gpg.program), no external
# diff or textconv (below, on every command that makes a diff).
_SAFE_CONFIG = (
    "core.quotepath=off",
    "color.ui=never",
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.askPass=",
    "credential.helper=",
    "protocol.allow=never",
    "log.showSignature=false",
    "commit.gpgSign=false",
    "tag.gpgSign=false",
)
_DIFF_COMMANDS = frozenset({"log", "show", "diff", "whatchanged"})
_DIFF_FLAGS = ("--no-ext-diff", "--no-textconv", "--no-show-signature")


def _git_env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GIT_") or k.startswith(_KEPT_ENV) or k in _KEPT_NAMES
    }
    env.pop("SSH_ASKPASS", None)
    env.update(
        GIT_TERMINAL_PROMPT="0",
        GIT_OPTIONAL_LOCKS="0",
        GIT_NO_LAZY_FETCH="1",
        GIT_ASKPASS="",
        GIT_PAGER="cat",
        PAGER="cat",
        LC_ALL="C",
    )
    return env


def git_command(root: Path, *args: str) -> list[str]:
    """The argument list :func:`run_git` runs (every safety setting before ``args``)."""
    cmd = ["git", "--no-pager"]
    for setting in _SAFE_CONFIG:
        cmd += ["-c", setting]
    cmd += ["-C", str(root)]
    lead = 0
    while lead < len(args) and args[lead] == "-c":
        lead += 2  # a caller's own settings, after the safe ones
    cmd += args[:lead]
    rest = args[lead:]
    if rest and rest[0] in _DIFF_COMMANDS:
        return [*cmd, rest[0], *_DIFF_FLAGS, *rest[1:]]
    return [*cmd, *rest]


def run_git(
    root: Path,
    *args: str,
    timeout: float = GIT_TIMEOUT,
    text: bool = True,
    env: dict[str, str] | None = None,
    input: bytes | None = None,
) -> subprocess.CompletedProcess[Any]:  # str, or bytes when not text
    """Run ``git -C root args…`` for the repository that holds ``root`` and nothing else.

    Never prompts, never reads stdin (but ``input``), never colours, never runs a program
    the repository names; ``env`` adds variables (the commit's own index). Raises OSError
    (git missing) and subprocess.TimeoutExpired like subprocess.run.
    """
    full_env = _git_env()
    full_env.update(env or {})
    return subprocess.run(
        git_command(root, *args),
        capture_output=True,
        text=text,
        env=full_env,
        input=input,
        stdin=None if input is not None else subprocess.DEVNULL,
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

    Built from git's plumbing in an index of its own: each file's bytes are stored as they
    are (no clean filter of ``.gitattributes``), no hook runs (``git commit`` would run
    pre-commit, commit-msg and post-commit), and only these paths change: whatever else the
    owner has staged stays staged and out of the commit.
    """
    real = Path(root).resolve()
    if not is_git_repo(real):
        return None
    wanted = [f.rel for f in result.files if f.written]
    wanted += [p for p in (*_OWN_FILES, *extra) if p not in wanted]
    present, gone = [], []
    for rel in wanted:
        path = real / rel
        if path.is_file() and not path.is_symlink():
            if not _ignored(real, rel):
                present.append(rel)
        elif run_git(real, "ls-files", "--error-unmatch", "--", rel).returncode == 0:
            gone.append(rel)  # a tracked file the batch removed: commit its removal
    if not present and not gone:
        return _("nothing to commit")
    try:
        return _commit_paths(real, present, gone, message)
    except _GitFailed as exc:
        return str(exc)


class _GitFailed(Exception):
    pass


def _checked(
    root: Path, *args: str, env: dict[str, Any] | None = None, input: bytes | None = None
) -> str:
    proc = run_git(root, *args, env=env, input=input, text=False)
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace") or proc.stdout.decode("utf-8", "replace")
        raise _GitFailed(
            _("git {command} failed: {error}").format(command=args[0], error=_first_line(err))
        )
    return str(proc.stdout.decode("utf-8", "replace").strip())


def _commit_paths(root: Path, present: list[str], gone: list[str], message: str) -> str:
    head_ok = run_git(root, "rev-parse", "--verify", "--quiet", "HEAD").returncode == 0
    head = _checked(root, "rev-parse", "--verify", "HEAD") if head_ok else ""
    entries: list[str] = []
    for rel in present:
        mode = "100755" if os.access(root / rel, os.X_OK) else "100644"
        blob = _checked(root, "hash-object", "-w", "--no-filters", "--", rel)
        entries.append(f"{mode} {blob}\t{rel}")
    with tempfile.TemporaryDirectory(prefix="memreview-git-") as tmp:
        own = {"GIT_INDEX_FILE": os.path.join(tmp, "index")}
        if head:
            _checked(root, "read-tree", head, env=own)
        else:
            _checked(root, "read-tree", "--empty", env=own)
        _stage(root, entries, gone, own)
        tree = _checked(root, "write-tree", env=own)
    if head and tree == _checked(root, "rev-parse", f"{head}^{{tree}}"):
        return _("nothing to commit")
    parents = ["-p", head] if head else []
    commit = _checked(
        root, "commit-tree", "--no-gpg-sign", *parents, "-F", "-", tree, input=message.encode()
    )
    _checked(root, "update-ref", "-m", "memreview: commit", "HEAD", commit, head)
    _stage(root, entries, gone, None)  # the owner's index: these paths as committed
    short = _checked(root, "rev-parse", "--short", commit)
    return _("committed {commit}: {message}").format(commit=short, message=_first_line(message))


def _stage(root: Path, entries: list[str], gone: list[str], env: dict[str, Any] | None) -> None:
    # writing the owner's index re-reads a "racily clean" file through its clean filter:
    # every filter the repository names is emptied for these two commands
    off = [] if env else _filters_off(root)
    if entries:
        data = "".join(line + "\n" for line in entries).encode("utf-8")
        _checked(root, *off, "update-index", "--index-info", env=env, input=data)
    if gone:
        _checked(root, *off, "update-index", "--force-remove", "--", *gone, env=env)


def _filters_off(root: Path) -> list[str]:
    proc = run_git(root, "config", "--name-only", "--get-regexp", r"^filter\.")
    names = {line.rsplit(".", 1)[0] for line in proc.stdout.splitlines() if "." in line}
    off: list[str] = []
    for name in sorted(names):
        for key in ("clean", "smudge", "process"):
            off += ["-c", f"{name}.{key}="]
        off += ["-c", f"{name}.required=false"]
    return off


def _ignored(root: Path, rel: str) -> bool:
    return run_git(root, "check-ignore", "--quiet", "--", rel).returncode == 0
