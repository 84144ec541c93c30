"""Terminal cells a text takes: a wide (CJK) character counts two.

Imports nothing of memreview and no library, so the command line's help can wrap its text
without loading the workspace model."""

from __future__ import annotations

import re

_MAYBE_WIDE = re.compile(r"[\u1100-\U0003fffd]")


def width(text: str) -> int:
    """Display width: a wide (CJK) character counts two."""
    if text.isascii():
        return len(text)
    import unicodedata  # for text that is not ASCII only (the English help needs none)

    wide = unicodedata.east_asian_width
    return len(text) + sum(1 for ch in _MAYBE_WIDE.findall(text) if wide(ch) in "WF")


def wide_enough(text: str, columns: int) -> bool:
    """``width(text) >= columns``, without counting when the length alone says so."""
    return len(text) >= columns or width(text) >= columns


def cut_cells(text: str, columns: int) -> str:
    """``text`` in at most ``columns`` cells, ending in "…" when it had to be cut (a title cut
    by characters would run twice as wide in Chinese)."""
    if width(text) <= columns:
        return text
    if columns <= 0:
        return ""
    used, end = 0, 0
    while used + width(text[end]) <= columns - 1:  # the text is wider: stops before its end
        used += width(text[end])
        end += 1
    return text[:end].rstrip(" ") + "…"
