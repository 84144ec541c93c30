"""Helpers for the reliability tests: a small workspace that fills a few queues, the command
line run in-process, and snapshots of every byte under a directory."""

from __future__ import annotations

import json
from pathlib import Path

from memreview.cli import main

TODAY = "2026-11-29"

WS = {
    "MEMORY.md": (
        "# Memory\n\n## Lessons\n"
        "- bounties need a day for review (2026-04-10)\n"
        "- bounties need a day for review (2026-05-02)\n"
    ),
    "memory/projects/diary.md": "# Diary\nAdded: 2026-01-01\n",
    "memory/projects/garden.md": "# Garden\nAdded: 2026-01-01\n",
}


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """``files`` under ``root``: str as UTF-8 bytes (no newline translation), bytes as is."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (memreview's own directory included), as bytes."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """``memreview argv…`` in-process: (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def scan_json(capsys, root: Path) -> dict:
    code, out, err = run(capsys, "scan", root, "--json", "--today", TODAY)
    assert code == 0, err
    return json.loads(out)


def item_ids(capsys, root: Path) -> dict[str, list[str]]:
    """queue -> the ids of its items, in order."""
    doc = scan_json(capsys, root)
    return {q: [it["id"] for it in items] for q, items in doc["queues"].items()}
