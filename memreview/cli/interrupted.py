"""What every command that reads a workspace's journal says first: the temp files of batches
cut short, removed, and those batches named (docs/design.md §4). Shared by scan, apply, undo and
recover."""

from __future__ import annotations

import sys
from pathlib import Path

from memreview.i18n import _


def report_interrupted(root: Path, *, quiet: bool = False, change: bool | None = None) -> int:
    """Remove the temp files of batches cut short, and name those batches (docs/design.md §4).

    Returns how many interrupted batches there are. ``quiet``: say nothing when the journal
    can't be read (a scan reads, it doesn't need the journal). ``change`` (default: not
    quiet): mend a swapped ``.memreview``; a read-only command only says what it found."""
    from memreview.display import one_line, visible
    from memreview.store import (
        PathEscape,
        clean_temp_files,
        interrupted_batches,
        journal_problems,
        mend_private_dir,
    )

    try:  # .memreview swapped for a symlink or a file: mended first, said exactly
        mend = mend_private_dir(root, change=not quiet if change is None else change)
    except (OSError, PathEscape) as exc:
        mend = None
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        message = _("memreview: warning: .memreview not mended: {reason}")
        print(message.format(reason=one_line(reason)), file=sys.stderr)
    if mend is not None and (mend.adopted or not quiet):  # quiet: only a folder to put back
        for line in mend.lines():
            message = _("memreview: warning: {message}").format(message=visible(line))
            print(message, file=sys.stderr)
    try:
        cleaned = clean_temp_files(root)
        damaged = [] if quiet else journal_problems(root)
        found_batches = interrupted_batches(root)
    except (OSError, PathEscape) as exc:  # what follows says why it can't write, if it can't
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if not quiet:
            print(
                _("memreview: warning: journal not read: {reason}").format(reason=one_line(reason)),
                file=sys.stderr,
            )
        return 0
    for rel in cleaned:
        message = _("memreview: removed {path}, a temp file a stopped memreview left")
        print(message.format(path=visible(rel)), file=sys.stderr)
    for problem in damaged:  # a damaged journal line: named with its number, skipped
        print(
            _("memreview: warning: {message}").format(message=one_line(problem.describe())),
            file=sys.stderr,
        )
    for found in found_batches:
        print(
            _("memreview: warning: {message}").format(message=visible(found.describe())),
            file=sys.stderr,
        )
    return len(found_batches)
