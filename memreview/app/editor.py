"""Opening the highlighted item's memory file in the user's editor, at the item's line.

The app suspends while the editor runs; the workspace is loaded again afterwards, since the
file may have changed under the review.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from textual.app import App, SuspendNotSupported

from memreview.app.render import primary_ref
from memreview.decisions import registry
from memreview.i18n import _


def editor_target(root: Path, queue: str, item: dict, result) -> tuple[Path, int] | None:
    """The file and line to open for ``item``: its first ref, else the file its queue names
    (a skill candidate's: the candidates file); None when it has neither."""
    ref = primary_ref(item)
    if ref is not None:
        return root / ref["file"], int(ref.get("line") or 1)
    unit = registry.unit(queue)
    if unit is not None and unit.editor_file is not None:
        return root / unit.editor_file(result.workspace.config), 1
    return None


def run_editor(app: App, command: str, path: Path, line: int) -> bool:
    """Run ``command +line path`` with the app suspended; says what went wrong in a
    notification. True when the editor ran (or failed to start) and the workspace should be
    loaded again; False when this terminal can't hand over to an editor."""
    try:
        with app.suspend():
            subprocess.call([*shlex.split(command), f"+{line}", os.fspath(path)])
    except SuspendNotSupported:
        app.notify(_("an editor can't be opened from here"), severity="warning")
        return False
    except (OSError, ValueError) as exc:
        app.notify(
            _("cannot run the editor {command!r}: {error}").format(command=command, error=exc),
            severity="error",
            markup=False,
        )
    return True
