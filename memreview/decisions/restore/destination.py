"""Where a restore may write an entry back, checked before anything is touched.

The file that gets the entry back (``--to FILE``, an archive's ``From:`` line, the journal)
must be a memory file: a plain relative path ending in ``.md``, a root memory file
(``MEMORY.md``, ``NOW.md``…) or one under ``memory/`` outside the archive and the agent's
own folders (``.dreams``, ``dreaming``, ``review``), as the path given and as the real path
its symlinks lead to; every directory on the way a directory, and the file itself a regular
file or not there yet (it is created). Anything else (an absolute path, ``..``, a link out
of the workspace, a directory, a FIFO, memreview's own files) is refused with the reason,
and the restore writes nothing: the archive keeps the block and no verdict is added.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from memreview import store
from memreview.i18n import _
from memreview.workspace.loader import OTHER_ROOT_FILES, ROOT_MEMORY_FILES, SKIP_UNDER_MEMORY
from memreview.workspace.paths import check_rel


def _place_problem(rel: str, archive_dir: str) -> str | None:
    """Why ``rel`` (clean, relative) is no place for a memory entry, or None."""
    parts = rel.split("/")
    if not rel.endswith(".md"):
        return _("{path} is not a Markdown memory file").format(path=rel)
    archive = archive_dir.strip("/") + "/"
    if rel.startswith(archive):
        return _("{path} is an archive file, not where an entry goes back").format(path=rel)
    if len(parts) == 1 and parts[0] in ROOT_MEMORY_FILES + OTHER_ROOT_FILES:
        return None
    if len(parts) > 1 and parts[0] == "memory" and parts[1] not in SKIP_UNDER_MEMORY:
        return None
    return _(
        "{path} is not a memory file (the root MEMORY.md or NOW.md, or a .md file under memory/)"
    ).format(path=rel)


def _kind_problem(real: Path, root: Path, rel: str) -> str | None:
    """Why the real path ``real`` can't receive text: a directory on the way that is not
    one, or a file that is not a regular file (checked without following links)."""
    here = root
    for part in real.relative_to(root).parts[:-1]:
        here = here / part
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            return None  # created on the way (the writer makes it, one level at a time)
        if not stat.S_ISDIR(st.st_mode):
            return _("{path}: {part} is not a directory").format(path=rel, part=part)
    try:
        st = os.lstat(real)
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(st.st_mode):
        return _("{path} is a directory, not a file").format(path=rel)
    if not stat.S_ISREG(st.st_mode):
        return _("{path} is not a regular file (a FIFO, socket or device)").format(path=rel)
    return None


def destination_problem(root: Path, rel: str | None, archive_dir: str) -> str | None:
    """Why the entry can't go back into ``rel``; None when the file may receive it."""
    if rel is None:
        return None
    try:
        clean = check_rel(rel)
        real = store.resolve_inside(root, clean)
    except store.PathEscape as exc:
        return str(exc)
    problem = _place_problem(clean, archive_dir)
    if problem is None:
        real_rel = real.relative_to(root).as_posix()
        if real_rel != clean:
            problem = _place_problem(real_rel, archive_dir)
            if problem is not None:
                problem = _("{path} leads to {target}: {problem}").format(
                    path=clean, target=real_rel, problem=problem
                )
    return problem or _kind_problem(real, root, clean)
