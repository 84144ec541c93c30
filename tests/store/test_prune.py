"""Backups pruned: past the last N batches and the days kept, the copies of batches that
can't be undone any more go; those of undoable batches stay; log says what was pruned."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from store_helpers import replace_line

from memreview.store import (
    apply_batch,
    backup_usage,
    batch_history,
    prune_backups,
    pruned_batches,
    undo_batch,
)
from memreview.workspace.config import load_config

UTC = UTC
OLD = datetime(2026, 1, 10, 9, 0, 0, tzinfo=UTC)
NOW = datetime(2026, 7, 1, 9, 0, 0, tzinfo=UTC)


def _apply(ws, job, when):
    result = apply_batch(ws, [job], [{"item": "x", "action": "a", "queue": "q"}], now=when)
    assert result.ok
    return result.batch_id


def _copies(ws, batch_id):
    record = next(e.record for e in batch_history(ws) if e.batch_id == batch_id)
    return [ws / p for f in record.files for p in (f.backup, f.after_copy) if p]


def test_old_blocked_batches_lose_their_copies_undoable_and_recent_ones_keep_them(ws):
    first = _apply(ws, replace_line("MEMORY.md", "- alpha", "- A"), OLD)
    second = _apply(ws, replace_line("MEMORY.md", "- A", "- AA"), OLD + timedelta(seconds=1))
    last = _apply(ws, replace_line("memory/notes.md", "- one", "- 1"), NOW)
    files_before, size_before = backup_usage(ws)
    result = prune_backups(ws, keep_batches=1, keep_days=90, now=NOW)
    # the first is blocked by the second: it can't be undone, its copies go
    assert result.batches == [first]
    assert result.files == 2 and result.bytes > 0
    assert not any(p.exists() for p in _copies(ws, first))
    # the second can still be undone, the last is recent: both keep theirs
    assert all(p.exists() for p in _copies(ws, second) + _copies(ws, last))
    assert backup_usage(ws) == (files_before - 2, size_before - result.bytes)
    assert set(pruned_batches(ws)) == {first}
    entry = next(e for e in batch_history(ws) if e.batch_id == first)
    assert not entry.undoable and entry.pruned is not None
    assert entry.to_json()["pruned"] == NOW.isoformat()
    # pruning again prunes nothing more
    assert prune_backups(ws, keep_batches=1, keep_days=90, now=NOW).batches == []


def test_an_undone_batch_is_pruned_when_old_and_nothing_when_recent(ws):
    first = _apply(ws, replace_line("MEMORY.md", "- alpha", "- A"), OLD)
    assert undo_batch(ws, first, now=OLD + timedelta(seconds=5)).ok
    # within the days kept: nothing goes, however many batches
    assert prune_backups(ws, keep_batches=1, keep_days=365, now=NOW).batches == []
    pruned = prune_backups(ws, keep_batches=1, keep_days=90, now=NOW)
    assert pruned.batches == [first]  # the undo batch is the last one: kept
    assert not any(p.exists() for p in _copies(ws, first))


def test_backup_settings_are_read_and_checked():
    cfg, problems = load_config(b"backups:\n  keep_batches: 10\n  keep_days: 30\n")
    assert (cfg.backups_keep_batches, cfg.backups_keep_days, problems) == (10, 30, [])
    cfg, problems = load_config(b"backups: {keep_batches: 0, keep_days: many}\n")
    assert (cfg.backups_keep_batches, cfg.backups_keep_days) == (50, 90)
    messages = " ".join(m for _line, m in problems)
    assert "backups.keep_batches: 0 is out of range" in messages
    assert "backups.keep_days: 'many' is not a whole number" in messages


def test_a_batch_cut_short_keeps_its_copies_for_recover(ws):
    def die(step):
        if step == "journal-file":
            raise KeyboardInterrupt

    try:
        apply_batch(
            ws, [replace_line("MEMORY.md", "- alpha", "- A")], [{"item": "x"}], now=OLD, fault=die
        )
    except KeyboardInterrupt:
        pass
    [cut] = batch_history(ws)
    assert not cut.record.committed
    _apply(ws, replace_line("memory/notes.md", "- one", "- 1"), NOW)
    assert prune_backups(ws, keep_batches=1, keep_days=90, now=NOW).batches == []
    assert all(p.exists() for p in _copies(ws, cut.batch_id))
