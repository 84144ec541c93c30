"""Targets: an entry or anchor block as loaded, named by its content and its rank among
identical twins, so that ``rewrite`` can find it again in the file as it is at write time."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from memreview.i18n import _
from memreview.secrets import mask_secrets
from memreview.workspace.model import Anchor, Entry, MemoryFile


@dataclass(frozen=True)
class Target:
    """An entry (or anchor block) as loaded: found again by its text.

    ``copy`` is its rank among the loaded file's entries with the same text (``copies`` of
    them): when the file now holds the same number of identical entries, the rank says which
    one is meant; otherwise an identical twin makes the target ambiguous.
    """

    file: str
    kind: str  # anchor | row | bullet (promoted entries count as bullets)
    text: str
    line: int
    copy: int = 0
    copies: int = 1
    anchor: str | None = None

    @property
    def first_line(self) -> str:
        """The target's first line (to name it in a message)."""
        return self.text.split("\n", 1)[0]

    @property
    def last(self) -> int:
        """The target's last line (1-based) when loaded."""
        return self.line + self.text.count("\n")

    def overlaps(self, other: Target) -> bool:
        """Do the two targets share a line of the same file (an entry inside an anchor
        block overlaps the block)?"""
        return self.file == other.file and self.line <= other.last and other.line <= self.last

    @property
    def name(self) -> str:
        """How a message names the target: ``anchor <id>`` or ``the entry '…' (file:line)``."""
        if self.kind == "anchor" and self.anchor:
            return _("anchor {anchor}").format(anchor=self.anchor)
        if self.kind == "heading":
            heading = mask_secrets(self.text.strip())
            return _("the heading {text!r} ({file}:{line})").format(
                text=heading[:40], file=self.file, line=self.last
            )
        first = mask_secrets(self.first_line.strip())  # a message never shows a credential
        first = first if len(first) <= 40 else first[:39] + "…"
        return _("the entry {text!r} ({file}:{line})").format(
            text=first, file=self.file, line=self.line
        )


def entry_digest(text: str) -> str:
    """16 hex digits of an entry's sha256: how the journal names what a decision deleted
    without holding its text (which may hold a credential)."""
    data = text.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:16]


def kind_group(kind: str) -> str:
    """Promoted entries and numbered items are list items: found again as bullets are."""
    return "bullet" if kind in ("promoted", "numbered") else kind


def entry_target(mf: MemoryFile, entry: Entry) -> Target:
    """The target of an entry of a loaded file, with its rank among identical twins."""
    group = kind_group(entry.kind)
    every = mf.paragraphs if group == "paragraph" else mf.entries
    twins = [e for e in every if e.text == entry.text and kind_group(e.kind) == group]
    rank = next(k for k, e in enumerate(twins) if e is entry)
    return Target(mf.rel, group, entry.text, entry.line, rank, len(twins), entry.anchor)


def anchor_target(mf: MemoryFile, anchor: Anchor) -> Target:
    """The target of an anchor block of a loaded file, with its rank among identical twins."""
    twins = [a for a in mf.anchors if a.text == anchor.text]
    rank = next(k for k, a in enumerate(twins) if a is anchor)
    return Target(mf.rel, "anchor", anchor.text, anchor.line, rank, len(twins), anchor.id)


def heading_spans(mf: MemoryFile) -> list[tuple[int, int]]:
    """Each heading of a loaded file as the lines a copied block takes with it (0-based,
    inclusive): the blank lines right above it and the heading line."""
    lines = mf.source.lines
    out = []
    for ln, _level, _title in mf.headings:
        end = ln - 1
        start = end
        while start > 0 and not lines[start - 1].text.strip():
            start -= 1
        out.append((start, end))
    return out


def heading_target(mf: MemoryFile, line: int) -> Target | None:
    """The target of the heading at ``line`` (1-based) with the blank lines above it, or
    None when no heading is there."""
    lines = mf.source.lines
    spans = heading_spans(mf)
    texts = ["\n".join(ln.text for ln in lines[a : b + 1]) for a, b in spans]
    at = next((k for k, (_a, b) in enumerate(spans) if b == line - 1), None)
    if at is None:
        return None
    twins = [k for k, t in enumerate(texts) if t == texts[at]]
    start = spans[at][0] + 1
    return Target(mf.rel, "heading", texts[at], start, twins.index(at), len(twins))
