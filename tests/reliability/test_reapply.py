"""A decision applies once: the same decisions file applied twice changes nothing more."""

from __future__ import annotations

from pathlib import Path

from reliability_helpers import MIXED, apply_cli, comparable, write_decisions


def test_applying_the_same_decisions_twice_writes_nothing_the_second_time(
    ws: Path, tmp_path: Path, applied_states
) -> None:
    clean = applied_states["mixed"][3]
    dec = write_decisions(tmp_path / "d.yaml", MIXED)
    assert apply_cli(ws, dec).returncode == 0
    again = apply_cli(ws, dec)
    assert again.returncode == 0, again.stderr
    assert comparable(ws) == clean
    assert (ws / "NOW.md").read_text().count("回顾 zora-airdrop") == 1
    assert "already applied" in again.stderr
