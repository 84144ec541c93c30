"""Fixtures for the decisions tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from decisions_helpers import write_files


@pytest.fixture
def make_ws(tmp_path: Path):
    """``make_ws({path: content})`` -> the workspace root (a MEMORY.md is added if missing)."""

    def make(files: dict[str, object]) -> Path:
        files = dict(files)
        if "MEMORY.md" not in files and "memory/MEMORY.md" not in files:
            files["MEMORY.md"] = "# Memory\n"
        return write_files(tmp_path / "ws", files)

    return make
