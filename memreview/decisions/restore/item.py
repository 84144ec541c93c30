"""An entry that can be put back (``Archived``), and what the modules of ``restore`` share:
the archive files' names, the lines only an archive holds, reading a file, finding a run of
lines and the section heading above a line."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memreview import store
from memreview.decisions.plan.builder import ANCHOR_TEXT_RE
from memreview.workspace.textfile import TextFile, decode_bytes

REJECTED_FILE = "memory/archive/rejected-promotions.md"
TOMBSTONE_HEADING = "## Removed promotions"
MARKER_RE = re.compile(r"<!--\s*openclaw-memory-promotion:([^\n]*?)\s*-->")
HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(.*?)\s*$")
# lines only an archive holds: dropped when the entry goes back
ARCHIVE_META = re.compile(r"^(superseded-by|demoted|rejected|from)\s*:", re.I)


@dataclass
class Archived:
    """An entry that can be put back."""

    id: str
    kind: str  # superseded | demoted | rejected-promotion | removed
    archive: str | None  # the archive file holding it; None for an entry only in backups
    lines: list[str]  # its lines as the archive (or the backup) holds them
    origin: str | None = None  # the file it came from
    heading: str | None = None  # the heading it sat under
    found_by: str = ""  # recorded | journal | "" (unknown)
    after: str | None = None  # a removed entry: the line that preceded it
    before: str | None = None  # a removed entry: the line that followed it (when not blank)
    gap_above: bool = False  # blank lines stood between ``after`` and the entry
    gap_below: bool = False  # and between the entry and ``before``
    batch: str | None = None  # the batch that archived or removed it, when known
    marker: str | None = None  # a promoted entry's marker line
    after_anchor: str | None = None  # an anchor: the id of the anchor it followed
    before_anchor: str | None = None  # the first anchor of its section: the one it preceded
    anchor: str | None = None  # an anchor block: its id

    @property
    def restored_lines(self) -> list[str]:
        """The lines that go back: without the archive's own lines, trailing blanks."""
        out = [t for t in self.lines if not ARCHIVE_META.match(t)]
        while out and not out[-1].strip():
            out.pop()
        while out and not out[0].strip():
            out.pop(0)
        return out

    @property
    def title(self) -> str:
        """The line that names it (an anchor's header, an entry's first line)."""
        body = [t for t in self.restored_lines if not MARKER_RE.search(t)]
        return body[0] if body else (self.lines[0] if self.lines else "")

    def to_json(self) -> dict[str, Any]:
        """As ``restore --list --json`` prints it."""
        return {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "archive": self.archive,
            "origin": self.origin,
            "heading": self.heading,
            "after": self.after_anchor,
            "before": self.before_anchor,
            "found_by": self.found_by or None,
            "batch": self.batch,
            "text": "\n".join(self.restored_lines),
        }


def item_id(*parts: str) -> str:
    """An archived entry's id: ``ar-`` and 10 hex digits of what names it."""
    return "ar-" + hashlib.sha256("\x00".join(parts).encode("utf-8", "replace")).hexdigest()[:10]


def read_text(root: Path, rel: str | None) -> TextFile | None:
    """The workspace file ``rel`` decoded; None when it is missing or can't be read."""
    if rel is None:
        return None
    try:
        return decode_bytes(rel, store.safe_read_bytes(root, rel))
    except FileNotFoundError:
        return None
    except (OSError, store.PathEscape):
        return None


def section_heading(text: str) -> re.Match[str] | None:
    """The heading match of a line that opens a section (not an anchor's header)."""
    m = HEADING_RE.match(text)
    return m if m and not ANCHOR_TEXT_RE.match(m.group(2)) else None


def heading_above(texts: list[str], index: int) -> str | None:
    """The text of the nearest section heading above line ``index``."""
    for i in range(index - 1, -1, -1):
        m = section_heading(texts[i])
        if m:
            return m.group(2)
    return None


def find_run(texts: list[str], run: list[str]) -> int | None:
    """Where the lines ``run`` start in ``texts`` (the first time), or None."""
    n = len(run)
    for i in range(len(texts) - n + 1):
        if texts[i : i + n] == run:
            return i
    return None
