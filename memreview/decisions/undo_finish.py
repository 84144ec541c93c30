"""Taking a batch back (``undo``: its files through the store, its hidden items and its
decisions staged again) and finishing one a crash cut short (``finish``,
``recovery_notice``)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from memreview import store
from memreview.decisions.bookkeeping import STATE_NAME
from memreview.decisions.hidden import rehide
from memreview.decisions.model import Decision, DecisionError
from memreview.decisions.outcome import FinishOutcome, UndoOutcome
from memreview.decisions.pending import load_pending, save_pending
from memreview.decisions.state import Hidden, config_of, load_state
from memreview.i18n import _
from memreview.workspace.config import Config
from memreview.workspace.dates import parse_date


def _config(root: Path) -> Config:
    return config_of(root)


def undo(
    root: Path | str,
    *,
    now: datetime | None = None,
    lock_wait: float = 2.0,
    batch_id: str | None = None,
) -> UndoOutcome:
    """Take back batch ``batch_id`` (default: the last one not undone): its files (store)
    and its hidden items (state.yaml); its decisions are staged again, and the items an
    unhide batch showed are hidden again.

    Raises store.LockHeld when a lock stays held.
    """
    root = Path(root).resolve()
    with store.own_lock(root, lock_wait):  # state.yaml and pending.yaml changed under it
        return _undo(root, now, lock_wait, batch_id)


def _undo(root: Path, now, lock_wait: float, batch_id: str | None) -> UndoOutcome:
    cfg = _config(root)
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
        state = load_state(root)
        taken = [k for k, h in state.hidden.items() if h.batch == res.undone_batch]
        if taken:
            for k in taken:
                del state.hidden[k]
            store.write_private(root, STATE_NAME, state.to_bytes())
        out.unhidden = taken
        record = next((b for b in store.batches(root) if b.batch_id == res.undone_batch), None)
        if record is not None and record.kind == "unhide":
            out.rehidden = rehide(root, record)
        try:
            out.restaged = _restage(root, res.undone_batch)
        except (OSError, store.PathEscape) as exc:
            out.restage_error = str(exc)
    return out


def _restage(root: Path, batch_id: str) -> list[Decision]:
    """Stage the decisions batch ``batch_id`` wrote again (those it left pending already are
    there), before what is pending now; a decision pending now for the same item wins."""
    record = next((b for b in store.batches(root) if b.batch_id == batch_id), None)
    if record is None or record.kind != "apply":
        return []
    failed = store.failed_keys(record)
    existing, _warnings = load_pending(root)
    pending_items = {d.item for d in existing}
    restored: list[Decision] = []
    for raw in record.decisions:
        if not isinstance(raw, dict) or raw.get("key") in failed or raw.get("text_masked"):
            continue  # a text journaled masked would write the mask: decided anew instead
        fields = {
            k: raw[k] for k in ("item", "action", "keep", "text", "queue", "seen") if k in raw
        }
        try:
            d = Decision.from_dict(fields)
        except DecisionError:
            continue
        if d.item not in pending_items:
            restored.append(d)
            pending_items.add(d.item)
    if restored:
        save_pending(root, [*restored, *existing])
    return restored


def finish(root: Path | str, batch_id: str | None = None, *, lock_wait: float = 2.0):
    """Finish the interrupted batch ``batch_id`` (default: the last): its files (store), the
    items its decisions hide (state.yaml) and pending.yaml without its decisions.

    Raises store.LockHeld when a lock stays held.
    """
    root = Path(root).resolve()
    with store.own_lock(root, lock_wait):  # state.yaml and pending.yaml changed under it
        return _finish(root, batch_id, lock_wait)


def _finish(root: Path, batch_id: str | None, lock_wait: float):
    cfg = _config(root)
    record, result, message = store.finish_batch(
        root, batch_id, lock_files=tuple(cfg.lock_files), lock_wait=lock_wait
    )
    out = FinishOutcome(bool(result is not None and result.ok), message)
    if record is None or not out.ok:
        return out
    out.batch = record.batch_id
    state = load_state(root)
    for d in record.decisions:
        hide = d.get("hide") if isinstance(d, dict) else None
        if isinstance(hide, dict) and isinstance(hide.get("item"), str):
            until = parse_date(hide["until"]) if isinstance(hide.get("until"), str) else None
            state.hidden[hide["item"]] = Hidden(until, str(hide.get("reason")), record.batch_id)
            out.hidden.append(hide["item"])
            if isinstance(hide.get("removed"), dict):  # a skipped skill's candidate
                state.hidden[hide["item"]].removed = hide["removed"]
    if out.hidden:
        store.write_private(root, STATE_NAME, state.to_bytes())
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
