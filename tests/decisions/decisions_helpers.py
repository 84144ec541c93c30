"""Helpers for the decisions tests: small workspaces, scanning, deciding."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path

from shared_helpers import write_dreams_db

from memreview.decisions import apply
from memreview.scan import scan_workspace

TODAY = date(2026, 11, 29)
NOW = datetime(2026, 11, 29, 10, 0, 0, tzinfo=UTC)
TS = "2026-11-29T10:00:00Z"


def write_files(root: Path, files: dict[str, object]) -> Path:
    """str as UTF-8 bytes (no newline translation), bytes as is, lists of dicts as JSON lines
    (rows of the ``dreams`` table for ``*.db``), dicts as indented JSON."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif rel.endswith(".db"):
            write_dreams_db(path, content)
        elif isinstance(content, list):
            text = "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in content)
            path.write_bytes(text.encode("utf-8"))
        elif isinstance(content, dict):
            path.write_bytes(json.dumps(content, ensure_ascii=False, indent=2).encode("utf-8"))
        else:
            path.write_bytes(str(content).encode("utf-8"))
    return root


def scan(root: Path):
    return scan_workspace(root, today=TODAY)


def only(result, queue: str, **match) -> dict:
    """The one item of ``queue`` whose fields contain ``match`` (title: a substring)."""
    found = []
    for it in result.all_queues[queue]:
        ok = True
        for key, want in match.items():
            have = it.get(key)
            ok = ok and (want in have if key == "title" else have == want)
        if ok:
            found.append(it)
    assert len(found) == 1, (queue, match, [i["title"] for i in result.all_queues[queue]])
    return found[0]


def decide(root: Path, queue: str, action: str, match: dict | None = None, **extra):
    """Scan, decide one item, apply; returns the outcome."""
    result = scan(root)
    item = only(result, queue, **(match or {}))
    return apply(result, [{"item": item["id"], "action": action, **extra}], now=NOW)


def text(root: Path, rel: str) -> str:
    return (root / rel).read_bytes().decode("utf-8")


def snapshot(root: Path, skip_private: bool = True) -> dict[str, bytes]:
    """Every file under root (bytes), memreview's own directory left out by default."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not (skip_private and rel.startswith(".memreview/")):
            out[rel] = path.read_bytes()
    return out
