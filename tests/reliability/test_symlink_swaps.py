"""A directory swapped for a symlink to somewhere else in the middle of a batch: every create
and rename goes through directory fds, so the swap is refused, named, and nothing lands
outside the workspace."""

from __future__ import annotations

import os
import shutil
from datetime import date
from pathlib import Path

from reliability_helpers import MIXED

from memreview.decisions import apply
from memreview.scan import scan_workspace


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _swap(ws: Path, rel: str, outside: Path) -> None:
    """Replace directory ``rel`` by a symlink to a copy of it under ``outside``."""
    target = outside / rel.replace("/", "_")
    shutil.copytree(ws / rel, target)
    os.rename(ws / rel, ws / f"{rel}.moved-away")
    os.symlink(target, ws / rel)


def _apply_with_swap(ws: Path, step: str, rel: str, outside: Path):
    """Apply MIXED, swapping ``rel`` at ``step``; (outcome, ``outside`` right after the swap)."""
    swapped: list[dict[str, bytes]] = []

    def fault(name: str) -> None:
        if name == step and not swapped:
            _swap(ws, rel, outside)
            swapped.append(_tree(outside))

    result = scan_workspace(ws, today=date(2026, 11, 29))
    outcome = apply(result, MIXED, fault=fault)
    assert swapped, "the swap never happened"
    return outcome, swapped[0]


def test_a_memory_directory_swapped_for_a_symlink_mid_batch_is_refused_and_named(
    ws: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    outcome, at_swap = _apply_with_swap(ws, "intent", "memory", outside)
    assert _tree(outside) == at_swap  # nothing added or changed out there
    reasons = [p.reason for p in outcome.failures]
    assert any("memory turned into a symlink" in r for r in reasons), reasons
    assert not [p for p in outside.rglob("*") if p.name.endswith(".tmp")]


def test_a_backups_directory_swapped_for_a_symlink_is_refused_and_nothing_lands_outside(
    ws: Path, tmp_path: Path
) -> None:
    (ws / ".memreview/backups").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    outcome, at_swap = _apply_with_swap(ws, "locked", ".memreview/backups", outside)
    assert at_swap == {} and _tree(outside) == {}
    assert outcome.failures and not outcome.applied
    assert any(".memreview/backups turned into a symlink" in p.reason for p in outcome.failures)
