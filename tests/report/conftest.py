"""Fixtures for the report's tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from report_helpers import report_workspace  # noqa: E402


@pytest.fixture
def report_ws(tmp_path: Path) -> Path:
    return report_workspace(tmp_path / "ws")
