"""The items a decision hides (``.memreview/state.yaml``), why and since when, and putting one
back in its queue (``memreview hidden`` / ``memreview unhide``).

Unhiding is a batch of its own in the journal (kind ``unhide``, no memory file written): its
decision line keeps the state entry it took away, so ``memreview undo`` hides the item again
(``rehide``). The journal line is written before state.yaml, so a kill between the two
leaves the item still hidden and the unhide can simply be run again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from memreview import store
from memreview.decisions.state import STATE_FILE, Hidden, config_of, load_state, parse_state
from memreview.i18n import N_, _
from memreview.workspace.dates import parse_date, parse_date_prefix

_STATE_NAME = STATE_FILE.split("/", 1)[1]
REASONS = {
    "rejected": N_("rejected"),
    "not-duplicate": N_("not a duplicate"),
    "kept-both": N_("kept both"),
    "kept": N_("kept"),
    "reviewed": N_("reviewed"),
    "snoozed": N_("snoozed"),
    "revived": N_("revived"),
    "pinned": N_("pinned"),
    "skipped": N_("skipped"),
}


@dataclass
class HiddenItem:
    """An item a decision hides."""

    id: str
    reason: str
    until: date | None
    batch: str | None
    since: str | None = None  # the date the hiding batch was written
    queue: str | None = None
    title: str | None = None
    action: str | None = None

    def why(self) -> str:
        """``snoozed until 2026-12-27``, ``rejected``, …"""
        word = _(REASONS[self.reason]) if self.reason in REASONS else self.reason
        if self.until is not None:
            return _("{reason}, hidden until {day}").format(reason=word, day=self.until)
        return word

    def to_json(self) -> dict:
        """As ``memreview hidden --json`` prints it."""
        return {
            "id": self.id,
            "queue": self.queue,
            "title": self.title,
            "action": self.action,
            "reason": self.reason,
            "until": self.until.isoformat() if self.until else None,
            "since": self.since,
            "batch": self.batch,
        }


def _decisions_by_batch(root: Path) -> dict[str, tuple[object, dict[str, dict]]]:
    out: dict[str, tuple[object, dict[str, dict]]] = {}
    try:
        records = store.batches(root)
    except (OSError, store.PathEscape):
        return out
    for b in records:
        items = {
            d["item"]: d
            for d in b.decisions
            if isinstance(d, dict) and isinstance(d.get("item"), str)
        }
        out[b.batch_id] = (b, items)
    return out


def hidden_items(root: Path | str, today: date | None = None) -> list[HiddenItem]:
    """Every item hidden on ``today`` (default: the clock), newest first, with the queue,
    title and action of the decision that hid it (from the journal)."""
    root = Path(root).resolve()
    today = today or date.today()
    state = load_state(root)
    by_batch = _decisions_by_batch(root)
    out: list[HiddenItem] = []
    for item_id, h in state.hidden.items():
        if not state.is_hidden(item_id, today):
            continue
        hi = HiddenItem(item_id, h.reason, h.until, h.batch)
        found = by_batch.get(h.batch or "")
        if found is not None:
            record, items = found
            day = parse_date_prefix(record.committed_ts or record.ts)
            hi.since = day.isoformat() if day else None
            d = items.get(item_id) or {}
            hi.queue, hi.title, hi.action = d.get("queue"), d.get("title"), d.get("action")
        out.append(hi)
    out.sort(key=lambda h: (h.since or "", h.id), reverse=True)
    return out


@dataclass
class UnhideOutcome:
    """What ``unhide`` did, or why it did nothing."""

    ok: bool
    message: str
    batch: str | None = None
    item: HiddenItem | None = None

    @property
    def exit_code(self) -> int:
        """0 when the item shows again, else 1."""
        return 0 if self.ok else 1


def unhide(
    root: Path | str,
    item_id: str,
    *,
    today: date | None = None,
    now: datetime | None = None,
    lock_wait: float = 2.0,
) -> UnhideOutcome:
    """Put the hidden item ``item_id`` back in its queue, as a journaled (undoable) batch.

    Raises store.LockHeld when a lock stays held.
    """
    root = Path(root).resolve()
    found = {h.id: h for h in hidden_items(root, today)}
    item = found.get(item_id)
    if item is None:
        return UnhideOutcome(
            False,
            _("{id} is not hidden; `memreview hidden` lists the hidden items").format(id=item_id),
        )
    record = {
        "key": f"unhide:{item.id}",
        "queue": item.queue or "",
        "action": "unhide",
        "title": item.title or item.id,
        "item": item.id,
        "hidden": {
            "until": item.until.isoformat() if item.until else None,
            "reason": item.reason,
            "batch": item.batch,
        },
    }
    cfg = config_of(root)
    result = store.apply_batch(
        root,
        [],
        [record],
        lock_files=tuple(cfg.lock_files),
        now=now,
        lock_wait=lock_wait,
        kind="unhide",
    )
    state = load_state(root)
    state.hidden.pop(item.id, None)
    store.write_private(root, _STATE_NAME, state.to_bytes())
    return UnhideOutcome(
        True,
        _("{id} shows again in {queue} (batch {batch}; `memreview undo` hides it again)").format(
            id=item.id, queue=item.queue or _("its queue"), batch=result.batch_id
        ),
        result.batch_id,
        item,
    )


def rehide(root: Path, record) -> list[str]:
    """Hide again the items an unhide batch showed (undo of that batch); returns their ids.
    An item hidden again since keeps its newer entry; a state file that doesn't parse is
    left as it is (nothing hidden again)."""
    try:
        state, problem = parse_state(store.read_private(root, _STATE_NAME))
    except (OSError, store.PathEscape):
        return []
    if problem:
        return []
    done: list[str] = []
    for d in record.decisions:
        if not isinstance(d, dict) or not isinstance(d.get("hidden"), dict):
            continue
        item, h = d.get("item"), d["hidden"]
        if not isinstance(item, str) or item in state.hidden:
            continue
        until = parse_date(str(h["until"])) if h.get("until") else None
        batch = h.get("batch") if isinstance(h.get("batch"), str) else None
        state.hidden[item] = Hidden(until, str(h.get("reason") or ""), batch)
        done.append(item)
    if done:
        store.write_private(root, _STATE_NAME, state.to_bytes())
    return done
