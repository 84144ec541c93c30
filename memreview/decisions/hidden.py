"""The items a decision hides (``.memreview/state.yaml``), why and since when, and putting one
back in its queue (``memreview hidden`` / ``memreview unhide``).

Unhiding is a batch of its own in the journal (kind ``unhide``; no memory file written,
except for a skipped skill: its candidate goes back into skill_candidates.json where it was,
through the one writer): its decision line keeps the state entry it took away, so
``memreview undo`` hides the item again (as the journal's standing batches decide,
``replay``) and takes the candidate back out. The journal line is written before
state.yaml, so a kill between the two leaves the item still hidden and the unhide can
simply be run again.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from memreview import store
from memreview.decisions.putback import PutBack, candidates_of, putback_problem, removed_candidate
from memreview.decisions.state import (
    STATE_FILE,
    Hidden,
    State,
    StateUnreadable,
    config_of,
    load_state,
    state_for_change,
    write_state,
)
from memreview.i18n import N_, _
from memreview.masking import mask_in
from memreview.queues.common import current_id, short
from memreview.queues.skills import skill_item
from memreview.workspace.dates import parse_date_prefix
from memreview.workspace.textfile import decode_bytes

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
    removed: dict[str, Any] | None = None  # what the decision took out of a file (a skipped skill)
    stored: str | None = None  # the id state.yaml keeps it under, when an older form of id

    def why(self) -> str:
        """``snoozed until 2026-12-27``, ``rejected``, …"""
        word = _(REASONS[self.reason]) if self.reason in REASONS else self.reason
        if self.until is not None:
            return _("{reason}, hidden until {day}").format(reason=word, day=self.until)
        return word

    def to_json(self) -> dict[str, str | None]:
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
            "restores": (self.removed or {}).get("file"),
        }


# each batch with its journal decisions (JSON objects) by the item they name
_ByBatch = dict[str, tuple[store.BatchRecord, dict[str, dict[str, Any]]]]


def _decisions_by_batch(root: Path) -> _ByBatch:
    out: _ByBatch = {}
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
        hi = HiddenItem(item_id, h.reason, h.until, h.batch, removed=h.removed)
        found = by_batch.get(h.batch or "")
        if found is not None:
            record, items = found
            day = parse_date_prefix(record.committed_ts or record.ts)
            hi.since = day.isoformat() if day else None
            d = items.get(item_id) or {}
            hi.queue, hi.title, hi.action = d.get("queue"), d.get("title"), d.get("action")
            hi.id = current_id(item_id, hi.queue)  # a secret hidden as s-… is cr-… today
            hi.stored = item_id if hi.id != item_id else None
        if hi.removed is not None and hi.queue is None:
            hi.queue, hi.title = "skills", _candidate_title(hi.removed)
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
    diff: str = ""  # what it wrote to a file (or would, for a dry run): a skipped skill

    @property
    def exit_code(self) -> int:
        """0 when the item shows again, else 1."""
        return 0 if self.ok else 1


def _hidden_item(root: Path, item_id: str, today: date | None) -> HiddenItem | None:
    """The hidden item ``item_id`` names: by its id, or by the older id state.yaml keeps."""
    listed = hidden_items(root, today)
    found = {h.id: h for h in listed} | {h.stored: h for h in listed if h.stored}
    return found.get(item_id)


def unhide(
    root: Path | str,
    item_id: str,
    *,
    today: date | None = None,
    now: datetime | None = None,
    lock_wait: float = 2.0,
    dry_run: bool = False,
) -> UnhideOutcome:
    """Put the hidden item ``item_id`` back in its queue, as a journaled (undoable) batch;
    with ``dry_run`` write nothing and say what would change (the outcome's ``diff``).

    Raises store.LockHeld when a lock stays held.
    """
    root = Path(root).resolve()
    item = _hidden_item(root, item_id, today)
    if item is None:
        return UnhideOutcome(
            False,
            _("{id} is not hidden; `memreview hidden` lists the hidden items").format(id=item_id),
        )
    key = f"unhide:{item.id}"
    record = {
        "key": key,
        "queue": item.queue or "",
        "action": "unhide",
        "title": item.title or item.id,
        "item": item.id,
        # the journal is never rewritten: a credential in a candidate is kept masked there
        "hidden": mask_in(Hidden(item.until, item.reason, item.batch, item.removed).to_json()),
    }
    cfg = config_of(root)
    if item.removed is not None:
        refused = putback_problem(item.removed, cfg.skill_candidates)
        if refused is not None:
            return UnhideOutcome(
                False, _("nothing unhidden: {reasons}").format(reasons=refused), item=item
            )
    # the batch and the state.yaml it changes, under memreview's lock (another apply may be
    # changing state.yaml too); a dry run takes no lock and writes nothing
    with nullcontext() if dry_run else store.own_lock(root, lock_wait):
        try:  # read again under the lock: written back with only this item taken out
            state, _before = state_for_change(root)
        except StateUnreadable as exc:
            return UnhideOutcome(False, _("nothing unhidden: {reasons}").format(reasons=exc))
        jobs = [PutBack(item.removed, key)] if item.removed is not None else []
        result = store.apply_batch(
            root,
            jobs,
            [record],
            lock_files=tuple(cfg.lock_files),
            now=now,
            lock_wait=lock_wait,
            kind="unhide",
            dry_run=dry_run,
            all_or_nothing=True,  # a candidate refused: state.yaml keeps the item hidden
        )
        diff = "".join(f.diff for f in result.files)
        if not result.ok:
            return UnhideOutcome(
                False, _("nothing unhidden: {reasons}").format(reasons=_reasons(result)), item=item
            )
        if dry_run:
            said = _("{id} would show again in {queue}")
            return UnhideOutcome(
                True, said.format(id=item.id, queue=item.queue or _("its queue")), None, item, diff
            )
        state.hidden.pop(item.stored or item.id, None)
        if (failed := _write_state_or_say(root, state, item, result, diff)) is not None:
            return failed
    return UnhideOutcome(
        True,
        _("{id} shows again in {queue} (batch {batch}; `memreview undo` hides it again)").format(
            id=item.id, queue=item.queue or _("its queue"), batch=result.batch_id
        ),
        result.batch_id,
        item,
        diff,
    )


def _reasons(result: store.BatchResult) -> str:
    """Why a batch was refused, its conflicts' and failures' reasons in one line."""
    return "; ".join([c.reason for c in result.conflicts] + [f.reason for f in result.failures])


def _write_state_or_say(
    root: Path, state: State, item: HiddenItem, result: store.BatchResult, diff: str
) -> UnhideOutcome | None:
    """state.yaml written after an unhide's batch, None; or, when it can't be written (the
    batch already put the candidate back), an outcome saying what changed: the item stays
    listed as hidden."""
    try:
        write_state(root, state)
    except (OSError, store.PathEscape) as exc:
        return _state_not_written(item, result, diff, exc)
    return None


def _state_not_written(
    item: HiddenItem, result: store.BatchResult, diff: str, exc: Exception
) -> UnhideOutcome:
    """What an unhide whose state.yaml could not be written says."""
    files = ", ".join(f.rel for f in result.files if f.written) or _("no file")
    said = _(
        "{id} was put back in {files} (batch {batch}), but {file} could not be written "
        "({error}): it is still listed as hidden; `memreview undo` takes it out of the file "
        "again"
    )
    message = said.format(
        id=item.id, files=files, batch=result.batch_id, file=STATE_FILE, error=exc
    )
    return UnhideOutcome(False, message, result.batch_id, item, diff)


def skipped_skills(state: State, detected: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The skill candidates a skip took out of skill_candidates.json, as items of the skills
    queue marked ``skipped`` (hidden: the app's ``A`` shows them, ``Z`` puts one back);
    those the file holds again are left out."""
    have = {it.get("id") for it in detected}
    out: list[dict[str, Any]] = []  # the skills queue's items, as its unit detects them
    for key, h in state.hidden.items():
        cand = removed_candidate(h.removed)
        if h.reason != "skipped" or cand is None or key in have:
            continue
        text = {
            k: cand.get(k) if isinstance(cand.get(k), str) else None
            for k in ("theme", "content", "reason")
        }
        count = cand.get("count") if type(cand.get("count")) is int else None
        item = skill_item(text["theme"] or "", text["content"] or "", count, text["reason"])
        out.append({**item, "id": key, "skipped": True})
    return out


def _candidate_title(removed: dict[str, Any]) -> str:
    """A skipped candidate's title, as the skills queue shows it."""
    cand = removed_candidate(removed) or {}
    return short(f"{cand.get('theme') or ''}: {cand.get('content') or ''}")


def as_written(root: Path, record: store.BatchRecord, removed: dict[str, Any]) -> dict[str, Any]:
    """``removed`` with the candidate as the unhide batch wrote it back (its copy of the
    file after the batch; the journal's line holds it masked), when that copy has it."""
    jf = next((f for f in record.files if f.file == removed.get("file") and f.written), None)
    index = removed.get("index")
    if jf is None or not jf.after_copy or not isinstance(index, int):
        return removed
    try:
        data = store.safe_read_bytes(root, jf.after_copy)
    except (OSError, store.PathEscape):
        return removed
    cands = candidates_of(decode_bytes(jf.file, data))
    wanted = removed_candidate(removed) or {}
    if 0 <= index < len(cands) and isinstance(cands[index], dict):
        if cands[index].get("theme") == wanted.get("theme"):
            return {**removed, "candidate": json.dumps(cands[index], ensure_ascii=False)}
    return removed
