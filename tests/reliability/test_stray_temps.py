"""Temp files a killed memreview left: the next run removes those it can prove it made — a
name of the temp shape that a batch of the journal records, a regular file holding the
batch's new version of the file (or the start of it) — names each, and leaves alone any
other file of that shape: one it never named, one whose bytes an agent changed, a link."""

from __future__ import annotations

import json
import os
from pathlib import Path

from reliability_helpers import MIXED, apply_cli, run_cli, temp_files, write_decisions

KILLED = -9


def _journal(ws: Path) -> list[dict]:
    return [json.loads(x) for x in (ws / ".memreview/journal.jsonl").read_text().splitlines()]


def _written(ws: Path) -> list[dict]:
    """The files of the last committed batch, as its intent line names them."""
    lines = _journal(ws)
    assert lines[-1]["type"] == "commit"
    intent = next(x for x in reversed(lines) if x["type"] == "intent")
    return [f for f in intent["files"] if f.get("tmp") and f.get("after_copy")]


def test_a_temp_file_a_finished_batch_left_is_removed_and_named(ws: Path, tmp_path: Path):
    """The batch committed, but a temp file of it is still there (a kill at an instant no
    failpoint names): the next run removes it, whole or cut short, and says so."""
    assert apply_cli(ws, write_decisions(tmp_path / "d.yaml", MIXED)).returncode == 0
    files = _written(ws)
    whole, cut = files[0], files[1]
    (ws / whole["tmp"]).write_bytes((ws / whole["after_copy"]).read_bytes())
    (ws / cut["tmp"]).write_bytes((ws / cut["after_copy"]).read_bytes()[:7])
    proc = run_cli("scan", str(ws), "--today", "2026-11-29")
    assert proc.returncode == 0, proc.stderr
    assert temp_files(ws) == []
    assert f"removed {whole['tmp']}" in proc.stderr
    assert f"removed {cut['tmp']}" in proc.stderr


def test_files_of_the_temp_shape_memreview_did_not_make_are_left_alone(ws: Path, tmp_path: Path):
    assert apply_cli(ws, write_decisions(tmp_path / "d.yaml", MIXED)).returncode == 0
    files = _written(ws)
    changed, linked = files[0], files[1]
    # a journaled name, bytes that are not the batch's version
    (ws / changed["tmp"]).write_bytes(b"an agent's draft\n")
    # a journaled name, a link to a live file holding the batch's version
    live = ws / "memory/kept.md"
    live.write_bytes((ws / linked["after_copy"]).read_bytes())
    os.symlink(os.path.relpath(live, (ws / linked["tmp"]).parent), ws / linked["tmp"])
    # a name no batch recorded
    (ws / "memory/.infra.md.0badf00d.tmp").write_bytes(b"")
    before = {p: (ws / p).read_bytes() for p in (changed["tmp"], "memory/.infra.md.0badf00d.tmp")}
    proc = run_cli("scan", str(ws), "--today", "2026-11-29")
    assert proc.returncode == 0, proc.stderr
    assert "removed" not in proc.stderr
    assert {p: (ws / p).read_bytes() for p in before} == before
    assert (ws / linked["tmp"]).is_symlink() and live.is_file()


def test_a_killed_batchs_temp_file_an_agent_rewrote_is_left_alone(ws: Path, tmp_path: Path):
    dec = write_decisions(tmp_path / "d.yaml", MIXED)
    assert apply_cli(ws, dec, failpoint="temp-written:3").returncode == KILLED
    [stray] = temp_files(ws)
    (ws / stray).write_bytes(b"the agent's own bytes, not the batch's\n")
    proc = run_cli("scan", str(ws), "--today", "2026-11-29")
    assert "removed" not in proc.stderr
    assert temp_files(ws) == [stray]
    assert (ws / stray).read_bytes() == b"the agent's own bytes, not the batch's\n"
