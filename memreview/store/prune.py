"""Backups that don't grow forever: the copies under ``.memreview/backups/`` of batches old
enough are removed after an apply.

A batch's copies (its backups and its copies of the new versions) are kept while it is one
of the last ``keep_batches`` batches, or no older than ``keep_days`` days, or still undoable
(``history``), or cut short and not finished (recover needs them). The others' are removed file by file — the journal names each — and a line per
pruned batch goes to ``.memreview/pruned.jsonl``, which ``memreview log`` reads to say so.
The journal itself is never pruned. A copy that a kept batch also names (two batches in the
same second share a folder) stays.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from memreview.store.history import PRUNED, pruned_batches, undo_blockers, why_not_undoable
from memreview.store.journal import BatchRecord, batches
from memreview.store.paths import PathEscape, resolve_inside
from memreview.store.private import PRIVATE_DIR, append_line

BACKUPS = f"{PRIVATE_DIR}/backups"


@dataclass
class PruneResult:
    """What a prune removed."""

    batches: list[str] = field(default_factory=list)
    files: int = 0
    bytes: int = 0


def _copies(batch: BatchRecord) -> set[str]:
    return {p for f in batch.files for p in (f.backup, f.after_copy) if p}


def _when(batch: BatchRecord) -> datetime | None:
    try:
        moment = datetime.fromisoformat(batch.committed_ts or batch.ts)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.astimezone()


def _undoable(root: Path, batch: BatchRecord, later: list[BatchRecord], verdicts) -> bool:
    if not batch.committed and not batch.finished_by and not batch.undone_by:
        return True  # cut short: recover --finish or --rollback needs its copies
    if why_not_undoable(batch):
        return False
    return not undo_blockers(root, batch, later, verdicts_files=verdicts)


def _remove(root: Path, rel: str) -> int:
    """Remove one copy under the backups folder; its size (0 when it was not there)."""
    if not rel.startswith(BACKUPS + "/"):
        return 0  # the journal names only copies under .memreview/backups/
    try:
        path = resolve_inside(root, rel)
        size = path.lstat().st_size
        path.unlink()
    except (OSError, PathEscape):
        return 0
    parent = path.parent
    top = (root / BACKUPS).resolve()
    while parent != top and top in parent.parents:
        try:
            parent.rmdir()  # only when empty
        except OSError:
            break
        parent = parent.parent
    return size


def prune_backups(
    root: Path | str,
    *,
    keep_batches: int = 50,
    keep_days: int = 90,
    now: datetime | None = None,
    verdicts_files=("memory/review/verdicts.jsonl",),
) -> PruneResult:
    """Remove the copies of the batches past ``keep_batches`` and ``keep_days`` that can't
    be undone any more; record each pruned batch in ``pruned.jsonl``."""
    real_root = Path(root).resolve()
    now = now or datetime.now().astimezone()
    records = batches(real_root)
    done = pruned_batches(real_root)
    cutoff = now - timedelta(days=keep_days)
    recent = {b.batch_id for b in records[-keep_batches:]} if keep_batches else set()
    result = PruneResult()
    keep: set[str] = set()
    drop: list[BatchRecord] = []
    for i, b in enumerate(records):
        when = _when(b)
        if (
            b.batch_id in recent
            or when is None
            or when >= cutoff
            or b.batch_id in done
            or _undoable(real_root, b, records[i + 1 :], verdicts_files)
        ):
            keep |= _copies(b)
        else:
            drop.append(b)
    for b in drop:
        files = size = 0
        for rel in sorted(_copies(b) - keep):
            freed = _remove(real_root, rel)
            if freed or not (real_root / rel).exists():
                files += 1
                size += freed
        line = {"ts": now.isoformat(), "batch": b.batch_id, "files": files, "bytes": size}
        append_line(real_root, PRUNED, json.dumps(line))
        result.batches.append(b.batch_id)
        result.files += files
        result.bytes += size
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
