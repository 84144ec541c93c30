"""Build a case's OpenClaw state database (``openclaw-state.json`` → ``state/openclaw.sqlite``
next to its workspace), so that its rows name the workspace where the test reads it."""

from __future__ import annotations

import json
from pathlib import Path

from shared_helpers import write_openclaw_state_db

SPEC = "openclaw-state.json"


def build_state_db(case: Path, ws_root: Path) -> Path | None:
    """Write ``ws_root``'s sibling ``state/openclaw.sqlite`` from the case's spec (None when
    the case has none). Rows of ``other_workspace`` name another directory."""
    spec_path = case / SPEC
    if not spec_path.is_file():
        return None
    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    db = ws_root.parent / "state" / "openclaw.sqlite"
    other = [
        (
            "memory-core",
            "short-term-recall",
            f"other:{k}",
            json.dumps(_row(ws_root.parent / "other", e)),
        )
        for k, e in enumerate(spec.get("other_workspace", []))
    ]
    write_openclaw_state_db(db, ws_root.resolve(), spec.get("entries", []), other_rows=other)
    return db


def _row(workspace: Path, entry: dict) -> dict:
    return {
        "version": 1,
        "workspaceKey": "other",
        "workspaceDir": str(workspace),
        "key": entry["key"],
        "value": entry,
    }
