"""Taking a batch back (``undo``: its files through the store, its hidden items and its
decisions staged again) and finishing one a crash cut short (``finish``,
``recovery_notice``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from memreview import store
from memreview.decisions import registry
from memreview.decisions.hidden import as_written
from memreview.decisions.model import Decision, DecisionError
from memreview.decisions.outcome import FinishOutcome, UndoOutcome
from memreview.decisions.pending import load_pending, save_pending
from memreview.decisions.planner import build_plan, clash_of
from memreview.decisions.replay import decided, touched_items
from memreview.decisions.restore.depends import standing_on
from memreview.decisions.reviewed import forget_undone
from memreview.decisions.scanned import ScannedWorkspace
from memreview.decisions.state import (
    Hidden,
    StateUnreadable,
    config_of,
    state_for_change,
    write_state,
)
from memreview.i18n import _, ngettext
from memreview.workspace.config import Config
from memreview.workspace.dates import parse_date

# how the caller loads the workspace after an undo
Scan = Callable[[Path], ScannedWorkspace]


def _config(root: Path) -> Config:
    return config_of(root)


def undo(
    root: Path | str,
    *,
    now: datetime | None = None,
    lock_wait: float = 2.0,
    batch_id: str | None = None,
    scan: Scan | None = None,
) -> UndoOutcome:
    """Take back batch ``batch_id`` (default: the last one not undone): its files (store)
    and its hidden items (state.yaml); its decisions are staged again, and the items an
    unhide batch showed are hidden again. With ``scan`` (the workspace loaded after the
    undo), a decision that could not be written as staged now is left out and said so:
    its item is in no queue, or it clashes with a decision staged already.

    Raises store.LockHeld when a lock stays held.
    """
    root = Path(root).resolve()
    with store.own_lock(root, lock_wait):  # state.yaml and pending.yaml changed under it
        return _undo(root, now, lock_wait, batch_id, scan)


def _undo(
    root: Path,
    now: datetime | None,
    lock_wait: float,
    batch_id: str | None,
    scan: Scan | None,
) -> UndoOutcome:
    cfg = _config(root)
    try:  # the batch's hides are taken back in it: a state file it can't read stops the undo
        state_for_change(root)
    except StateUnreadable as exc:
        return UndoOutcome(
            store.UndoResult(False, _("nothing undone: {reason}").format(reason=exc))
        )
    waits = _waits_for_later(root, batch_id)
    if waits is not None:
        return UndoOutcome(store.UndoResult(False, waits, undone_batch=batch_id))
    res = store.undo_batch(
        root,
        batch_id,
        now=now,
        lock_files=tuple(cfg.lock_files),
        lock_wait=lock_wait,
        verdicts_files=(cfg.verdicts,),
    )
    out = UndoOutcome(res)
    if res.ok and res.undone_batch and not res.dry_run:
        forget_undone(root, res.files, (now or datetime.now()).date())
        found = store.batches(root)
        record = next((b for b in found if b.batch_id == res.undone_batch), None)
        if record is not None:
            out.unhidden, out.rehidden = _state_as_decided(root, found, record)
        try:
            restaged = _restage(root, res.undone_batch, scan)
            out.restaged, out.lasting, out.left_out, out.unstaged = restaged
            named = [f for raw in out.lasting for f in raw.get("redacted") or ()]
            if out.lasting and not named and record is not None:  # journaled before: guessed
                taken_back = {f.rel for f in res.files if f.diff}
                named = [f.file for f in record.files if f.file not in taken_back]
            out.kept_files = [str(f) for f in dict.fromkeys(named)]
        except (OSError, store.PathEscape) as exc:
            out.restage_error = str(exc)
    return out


def _waits_for_later(root: Path, batch_id: str | None) -> str | None:
    """Why batch ``batch_id`` can't be undone before a later batch that stands on it (a
    restore or an unhide that put back what it took out, ``restore.depends``), or None.
    (The last batch has no later one.)"""
    if batch_id is None:
        return None
    records = store.batches(root)
    record = next((b for b in records if b.batch_id == batch_id), None)
    if record is None or record.undone_by:
        return None
    found = standing_on(root, records, record)
    if not found:
        return None
    later, item = found[-1]
    return _(
        "undo of batch {batch} refused, nothing was written: batch {later} put back "
        "{item}, which this batch took out, from what only this batch keeps; undo batch "
        "{later} first (`memreview undo --batch {later}`), then this one"
    ).format(batch=batch_id, later=later, item=item)


def _state_as_decided(
    root: Path, found: list[store.BatchRecord], record: store.BatchRecord
) -> tuple[list[str], list[str]]:
    """Set the state entries of the items the undone batch ``record`` hid or showed to what
    the journal decides now (``replay``); returns the items shown again and those hidden
    again. An entry of the batch that decides it is kept as state.yaml has it (the journal
    holds a credential masked); a state file that doesn't parse is left as it is."""
    items = touched_items(record)
    if not items:
        return [], []
    try:  # read again under the lock (checked before the undo began)
        state, before = state_for_change(root)
    except StateUnreadable:
        return [], []
    shown: list[str] = []
    hidden: list[str] = []
    for item, want in decided(found, items).items():
        have = state.hidden.get(item)
        entry = want.entry
        if entry is not None and have is not None and have.batch == entry.batch:
            entry = have
        elif entry is not None and entry.removed is not None:
            # a skipped candidate, masked in the journal: whole in the copy of the file an
            # unhide wrote it back to
            for unhid in (want.source.batch if want.source else None, record):
                if unhid is not None and unhid.kind == "unhide":
                    entry.removed = as_written(root, unhid, entry.removed)
        if entry is None:
            state.hidden.pop(item, None)
        else:
            state.hidden[item] = entry
        if have is not None and entry is None:
            shown.append(item)
        elif have is None and entry is not None:
            hidden.append(item)
    if state.to_bytes() != (before or b"") and (before is not None or state.hidden):
        write_state(root, state)
    return shown, hidden


# Every field a decision carries (slug, keep, text, seen…): undo stages it again as it was.
_FIELDS = tuple(f.name for f in dataclasses.fields(Decision))


def last_batch_said(root: Path) -> str | None:
    """The batch an undo of the last one would take back, said for the question asked
    first: its id, how many decisions and files, and the redactions it would leave; None
    when there is none."""
    record = store.last_batch(root, undoable=True)
    if record is None:
        return None
    decisions = [raw for raw in record.decisions if isinstance(raw, dict)]
    line = _("Batch {batch}: {decisions}, {files}.").format(
        batch=record.batch_id,
        decisions=ngettext("{count} decision", "{count} decisions", len(decisions)).format(
            count=len(decisions)
        ),
        files=ngettext("{count} file", "{count} files", len(record.files)).format(
            count=len(record.files)
        ),
    )
    lasting = sum(1 for raw in decisions if _lasting(raw))
    if lasting:
        line += " " + ngettext(
            "Its redaction stays: undo never writes a credential back.",
            "Its {count} redactions stay: undo never writes a credential back.",
            lasting,
        ).format(count=lasting)
    return line


def _lasting(raw: dict[str, Any]) -> bool:
    """A decision an undo does not take back (a redaction): it is not staged again."""
    unit = registry.unit(str(raw.get("queue")))
    act = unit.act_by_action(str(raw.get("action"))) if unit is not None else None
    return act is not None and act.lasting


class _Restaged(NamedTuple):
    """What an undo staged again, and what it didn't (``_restage``)."""

    restored: list[Decision]
    lasting: list[dict[str, Any]]  # the journal's records (JSON objects) of those left in place
    left_out: list[tuple[Decision, str]]
    gone: list[Decision]


def _restage(root: Path, batch_id: str, scan: Scan | None = None) -> _Restaged:
    """Stage the decisions batch ``batch_id`` wrote again (those it left pending already are
    there), before what is pending now; a decision pending now for the same item wins.

    Returns them, the journal's records of the decisions the undo left in place (a
    redaction stays: staging it again would leave a decision on an item no queue holds),
    and, with ``scan``, the decisions left out, each with why (``_writable``), and those
    staged before whose item is in no queue now (taken out of pending.yaml)."""
    record = next((b for b in store.batches(root) if b.batch_id == batch_id), None)
    existing, _warnings = load_pending(root)
    restored, lasting = _decided_again(record, {d.item for d in existing})
    left_out: list[tuple[Decision, str]] = []
    gone: list[Decision] = []
    result = _scanned(root, scan) if scan is not None and (restored or existing) else None
    if result is not None:
        # a decision staged before the undo whose item the undo took away (an entry a
        # restore put back, a line whose text it changed) is dead now: it goes too
        gone = [d for d in existing if result.item(d.item) is None]
        existing = [d for d in existing if d not in gone]
        restored, left_out = _writable(result, restored, existing)
    if restored or gone:
        save_pending(root, [*restored, *existing])
    return _Restaged(restored, lasting, left_out, gone)


def _scanned(root: Path, scan: Scan) -> ScannedWorkspace | None:
    """The workspace as the undo left it, or None when it can't be loaded now (the check
    of what is staged is skipped then: the undo itself is done)."""
    try:
        return scan(root)
    except Exception:  # a scan fails in many ways (a file unreadable, not a workspace)
        return None


def _decided_again(
    record: store.BatchRecord | None, pending_items: set[str]
) -> tuple[list[Decision], list[dict[str, Any]]]:
    """The decisions of the apply batch ``record`` to stage again (one per item, none for
    an item pending now), and the records of those its undo left in place."""
    if record is None or record.kind != "apply":
        return [], []
    failed = store.failed_keys(record)
    restored: list[Decision] = []
    lasting: list[dict[str, Any]] = []
    for raw in record.decisions:
        if not isinstance(raw, dict) or raw.get("key") in failed:
            continue
        if _lasting(raw):
            lasting.append(raw)
            continue
        if raw.get("text_masked"):
            continue  # a text journaled masked would write the mask: decided anew instead
        try:
            d = Decision.from_dict({k: raw[k] for k in _FIELDS if k in raw})
        except DecisionError:
            continue
        if d.item not in pending_items:
            restored.append(d)
            pending_items.add(d.item)
    return restored, lasting


def _writable(
    result: ScannedWorkspace, restored: list[Decision], existing: list[Decision]
) -> tuple[list[Decision], list[tuple[Decision, str]]]:
    """The decisions of ``restored`` that can be staged beside ``existing`` and each other
    on the workspace ``result`` was scanned from, and those that can't, with why: an item
    in no queue any more, a decision its item doesn't take now, a clash with one staged."""
    keep: list[Decision] = []
    out: list[tuple[Decision, str]] = []
    for d in restored:
        if result.item(d.item) is None:
            out.append((d, _("its item is in no queue any more")))
            continue
        invalid = build_plan(result, [d]).invalid
        why = invalid[0][1] if invalid else clash_of(result, [*existing, *keep], d)
        if why is None:
            keep.append(d)
        else:
            out.append((d, why))
    return keep, out


def finish(
    root: Path | str, batch_id: str | None = None, *, lock_wait: float = 2.0
) -> FinishOutcome:
    """Finish the interrupted batch ``batch_id`` (default: the last): its files (store), the
    items its decisions hide (state.yaml) and pending.yaml without its decisions.

    Raises store.LockHeld when a lock stays held.
    """
    root = Path(root).resolve()
    with store.own_lock(root, lock_wait):  # state.yaml and pending.yaml changed under it
        return _finish(root, batch_id, lock_wait)


def _finish(root: Path, batch_id: str | None, lock_wait: float) -> FinishOutcome:
    cfg = _config(root)
    try:  # read before any file is finished: a state file it can't read stops the finish
        state, _before = state_for_change(root)
    except StateUnreadable as exc:
        return FinishOutcome(False, _("nothing finished: {reason}").format(reason=exc))
    record, result, message = store.finish_batch(
        root, batch_id, lock_files=tuple(cfg.lock_files), lock_wait=lock_wait
    )
    out = FinishOutcome(bool(result is not None and result.ok), message)
    if record is None or not out.ok:
        return out
    out.batch = record.batch_id
    for d in record.decisions:
        hide = d.get("hide") if isinstance(d, dict) else None
        if isinstance(hide, dict) and isinstance(hide.get("item"), str):
            until = parse_date(hide["until"]) if isinstance(hide.get("until"), str) else None
            state.hidden[hide["item"]] = Hidden(until, str(hide.get("reason")), record.batch_id)
            out.hidden.append(hide["item"])
            if isinstance(hide.get("removed"), dict):  # a skipped skill's candidate
                state.hidden[hide["item"]].removed = hide["removed"]
    if out.hidden:
        write_state(root, state)
    items = {d.get("item") for d in record.decisions if isinstance(d, dict)}
    existing, _warnings = load_pending(root)
    keep = [d for d in existing if d.item not in items]
    if keep != existing:
        save_pending(root, keep)
    return out


def recovery_notice(root: Path | str) -> str | None:
    """Remove the temp files of batches a crash cut short and name those batches (the last
    one first, with its files), or None when there are none."""
    try:
        mend = store.mend_private_dir(root)  # .memreview swapped: put right first
        cleaned = store.clean_temp_files(root)
        found = store.interrupted_batches(root)
    except (OSError, store.PathEscape):
        return None
    if not found:
        return None
    lines = [found[-1].describe()]
    lines += [_("also {batch}").format(batch=other.headline()) for other in found[:-1]]
    lines += [_("removed {file}, a temp file it left").format(file=rel) for rel in cleaned]
    lines += mend.lines() if mend is not None else []
    return "\n".join(lines)
