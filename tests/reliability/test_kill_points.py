"""Kill -9 at every write step of a real apply/undo (a failpoint in a subprocess): no entry
is ever in no live file, and the next run can finish or roll back what was cut short."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from reliability_helpers import (
    MIXED,
    apply_cli,
    comparable,
    entries,
    run_cli,
    sample_copy,
    write_decisions,
)

KILLED = -9


@pytest.mark.parametrize("k", range(1, 10))
@pytest.mark.parametrize("command", ["apply", "undo"])
def test_a_kill_after_any_rename_leaves_every_kept_entry_in_a_live_file(
    tmp_path: Path, applied_states, command: str, k: int
) -> None:
    before, after, nfiles, _files = applied_states["mixed"]
    if k > nfiles:
        pytest.skip(f"the batch writes {nfiles} files")
    failpoint = f"replaced:{k}"
    if command == "apply":
        ws = sample_copy(tmp_path / "ws")
        proc = apply_cli(ws, write_decisions(tmp_path / "d.yaml", MIXED), failpoint=failpoint)
    else:
        ws = tmp_path / "ws"
        shutil.copytree(applied_states["mixed-workspace"], ws, symlinks=True)
        proc = run_cli("undo", str(ws), env={"MEMREVIEW_FAILPOINT": failpoint})
    assert proc.returncode == KILLED, proc.stderr
    kept = before & after  # entries that exist before and after the batch: never lost
    lost = kept - entries(ws)
    assert not lost, f"{command} killed after rename {k}: in no live file: {sorted(lost)}"


@pytest.mark.parametrize("k", [2, 5, 8])
def test_applying_again_after_a_kill_finishes_the_batch_like_one_clean_apply(
    ws: Path, tmp_path: Path, applied_states, k: int
) -> None:
    clean = applied_states["mixed"][3]
    dec = write_decisions(tmp_path / "d.yaml", MIXED)
    assert apply_cli(ws, dec, failpoint=f"replaced:{k}").returncode == KILLED
    again = apply_cli(ws, dec)
    assert again.returncode == 0, again.stderr
    now = comparable(ws)
    assert now == clean, [rel for rel in set(now) | set(clean) if now.get(rel) != clean.get(rel)]


def test_scan_names_an_anchor_archived_and_still_in_its_source_as_a_move_cut_short(make_ws):
    block = "## [FACT:pi-billing]\nAdded: 2026-01-02\nThe Pi bills monthly.\n---\n"
    ws = make_ws(
        {
            "MEMORY.md": "# Memory\n",
            "memory/infra.md": "# Infra\n\n" + block,
            "memory/archive/superseded.md": "# Superseded\n\n" + block,
        }
    )
    [warning] = [w for w in ws.warnings if "pi-billing" in w.message]
    assert (warning.file, warning.line) == ("memory/archive/superseded.md", 3)
    assert "archived here and still in memory/infra.md line 3: a move was cut short" in (
        warning.message
    )
