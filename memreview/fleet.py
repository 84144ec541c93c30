"""Several agents at once: a fleet of workspaces, one per agent (seed 003 runs eight of them).

A path on the command line is either a workspace or a *fleet directory* whose immediate
subdirectories are workspaces; the agent's name is the directory's name.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path

from memreview.health import SCHEMA
from memreview.i18n import _
from memreview.workspace.loader import NotAWorkspace, check_workspace, is_workspace


def _agents_under(directory: Path) -> list[Path]:
    try:
        children = sorted(directory.iterdir(), key=lambda p: p.name)
    except OSError:
        return []
    out = []
    for child in children:
        # Hidden directories (.git, .memreview) are never agents.
        if child.name.startswith("."):
            continue
        try:
            if child.is_dir() and is_workspace(child):
                out.append(child.resolve())
        except OSError:
            continue
    return out


def expand_fleet(paths: Iterable[Path | str]) -> list[tuple[str, Path]]:
    """(agent name, workspace root) for every workspace the paths name, in order.

    Each path is a workspace, or a directory whose immediate subdirectories are workspaces.
    The same workspace named twice counts once; two agents with the same directory name are
    told apart by a ``-2``, ``-3`` suffix. Raises NotAWorkspace (one line) when a path
    yields no workspace at all.
    """
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        try:
            resolved = path.expanduser().resolve()
        except (OSError, RuntimeError) as exc:
            raise NotAWorkspace(
                _("{path}: cannot resolve path ({reason})").format(path=path, reason=exc)
            ) from None
        if resolved.is_dir() and not is_workspace(resolved):
            agents = _agents_under(resolved)
            if not agents:
                raise NotAWorkspace(
                    _(
                        "{path}: not a memory workspace (no MEMORY.md at its root or under "
                        "memory/) and no subdirectory is one"
                    ).format(path=path)
                )
            found.extend(agents)
        else:
            found.append(check_workspace(path))
    out: list[tuple[str, Path]] = []
    seen_roots: set[Path] = set()
    seen_names: set[str] = set()
    for root in found:
        if root in seen_roots:
            continue
        seen_roots.add(root)
        name = root.name or str(root)
        unique, k = name, 1
        while unique in seen_names:
            k += 1
            unique = f"{name}-{k}"
        seen_names.add(unique)
        out.append((unique, root))
    return out


def expand_workspaces(paths: Iterable[Path | str]) -> list[Path]:
    """Every workspace root the paths name (see expand_fleet); NotAWorkspace if none."""
    return [root for _, root in expand_fleet(paths)]


def is_fleet(paths: Iterable[Path | str]) -> bool:
    """True when the paths name two or more workspaces or a fleet directory."""
    paths = list(paths)
    if len(paths) != 1:
        return len(expand_workspaces(paths)) >= 2
    p = Path(paths[0]).expanduser()
    return p.is_dir() and not is_workspace(p)


def sum_counts(counts: Iterable[dict[str, int]]) -> dict[str, int]:
    """Queue counts added up, every queue present (in the usual order)."""
    from memreview.decisions import registry  # its units import the detectors

    total = dict.fromkeys(registry.queue_names(), 0)
    for c in counts:
        for name, n in c.items():
            if isinstance(n, int):
                total[name] = total.get(name, 0) + n
    return total


def fleet_scan_json(
    paths: Iterable[Path | str], today: date | None = None, all_dormant: bool = False
) -> dict:
    """``scan --json`` for a fleet: one §6 object per agent and the counts summed.

    ``today`` is the review date for every agent; without it each agent keeps its own
    (``review_date:`` in its memreview.yaml, else the clock) and the top-level ``today`` is
    the latest of them.
    """
    from memreview.scan import scan_workspace  # the commands that only list agents skip it

    agents: dict[str, dict] = {}
    days: list[date] = []
    for name, root in expand_fleet(paths):
        result = scan_workspace(root, today=today, all_dormant=all_dormant)
        agents[name] = result.to_json()
        days.append(result.today)
    day = today or max(days)
    return {
        "schema": SCHEMA,
        "today": day.isoformat(),
        "agents": agents,
        "total": {
            "counts": sum_counts(a["counts"] for a in agents.values()),
            "warnings": sum(len(a["warnings"]) for a in agents.values()),
        },
    }
