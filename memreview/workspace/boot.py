"""Boot memory (docs/design.md §2): what the agent sees at the start of every session. In OpenClaw the
bootstrap files at the workspace root, each within its window (20,000 characters, USER.md
4,000, 60,000 in all; of a longer file the first 75 % and the last 25 % of its window), and
the promotion sections OpenClaw's budget compaction deletes next (shared/OPENCLAW.md)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from memreview.workspace.markdown import MARKER_KEY_RE, PROMOTED_HEADING_RE
from memreview.workspace.model import Workspace

# in the order OpenClaw loads them: the 60,000 characters in all run out in this order
BOOTSTRAP_FILES = (
    "AGENTS.md",
    "SOUL.md",
    "TOOLS.md",
    "IDENTITY.md",
    "USER.md",
    "HEARTBEAT.md",
    "MEMORY.md",
)
READ_ONLY_FOR_BOOT = ("AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md")
SMALL_CAPS = {"USER.md": 4_000}
TOTAL_CAP = 60_000
HEAD_SHARE = 0.75
COMPACTION_SHARE = 0.25  # at most this share of the promoted entries goes in one compaction
_HEADING = re.compile(r"^(#{1,6})\s")


@dataclass(frozen=True)
class Window:
    """What the agent sees of one bootstrap file."""

    file: str
    chars: int
    cap: int
    lines: int
    unseen: tuple[int, int] | None  # the first and last line it never sees (None: all seen)
    unseen_chars: int = 0

    def sees(self, line: int) -> bool:
        return self.unseen is None or not (self.unseen[0] <= line <= self.unseen[1])

    @property
    def head(self) -> int:
        return int(min(self.cap, self.chars) * HEAD_SHARE) if self.unseen else self.chars

    @property
    def tail(self) -> int:
        return min(self.cap, self.chars) - self.head if self.unseen else 0


def _texts(ws: Workspace, name: str) -> list[str] | None:
    if name == "MEMORY.md":
        mf = ws.files.get("MEMORY.md")
        return mf.source.texts if mf is not None else None
    tf = ws.other_files.get(name)
    if tf is not None:
        return tf.texts
    return (getattr(ws, "boot_texts", None) or {}).get(name)


def window_of(name: str, texts: list[str], cap: int) -> Window:
    """The window of a file of ``texts`` under ``cap`` characters."""
    total = sum(len(t) + 1 for t in texts)
    if total <= cap:
        return Window(name, total, cap, len(texts), None)
    head = int(cap * HEAD_SHARE)
    gap_start, gap_end = head, total - (cap - head)
    first = last = None
    pos = 0
    for no, t in enumerate(texts, 1):
        end = pos + len(t) + 1
        if first is None and end > gap_start:
            first = no
        if pos < gap_end:
            last = no
        pos = end
    unseen = (first, last) if first is not None and last is not None else None
    return Window(name, total, cap, len(texts), unseen, gap_end - gap_start)


OPENCLAW_SIGNS = ("AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md")


def is_openclaw(ws: Workspace) -> bool:
    """Whether OpenClaw loads this workspace: one of its bootstrap files besides MEMORY.md,
    its usage data, or a promotion section or marker of its in MEMORY.md. (A workspace of
    another loader names its boot memory itself: ``*.boot.md``, ``Boot: yes``.)"""
    if getattr(ws, "openclaw", None) is not None:
        return True
    if any(_texts(ws, name) is not None for name in OPENCLAW_SIGNS):
        return True
    if "DREAMS.md" in ws.other_files:
        return True
    mf = ws.files.get("MEMORY.md")
    if mf is None:
        return False
    return any(PROMOTED_HEADING_RE.search(text) for _l, _v, text in mf.headings) or any(
        "openclaw-memory-promotion:" in t for t in mf.source.texts
    )


def windows(ws: Workspace) -> list[Window]:
    """Each bootstrap file at the root, in loading order, with what the agent sees of it
    (none when OpenClaw does not load the workspace)."""
    if not is_openclaw(ws):
        return []
    per_file = ws.config.alarms_bootstrap_chars
    left = TOTAL_CAP
    out = []
    for name in BOOTSTRAP_FILES:
        texts = _texts(ws, name)
        if texts is None:
            continue
        cap = max(0, min(SMALL_CAPS.get(name, per_file), per_file, left))
        w = window_of(name, texts, cap)
        left -= min(w.chars, cap)
        out.append(w)
    return out


def seen_at_boot(ws: Workspace) -> dict[str, Window]:
    """The bootstrap files' windows by file."""
    return {w.file: w for w in windows(ws)}


def is_boot(boot: dict[str, Window], file: str, line: int) -> bool:
    """Whether the line of ``file`` is seen at every session start (a ``*.boot.md`` too);
    ``boot`` is ``seen_at_boot(ws)``."""
    if file.endswith(".boot.md"):
        return True
    w = boot.get(file)
    return w is not None and w.sees(line)


@dataclass(frozen=True)
class Section:
    """A promotion section of MEMORY.md."""

    heading: str
    line: int
    end: int  # its last line
    chars: int
    entries: int
    compactable: bool  # every entry a marker line followed by a ``- `` line


def promotion_sections(texts: list[str]) -> list[Section]:
    """The promotion sections in file order."""
    out = []
    k = 0
    while k < len(texts):
        m = _HEADING.match(texts[k])
        if not (m and PROMOTED_HEADING_RE.search(texts[k])):
            k += 1
            continue
        level = len(m.group(1))
        end = k + 1
        while end < len(texts):
            hm = _HEADING.match(texts[end])
            if hm and len(hm.group(1)) <= level:
                break
            end += 1
        body = [t for t in texts[k + 1 : end] if t.strip()]
        markers = [i for i, t in enumerate(body) if MARKER_KEY_RE.search(t)]
        compactable = bool(markers) and len(body) == 2 * len(markers)
        if compactable:
            compactable = all(
                MARKER_KEY_RE.search(body[i]) and body[i + 1].startswith("- ")
                for i in range(0, len(body), 2)
            )
        chars = sum(len(t) + 1 for t in texts[k:end])
        out.append(
            Section(texts[k].lstrip("# ").strip(), k + 1, end, chars, len(markers), compactable)
        )
        k = end
    return out


def compaction_next(texts: list[str], budget: int) -> list[Section]:
    """The promotion sections OpenClaw's compaction deletes next, oldest first: until the file
    is within ``budget``, at most a quarter of the promoted entries (none when within)."""
    total = sum(len(t) + 1 for t in texts)
    if total <= budget:
        return []
    sections = promotion_sections(texts)
    allowed = math.ceil(sum(s.entries for s in sections) * COMPACTION_SHARE)
    out: list[Section] = []
    taken = 0
    for s in sections:  # sections are appended: the first in the file is the oldest
        if total <= budget:
            break
        if not s.compactable:
            continue
        if taken + s.entries > allowed:
            break
        out.append(s)
        taken += s.entries
        total -= s.chars
    return out


def _gap_headings(texts: list[str], unseen: tuple[int, int]) -> list[list[Any]]:
    """The headings of the unseen lines, the one the gap starts in first: ``[line, text]``."""
    first, last = unseen
    before: list[list[Any]] = []
    inside: list[list[Any]] = []
    for no, t in enumerate(texts, 1):
        if no > last:
            break
        if _HEADING.match(t):
            (inside if no >= first else before).__iadd__([[no, t.lstrip("#").strip()]])
    return before[-1:] + inside


def boot_figures(ws: Workspace) -> dict[str, Any] | None:
    """For the health view: each bootstrap file against its window (the lines the agent does
    not see, and their sections), and MEMORY.md against OpenClaw's promotion budget with the
    sections its compaction deletes next (None: no bootstrap file)."""
    found = windows(ws)
    if not found:
        return None
    files = []
    for w in found:
        texts = _texts(ws, w.file) or []
        files.append(
            {
                "file": w.file,
                "chars": w.chars,
                "cap": w.cap,
                "head": w.head,
                "tail": w.tail,
                "unseen": list(w.unseen) if w.unseen else None,
                "unseen_chars": w.unseen_chars,
                "sections": _gap_headings(texts, w.unseen) if w.unseen else [],
            }
        )
    budget = None
    memory_texts = _texts(ws, "MEMORY.md")
    if memory_texts is not None:
        texts = memory_texts
        limit = min(ws.config.alarms_promotion_budget, ws.config.alarms_bootstrap_chars)
        sections = promotion_sections(texts)
        if sections:
            chars = sum(len(t) + 1 for t in texts)
            budget = {
                "file": "MEMORY.md",
                "chars": chars,
                "budget": limit,
                "sections": len(sections),
                "uncompactable": sum(1 for s in sections if not s.compactable),
                "deletes_next": [
                    {"heading": s.heading, "line": s.line, "entries": s.entries, "chars": s.chars}
                    for s in compaction_next(texts, limit)
                ],
            }
    return {"files": files, "promotion_budget": budget}
