"""Showing untrusted text (docs/design.md §5).

Memory files are written by agents and may hold anything: markup-looking brackets, terminal
escape sequences, bidi overrides. Everything read from the workspace goes through
:func:`visible` before it reaches a terminal, so no control character is ever emitted; the
app shows it as Rich ``Text`` built from plain strings, so no markup is ever parsed.
"""

from __future__ import annotations

import re

from memreview.i18n import _, ngettext
from memreview.secrets import mask_secrets

__all__ = ["visible", "one_line", "plural", "sparkline", "day_of", "days_ago", "dated"]

_ISO_DAY = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$")

_SPARK = "▁▂▃▄▅▆▇█"


def sparkline(values: list[int]) -> str:
    """The values as a row of block characters, the largest a full block."""
    top = max(values, default=0)
    if top <= 0:
        return _SPARK[0] * len(values)
    return "".join(_SPARK[min(7, round(v / top * 7))] for v in values)


def _escape_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0x20):
        if code in (0x09, 0x0A):  # tab and newline stay
            continue
        table[code] = chr(0x2400 + code)  # ␀ … ␟ (control pictures)
    table[0x7F] = "\u2421"  # ␡
    for code in range(0x80, 0xA0):
        table[code] = f"<U+{code:04X}>"
    # bidi embeddings/overrides/isolates, zero-width characters and the BOM
    for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), *range(0x200B, 0x2010), 0xFEFF):
        table[code] = f"<U+{code:04X}>"
    # line and paragraph separators would break a line in the middle of a row
    table[0x2028] = "<U+2028>"
    table[0x2029] = "<U+2029>"
    # bytes of a file that is not valid UTF-8 (kept as lone surrogates): shown as \xNN, as in
    # diffs; written raw they are not text, and a UTF-8 terminal or pipe refuses them
    for code in range(0xDC80, 0xDD00):
        table[code] = f"\\x{code - 0xDC00:02x}"
    return table


_ESCAPES = _escape_table()


def visible(text: str) -> str:
    """``text`` with every control, bidi and zero-width character replaced by a visible
    escape (``\\x1b`` → ``␛``, ``\\u202e`` → ``<U+202E>``, an undecodable byte → ``\\xff``);
    tab and newline are kept; a credential's value is masked (``sk-…f3Qa``), so no screen,
    report or diff ever shows it whole."""
    return mask_secrets(text).translate(_ESCAPES)


def one_line(text: str) -> str:
    """:func:`visible` on one line: newlines and tabs become spaces (for list rows)."""
    return visible(text).replace("\n", " ").replace("\t", " ")


def plural(n: object, word: str) -> str:
    """``1 day``, ``2 days``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def day_of(value: object) -> str:
    """A date or time stamp as the one date form shown on screen, ``YYYY-MM-DD``
    (``2026-11-20T03:00:00Z`` → ``2026-11-20``); any other text as it is."""
    text = str(value).strip()
    m = _ISO_DAY.match(text)
    return m.group(1) if m else text


def days_ago(days: int) -> str:
    """``today``, ``1 day ago``, ``12 days ago`` (``in 3 days`` for a date ahead)."""
    if days == 0:
        return _("today")
    if days < 0:
        return ngettext("in {n} day", "in {n} days", -days).format(n=-days)
    return ngettext("{n} day ago", "{n} days ago", days).format(n=days)


def dated(value: object, days: object = None) -> str | None:
    """``2026-11-20 (9 days ago)``; the date alone when ``days`` is unknown; None without
    a date."""
    if value is None or value == "":
        return None
    if isinstance(days, int) and not isinstance(days, bool):
        return f"{day_of(value)} ({days_ago(days)})"
    return day_of(value)
