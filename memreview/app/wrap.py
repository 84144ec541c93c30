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
from collections.abc import Iterator

from rich.cells import cell_len, chop_cells
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Lines, Text

# never at the start of a line: they close what comes before
CLOSING = "，。、；：？！）」』》〉】〕…%,.;:!?)\\]}’”"
# never at the end of a line: they open what comes after
OPENING = "（「『《〈【〔(\\[{‘“"
# the wide (two-cell) scripts: CJK, kana, hangul, full-width forms
WIDE = (
    "\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf"
    "\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\U00020000-\U0003fffd"
)
# a Latin word or one wide character, with the opening marks before it, the closing marks
# and the spaces after it; or spaces alone (at the start)
_TOKEN = re.compile(f"[{OPENING}]*(?:[^\\s{WIDE}]+|[{WIDE}])[{CLOSING}]*\\s*|\\s+")
_INDENT = re.compile(r"\s*(?:[⚠•▲✗✓·] )?")
# a unified diff's line: its +, - or space, then the line's own indent
GOES_ON = "↵"  # ends a diff's row when its line goes on in the next row
DIFF_INDENT = re.compile(r"[ +\-]?\s*(?:[⚠•▲✗✓·] )?")


def tokens(text: str) -> Iterator[tuple[int, str]]:
    """(start, token) of each unbreakable piece of ``text`` with the spaces after it: a
    Latin word, or one CJK character with the closing marks after it."""
    for m in _TOKEN.finditer(text):
        yield m.start(), m.group()


def line_breaks(text: str, width: int, fold: bool = True) -> list[int]:
    """Where to break ``text`` (character offsets) so that each line fits in ``width``
    cells; a token wider than a whole line is folded (``fold``) or left to be cropped."""
    if cell_len(text) <= width:
        return []
    breaks: list[int] = []
    used = 0
    for match in _TOKEN.finditer(text):
        start, token = match.start(), match.group()
        full = cell_len(token)
        size = full - (len(token) - len(token.rstrip()))  # a trailing space is one cell
        if used + size <= width:
            used += full
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
            used = full
    return breaks


def wrap_text(
    text: Text,
    console: Console,
    width: int,
    *,
    justify=None,
    overflow=None,
    tab_size: int = 8,
    no_wrap: bool | None = None,
) -> Lines:
    """``text.wrap(...)`` with :func:`line_breaks`: any Rich Text, wrapped as Chinese reads."""
    if no_wrap or text.no_wrap or overflow == "ignore":
        return Text.wrap(
            text,
            console,
            width,
            justify=justify,
            overflow=overflow,
            tab_size=tab_size,
            no_wrap=True,
        )
    wrap_justify = justify or text.justify or "default"
    wrap_overflow = overflow or text.overflow or "fold"
    lines = Lines()
    for line in text.split(allow_blank=True):
        if "\t" in line:
            line.expand_tabs(tab_size)
        pieces = line.divide(line_breaks(line.plain, width, fold=wrap_overflow == "fold"))
        for piece in pieces:
            # the spaces past the width, counted in cells (Rich counts characters)
            excess = piece.cell_len - width
            spaces = len(piece.plain) - len(piece.plain.rstrip())
            if excess > 0 and spaces:  # (right_crop(0) would empty the line)
                piece.right_crop(min(spaces, excess))
        pieces.justify(console, width, justify=wrap_justify, overflow=wrap_overflow)
        for piece in pieces:
            piece.truncate(width, overflow=wrap_overflow)
        lines.extend(pieces)
    return lines


class WrappedText(Text):
    """Rich Text that wraps between CJK characters as well as at spaces."""

    def wrap(self, console: Console, width: int, **options) -> Lines:
        return wrap_text(self, console, width, **options)

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
    A line opening with one of ``repeat`` (a diff's ``+`` and ``-``) opens each of its
    continuations with it too: a removed line's second half must not read as a line kept.
    With ``repeat``, a row that a line goes on from ends in ``↵``: one line of the file
    that wraps into three rows must not read as three lines. ``str()`` is the plain text
    (what tests read)."""

    def __init__(self, text: Text, indent: re.Pattern[str] = _INDENT, repeat: str = "") -> None:
        self.text = text
        self.indent = indent  # what a line's continuation goes under
        self.repeat = repeat

    def __str__(self) -> str:
        return self.text.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.text.split("\n", allow_blank=True):
            cut = self.indent.match(line.plain).end()
            prefix, body = line[:cut], WrappedText(end="")
            body.append_text(line[cut:])
            indent = prefix.cell_len
            then = Text(" " * indent)
            if self.repeat and prefix.plain[:1] and prefix.plain[:1] in self.repeat:
                then = prefix[:1] + Text(" " * (indent - 1))
            room = max(1, options.max_width - indent - (1 if self.repeat else 0))
            pieces = body.wrap(console, room)
            for k, piece in enumerate(pieces):
                if indent:  # (an empty prefix is no segment at all)
                    yield from (prefix if k == 0 else then).render(console)
                yield from piece.render(console)
                if self.repeat and k < len(pieces) - 1:
                    yield Segment(GOES_ON, Style(dim=True))
                yield Segment.line()
