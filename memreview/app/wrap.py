"""Line breaking that knows Chinese: a line may break between any two CJK characters, never
inside a Latin word, never before a closing mark (，。）) nor after an opening one (（「).

Rich breaks lines at spaces only (its maintainers' advice for Chinese is `overflow="fold"`):
a paragraph of Chinese is one "word" to it, so a line ends early wherever a space comes
before a long run of Chinese, and a Latin word inside the run (`recallCount`) is cut where
the width runs out. Rich also measures the trailing space of a wrapped line in characters,
not cells, so a line of CJK that fits lost its last character to an ellipsis in a table.

:class:`WrappedText` is a Rich ``Text`` that wraps this way; :class:`Indented` draws text
whose wrapped lines keep their indent.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from rich.cells import cell_len, chop_cells
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Lines, Text

# never at the start of a line: they close what comes before
CLOSING = set("，。、；：？！）」』》〉】〕…%,.;:!?)]}’”")
# never at the end of a line: they open what comes after
OPENING = set("（「『《〈【〔([{‘“")
_INDENT = re.compile(r"\s*(?:[⚠•▲✗✓·] )?")


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def tokens(text: str) -> Iterator[tuple[int, str]]:
    """(start, token) of each unbreakable piece of ``text`` with the spaces after it: a
    Latin word, or one CJK character with the closing marks after it."""
    start = 0
    for i in range(1, len(text)):
        ch, before = text[i], text[i - 1]
        if ch.isspace():
            continue
        if not before.isspace():  # after a space, a token always ends
            if ch in CLOSING or before in OPENING:
                continue
            if not _wide(ch) and not _wide(before):
                continue  # inside a Latin word
        yield start, text[start:i]
        start = i
    if text:
        yield start, text[start:]


def line_breaks(text: str, width: int, fold: bool = True) -> list[int]:
    """Where to break ``text`` (character offsets) so that each line fits in ``width``
    cells; a token wider than a whole line is folded (``fold``) or left to be cropped."""
    breaks: list[int] = []
    used = 0
    for start, token in tokens(text):
        size = cell_len(token.rstrip())
        if used + size <= width:
            used += cell_len(token)
            continue
        if size > width and fold:
            pieces = chop_cells(token, width)
            for last, piece in ((k == len(pieces) - 1, p) for k, p in enumerate(pieces)):
                if start:
                    breaks.append(start)
                if last:
                    used = cell_len(piece)
                else:
                    start += len(piece)
        else:
            if used and start:
                breaks.append(start)
            used = cell_len(token)
    return breaks


class WrappedText(Text):
    """Rich Text that wraps between CJK characters as well as at spaces."""

    def wrap(
        self,
        console: Console,
        width: int,
        *,
        justify=None,
        overflow=None,
        tab_size: int = 8,
        no_wrap: bool | None = None,
    ) -> Lines:
        if no_wrap or self.no_wrap or overflow == "ignore":
            return super().wrap(
                console, width, justify=justify, overflow=overflow, tab_size=tab_size, no_wrap=True
            )
        wrap_justify = justify or self.justify or "default"
        wrap_overflow = overflow or self.overflow or "fold"
        lines = Lines()
        for line in self.split(allow_blank=True):
            if "\t" in line:
                line.expand_tabs(tab_size)
            pieces = line.divide(line_breaks(line.plain, width, fold=wrap_overflow == "fold"))
            for piece in pieces:
                # the spaces past the width, counted in cells (Rich counts characters)
                excess = piece.cell_len - width
                if excess > 0:
                    spaces = len(piece.plain) - len(piece.plain.rstrip())
                    piece.right_crop(min(spaces, excess))
            pieces.justify(console, width, justify=wrap_justify, overflow=wrap_overflow)
            for piece in pieces:
                piece.truncate(width, overflow=wrap_overflow)
            lines.extend(pieces)
        return lines

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        lines = self.plain.split("\n")
        widest = max((cell_len(line) for line in lines), default=0)
        narrowest = max(
            (cell_len(token.rstrip()) for line in lines for _start, token in tokens(line)),
            default=0,
        )
        return Measurement(narrowest, widest)


class Indented:
    """Text whose wrapped lines keep their indent: a line's continuation sits under its
    text, past the leading spaces and a leading mark (``⚠ ``, ``• ``), not at the margin.
    ``str()`` is the plain text (what tests read)."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.text.split("\n", allow_blank=True):
            cut = _INDENT.match(line.plain).end()
            prefix, body = line[:cut], WrappedText(end="")
            body.append_text(line[cut:])
            indent = prefix.cell_len
            for k, piece in enumerate(body.wrap(console, max(1, options.max_width - indent))):
                yield from (prefix if k == 0 else Text(" " * indent)).render(console)
                yield from piece.render(console)
                yield Segment.line()
