"""Fixtures for the store tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_helpers import write_files


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    write_files(
        root,
        {
            "MEMORY.md": b"# Memory\n\n- alpha\n- beta\n- gamma\n",
            "memory/notes.md": b"# Notes\r\n\r\n- one\r\n- two\r\n",
        },
    )
    return root
