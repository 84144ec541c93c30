"""Lenient date parsing: bad dates are None, never exceptions."""

from __future__ import annotations

import argparse
import re
from datetime import UTC, date, datetime
from functools import lru_cache

from memreview.i18n import _

DATE_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


@lru_cache(maxsize=8192)  # a workspace writes the same few hundred dates again and again
def parse_date(text: str | None) -> date | None:
    """``YYYY-MM-DD`` exactly at the start of ``text`` (after spaces), or None."""
    if not text:
        return None
    m = DATE_RE.match(text.strip())
    if not m:
        return None
    try:
        return date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def parse_date_prefix(text: object) -> date | None:
    """The date as written at the start of a date or timestamp string."""
    if not isinstance(text, str):
        return None
    return parse_date(text[:10])


def parse_date_arg(text: str) -> date:
    """A ``--today`` argument: exactly ``YYYY-MM-DD`` and a real date (argparse type)."""
    d = parse_date(text)
    if d is None or len(text.strip()) != 10:
        raise argparse.ArgumentTypeError(_("not a date (YYYY-MM-DD): {text!r}").format(text=text))
    return d


def parse_day_stamp(value: object) -> date | None:
    """The date of an ISO timestamp as written, or of epoch seconds/milliseconds (UTC)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        try:
            return datetime.fromtimestamp(value / 1000 if value > 1e11 else value, UTC).date()
        except (OverflowError, OSError, ValueError):
            return None
    return parse_date_prefix(value)
