"""A batch killed at any write step: the next run names it, removes its temp files, and
both choices work — finish it (as if it had not been killed) or roll it back."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from reliability_helpers import (
    MIXED,
    SAMPLE,
    apply_cli,
    comparable,
    live_files,
    run_cli,
    temp_files,
    write_decisions,
)

KILLED = -9
VERDICTS = "memory/review/verdicts.jsonl"


# Kill points: each kind of step, at the first, a middle and the last file of the batch
# (bench/storm.py kills at random steps, many more times).
POINTS = [
    "backup:1",
    "intent:1",
    "temp-written:1",
    "replaced:1",
    "journal-file:1",
    "replaced:3",
    "temp-fsynced:5",
    "dir-fsynced:6",
    "replaced:8",
    "journal-file:9",
    "commit:1",
]


@pytest.mark.parametrize("point", POINTS)
def test_after_a_kill_at_any_write_step_finish_and_rollback_both_work(
    ws: Path, tmp_path: Path, applied_states, point: str
) -> None:
    original = live_files(ws)
    clean = applied_states["mixed"][3]
    dec = write_decisions(tmp_path / "d.yaml", MIXED)
    assert apply_cli(ws, dec, failpoint=point).returncode == KILLED
    other = tmp_path / "other"
    shutil.copytree(ws, other, symlinks=True)

    finished = run_cli("recover", str(ws), "--finish")
    if "no batch was cut short" in finished.stderr:  # before its intent line, or committed
        assert live_files(ws) == original if point == "backup:1" else comparable(ws) == clean
        return
    assert "stopped after" in finished.stderr and finished.returncode == 0, finished.stderr
    assert comparable(ws) == clean
    assert temp_files(ws) == []
    assert "no batch was cut short" in run_cli("recover", str(ws)).stderr

    rolled = run_cli("recover", str(other), "--rollback")
    assert rolled.returncode == 0, rolled.stderr
    now = live_files(other)
    # append-only: "undone" lines (the sample has none: then the batch created it)
    assert now.get(VERDICTS, b"").startswith(original.get(VERDICTS, b""))
    assert {k: v for k, v in now.items() if k != VERDICTS} == {
        k: v for k, v in original.items() if k != VERDICTS
    }
    assert temp_files(other) == []


def test_the_next_run_removes_the_temp_files_its_journal_names_and_nothing_else(
    ws: Path, tmp_path: Path
) -> None:
    dec = write_decisions(tmp_path / "d.yaml", MIXED)
    assert apply_cli(ws, dec, failpoint="temp-written:3").returncode == KILLED
    [stray] = temp_files(ws)
    decoy = ws / "memory/.infra.md.0badf00d.tmp"
    decoy.write_bytes(b"not ours")
    proc = run_cli("scan", str(ws), "--today", "2026-11-29")
    assert proc.returncode == 0
    assert f"removed {stray}" in proc.stderr
    assert temp_files(ws) == ["memory/.infra.md.0badf00d.tmp"]
    assert "stopped after 2 of" in proc.stderr and "recover --finish" in proc.stderr


@pytest.mark.parametrize("choice", ["--finish", "--rollback"])
def test_a_file_an_agent_appended_to_after_the_kill_is_finished_or_rolled_back_around_it(
    ws: Path, tmp_path: Path, choice: str
) -> None:
    source = ws / "memory/infra.md"
    original = source.read_bytes()
    dec = write_decisions(tmp_path / "d.yaml", MIXED)
    assert apply_cli(ws, dec, failpoint="replaced:1").returncode == KILLED
    assert source.read_bytes() == original  # the source of the moves is written last
    with source.open("ab") as f:
        f.write(b"- appended by the agent after the crash\n")
    proc = run_cli("recover", str(ws), choice)
    assert proc.returncode == 0, proc.stderr
    text = source.read_text()
    assert text.endswith("- appended by the agent after the crash\n")
    if choice == "--finish":
        assert "## [INFRA:pi-billing-subscription]" not in text
        assert (
            "## [INFRA:pi-billing-subscription]"
            in (ws / "memory/archive/superseded.md").read_text()
        )
    else:
        assert source.read_bytes() == original + b"- appended by the agent after the crash\n"


def test_finishing_does_not_write_twice_a_file_the_batch_wrote_before_an_agent_appended(
    ws: Path, tmp_path: Path, applied_states
) -> None:
    archive = ws / "memory/archive/superseded.md"
    dec = write_decisions(tmp_path / "d.yaml", MIXED)
    assert apply_cli(ws, dec, failpoint="replaced:1").returncode == KILLED  # the archive
    with archive.open("ab") as f:
        f.write(b"- an agent's note at the end of the archive\n")
    proc = run_cli("recover", str(ws), "--finish")
    assert proc.returncode == 0, proc.stderr
    text = archive.read_text()
    assert text.count("## [INFRA:pi-billing-subscription]") == 1
    assert text.endswith("- an agent's note at the end of the archive\n")
    clean = applied_states["mixed"][3]
    now = comparable(ws)
    assert {k: v for k, v in now.items() if k != "memory/archive/superseded.md"} == {
        k: v for k, v in clean.items() if k != "memory/archive/superseded.md"
    }


def test_undoing_again_after_an_undo_cut_short_leaves_alone_a_file_it_had_restored(
    ws: Path, tmp_path: Path
) -> None:
    removes = [
        {"item": i, "action": "remove"}
        for i in ("a-5d3185fd20df", "a-659b517e37f5", "a-5ac01c2a5e28")
    ]
    rel = "memory/preferences/content-style.md"
    assert apply_cli(ws, write_decisions(tmp_path / "d.yaml", removes)).returncode == 0
    proc = run_cli("undo", str(ws), env={"MEMREVIEW_FAILPOINT": "replaced:1"})
    assert proc.returncode == KILLED
    assert (ws / rel).read_bytes() == (SAMPLE / rel).read_bytes()  # restored first
    note = b"- an agent's note after the undo was cut short\n"
    with (ws / rel).open("ab") as f:
        f.write(note)
    again = run_cli("undo", str(ws))
    assert again.returncode == 0, again.stderr
    assert (ws / rel).read_bytes() == (SAMPLE / rel).read_bytes() + note
