"""Which entries are compared, and where a duplicate matters (docs/design.md §1.5).

Only entries that are facts on their own take part (``comparable``); a duplicate matters
when one side is in a curated file (``curated_files``: ``MEMORY.md``, an anchor file, a
``curated:`` glob), or everywhere with ``duplicates: {scope: all}`` (``Scope``).
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from memreview.workspace.model import Entry, Workspace

MAX_SAME = 8  # members of one identical text paired one by one with another text's
# the titles of a section that sums up its own document (docs/design.md §2)
SUMMARY_TITLES = ("summary", "tl;dr", "tldr", "tl,dr", "总结", "要点", "结论", "概要", "小结")
MAIN_FILES = ("MEMORY.md", "memory/MEMORY.md", "memory.md")


def comparable(e: Entry) -> bool:
    """Whether an entry takes part in duplicate detection (a bullet or row of its own)."""
    return e.kind != "anchor" and e.in_anchor is None and not e.in_chronicle and bool(e.norm)


def in_summary(e) -> bool:
    """Whether ``e`` is under a heading that sums up its document (``## Summary``,
    ``### 总结``, ``## TL;DR``…)."""
    for title in e.heading_path[-1:]:
        words = title.replace("*", "").strip().lstrip("#0123456789.) ").strip().lower()
        if words.startswith(SUMMARY_TITLES):
            return True
    return False


def restates_summary(a, b) -> bool:
    """A document's summary restating its own points is not a duplicate: two places in one
    file, one of them under its summary heading."""
    return a.file == b.file and in_summary(a) != in_summary(b)


def curated_files(ws: Workspace) -> set[str]:
    """MEMORY.md (root or memory/), anchor files and the config's ``curated`` globs."""
    globs = ws.config.curated
    return {
        rel
        for rel, mf in ws.files.items()
        if rel in MAIN_FILES or mf.anchors or any(fnmatchcase(rel, g) for g in globs)
    }


class Scope:
    """The files in which a duplicate matters, from the config's scope and curated files."""

    def __init__(self, ws: Workspace):
        self.all = str(ws.config.duplicates_scope).strip().lower() == "all"
        self.curated = curated_files(ws)

    def allows(self, a: str, b: str) -> bool:
        """Whether a duplicate between files ``a`` and ``b`` (possibly the same) matters."""
        return self.all or a in self.curated or b in self.curated

    def rank(self, e: Entry) -> int:
        """0 for an entry in a curated file, 1 otherwise: curated copies sort first."""
        return 0 if e.file in self.curated else 1
