"""The Textual app (docs/design.md §7). Only this package imports Textual."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Textual is loaded when an app is made, not by `memreview.app.config`
    from textual.app import App

__all__ = ["make_app", "make_picker"]


def make_app(
    root: Path,
    today: date | None = None,
    theme: str | None = None,
    *,
    config_path: Path | None = None,
    themes_dir: Path | None = None,
    scan=None,
    backend=None,
    throwaway: bool = False,
) -> App:
    """The review app on the workspace at ``root`` (shared by the CLI and the tests).

    ``config_path`` overrides the user config file, ``themes_dir`` the themes directory,
    ``scan`` the function that loads a workspace (``scan_workspace``'s signature) and
    ``backend`` the decisions adapter. ``throwaway``: the workspace is a copy deleted on
    quit (``memreview demo`` without ``--keep``), and quitting says so.
    """
    from memreview.app.app import MemReviewApp
    from memreview.app.config import load_user_config
    from memreview.app.themes import first_frame_themes

    if scan is None:
        scan = _scan_workspace
    user_config = load_user_config(config_path)
    return MemReviewApp(
        root=Path(root),
        today=today,
        scan=scan,
        backend=backend,  # None: the app makes one after its first frame
        themes=first_frame_themes(theme or user_config.theme, themes_dir),
        theme=theme,
        user_config=user_config,
        throwaway=throwaway,
    )


def _scan_workspace(*args, **kw):
    """``memreview.scan.scan_workspace``, imported when the scan runs (in the app's worker
    thread, after the first frame)."""
    from memreview.scan import scan_workspace

    return scan_workspace(*args, **kw)


def make_picker(agents: list[tuple[str, Path]], where: str) -> App:
    """The small app that asks which agent's workspace to open; its return value is the
    chosen workspace root, or None."""
    from memreview.app.screens.picker import AgentPicker

    return AgentPicker(agents, where)
