"""Opening the app: on the workspace named or found as OpenClaw finds it (asking which agent
when there are several), and ``memreview demo`` on a throwaway copy of the sample."""

from __future__ import annotations

import os
import shutil
import tempfile
from datetime import date
from pathlib import Path

from memreview.cli.parser import UsageError
from memreview.i18n import _


def default_workspaces() -> tuple[list[tuple[str, Path]], str]:
    """The workspaces to use with no path, found as OpenClaw finds its own
    (memreview.workspace.locate), and where they were found."""
    from memreview.workspace.locate import find_workspaces

    return find_workspaces(os.environ, Path.cwd())


def sample_workspace() -> Path:
    """The sample workspace shipped with the package (memreview.shipped)."""
    from memreview.shipped import shipped_dir

    return shipped_dir("sample_workspace")


def pick_agent(agents: list[tuple[str, Path]], where: str) -> Path | None:
    """Ask which agent's workspace to open (None: the owner quit)."""
    from memreview.app import make_picker

    return make_picker(agents, where).run()


def run_app(root: Path, today: date | None, theme: str | None, throwaway: bool = False) -> int:
    """Run the app on ``root`` until it quits; its exit code."""
    from memreview.ahead import start_ahead
    from memreview.cli.language import choose_for_app
    from memreview.forked import stop_ahead
    from memreview.workspace.root import check_workspace

    root = check_workspace(root)
    # the second process computing some queues beside the app's scan (memreview.scan.ahead),
    # forked before the app's first thread, and before Textual is imported: the fewer pages
    # the two share, the fewer the app copies as it writes them
    start_ahead(root, today)
    try:
        from memreview.app import make_app

        choose_for_app(root)
        app = make_app(root, today=today, theme=theme, throwaway=throwaway)
        app.run()
    finally:
        stop_ahead()
    return int(app.return_code or 0)


def open_app(args) -> int:
    """``memreview [PATH]``: the app on PATH, else on the agent's workspace found."""
    root = args.path
    if root is None:
        agents, where = default_workspaces()
        root = agents[0][1] if len(agents) == 1 else pick_agent(agents, where)
        if root is None:
            return 0
    return run_app(root, args.today, args.theme)


def cmd_demo(args) -> int:
    """``memreview demo``: the app on a copy of the sample workspace, deleted after unless
    ``--keep``."""
    src = sample_workspace()
    if not src.is_dir():
        raise UsageError(_("the sample workspace is missing ({path})").format(path=src))
    tmp = Path(tempfile.mkdtemp(prefix="memreview-demo-"))
    dest = tmp / "workspace"
    shutil.copytree(src, dest, symlinks=True)
    try:
        return run_app(dest, None, args.theme, throwaway=not args.keep)
    finally:
        if args.keep:
            print(_("the demo workspace is kept at {path}").format(path=dest))
        else:
            shutil.rmtree(tmp, ignore_errors=True)
