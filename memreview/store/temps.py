"""The temp files a killed memreview left, removed by the next run — only those it can prove
it made (docs/design.md §4).

A memory file is replaced through a temp file beside it, ``.<name>.<8 hex>.tmp``, whose name
the journal records (intent and replan lines) before it is created, and whose bytes are the
batch's new version of the file, of which a copy is kept under ``.memreview/backups/``
before the intent line. So a file is memreview's own stray temp file when:

- its name has the temp shape and a batch of the journal names it (committed or not: a kill
  can come at any instruction);
- it is a regular file, reached from the workspace one directory at a time without following
  a link;
- its bytes are the batch's new version of the file, or the start of it (a kill while it was
  being written), as the batch's copy of that version holds it.

Anything else of that shape (an agent's file, a copy it changed, a link) is left alone. The
files of a batch still being written are never touched: this runs under the workspace lock
and does nothing while another memreview holds it.

memreview's own files under ``.memreview/`` (state.yaml, pending.yaml, the reviewed
promotions, a kept skipped candidate, the copies it keeps of a damaged file) are replaced the
same way, through ``.<name>.<8 hex>.tmp`` beside them, but no journal names those temp files.
One is memreview's own when its name is the temp name of one of those files (a fixed list of
names and shapes: :data:`OWN_TEMP`), and it is a regular file of ``.memreview/`` itself or
of ``.memreview/skipped/``, reached without following a link. Every such write happens under
the lock, so one found while holding the lock is one a killed memreview left.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path

from memreview.store.journal import BatchRecord, JournalFile, batches
from memreview.store.locks import LockHeld, workspace_locks
from memreview.store.paths import PathEscape, check_rel, safe_read_bytes
from memreview.store.private import PRIVATE_DIR, dir_at

TEMP_RE = re.compile(r"^\.(.+)\.[0-9a-f]{8}\.tmp$")
# The temp names of memreview's own files, by the folder of .memreview they are in.
OWN_TEMP = {
    PRIVATE_DIR: re.compile(
        r"\.(state\.yaml|pending\.yaml|pending\.yaml\.broken-[0-9-]+|promotions-seen\.json"
        r"|\.gitignore|[a-z]+\.jsonl\.torn-[0-9a-f-]+)\.[0-9a-f]{8}\.tmp"
    ),
    f"{PRIVATE_DIR}/skipped": re.compile(r"\.[0-9a-f]{64}\.json\.[0-9a-f]{8}\.tmp"),
}
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _named(records: list[BatchRecord]) -> list[tuple[str, BatchRecord]]:
    """Every temp file name the journal records, once, with the (last) batch naming it."""
    out: dict[str, BatchRecord] = {}
    for b in records:
        for t in b.temps:
            out[t] = b
    return list(out.items())


def _target(rel: str) -> tuple[str, str, str] | None:
    """(folder, temp name, the file it replaces) of a temp file's path, or None when the
    path is not one of the temp shape."""
    try:
        clean = check_rel(rel)
    except PathEscape:
        return None
    folder, _sep, name = clean.rpartition("/")
    m = TEMP_RE.match(name)
    if m is None:
        return None
    return folder, name, f"{folder}/{m.group(1)}" if folder else m.group(1)


def _present(root: Path, folder: str, name: str) -> bool:
    try:
        with dir_at(root, folder, create=False) as fd:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except (OSError, PathEscape):
        return False
    return stat.S_ISREG(st.st_mode)


def _new_version(root: Path, jf: JournalFile) -> bytes | None:
    """The batch's new version of ``jf.file``, from its copy, when that copy is the journal's."""
    if not jf.after_copy or not jf.after:
        return None
    try:
        data = safe_read_bytes(root, jf.after_copy)
    except (OSError, PathEscape):
        return None
    return data if hashlib.sha256(data).hexdigest() == jf.after else None


def _remove_if_ours(root: Path, folder: str, name: str, version: bytes) -> bool:
    """Remove the temp file ``name`` of ``folder`` when it is a regular file holding
    ``version`` or the start of it; True when removed."""
    try:
        with dir_at(root, folder, create=False) as fd:
            try:
                tfd = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=fd)
            except OSError:
                return False
            try:
                st = os.fstat(tfd)
                if not stat.S_ISREG(st.st_mode) or st.st_size > len(version):
                    return False
                data = os.pread(tfd, st.st_size + 1, 0)
            finally:
                os.close(tfd)
            if not version.startswith(data):
                return False
            os.unlink(name, dir_fd=fd)  # swapped for a link meanwhile: the link goes, only
    except (OSError, PathEscape):
        return False
    return True


def clean_temp_files(root: Path | str, *, lock_wait: float = 0.0) -> list[str]:
    """Remove the stray temp files memreview can prove it made (module docstring); return
    their workspace-relative paths. Nothing is done while another memreview holds the lock
    (its batch may be writing those very files)."""
    real_root = Path(root).resolve()
    found = []
    for rel, batch in _named(batches(real_root)):
        where = _target(rel)
        if where is not None and _present(real_root, where[0], where[1]):
            found.append((rel, batch, where))
    own = _own_temps(real_root)
    if not found and not own:
        return []
    removed: list[str] = []
    try:
        with workspace_locks(real_root, (), lock_wait):
            for rel, batch, (folder, name, target) in found:
                jf = next((f for f in batch.files if f.file == target), None)
                version = None if jf is None else _new_version(real_root, jf)
                if version is not None and _remove_if_ours(real_root, folder, name, version):
                    removed.append(rel)
            removed += [rel for rel in own if _remove_own(real_root, rel)]
    except LockHeld:
        return []
    return removed


def _own_temps(root: Path) -> list[str]:
    """The paths of the files of .memreview/ (and its skipped/ folder) named as the temp
    files of memreview's own writes (:data:`OWN_TEMP`)."""
    out = []
    for folder, shape in OWN_TEMP.items():
        try:
            with dir_at(root, folder, create=False) as fd:
                names = os.listdir(fd)
        except (OSError, PathEscape):
            continue
        out += [f"{folder}/{n}" for n in sorted(names) if shape.fullmatch(n)]
    return out


def _remove_own(root: Path, rel: str) -> bool:
    """Remove the temp file ``rel`` of .memreview/ when it is a regular file of one name
    (never a link, a hard link, a directory or a pipe); True when removed."""
    folder, _sep, name = rel.rpartition("/")
    try:
        with dir_at(root, folder, create=False) as fd:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            # a temp file memreview made has one name; a second name of another file
            # (a hard link an agent gave it) is not one of its temp files
            if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
                return False
            os.unlink(name, dir_fd=fd)
    except (OSError, PathEscape):
        return False
    return True
