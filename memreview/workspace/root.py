"""Whether a path is a workspace: checked before anything else is imported (the app's first
frame, a command's first line of output wait for nothing more). ``loader`` reads it."""

from __future__ import annotations

import os
from pathlib import Path

from memreview.i18n import _


class NotAWorkspace(Exception):
    """The path is not a workspace; the message is one line for the user."""


def is_workspace(root: Path) -> bool:
    return (root / "MEMORY.md").is_file() or (root / "memory" / "MEMORY.md").is_file()


def check_workspace(path: Path) -> Path:
    """The resolved workspace root, or NotAWorkspace with a one-line reason."""
    try:
        root = path.expanduser().resolve()
    except (OSError, RuntimeError) as exc:
        raise NotAWorkspace(
            _("{path}: cannot resolve path ({reason})").format(path=path, reason=exc)
        ) from None
    if not root.exists():
        raise NotAWorkspace(_("{path}: no such directory").format(path=path))
    if not root.is_dir():
        raise NotAWorkspace(_("{path}: not a directory").format(path=path))
    if not os.access(root, os.R_OK | os.X_OK):
        raise NotAWorkspace(_("{path}: permission denied").format(path=path))
    if not is_workspace(root):
        raise NotAWorkspace(
            _("{path}: not a memory workspace (no MEMORY.md at its root or under memory/)").format(
                path=path
            )
        )
    return root
