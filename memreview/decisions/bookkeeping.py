"""What a batch does besides its files: before it, the decisions an earlier batch already
applied (a decision applies once); after it, the items it hides (``state.yaml``), the
decisions left pending (``pending.yaml``) and the redacted secrets scrubbed from backups."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memreview import store
from memreview.decisions.model import Decision
from memreview.decisions.outcome import ApplyOutcome, DecisionProblem
from memreview.decisions.pending import PENDING_FILE, load_pending, save_pending
from memreview.decisions.plan import EditPlan, PlannedDecision, RedactLines
from memreview.decisions.state import (
    STATE_FILE,
    STATE_NAME,
    Hidden,
    StateUnreadable,
    load_state,
    state_for_change,
    unwritable,
    write_state,
)
from memreview.i18n import _, ngettext
from memreview.queues.common import current_id
from memreview.secrets import find_secrets
from memreview.workspace.config import Config

__all__ = ["STATE_NAME"]  # undo_finish's name for state.yaml


def applied_before(root: Path) -> dict[str, str]:
    """{decision key: batch id} of the journal's apply batches not taken back by an undo
    (an interrupted batch counts: what it wrote is on disk)."""
    done: dict[str, str] = {}
    try:
        found = store.batches(root)
    except (OSError, store.PathEscape):
        return done
    for batch in found:
        if batch.kind != "apply" or batch.undone_by:
            continue
        keys = [d.get("key") for d in batch.decisions if isinstance(d, dict)]
        if batch.committed:
            # the store lists the decisions written in files; one that only hides its item
            # (a snooze, a not-duplicate, a keep) was applied when the batch committed
            failed = store.failed_keys(batch)
            hides = [d.get("key") for d in batch.decisions if isinstance(d, dict) and d.get("hide")]
            keys = [*batch.applied, *(k for k in hides if k not in failed)]
        renamed = _renamed_keys(batch.decisions)
        for key in keys:
            if isinstance(key, str):
                done[key] = batch.batch_id
                if key in renamed:  # journaled under the item's former id
                    done[renamed[key]] = batch.batch_id
    return done


def _renamed_keys(decisions: list[Any]) -> dict[str, str]:
    """{journaled key: the key in today's id form} of the decisions whose item id has
    changed form since (a secret's ``s-…``, ``cr-…`` today)."""
    out: dict[str, str] = {}
    for d in decisions:
        if not isinstance(d, dict):
            continue
        key, item, queue = d.get("key"), d.get("item"), d.get("queue")
        if not (isinstance(key, str) and isinstance(item, str) and key.startswith(item)):
            continue
        now = current_id(item, queue if isinstance(queue, str) else None)
        if now != item:
            out[key] = now + key[len(item) :]
    return out


def skip_hidden_repeats(
    root: Path, plan: EditPlan, done: dict[str, str], outcome: ApplyOutcome
) -> None:
    """Take out of ``plan`` the decisions an earlier batch applied whose item it still hides
    (a revive or a snooze applied twice): a decision applies once."""
    if not done:
        return
    state = load_state(root)
    repeats = {
        p.key
        for p in plan.decisions
        if p.key in done
        and (h := state.entry(p.decision.item)) is not None
        and h.batch == done[p.key]
    }
    if not repeats:
        return
    for p in plan.decisions:
        if p.key in repeats:
            outcome.skipped.append(p.decision)
            outcome.messages.append(
                _("{decision}: already applied (batch {batch}); skipped").format(
                    decision=p.key, batch=done[p.key]
                )
            )
    plan.decisions = [p for p in plan.decisions if p.key not in repeats]
    for rel in list(plan.files):
        plan.files[rel] = [op for op in plan.files[rel] if op.key not in repeats]
        if not plan.files[rel]:
            del plan.files[rel]


def applied_hides(plan: EditPlan, outcome: ApplyOutcome) -> list[PlannedDecision]:
    """The applied decisions that hide their item (their state entries to record)."""
    done = {d.key for d in outcome.applied}
    return [p for p in plan.decisions if p.hide is not None and p.key in done]


def record_hides(
    root: Path, hides: list[PlannedDecision], batch: str, outcome: ApplyOutcome, dry_run: bool
) -> None:
    """Add the state entries of ``hides`` (batch ``batch``) to state.yaml, or for a dry run
    the diff it would get. When the state file there can't be read, or what would be
    written could not be read back, nothing is written and the items of the batch stay
    pending (a state file is never replaced by one that forgot what it held)."""
    try:
        state, before = state_for_change(root)
    except StateUnreadable as exc:
        refused = _(
            "{file} can't be read ({problem}); it was left as it is, and the items of "
            "this batch were not hidden (they stay pending): fix or move the file, then "
            "apply again"
        ).format(file=STATE_FILE, problem=exc.problem)
        return _refuse_hides(hides, outcome, refused)
    for p in hides:
        h = p.hide
        assert h is not None
        state.hidden[h.item] = Hidden(h.until, h.reason, batch, h.removed)
    if dry_run:
        outcome.state_diff = store.unified_diff(STATE_FILE, before, state.to_bytes())
        return None
    problem = unwritable(state)
    if problem is not None:
        refused = _(
            "{problem}; it was not written, and the items of this batch were not hidden "
            "(they stay pending)"
        ).format(problem=problem)
        return _refuse_hides(hides, outcome, refused)
    try:
        write_state(root, state)
        outcome.hidden = [p.hide.item for p in hides if p.hide]
    except (OSError, store.PathEscape) as exc:
        outcome.messages.append(
            _("could not record hidden items in {file}: {error}").format(file=STATE_FILE, error=exc)
        )
    return None


def _refuse_hides(hides: list[PlannedDecision], outcome: ApplyOutcome, refused: str) -> None:
    outcome.messages.append(refused)
    kept = {p.key for p in hides}
    outcome.applied = [d for d in outcome.applied if d.key not in kept]
    outcome.failures += [DecisionProblem(p.decision, STATE_FILE, refused) for p in hides]


def scrub_redacted(root: Path, plan: EditPlan, outcome: ApplyOutcome) -> None:
    """A redacted secret also leaves every backup memreview holds (secrets queue)."""
    applied = {d.key for d in outcome.applied}
    values: list[tuple[str, str]] = []
    for ops in plan.files.values():
        for op in ops:
            if isinstance(op, RedactLines) and op.key in applied:
                for s in find_secrets("\n".join(op.old)):
                    values.append((s.value, f"[redacted {s.kind} {plan.today.isoformat()}]"))
    if not values:
        return
    try:
        changed = store.scrub_backups(root, values)
    except (OSError, store.PathEscape) as exc:
        outcome.messages.append(
            _("could not redact memreview's backups: {error}").format(error=exc)
        )
        return
    outcome.messages.append(
        ngettext(
            "redacted: the value is also replaced in {count} backup copy under "
            ".memreview/backups (this can't be undone)",
            "redacted: the value is also replaced in {count} backup copies under "
            ".memreview/backups (this can't be undone)",
            len(changed),
        ).format(count=len(changed))
    )


def update_pending(
    root: Path,
    plan: EditPlan,
    decisions: Sequence[Decision | dict[str, Any]],
    stay: list[Decision],
    outcome: ApplyOutcome,
) -> list[Decision]:
    """pending.yaml without this batch's decisions, except those that could not be written."""
    existing, warnings = load_pending(root)
    outcome.messages += warnings
    batch_items = {_item_of(d) for d in decisions} - {None}
    keep = [d for d in existing if d.item not in batch_items]
    keep += [d for d in stay if d.item not in {k.item for k in keep}]
    exists = False
    try:
        exists = store.read_private(root, PENDING_FILE) is not None
    except (OSError, store.PathEscape):
        pass
    if keep != existing and (exists or keep):
        try:
            kept = save_pending(root, keep)
            if kept:
                outcome.messages.append(
                    _("{file} did not parse; its old bytes are in {copy}").format(
                        file=f".memreview/{PENDING_FILE}", copy=kept
                    )
                )
        except (OSError, store.PathEscape) as exc:
            outcome.pending_error = str(exc)
            outcome.messages.append(
                _("could not save {file}: {error}").format(
                    file=f".memreview/{PENDING_FILE}", error=exc
                )
            )
    return keep


def _item_of(d: Decision | dict[str, Any]) -> str | None:
    """The item id a raw decision names, when it is one (a malformed entry may hold a list)."""
    item = d.get("item") if isinstance(d, dict) else getattr(d, "item", None)
    return item if isinstance(item, str) else None


def prune(root: Path, cfg: Config, outcome: ApplyOutcome) -> None:
    """Remove the backups of old batches that can't be undone any more (store.prune)."""
    try:
        pruned = store.prune_backups(
            root,
            keep_batches=cfg.backups_keep_batches,
            keep_days=cfg.backups_keep_days,
            verdicts_files=(cfg.verdicts,),
        )
    except (OSError, store.PathEscape) as exc:
        outcome.messages.append(_("could not prune old backups: {reason}").format(reason=exc))
        return
    if pruned.left:
        shown = ", ".join(pruned.left[:5]) + (" …" if len(pruned.left) > 5 else "")
        outcome.messages.append(
            _(
                "left {count} file(s) under .memreview/backups alone: memreview can't prove "
                "they are its own copies (a link, or not what the journal says): {files}"
            ).format(count=len(pruned.left), files=shown)
        )
    if pruned.batches:
        outcome.messages.append(
            _(
                "pruned the backups of {count} old batch(es) ({kib} KiB); "
                "`memreview log` lists them"
            ).format(count=len(pruned.batches), kib=(pruned.bytes + 1023) // 1024)
        )
