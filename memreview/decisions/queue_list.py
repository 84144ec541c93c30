"""The queues as the app's first frame names them, before the table is imported.

``registry`` is the one table of queues, but importing it imports every unit and, through
them, the planner and the store (a tenth of a second or more): too slow for the first frame,
which shows the queues' names at once. ``SHIPPED_NAMES`` repeats the shipped table's names
and titles, in its order (``tests/test_lazy_imports.py`` keeps the two the same);
:func:`queue_list` answers from the table itself once it is imported (a test may have put
other queues in it).
"""

from __future__ import annotations

import sys

from memreview.i18n import N_

SHIPPED_NAMES: tuple[tuple[str, str], ...] = (
    ("contradictions", N_("Contradictions")),
    ("supersede", N_("Supersede")),
    ("skills", N_("Skills")),
    ("archived", N_("Archived")),
    ("duplicates", N_("Duplicates")),
    ("dormant", N_("Dormant")),
    ("demotion", N_("Demotion")),
    ("promotions", N_("Promotions")),
    ("secrets", N_("Secrets")),
    ("dropping", N_("Dropping")),
)


def queue_list() -> tuple[tuple[str, str], ...]:
    """(name, untranslated title) of every queue, in the sidebar's order: from the table
    when it is imported, else as shipped (without importing it)."""
    registry = sys.modules.get("memreview.decisions.registry")
    if registry is None or not hasattr(registry, "UNITS"):  # not imported, or half-way
        return SHIPPED_NAMES
    return tuple((u.name, u.title) for u in registry.units())
