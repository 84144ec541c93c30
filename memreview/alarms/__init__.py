"""Alarms: the failures that stay silent unless someone looks (seed 003: "silent failure is
the most expensive").

Each alarm is computed from the workspace alone and carries its evidence and what to do.
Unlike the health figures (warnings: shown, never failing), an alarm makes ``memreview
doctor`` exit 1. The OpenClaw facts behind the thresholds (its 16 MiB legacy store limit, the
20,000-character bootstrap cut, the 10,000-character promotion budget, the promotion gates)
are those recorded in OPENCLAW.md; they are settings (``alarms:`` in memreview.yaml,
``Config.alarms_*``).

One module per family: :mod:`.dreaming`, :mod:`.stores`, :mod:`.memory`, :mod:`.writes`,
:mod:`.locks`; :mod:`.base` holds the :class:`Alarm` record.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from memreview.alarms.base import Alarm
from memreview.alarms.dreaming import (
    check_dreaming_silent,
    check_promoted_none,
    deep_reports,
    dreaming_dates,
)
from memreview.alarms.locks import (
    check_lock_files,
    check_lock_rows,
    held_lock_files,
    openclaw_locks,
)
from memreview.alarms.memory import (
    check_bootstrap,
    check_budget_deleted,
    check_promotion_budget,
    present_promotions,
    promotion_bullets,
    unread_files,
)
from memreview.alarms.stores import check_stores
from memreview.alarms.writes import check_runaway
from memreview.workspace.model import Workspace

__all__ = [
    "Alarm",
    "alarms",
    "deep_reports",
    "dreaming_dates",
    "held_lock_files",
    "openclaw_locks",
    "present_promotions",
    "promotion_bullets",
    "unread_files",
]


def alarms(
    ws: Workspace,
    today: date,
    seen: dict | None = None,
    from_backup: Callable[[str, str], str | None] | None = None,
    taken_out: Callable[[dict[str, dict]], frozenset[str]] | None = None,
) -> list[Alarm]:
    """Every alarm that fires for ``ws`` on the review date ``today``. ``seen`` is what the
    store remembers of the promotion keys the owner reviewed (``store.read_seen``),
    ``from_backup(file, key)`` the bullet as memreview's newest backup holds it and
    ``taken_out(records)`` the keys of those missing that memreview's own batches took out."""
    out: list[Alarm] = (
        check_budget_deleted(ws, seen, from_backup, taken_out) if seen and seen.get("keys") else []
    )
    checks = (
        check_dreaming_silent,
        check_promoted_none,
        check_stores,
        check_bootstrap,
        check_promotion_budget,
        check_runaway,
        check_lock_files,
        check_lock_rows,
    )
    for check in checks:
        out.extend(check(ws, today))
    return out
