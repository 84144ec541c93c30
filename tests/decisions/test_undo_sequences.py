"""The sequences the random ones (test_decision_sequences.py) found wrong, each written out:
an undo leaves state.yaml hiding what the batches still standing decided, an undo never
loses an entry a later batch depends on, and what an undo stages again is only what can
still be written."""

from __future__ import annotations

from pathlib import Path

import pytest
from decisions_helpers import NOW, TODAY
from shared_ws import write_shared

from memreview.decisions import apply, undo
from memreview.decisions.hidden import unhide
from memreview.decisions.state import load_state
from memreview.scan import scan_workspace

DIGEST = "d-6b333b01af74"  # MEMORY.md:4 and :5


@pytest.fixture
def ws(tmp_path) -> Path:
    return write_shared(tmp_path / "ws")


def _decide(root: Path, decisions: list[dict]):
    out = apply(scan_workspace(root, today=TODAY), decisions, now=NOW)
    assert out.batch and not out.failures and not out.conflicts, out.messages
    return out


def _hidden_by(root: Path, item: str) -> str | None:
    entry = load_state(root).hidden.get(item)
    return entry.batch if entry is not None else None


def _unhide(root: Path, item: str) -> str:
    out = unhide(root, item, today=TODAY, now=NOW)
    assert out.ok and out.batch, out.message
    return out.batch


def test_undoing_an_unhide_then_the_batch_that_hid_the_item_again_leaves_the_first_hiding(ws):
    first = _decide(ws, [{"item": DIGEST, "action": "not-duplicate"}])
    shown = _unhide(ws, DIGEST)
    again = _decide(ws, [{"item": DIGEST, "action": "not-duplicate"}])  # hidden anew
    assert undo(ws, batch_id=shown, now=NOW).ok  # the first batch's hiding stands again
    assert undo(ws, batch_id=again.batch, now=NOW).ok
    # the first batch is not undone: its hiding is what the journal says stands
    assert _hidden_by(ws, DIGEST) == first.batch


def test_undoing_an_older_unhide_leaves_an_item_a_later_unhide_showed_shown(ws):
    _decide(ws, [{"item": DIGEST, "action": "not-duplicate"}])
    older = _unhide(ws, DIGEST)
    _decide(ws, [{"item": DIGEST, "action": "not-duplicate"}])
    _unhide(ws, DIGEST)  # the last word: shown
    out = undo(ws, batch_id=older, now=NOW)
    assert out.ok, out.message
    assert _hidden_by(ws, DIGEST) is None
    assert DIGEST not in out.rehidden
