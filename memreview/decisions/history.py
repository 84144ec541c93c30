"""The journal's history as the owner walks it back: the store's (every batch, newest
first, whether its files can be taken back), with the batches that must wait for a later
one (``restore.depends``: a restore or an unhide stands on them) marked as such."""

from __future__ import annotations

from pathlib import Path

from memreview import store
from memreview.decisions.restore.depends import standing_on
from memreview.decisions.state import config_of
from memreview.i18n import _


def batch_history(root: Path | str) -> list[store.BatchEntry]:
    """Every batch of the journal, newest first (``store.BatchEntry``), with whether it can
    be undone now."""
    root = Path(root).resolve()
    entries = store.batch_history(root, verdicts_files=(config_of(root).verdicts,))
    records = [e.record for e in reversed(entries)]
    for entry in entries:
        if not entry.undoable:
            continue
        found = standing_on(root, records, entry.record)
        if found:
            later, item = found[-1]
            entry.undoable = False
            entry.why_not = _(
                "batch {later} put back {item}, which this batch took out; undo batch {later} first"
            ).format(later=later, item=item)
    return entries
