"""The synthetic fleet's calendar: the pinned review date and the dates built from it."""

from __future__ import annotations

import random
from datetime import date, timedelta

REVIEW_DATE = date(2026, 11, 29)
START_DATE = date(2026, 2, 9)  # the fleet's first memories


def iso(day: date) -> str:
    """The day as YYYY-MM-DD."""
    return day.isoformat()


def days_ago(n: int) -> date:
    """The day ``n`` days before the review date."""
    return REVIEW_DATE - timedelta(days=n)


def grown_date(rng: random.Random, lo: date = START_DATE, hi: date | None = None) -> date:
    """A date in [lo, hi], denser towards hi (memory grows faster lately, seed 003)."""
    hi = hi or days_ago(1)
    span = (hi - lo).days
    return lo + timedelta(days=int(span * rng.random() ** 0.6))


def timestamp(r: random.Random, day: date) -> str:
    """A random UTC time on ``day`` (as the recall log and the judge write it)."""
    return f"{iso(day)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"
