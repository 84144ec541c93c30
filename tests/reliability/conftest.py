"""Fixtures for the reliability tests: copies of the sample workspace, applied or not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reliability_helpers import (
    MIXED,
    apply_cli,
    comparable,
    entries,
    sample_copy,
    write_decisions,
)


@pytest.fixture(scope="session")
def applied_states(tmp_path_factory):
    """{name: (entries before, entries after, files written, live files)} of a clean apply,
    and {name-workspace: the applied workspace} (copy it before changing it)."""
    out = {}
    for name, decisions in (("mixed", MIXED),):
        base = tmp_path_factory.mktemp(f"full-{name}")
        ws = sample_copy(base / "ws")
        before = entries(ws)
        dec = write_decisions(base / "d.yaml", decisions)
        proc = apply_cli(ws, dec)
        assert proc.returncode == 0, proc.stderr
        commit = json.loads((ws / ".memreview/journal.jsonl").read_text().splitlines()[-1])
        out[name] = (before, entries(ws), len(commit["files"]), comparable(ws))
        out[name + "-workspace"] = ws
    return out


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return sample_copy(tmp_path / "ws")
