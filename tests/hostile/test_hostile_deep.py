"""JSON nested deeper than Python's parser goes (a 2 KB file of ``[``): one warning, that
file skipped; scan, apply, doctor and report still finish."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_helpers import run_cli

DEEP = "[" * 990


@pytest.mark.parametrize(
    "rel", ["memory/.dreams/short-term-recall.json", "memory/skill_candidates.json"]
)
def test_deep_json_is_one_warning_and_the_file_skipped(tmp_path: Path, rel: str) -> None:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n- keep the backups for 90 days\n")
    (ws / rel).parent.mkdir(parents=True, exist_ok=True)
    (ws / rel).write_text(DEEP)
    scan = run_cli("scan", str(ws), "--json", "--today", "2026-11-29")
    assert scan.code == 0, scan.err
    assert [w["file"] for w in scan.json()["warnings"]].count(rel) == 1
    decisions = tmp_path / "decisions.yaml"
    decisions.write_text("decisions: []\n")
    runs = [
        run_cli("apply", str(ws), "--decisions", str(decisions), "--today", "2026-11-29"),
        run_cli("doctor", str(ws), "--today", "2026-11-29"),
        run_cli("report", str(ws), "--today", "2026-11-29", "--out", str(tmp_path / "r.md")),
    ]
    for run in runs:
        assert "RecursionError" not in run.out + run.err
        assert "Traceback" not in run.err
        assert run.code != 2, run.err  # 2 is a usage error; doctor's alarm is 1
