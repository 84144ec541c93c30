"""What ``state.yaml`` holds for an item by the journal: the last batch not undone that hid
it (an apply) or showed it (an unhide) decides; when no such batch is left, the entry the
first batch that touched the item found there (before the journal knew of it).

An undo sets the entries of its batch's items this way rather than by undoing one step:
with batches on top that hid or showed the same item (a decision applied again, an unhide,
an undo of an older batch), only the whole journal says what stands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from memreview import store
from memreview.decisions.state import Hidden, hidden_from
from memreview.workspace.dates import parse_date


@dataclass
class Touch:
    """What one batch did to an item's state entry: hid it (``hides``) or showed it, and
    the entry it found there (``found``, from its journal line)."""

    batch: store.BatchRecord
    hides: Hidden | None
    found: Hidden | None


def touched_items(record: store.BatchRecord) -> list[str]:
    """The items whose state entry ``record`` changed (the hides of an apply, the items an
    unhide showed)."""
    return [item for item, _touch in _touches(record)]


def _touches(record: store.BatchRecord) -> list[tuple[str, Touch]]:
    out: list[tuple[str, Touch]] = []
    failed = store.failed_keys(record) if record.kind == "apply" else set()
    for d in record.decisions:
        if not isinstance(d, dict):
            continue
        hide = d.get("hide")
        if record.kind == "apply" and isinstance(hide, dict) and isinstance(hide.get("item"), str):
            hides = None if d.get("key") in failed else _hidden_by(record.batch_id, hide)
            out.append((hide["item"], Touch(record, hides, hidden_from(hide.get("was")))))
        elif record.kind == "unhide" and isinstance(d.get("item"), str):
            out.append((d["item"], Touch(record, None, hidden_from(d.get("hidden")))))
    return out


def _hidden_by(batch_id: str, hide: dict[str, Any]) -> Hidden:
    until = parse_date(str(hide["until"])) if hide.get("until") else None
    removed = hide.get("removed") if isinstance(hide.get("removed"), dict) else None
    return Hidden(until, str(hide.get("reason") or ""), batch_id, removed)


def _stands(record: store.BatchRecord) -> bool:
    """A batch whose state entries hold: written whole (or finished) and not undone."""
    return bool((record.committed or record.finished_by) and not record.undone_by)


@dataclass
class Decided:
    """An item's entry as the journal decides it (None: not hidden) and the journal line
    it comes from (an unhide's, when the entry is the one that unhide took away)."""

    entry: Hidden | None
    source: Touch | None


def decided(records: Iterable[store.BatchRecord], items: list[str]) -> dict[str, Decided]:
    """For each of ``items`` the journal touched, its state entry by the rules of the
    module docstring; an item no batch touched is left out."""
    wanted = set(items)
    first: dict[str, Touch] = {}
    last: dict[str, Touch] = {}
    for record in records:
        for item, touch in _touches(record):
            if item not in wanted:
                continue
            first.setdefault(item, touch)
            if _stands(record) and (touch.hides is not None or touch.batch.kind == "unhide"):
                last[item] = touch
    out: dict[str, Decided] = {}
    for item, touch in first.items():
        stand = last.get(item)
        if stand is not None:
            out[item] = Decided(stand.hides, stand)
        else:
            out[item] = Decided(touch.found, touch if touch.batch.kind == "unhide" else None)
    return out
