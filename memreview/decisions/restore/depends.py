"""The later batches that stand on a batch: each put back something the batch took out of
a file, from what only that batch keeps. A restore put back an entry the batch deleted
without archiving it (from the batch's backup); an unhide put back a skill candidate the
batch's skip took out of skill_candidates.json (the batch's state entry kept it). Undoing
the batch first would leave the later batch's own undo taking that text out of its file
again, for a place that no longer offers it (the batch undone, its backup is no archive
and its state entry is gone): the text would be in no file. So such an undo waits."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memreview import store
from memreview.decisions.restore.found import removed_entries
from memreview.decisions.restore.item import read_text
from memreview.decisions.state import config_of


def standing_on(
    root: Path, records: Sequence[store.BatchRecord], batch: store.BatchRecord
) -> list[tuple[str, str]]:
    """(later batch, item) of each restore or unhide not undone that put back what
    ``batch`` took out (a restore recorded with ``from_batch``; one journaled before that
    names an entry id the batch's backups give)."""
    if batch.kind != "apply":
        return []
    out: list[tuple[str, str]] = []
    ids: set[str] | None = None
    for b in records:
        if b.kind not in ("restore", "unhide") or not b.committed or b.undone_by:
            continue
        for d in b.decisions:
            if not isinstance(d, dict) or not isinstance(d.get("item"), str):
                continue
            if b.kind == "unhide":
                hidden = d.get("hidden")
                if not isinstance(hidden, dict):
                    hidden = {}
                if hidden.get("batch") == batch.batch_id and hidden.get("removed"):
                    out.append((b.batch_id, d["item"]))
                continue
            if d.get("archive") is not None:
                if _archived_by(root, batch, d):
                    out.append((b.batch_id, d["item"]))
                continue
            if "from_batch" in d:
                if d["from_batch"] == batch.batch_id:
                    out.append((b.batch_id, d["item"]))
                continue
            if ids is None:
                cfg = config_of(root)
                found = removed_entries(root, [batch], cfg.archive_dir, cfg.verdicts)
                ids = {it.id for it in found}
            if d["item"] in ids:
                out.append((b.batch_id, d["item"]))
    return out


def _archived_by(root: Path, batch: store.BatchRecord, d: dict[str, Any]) -> bool:
    """Whether ``batch`` put the entry the restore ``d`` took out of its archive there:
    the entry's first line is in the batch's copy of that archive and not in its backup."""
    title = d.get("title")
    jf = next((f for f in batch.files if f.file == d.get("archive") and f.written), None)
    if not isinstance(title, str) or jf is None or not jf.after_copy:
        return False
    blind = store.redaction_blind
    try:
        after = read_text(root, jf.after_copy)
        before = None if jf.created else read_text(root, jf.backup)
    except (OSError, store.PathEscape):  # copies pruned or unreadable: nothing to go by
        return False
    had = {blind(t) for t in before.texts} if before is not None else set()
    return after is not None and blind(title) in {blind(t) for t in after.texts} - had
