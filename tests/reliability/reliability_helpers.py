"""Shared by the reliability tests and bench/storm.py: a copy of the sample workspace, the
CLI in a subprocess (with a failpoint), and what "an entry" is when counting lost ones."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_workspace"
TODAY = "2026-11-29"
ANCHOR_RE = re.compile(r"^#{1,6}\s*\[[A-Z_-]+:([^\]\s]+)\]")
BULLET_RE = re.compile(r"^\s*[-*]\s+(?!\[[ xX]\]\s+(?:Revisit\b|回顾 ))(\S.*)$")


# Two moves (a supersede and a demotion), a delete, a todo, a new skill, two verdicts.
MOVES = [
    {"item": "s-1c4fee6897d5", "action": "approve"},
    {"item": "m-0b1eb13a8eef", "action": "approve"},
]
MIXED = MOVES + [
    {"item": "a-5d3185fd20df", "action": "remove"},
    {"item": "p-02a946511cb7", "action": "revive"},
    {"item": "k-c43e617f5360", "action": "create-skill"},
    {"item": "s-ad900f249d91", "action": "approve"},
]


def sample_copy(dest: Path) -> Path:
    """A fresh copy of the sample workspace at ``dest``."""
    shutil.copytree(SAMPLE, dest, symlinks=True)
    return dest


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120):
    """``python -m memreview ARGS`` with this checkout first on the path (a process of its
    own, forked from one that has memreview imported: tests/cli_fork.py); output as text."""
    from cli_fork import run_memreview, text  # tests/, on the path in the tests

    full = dict(os.environ, PYTHONPATH=str(REPO))
    full.pop("MEMREVIEW_FAILPOINT", None)
    full.update(env or {})
    proc = run_memreview(args, env=full, timeout=timeout)
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, text(proc.stdout), text(proc.stderr)
    )


def scan_json(root: Path) -> dict:
    proc = run_cli("scan", str(root), "--json", "--today", TODAY)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def write_decisions(path: Path, decisions: list[dict]) -> Path:
    lines = []
    for d in decisions:
        body = ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in d.items())
        lines.append(f"- {{{body}}}\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def apply_cli(root: Path, decisions: Path, *extra: str, failpoint: str | None = None):
    env = {"MEMREVIEW_FAILPOINT": failpoint} if failpoint else None
    return run_cli(
        "apply", str(root), "--decisions", str(decisions), "--today", TODAY, *extra, env=env
    )


def live_files(root: Path) -> dict[str, bytes]:
    """Every file of the workspace outside .memreview/, by relative path."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if rel.startswith(".memreview/") or not p.is_file() or p.is_symlink():
            continue
        out[rel] = p.read_bytes()
    return out


def entries(root: Path) -> set[str]:
    """The entries of the live Markdown files: anchors by id, bullets by their text.

    A bullet counts once wherever it is (a moved entry is the same entry in its archive)."""
    found: set[str] = set()
    for rel, data in live_files(root).items():
        if not rel.endswith(".md"):
            continue
        for line in data.decode("utf-8", "replace").split("\n"):
            line = line.rstrip("\r")
            m = ANCHOR_RE.match(line)
            if m:
                found.add("anchor:" + m.group(1))
                continue
            m = BULLET_RE.match(line)
            if m:
                found.add("bullet:" + m.group(1).strip())
    return found


def temp_files(root: Path) -> list[str]:
    """Stray temp files (``.<name>.<hex>.tmp``) anywhere in the workspace."""
    pat = re.compile(r"^\..+\.[0-9a-f]+\.tmp$")
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if pat.match(p.name))


_TS = re.compile(rb'"ts": "[^"]*", ')


def comparable(root: Path) -> dict[str, bytes]:
    """The live files, with the time stamps of verdict lines taken out (they say when)."""
    files = live_files(root)
    return {
        rel: _TS.sub(b"", data) if rel.endswith(".jsonl") else data for rel, data in files.items()
    }
