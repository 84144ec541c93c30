"""Pruning old backups in a workspace an agent writes: ``.memreview/backups/`` is inside it.

A symlink planted where a copy was (to a file, a directory, the whole backups folder), a
copy whose bytes the agent changed, a journal line the agent forged naming a link: pruning
follows none of them and deletes only regular files whose digest is the one the journal
gives the copy. The live files behind the links keep every byte; the planted links stay and
are named. Genuine copies of the same batch are still pruned."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from store_helpers import replace_line

from memreview.store import apply_batch, batches, prune_backups

OLD = datetime(2026, 1, 10, 9, 0, 0, tzinfo=UTC)
NOW = datetime(2026, 7, 1, 9, 0, 0, tzinfo=UTC)
BACKUP = ".memreview/backups/20260110-090000/MEMORY.md"  # the first batch's copy of the old file
AFTER = ".memreview/backups/20260110-090000.after/MEMORY.md"


def _apply(ws: Path, job, when: datetime) -> str:
    result = apply_batch(ws, [job], [{"item": "x", "action": "a", "queue": "q"}], now=when)
    assert result.ok
    return result.batch_id


def _three_batches(ws: Path) -> str:
    """The first batch can't be undone any more (the second changed its line) and is old:
    its copies are the ones a prune removes."""
    first = _apply(ws, replace_line("MEMORY.md", "- alpha", "- A"), OLD)
    _apply(ws, replace_line("MEMORY.md", "- A", "- AA"), OLD + timedelta(seconds=1))
    _apply(ws, replace_line("memory/notes.md", "- one", "- 1"), NOW)
    record = next(b for b in batches(ws) if b.batch_id == first)
    assert {record.files[0].backup, record.files[0].after_copy} == {BACKUP, AFTER}
    return first


def _plant(ws: Path, shape: str) -> tuple[Path, str]:
    """Plant ``shape``; (the live file it aims at, the copy that must be left alone)."""
    old = (ws / BACKUP).read_bytes()  # the agent makes the target match the journal's digest
    if shape == "file-link":
        live = ws / "memory/infra.md"
        live.write_bytes(old)
        (ws / BACKUP).unlink()
        os.symlink("../../../memory/infra.md", ws / BACKUP)
        return live, BACKUP
    if shape == "dir-link":
        live_dir = ws / "memory/live"
        live_dir.mkdir(parents=True)
        (live_dir / "MEMORY.md").write_bytes(old)
        shutil.rmtree(ws / ".memreview/backups/20260110-090000")
        os.symlink("../../memory/live", ws / ".memreview/backups/20260110-090000")
        return live_dir / "MEMORY.md", BACKUP
    if shape == "backups-link":
        vault = ws / "memory/vault"
        shutil.copytree(ws / ".memreview/backups", vault)  # the same bytes, live now
        shutil.rmtree(ws / ".memreview/backups")
        os.symlink("../memory/vault", ws / ".memreview/backups")
        return vault / "20260110-090000/MEMORY.md", BACKUP
    if shape == "changed-copy":
        (ws / BACKUP).write_bytes(b"# the agent's own notes, kept here\n")
        return ws / BACKUP, BACKUP
    if shape == "forged-journal":
        live = ws / "MEMORY.md"
        forged = ".memreview/backups/20200101-000000/MEMORY.md"
        (ws / forged).parent.mkdir(parents=True)
        os.symlink("../../../MEMORY.md", ws / forged)
        digest = __import__("hashlib").sha256(live.read_bytes()).hexdigest()
        ts = "2020-01-01T00:00:00+00:00"
        entry = {"file": "MEMORY.md", "before": digest, "after": digest, "backup": forged}
        lines = [
            {
                "type": "intent",
                "batch": "20200101-000000-aaaaaa",
                "kind": "apply",
                "ts": ts,
                "decisions": [],
                "files": [entry],
            },
            {"type": "file", "batch": "20200101-000000-aaaaaa", **entry},
            {"type": "commit", "batch": "20200101-000000-aaaaaa", "kind": "apply", "ts": ts},
            # taken back: nothing to undo any more, so its copies are pruned
            {"type": "undo", "batch": "20200101-000001-bbbbbb", "undoes": "20200101-000000-aaaaaa"},
        ]
        journal = ws / ".memreview/journal.jsonl"
        old_lines = journal.read_bytes()
        journal.write_bytes(b"".join(json.dumps(x).encode() + b"\n" for x in lines) + old_lines)
        return live, forged
    raise AssertionError(shape)


@pytest.mark.parametrize(
    "shape", ["file-link", "dir-link", "backups-link", "changed-copy", "forged-journal"]
)
def test_pruning_follows_no_link_and_deletes_only_its_own_copies(ws, shape):
    _three_batches(ws)
    live, left = _plant(ws, shape)
    live_bytes = live.read_bytes()
    result = prune_backups(ws, keep_batches=1, keep_days=90, now=NOW)
    assert live.read_bytes() == live_bytes  # every byte of the file behind the link
    assert os.path.lexists(ws / left)  # the planted thing stays where it was
    assert left in result.left
    if shape in ("file-link", "changed-copy"):
        assert not (ws / AFTER).exists()  # the batch's genuine copy still goes


def test_a_planted_link_is_named_by_apply(ws):
    from memreview.decisions.bookkeeping import prune
    from memreview.decisions.outcome import ApplyOutcome

    _three_batches(ws)
    live, _left = _plant(ws, "file-link")
    before = live.read_bytes()

    class Cfg:
        backups_keep_batches, backups_keep_days = 1, 90
        verdicts = "memory/review/verdicts.jsonl"

    outcome = ApplyOutcome()
    prune(ws, Cfg(), outcome)
    assert live.read_bytes() == before
    [said] = [m for m in outcome.messages if "alone" in m]
    assert BACKUP in said and "can't prove" in said


def test_genuine_copies_are_pruned_and_their_empty_folders_go(ws):
    _three_batches(ws)
    result = prune_backups(ws, keep_batches=1, keep_days=90, now=NOW)
    assert result.files == 2 and result.left == []
    assert not (ws / ".memreview/backups/20260110-090000").exists()
    assert not (ws / ".memreview/backups/20260110-090000.after").exists()


def test_pruning_looks_at_each_batch_once_however_long_the_journal(ws, monkeypatch):
    """A journal padded with thousands of old committed batches: the prune asks about each
    batch's undo once, handing it no list of later batches to walk (that made it quadratic:
    120,000 junk lines took 47 CPU seconds)."""
    import memreview.store.prune as prune_mod

    _three_batches(ws)
    ts = "2020-01-01T00:00:00+00:00"
    junk = []
    for k in range(3000):
        bid = f"20200101-000000-j{k:05d}"
        entry = {"file": "MEMORY.md", "before": None, "after": None, "created": True}
        entry["after_copy"] = f".memreview/backups/junk{k}.after/MEMORY.md"
        junk.append({"type": "intent", "batch": bid, "kind": "apply", "ts": ts, "files": [entry]})
        junk.append({"type": "commit", "batch": bid, "kind": "apply", "ts": ts})
    journal = ws / ".memreview/journal.jsonl"
    journal.write_bytes(
        b"".join(json.dumps(x).encode() + b"\n" for x in junk) + journal.read_bytes()
    )
    asked: list[int] = []
    real = prune_mod.undo_blockers

    def counting(root, batch, later=(), **kw):
        asked.append(len(later))
        return real(root, batch, later, **kw)

    import memreview.store.undo as undo_mod

    reads = [0]
    real_batches = undo_mod.batches

    def reading(root):
        reads[0] += 1
        return real_batches(root)

    monkeypatch.setattr(prune_mod, "undo_blockers", counting)
    monkeypatch.setattr(undo_mod, "batches", reading)
    prune_backups(ws, keep_batches=1, keep_days=90, now=NOW)
    assert len(asked) <= 3002  # once per batch with copies
    assert sum(asked) <= 3002  # and no walk over the batches after it
    assert reads[0] == 0  # nor the journal read again per batch (that took two minutes)


def test_the_history_copies_no_list_of_later_batches_per_batch(ws, monkeypatch):
    """`memreview log` (and the app's History view) on a journal padded with thousands of
    batches: asking each batch whether it can be undone hands it the later batches as a
    view, not a copy (a copy per batch made the history quadratic in the journal)."""
    import memreview.store.history as history

    _three_batches(ws)
    copied = [0]

    class Counting(list):
        def __getitem__(self, k):
            got = super().__getitem__(k)
            if isinstance(k, slice):
                copied[0] += len(got)
            return got

    real = history.batches
    junk = [replace(b, batch_id=f"{b.batch_id}-{k}") for k in range(2000) for b in real(ws)[-1:]]
    monkeypatch.setattr(history, "batches", lambda root: Counting([*junk, *real(root)]))
    entries = history.batch_history(ws)
    assert len(entries) == 2003
    assert copied[0] <= 2003
