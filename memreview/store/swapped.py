"""``.memreview`` swapped for something else (a symlink, a file), found by the next run.

A batch whose ``.memreview`` turns into a symlink part way stops (the journal can't follow
it; nothing is written through the link). The next run (scan, apply, undo, recover, the app)
looks before it reads the journal, says what it found, and mends it only where that is
safe — where memreview's own folder can be put back:

- the link (or file) is never followed, and what it points to is never read or changed;
- memreview's folder is put back as ``.memreview`` when it is in the workspace and
  unambiguous: the link's target when that is a directory inside the workspace holding a
  journal, else the one folder at the top of the workspace named ``.memreview…`` whose
  journal has a batch cut short (where a swap by renaming leaves it). The link is first
  moved aside, in the workspace, to ``.memreview.swapped-<date>-<time>``. With the folder
  back, the batch that was cut short is named as any other, to finish or roll back;
- otherwise nothing is changed: the link may be the owner's own arrangement, and memreview
  keeps refusing to write through it, naming it and what the owner can do. No entry is lost
  meanwhile: a batch writes the file an entry moves to before the file it leaves;
- when several folders could be memreview's, none is chosen: they are named.

Every rename is made relative to the workspace's directory fd: nothing outside changes.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from memreview.i18n import _
from memreview.store.journal import build_batches
from memreview.store.journal_lines import JOURNAL, check_lines
from memreview.store.paths import PathEscape, open_dir_fd, read_fd
from memreview.store.private import PRIVATE_DIR
from memreview.store.writer import exists_at

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


@dataclass
class PrivateMend:
    """What the next run found in place of ``.memreview`` and what it did."""

    found: str  # "a symlink to …" or "a file"
    moved_to: str | None = None  # where the link or file went
    adopted: str | None = None  # memreview's folder, put back as .memreview
    candidates: list[str] = field(default_factory=list)  # several: none chosen
    looked_only: bool = False  # a read-only run: said what would be done, did nothing

    def lines(self) -> list[str]:
        """What was found and what was done, one line each, for the user."""
        out = [
            _(".memreview is {found}, not memreview's folder: never followed").format(
                found=self.found
            )
        ]
        if self.candidates:
            out.append(
                _(
                    "memreview's folder could be any of {names}: none was chosen and nothing "
                    "was moved; move the right one to .memreview (and the link away) and run "
                    "`memreview recover`"
                ).format(names=", ".join(self.candidates))
            )
        elif self.adopted and self.looked_only:
            out.append(
                _(
                    "memreview's folder is at {name}: `memreview recover` (or the next apply, "
                    "undo, or the app) moves the link aside and puts the folder back; a scan "
                    "changes nothing"
                ).format(name=self.adopted)
            )
        elif self.adopted:
            out.append(
                _("moved it aside to {name} (what it points to is untouched)").format(
                    name=self.moved_to
                )
            )
            out.append(
                _("memreview's folder was found at {name} and is back as .memreview").format(
                    name=self.adopted
                )
            )
        else:
            out.append(
                _(
                    "memreview's folder is not in the workspace: nothing was changed, and "
                    "nothing is written until .memreview is a folder again; put memreview's "
                    "folder back there, or move the link away to start a new one (batches "
                    "before it can't be undone then; no entry is lost: a batch writes where "
                    "an entry goes before where it leaves)"
                )
            )
        return out


def mend_private_dir(
    root: Path | str, *, now: datetime | None = None, change: bool = True
) -> PrivateMend | None:
    """Look at ``.memreview`` and mend it where that is safe (see the module's docstring);
    None when it is a directory or absent. ``change=False`` (a read-only run such as a
    scan): only say what would be done."""
    real_root = Path(root).resolve()
    root_fd = os.open(real_root, _DIR_FLAGS)
    try:
        try:
            st = os.stat(PRIVATE_DIR, dir_fd=root_fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        if stat.S_ISDIR(st.st_mode):
            return None
        if stat.S_ISLNK(st.st_mode):
            target = os.readlink(PRIVATE_DIR, dir_fd=root_fd)
            mend = PrivateMend(_("a symlink to {target}").format(target=target))
            linked = _linked_folder(real_root, target)
            candidates = [linked] if linked else _renamed_folders(root_fd)
        else:
            mend = PrivateMend(_("a file"))
            candidates = _renamed_folders(root_fd)
        if len(candidates) > 1:
            mend.candidates = candidates
            return mend
        if not candidates:
            return mend  # maybe the owner's own link: said, not changed
        if not change:
            mend.adopted, mend.looked_only = candidates[0], True
            return mend
        stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
        aside = f"{PRIVATE_DIR}.swapped-{stamp}"
        k = 1
        while exists_at(aside, root_fd):
            k += 1
            aside = f"{PRIVATE_DIR}.swapped-{stamp}-{k}"
        os.rename(PRIVATE_DIR, aside, src_dir_fd=root_fd, dst_dir_fd=root_fd)
        mend.moved_to = aside
        folder, _sep, name = candidates[0].rpartition("/")
        parent = open_dir_fd(root_fd, folder) if folder else os.dup(root_fd)
        try:
            os.rename(name, PRIVATE_DIR, src_dir_fd=parent, dst_dir_fd=root_fd)
        finally:
            os.close(parent)
        mend.adopted = candidates[0]
        os.fsync(root_fd)
        return mend
    finally:
        os.close(root_fd)


def _linked_folder(real_root: Path, target: str) -> str | None:
    """The workspace-relative name of the link's target when it is memreview's folder
    inside the workspace (a real directory holding a journal), else None."""
    path = Path(os.path.normpath(real_root / target))  # relative to the root, like the link
    try:
        rel = path.relative_to(real_root).as_posix()
    except ValueError:
        return None  # outside: not read
    if rel in (".", PRIVATE_DIR) or rel.startswith("../"):
        return None
    try:
        root_fd = os.open(real_root, _DIR_FLAGS)
        try:
            folder, _sep, name = rel.rpartition("/")
            parent = open_dir_fd(root_fd, folder) if folder else os.dup(root_fd)
        finally:
            os.close(root_fd)
    except (OSError, PathEscape):
        return None
    try:
        return rel if _holds_journal(parent, name) is not None else None
    finally:
        os.close(parent)


def _renamed_folders(root_fd: int) -> list[str]:
    """Folders at the top of the workspace named ``.memreview…`` (not symlinks) whose journal
    has a batch cut short: where a swap by renaming leaves memreview's folder."""
    out = []
    for name in sorted(os.listdir(root_fd)):
        if not name.startswith(PRIVATE_DIR) or name == PRIVATE_DIR:
            continue
        if ".swapped-" in name:
            continue
        data = _holds_journal(root_fd, name)
        if data is None:
            continue
        rows, problems = check_lines(data)
        batches = build_batches(rows, problems)
        if any(not (b.committed or b.undone_by or b.finished_by) for b in batches):
            out.append(name)
    return out


def _holds_journal(parent: int, name: str) -> bytes | None:
    """The journal of directory ``name`` of ``parent`` when it looks like memreview's folder
    (a real directory with a journal, and no Markdown at its top), else None."""
    try:
        fd = os.open(name, _DIR_FLAGS | _NOFOLLOW, dir_fd=parent)
    except OSError:
        return None
    try:
        if any(n.endswith(".md") for n in os.listdir(fd)):
            return None  # memory, not memreview's folder
        try:
            jfd = os.open(JOURNAL, os.O_RDONLY | _NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(jfd).st_mode):
                return None
            return read_fd(jfd)
        finally:
            os.close(jfd)
    finally:
        os.close(fd)
