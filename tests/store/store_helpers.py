"""Helpers for the store tests: small workspaces, tree snapshots, content-addressed jobs."""

from __future__ import annotations

import os
from pathlib import Path

from memreview.store import Conflict, FileOutcome, FunctionJob
from memreview.workspace.textfile import TextFile


def write_files(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def tree(root: Path) -> dict[str, object]:
    """Every entry under root: files with bytes and mode, dirs, symlinks with targets."""
    out: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                out[rel] = ("dir", path.stat().st_mode)
            else:
                out[rel] = ("file", path.read_bytes(), path.stat().st_mode)
    return out


def replace_line(rel: str, old: str, new: str | None, key: str = "d1") -> FunctionJob:
    """A job that finds the line whose text is ``old`` and replaces it (None deletes it)."""

    def compute(current: TextFile | None) -> FileOutcome:
        if current is None:
            return FileOutcome(None, conflicts=[Conflict(key, rel, "file is missing")])
        hits = [i for i, text in enumerate(current.texts) if text == old]
        if len(hits) != 1:
            why = "target is gone" if not hits else "target is ambiguous"
            return FileOutcome(None, conflicts=[Conflict(key, rel, why)])
        lines = list(current.lines)
        i = hits[0]
        if new is None:
            del lines[i]
        else:
            lines[i] = current.make_line(new, lines[i].ending)
        return FileOutcome(current.render(lines), applied=[key])

    return FunctionJob(rel, compute, [key])


def append_text(rel: str, text: str, key: str = "d2") -> FunctionJob:
    """A job that appends one line (creating the file if needed)."""

    def compute(current: TextFile | None) -> FileOutcome:
        if current is None:
            return FileOutcome((text + "\n").encode("utf-8"), applied=[key])
        lines = list(current.lines)
        lines.append(current.make_line(text))
        return FileOutcome(current.render(lines), applied=[key])

    return FunctionJob(rel, compute, [key])
