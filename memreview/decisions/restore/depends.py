"""The restores that stand on a batch: an entry the batch deleted without archiving it
lives on only in that batch's backup; a restore put it back from there. Undoing the batch
first would leave the restore's own undo taking the entry out of its file for an archive
that is no longer offered (the batch undone, its backup is not an archive any more): the
entry would be in no file. So such an undo waits for the restore's."""

from __future__ import annotations

from pathlib import Path

from memreview.decisions.restore.found import removed_entries
from memreview.decisions.state import config_of


def restores_on(root: Path, records, batch) -> list[tuple[str, str]]:
    """(restore batch, entry id) of each restore not undone that put back an entry
    ``batch`` deleted (recorded as ``from_batch``; for a restore journaled before that,
    an entry id the batch's backups give)."""
    later = [
        (b.batch_id, d)
        for b in records
        if b.kind == "restore" and b.committed and not b.undone_by
        for d in b.decisions
        if isinstance(d, dict) and d.get("archive") is None and isinstance(d.get("item"), str)
    ]
    if batch.kind != "apply" or not later:
        return []
    ids: set[str] | None = None
    out: list[tuple[str, str]] = []
    for restore_id, d in later:
        if "from_batch" in d:
            if d["from_batch"] == batch.batch_id:
                out.append((restore_id, d["item"]))
            continue
        if ids is None:
            cfg = config_of(root)
            ids = {it.id for it in removed_entries(root, [batch], cfg.archive_dir, cfg.verdicts)}
        if d["item"] in ids:
            out.append((restore_id, d["item"]))
    return out
