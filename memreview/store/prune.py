"""Backups that don't grow forever: the copies under ``.memreview/backups/`` of batches old
enough are removed after an apply.

A batch's copies (its backups and its copies of the new versions) are kept while it is one
of the last ``keep_batches`` batches, or no older than ``keep_days`` days, or still undoable
(``history``), or cut short and not finished (recover needs them). The others' are removed
file by file — the journal names each, with its sha256 — and a line per pruned batch goes to
``.memreview/pruned.jsonl``, which ``memreview log`` reads to say so.

The backups folder is inside the workspace, where an agent can write: a copy is removed only
when memreview can prove it is its own — reached from the workspace one directory at a time
without following a link, a regular file, its digest the one the journal (or the record of a
scrubbed secret) gives it. Anything else there is left alone and named.
The journal itself is never pruned. A copy that a kept batch also names (two batches in the
same second share a folder) stays.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from memreview.store.history import PRUNED, pruned_batches, undo_blockers, why_not_undoable
from memreview.store.journal import BatchRecord, batches
from memreview.store.paths import PathEscape, check_rel, open_dir_fd
from memreview.store.private import PRIVATE_DIR, append_line
from memreview.store.scrub import scrubbed_hashes

BACKUPS = f"{PRIVATE_DIR}/backups"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


@dataclass
class PruneResult:
    """What a prune removed."""

    batches: list[str] = field(default_factory=list)
    files: int = 0
    bytes: int = 0
    left: list[str] = field(default_factory=list)  # copies it could not prove are its own


def _copies(batch: BatchRecord) -> dict[str, str | None]:
    """{copy: the sha256 the journal gives it} of each backup and after-copy of ``batch``."""
    out: dict[str, str | None] = {}
    for f in batch.files:
        if f.backup:
            out[f.backup] = f.before
        if f.after_copy:
            out[f.after_copy] = f.after
    return out


def _when(batch: BatchRecord) -> datetime | None:
    try:
        moment = datetime.fromisoformat(batch.committed_ts or batch.ts)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.astimezone()


def _undoable(root: Path, batch: BatchRecord, verdicts: Sequence[str]) -> bool:
    if not batch.committed and not batch.finished_by and not batch.undone_by:
        return True  # cut short: recover --finish or --rollback needs its copies
    if why_not_undoable(batch):
        return False
    # whether a file blocks the undo, not which later batch did (that is for log to say):
    # no later batches given, so each batch is looked at once
    return not undo_blockers(root, batch, (), verdicts_files=verdicts)


def _accepted(journaled: str | None, chains: dict[str, dict[str, str]], rel: str) -> set[str]:
    """The digests a copy may have: the journaled one, or what scrubbing a secret made of it."""
    ok = {journaled} if journaled else set()
    chain, h = chains.get(rel, {}), journaled
    while h in chain and chain[h] not in ok:
        h = chain[h]
        ok.add(h)
    return ok


def _remove(root_fd: int, rel: str, accepted: set[str]) -> int | None:
    """Remove one copy under the backups folder when it is provably memreview's own: reached
    from the workspace without following a link, a regular file, its digest the journal's.
    Returns its size (0 when it was not there), or None when it was left alone."""
    try:
        if check_rel(rel) != rel or not rel.startswith(BACKUPS + "/"):
            return None  # the journal names only copies under .memreview/backups/
    except PathEscape:
        return None
    folder, _sep, name = rel.rpartition("/")
    try:
        parent = open_dir_fd(root_fd, folder)
    except FileNotFoundError:
        return 0
    except (OSError, PathEscape):
        return None  # a link on the way (or not a directory): never followed
    try:
        if not _own_copy(parent, name, accepted):
            return None
        size = os.stat(name, dir_fd=parent, follow_symlinks=False).st_size
        os.unlink(name, dir_fd=parent)  # a name swapped for a link meanwhile: the link goes
    except FileNotFoundError:
        return 0
    except OSError:
        return None
    finally:
        os.close(parent)
    _remove_empty_dirs(root_fd, folder)
    return size


def _own_copy(parent: int, name: str, accepted: set[str]) -> bool:
    """Is ``name`` in the directory ``parent`` a regular file (not a link) whose sha256 is
    one the journal gives the copy?"""
    st = os.stat(name, dir_fd=parent, follow_symlinks=False)
    if not stat.S_ISREG(st.st_mode) or not accepted:
        return False
    fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=parent)
    try:
        st2 = os.fstat(fd)
        if (st2.st_ino, st2.st_dev) != (st.st_ino, st.st_dev) or not stat.S_ISREG(st2.st_mode):
            return False
        digest = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
    finally:
        os.close(fd)
    return digest.hexdigest() in accepted


def _remove_empty_dirs(root_fd: int, folder: str) -> None:
    """The folders under backups/ left empty go (reached without following links)."""
    while folder.startswith(BACKUPS + "/"):
        up, _sep, name = folder.rpartition("/")
        try:
            fd = open_dir_fd(root_fd, up)
        except (OSError, PathEscape):
            return
        try:
            os.rmdir(name, dir_fd=fd)  # only when empty; a link is not a directory: refused
        except OSError:
            return
        finally:
            os.close(fd)
        folder = up


def prune_backups(
    root: Path | str,
    *,
    keep_batches: int = 50,
    keep_days: int = 90,
    now: datetime | None = None,
    verdicts_files: Sequence[str] = ("memory/review/verdicts.jsonl",),
) -> PruneResult:
    """Remove the copies of the batches past ``keep_batches`` and ``keep_days`` that can't
    be undone any more; record each pruned batch in ``pruned.jsonl``. A copy memreview can't
    prove is its own (a link, a directory, a digest the journal doesn't give it) is left
    alone and named in the result's ``left``. One pass over the batches: linear in the
    journal."""
    real_root = Path(root).resolve()
    now = now or datetime.now().astimezone()
    records = batches(real_root)
    done = pruned_batches(real_root)
    cutoff = now - timedelta(days=keep_days)
    recent = {b.batch_id for b in records[-keep_batches:]} if keep_batches else set()
    result = PruneResult()
    keep: set[str] = set()
    drop: list[tuple[BatchRecord, dict[str, str | None]]] = []
    for b in records:
        copies = _copies(b)
        if not copies:
            continue  # nothing of its own to remove
        when = _when(b)
        if (
            b.batch_id in recent
            or b.batch_id in done
            or when is None
            or when >= cutoff
            or _undoable(real_root, b, verdicts_files)
        ):
            keep.update(copies)
        else:
            drop.append((b, copies))
    if not drop:
        return result
    chains = scrubbed_hashes(real_root)
    root_fd = os.open(real_root, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    try:
        for b, copies in drop:
            files = size = 0
            for rel in sorted(set(copies) - keep):
                freed = _remove(root_fd, rel, _accepted(copies[rel], chains, rel))
                if freed is None:
                    result.left.append(rel)
                    continue
                files += 1
                size += freed
            line = {"ts": now.isoformat(), "batch": b.batch_id, "files": files, "bytes": size}
            append_line(real_root, PRUNED, json.dumps(line))
            result.batches.append(b.batch_id)
            result.files += files
            result.bytes += size
    finally:
        os.close(root_fd)
    return result


def backup_usage(root: Path | str) -> tuple[int, int]:
    """(files, bytes) under ``.memreview/backups/``; (0, 0) when there is none."""
    top = Path(root).resolve() / BACKUPS
    files = size = 0
    for dirpath, _dirs, names in os.walk(top):
        for name in names:
            try:
                size += os.lstat(os.path.join(dirpath, name)).st_size
                files += 1
            except OSError:
                continue
    return files, size
