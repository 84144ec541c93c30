"""How fast the memory grows, from git history (seed 003 measured it this way: every write
of the agent's pipeline is a commit).

Entries added to memory files per week, by each commit's author date, through the one git
runner (:func:`memreview.store.git.run_git`: read-only here, with a timeout, never pointed
at another repository by the environment). The weekly figures are summarised the same way
as the dated growth of :mod:`memreview.health`.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

from memreview.health import GROWTH_WEEKS, summarize_weeks, week_starts
from memreview.i18n import _
from memreview.store import run_git
from memreview.workspace.config import Config
from memreview.workspace.dates import parse_date_prefix
from memreview.workspace.loader import DAILY_RE, ROOT_MEMORY_FILES, SKIP_UNDER_MEMORY

GIT_TIMEOUT = 10.0

_ENTRY_LINE_RE = re.compile(r"^(?:[-*] |\||#{2,3} \[)")
_TABLE_SEP_RE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def is_memory_path(rel: str, cfg: Config | None = None) -> bool:
    """Whether a workspace-relative path names a memory file (docs/design.md §1.1)."""
    cfg = cfg or Config()
    parts = rel.split("/")
    if len(parts) == 1:
        return rel in ROOT_MEMORY_FILES
    if parts[0] != "memory" or not rel.endswith(".md"):
        return False
    if len(parts) > 2 and parts[1] in SKIP_UNDER_MEMORY:
        return False
    if rel.startswith(cfg.archive_dir.rstrip("/") + "/"):
        return False
    return not DAILY_RE.match(parts[-1])


def _entry_lines(added: list[str]) -> list[str]:
    """The added lines that start an entry: no table separator, no header row above one."""
    out = []
    for k, line in enumerate(added):
        if not _ENTRY_LINE_RE.match(line) or _TABLE_SEP_RE.match(line):
            continue
        if line.startswith("|") and k + 1 < len(added) and _TABLE_SEP_RE.match(added[k + 1]):
            continue
        out.append(line.rstrip())
    return out


def _parse_git_log(out: bytes, cfg: Config) -> list[tuple[date, int]]:
    """(author date, entries added) per commit of ``git log -p -U0 --format=%x00%aI``."""
    commits: list[tuple[date, int]] = []
    day: date | None = None
    added: dict[str, list[str]] = {}
    removed: dict[str, list[str]] = {}
    path: str | None = None
    in_hunk = False

    def flush() -> None:
        if day is None:
            return
        new = Counter(line for lines in added.values() for line in _entry_lines(lines))
        gone = Counter(line for lines in removed.values() for line in _entry_lines(lines))
        # A line that left one place and arrived in another in the same commit moved.
        n = sum((new - gone).values())
        if n:
            commits.append((day, n))

    for raw in out.split(b"\n"):
        if raw.startswith(b"\x00"):
            flush()
            day = parse_date_prefix(raw[1:].decode("ascii", "replace"))
            added, removed, path, in_hunk = {}, {}, None, False
        elif raw.startswith(b"diff --git "):
            path, in_hunk = None, False
        elif not in_hunk and raw.startswith(b"+++ "):
            name = raw[4:].decode("utf-8", "replace").strip().strip('"')
            name = name[2:] if name.startswith("b/") else None
            path = name if name and is_memory_path(name, cfg) else None
        elif raw.startswith(b"@@"):
            in_hunk = True
        elif in_hunk and path is not None and raw[:1] in (b"+", b"-"):
            text = raw[1:].decode("utf-8", "replace")
            (added if raw[:1] == b"+" else removed).setdefault(path, []).append(text)
    flush()
    return commits


def git_growth(
    root: Path, today: date, cfg: Config | None = None, timeout: float = GIT_TIMEOUT
) -> dict:
    """Entries added to memory files per week, read from git history (seed 003's method).

    Each commit's author date counts; an entry line is one that starts with ``- ``,
    ``* ``, ``|`` (not a header row or separator) or ``## [``/``### [``, at the start of the
    line. Lines that a commit only moved (removed elsewhere in the same commit) don't count.
    Git runs read-only, with a timeout; ``available`` is False (with a reason) when the
    workspace is not in a git repository, git is missing, or it fails.
    """
    root = Path(root).resolve()
    first, starts = week_starts(today)
    unavailable = {"available": False, "reason": None}
    try:
        probe = run_git(root, "rev-parse", "--is-inside-work-tree", timeout=timeout, text=False)
        if probe.returncode != 0 or probe.stdout.strip() != b"true":
            err = probe.stderr.decode("utf-8", "replace").strip().split("\n")[0]
            if not err or "not a git repository" in err:
                err = _("not a git repository")
            return {**unavailable, "reason": err}
        since = (first - timedelta(days=1)).isoformat()
        log = run_git(
            root,
            "log",
            "--relative",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "-M",
            "-p",
            "-U0",
            "--format=%x00%aI",
            f"--since={since}",
            "--",
            *ROOT_MEMORY_FILES,
            "memory",
            timeout=timeout,
            text=False,
        )
    except FileNotFoundError:
        return {**unavailable, "reason": _("git is not installed")}
    except subprocess.TimeoutExpired:
        reason = _("git log took longer than {seconds} s").format(seconds=f"{timeout:g}")
        return {**unavailable, "reason": reason}
    except OSError as exc:
        reason = _("cannot run git: {error}").format(error=exc.strerror or exc)
        return {**unavailable, "reason": reason}
    if log.returncode != 0:
        err = log.stderr.decode("utf-8", "replace").strip().split("\n")[0]
        if "does not have any commits" in err:
            err = _("no commits yet")
        reason = err or _("git log failed ({code})").format(code=log.returncode)
        return {**unavailable, "reason": reason}
    weeks = [0] * GROWTH_WEEKS
    commits = 0
    for day, n in _parse_git_log(log.stdout, cfg or Config()):
        if first <= day <= today:
            weeks[(day - first).days // 7] += n
            commits += 1
    return {"available": True, "reason": None, "commits": commits, **summarize_weeks(weeks, starts)}
