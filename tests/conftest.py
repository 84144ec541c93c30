"""Small hand-made workspaces for the reader's and the queues' tests (shared by every folder)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from memreview.workspace.loader import load_workspace

FRAGMENT_COLUMNS = (
    "id, date, category, theme, content, context, emotion, source_date, content_hash, "
    "created_at, status, mention_count, first_seen, last_seen, confidence, skill_candidate"
)


def write_workspace(root: Path, files: dict[str, object]) -> Path:
    """Write ``files`` under ``root``: str as UTF-8 (no newline translation), bytes as is,
    a list as JSON lines (or, for ``*.db``, as rows of the ``dreams`` table), a dict as JSON."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        elif rel.endswith(".db"):
            write_dreams_db(p, content)
        elif isinstance(content, list):
            p.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in content))
        elif isinstance(content, dict):
            p.write_text(json.dumps(content, ensure_ascii=False))
        else:
            p.write_bytes(str(content).encode("utf-8"))
    return root


def write_dreams_db(path: Path, rows) -> None:
    con = sqlite3.connect(path)
    con.execute(f"CREATE TABLE dreams ({FRAGMENT_COLUMNS})")
    cols = [c.strip() for c in FRAGMENT_COLUMNS.split(",")]
    for row in rows:
        con.execute(
            f"INSERT INTO dreams VALUES ({','.join('?' * len(cols))})",
            [row.get(c) for c in cols],
        )
    con.commit()
    con.close()


@pytest.fixture
def make_ws(tmp_path):
    """``make_ws({path: content})`` -> the loaded Workspace (MEMORY.md added if missing)."""

    def make(files: dict[str, object]):
        files = dict(files)
        if "MEMORY.md" not in files and "memory/MEMORY.md" not in files:
            files["MEMORY.md"] = "# Memory\n"
        root = write_workspace(tmp_path / "ws", files)
        return load_workspace(root)

    return make


@pytest.fixture
def write_files():
    """``write_files(root, {path: content})`` -> root, for tests that need the directory."""
    return write_workspace
