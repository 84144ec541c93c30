"""Where the workspace is when no path is given: OpenClaw's own order (docs/design.md §1).

OpenClaw has no ``--workspace`` flag; it takes ``$OPENCLAW_WORKSPACE_DIR``, else the
``workspace`` directory of its state directory — ``$OPENCLAW_STATE_DIR``, else
``~/.openclaw-<profile>`` for ``$OPENCLAW_PROFILE``, else ``~/.openclaw``. Agents other than
the default one live beside it in ``<state dir>/workspace-<agentId>``. memreview also takes
its own older ``$OPENCLAW_WORKSPACE`` as another name for ``$OPENCLAW_WORKSPACE_DIR``.

Pure apart from looking at the directories: the environment is passed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from memreview.i18n import _
from memreview.workspace.loader import NotAWorkspace, is_workspace

WORKSPACE_VARS = ("OPENCLAW_WORKSPACE_DIR", "OPENCLAW_WORKSPACE")
DEFAULT_AGENT = "default"


def _home(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("HOME") or Path.home())


def state_dir(environ: Mapping[str, str]) -> Path:
    """OpenClaw's state directory: ``$OPENCLAW_STATE_DIR``, ``~/.openclaw-<profile>``,
    ``~/.openclaw``."""
    explicit = environ.get("OPENCLAW_STATE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    profile = environ.get("OPENCLAW_PROFILE")
    if profile and profile != "default":
        return _home(environ) / f".openclaw-{profile}"
    return _home(environ) / ".openclaw"


def agent_name(root: Path) -> str:
    """``workspace`` is the default agent's; ``workspace-<id>`` agent ``<id>``'s."""
    if root.name.startswith("workspace-") and len(root.name) > len("workspace-"):
        return root.name[len("workspace-") :]
    return DEFAULT_AGENT if root.name == "workspace" else root.name


def _is_ws(path: Path) -> bool:
    try:
        return path.is_dir() and is_workspace(path)
    except OSError:
        return False


def agent_workspaces(state: Path) -> list[tuple[str, Path]]:
    """(agent, workspace) in a state directory: ``workspace`` first, then
    ``workspace-<id>`` by name; only those that are workspaces."""
    out: list[tuple[str, Path]] = []
    if _is_ws(state / "workspace"):
        out.append((DEFAULT_AGENT, state / "workspace"))
    try:
        others = sorted(p for p in state.iterdir() if p.name.startswith("workspace-"))
    except OSError:
        others = []
    for p in others:
        if not p.is_symlink() and _is_ws(p):
            out.append((agent_name(p), p))
    return out


def find_workspaces(environ: Mapping[str, str], cwd: Path) -> tuple[list[tuple[str, Path]], str]:
    """The workspaces to open with no path, and where they were found (for a message).

    An explicit workspace variable names one workspace (it need not be valid: opening it
    says why not). Otherwise the state directory's agents; with none, the current directory.
    """
    for var in WORKSPACE_VARS:
        value = environ.get(var)
        if value:
            p = Path(value).expanduser()
            return [(agent_name(p), p)], f"${var}"
    state = state_dir(environ)
    agents = agent_workspaces(state)
    if agents:
        return agents, str(state)
    return [(cwd.name or str(cwd), cwd)], "the current directory"


def default_roots(environ: Mapping[str, str], cwd: Path) -> list[Path]:
    """Every workspace ``find_workspaces`` names: what ``scan`` and ``report`` cover with
    no path (a fleet when there are several agents). NotAWorkspace when OpenClaw's places
    hold none and the current directory is not one either (its subdirectories are not
    searched: a path given on purpose may be a fleet directory, the current one is not)."""
    agents, where = find_workspaces(environ, cwd)
    if where == "the current directory" and not _is_ws(cwd):
        raise NotAWorkspace(
            _(
                "no workspace found: give a PATH, or set $OPENCLAW_WORKSPACE_DIR (none in "
                "{state}, and {cwd} is not a memory workspace)"
            ).format(state=state_dir(environ), cwd=cwd)
        )
    return [root for _name, root in agents]
