"""Preview, apply and undo a batch of decisions (docs/design.md §4).

``apply`` plans the decisions, hands one job per file to the store (which re-reads each file
under the locks, backs it up, rewrites it atomically and journals it), then records the
decisions that only hide items in ``.memreview/state.yaml`` under the batch id, and leaves in
``pending.yaml`` only the decisions that could not be written.

Here: ``apply``, ``preview`` and the batch's commit message. The per-file jobs are in
``batchrun``, what a batch records besides its files in ``bookkeeping``, the outcomes in
``outcome``, and undo and finishing a batch cut short in ``undo_finish``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from memreview import store
from memreview.decisions import registry
from memreview.decisions.batchrun import BatchRun, PlanJob
from memreview.decisions.bookkeeping import (
    applied_before,
    applied_hides,
    prune,
    record_hides,
    scrub_redacted,
    skip_hidden_repeats,
    update_pending,
)
from memreview.decisions.model import Decision
from memreview.decisions.outcome import ApplyOutcome, DecisionProblem
from memreview.decisions.plan import DeleteEntry, EditPlan, PlannedDecision, RedactLines
from memreview.decisions.plan.targets import entry_digest
from memreview.decisions.planner import build_plan, describe
from memreview.decisions.reviewed import remember_reviewed, removed_by
from memreview.decisions.scanned import ScannedWorkspace
from memreview.decisions.state import STATE_FILE, Hidden, load_state
from memreview.i18n import _
from memreview.masking import mask_in
from memreview.workspace.config import owner_commits

Fault = Callable[[str], None] | None  # a test's failpoint at each write step


def _run(
    result: ScannedWorkspace,
    decisions: Sequence[Decision | dict[str, Any]],
    *,
    dry_run: bool,
    now: datetime | None,
    lock_wait: float,
    fault: Fault = None,
) -> tuple[EditPlan, ApplyOutcome, store.BatchResult | None]:
    root = Path(result.root)
    now = now or datetime.now().astimezone()  # local time names the backups, as the store does
    plan = build_plan(result, decisions, now=now)
    outcome = ApplyOutcome(dry_run=dry_run)
    if plan.clashes:  # checked whole, like any invalid input: nothing is written
        outcome.refused = [
            _("{decision} conflicts with {other}: {why}").format(
                decision=describe(second), other=describe(first), why=why
            )
            for first, second, why in plan.clashes
        ]
        return plan, outcome, None
    done = applied_before(root)
    skip_hidden_repeats(root, plan, done, outcome)
    for d, reason in plan.invalid:
        if d.key in done and result.item(d.item) is None:
            # a decision applies once: its item left the queues when it was applied
            outcome.skipped.append(d)
            outcome.messages.append(
                _("{key}: already applied (batch {batch}); skipped").format(
                    key=d.key, batch=done[d.key]
                )
            )
            continue
        outcome.failures.append(DecisionProblem(d, None, reason, stays_pending=False))
    for d, reason in plan.changed:
        outcome.conflicts.append(DecisionProblem(d, None, reason))
    acting = [p for p in plan.decisions if p.files or p.hide]
    if not acting:
        outcome.applied = [p.decision for p in plan.decisions]
        return plan, outcome, None
    hidden_now = load_state(root).hidden
    run = BatchRun(root, plan)
    jobs = [PlanJob(run, rel) for rel in plan.files]
    cfg = result.workspace.config
    try:
        batch = store.apply_batch(
            root,
            jobs,
            [_journal_record(p, hidden_now) for p in acting],
            lock_files=tuple(cfg.lock_files),
            now=now,
            dry_run=dry_run,
            lock_wait=lock_wait,
            fault=fault,
        )
    except store.LockHeld as exc:
        for p in acting:
            outcome.failures.append(DecisionProblem(p.decision, None, str(exc)))
        outcome.applied = [p.decision for p in plan.decisions if p not in acting]
        return plan, outcome, None
    _classify(plan, outcome, batch, run)
    return plan, outcome, batch


def _journal_record(p: PlannedDecision, hidden_now: dict[str, Hidden]) -> dict[str, Any]:
    """The decision as the journal keeps it, with the state entry it adds (so finishing an
    interrupted batch can add it too) and the one it replaces (``was``: an undo of the batch
    puts it back rather than showing the item another batch hid)."""
    record = p.journal()
    removed = [
        {"file": rel, "line": op.target.line, "lines": op.target.last - op.target.line + 1}
        | {"digest": entry_digest(op.target.text)}
        for rel, op in p.ops
        if isinstance(op, DeleteEntry) and op.target not in p.kept_in  # not archived
    ]
    unit = registry.unit(p.queue)
    if removed or (unit is not None and unit.deletes):
        # what restore can put back, found again in the batch's backup; said even when it
        # is nothing, so that restore doesn't take what the batch moved for a deletion
        record["removed"] = removed
    redacted = list(dict.fromkeys(rel for rel, op in p.ops if isinstance(op, RedactLines)))
    if redacted:  # the files an undo of the batch leaves redacted
        record["redacted"] = redacted
    if p.hide is not None:
        until = p.hide.until.isoformat() if p.hide.until else None
        hide: dict[str, Any] = {"item": p.hide.item, "until": until, "reason": p.hide.reason}
        if p.hide.removed is not None:
            hide["removed"] = p.hide.removed
        if p.hide.item in hidden_now:
            hide["was"] = hidden_now[p.hide.item].to_json()
        record["hide"] = mask_in(hide)
    return record


def _classify(
    plan: EditPlan, outcome: ApplyOutcome, batch: store.BatchResult, run: BatchRun
) -> None:
    by_key = plan.by_key()
    failed: dict[str, DecisionProblem] = {}
    conflicted: dict[str, DecisionProblem] = {}
    for key, problem in run.problems.items():
        if key in by_key:
            target = failed if problem.kind == "failure" else conflicted
            target.setdefault(
                key, DecisionProblem(by_key[key].decision, problem.file, problem.reason)
            )
    for c in batch.conflicts:
        if c.decision in by_key and c.decision not in failed:
            conflicted.setdefault(
                c.decision, DecisionProblem(by_key[c.decision].decision, c.file, c.reason)
            )
    for f in batch.failures:
        keys = (
            [f.decision]
            if f.decision in by_key
            else [p.key for p in plan.decisions if f.file in p.files]
        )
        for key in keys:
            conflicted.pop(key, None)
            failed.setdefault(key, DecisionProblem(by_key[key].decision, f.file, f.reason))
    applied_in_files = set(batch.applied)
    for p in plan.decisions:
        if p.key in failed or p.key in conflicted:
            continue
        if any(f in plan.files for f in p.files) and p.key not in applied_in_files:
            failed[p.key] = DecisionProblem(p.decision, None, _("not written (see the journal)"))
            continue
        outcome.applied.append(p.decision)
    outcome.conflicts += list(conflicted.values())
    outcome.failures += list(failed.values())
    outcome.files = list(batch.files)
    outcome.batch = batch.batch_id if batch.journaled else None
    outcome.messages += batch.notes


def preview(
    result: ScannedWorkspace,
    decisions: Sequence[Decision | dict[str, Any]],
    *,
    now: datetime | None = None,
) -> dict[str, str]:
    """{relative path: unified diff} of what ``decisions`` would write; nothing is written."""
    outcome = apply(result, decisions, dry_run=True, now=now)
    out = {f.rel: f.diff for f in outcome.files if f.diff}
    if outcome.state_diff:
        out[STATE_FILE] = outcome.state_diff
    return out


def apply(
    result: ScannedWorkspace,
    decisions: Sequence[Decision | dict[str, Any]],
    *,
    dry_run: bool = False,
    commit: bool | None = None,
    now: datetime | None = None,
    lock_wait: float = 2.0,
    fault: Fault = None,
) -> ApplyOutcome:
    """Apply ``decisions`` to the workspace ``result`` was scanned from.

    Conflicts and failures are reported in the outcome and stay pending; the others are
    written. With ``dry_run`` nothing at all is written (not even under ``.memreview/``).
    ``commit`` (default: the workspace's ``commit`` setting) commits the batch when the
    workspace is a git repository. Raises nothing for bad decisions or a held lock.
    """
    if dry_run or build_plan(result, decisions, now=now).clashes:
        # nothing is written: no lock (a refused batch leaves no trace, not even .memreview/)
        return _apply(result, decisions, dry_run, commit, now, lock_wait, fault)
    try:
        # every read-modify-write of state.yaml and pending.yaml under the lock, the
        # batch's own included: two applies at once each keep the other's hides
        with store.own_lock(Path(result.root), lock_wait):
            return _apply(result, decisions, False, commit, now, lock_wait, fault)
    except store.LockHeld as exc:
        outcome = ApplyOutcome()
        outcome.refused = [str(exc)]  # nothing written, the decisions stay where they were
        return outcome


def _apply(
    result: ScannedWorkspace,
    decisions: Sequence[Decision | dict[str, Any]],
    dry_run: bool,
    commit: bool | None,
    now: datetime | None,
    lock_wait: float,
    fault: Fault,
) -> ApplyOutcome:
    root = Path(result.root)
    plan, outcome, batch = _run(
        result, decisions, dry_run=dry_run, now=now, lock_wait=lock_wait, fault=fault
    )
    if outcome.refused:
        return outcome
    hides = applied_hides(plan, outcome)
    # a dry run shows the id the batch would get, never a stand-in
    batch_id = outcome.batch or (batch.batch_id if dry_run and batch is not None else None)
    if hides and batch_id:
        record_hides(root, hides, batch_id, outcome, dry_run)
    if dry_run:
        return outcome
    # read before the scrub: the keys the batch's own write took out are not "deleted outside"
    removed = removed_by(root, batch.files) if batch is not None else frozenset()
    scrub_redacted(root, plan, outcome)
    written = {f.rel for f in batch.files if f.written} if batch is not None else set()
    reviewed = remember_reviewed(root, result.workspace, written, plan.today, forget=removed)
    outcome.messages.extend(reviewed)
    if batch is not None and batch.journaled:
        prune(root, result.workspace.config, outcome)
    stay = [p.decision for p in outcome.conflicts + outcome.failures if p.stays_pending]
    outcome.pending = update_pending(root, plan, decisions, stay, outcome)
    owner = owner_commits() if commit is None else commit
    if commit is None and result.workspace.config.commit and not owner:
        text = _(
            "commit: true in memreview.yaml is not obeyed (the agent can write this file); "
            "set commit: true in your user config, or pass --commit"
        )
        outcome.messages.append(text)
    if owner and batch is not None and batch.journaled:
        message = commit_message(plan, outcome)
        extra = [STATE_FILE] if outcome.hidden else []
        said = store.commit_batch(root, batch, message, extra=extra)
        outcome.messages.append(said or _("not a git repository: nothing committed"))
    return outcome


def commit_message(plan: EditPlan, outcome: ApplyOutcome) -> str:
    """The git commit message of an applied batch: one line per decision that changed
    something."""
    done = {d.key for d in outcome.applied}
    lines = [p for p in plan.decisions if p.key in done and (p.files or p.hide)]
    head = f"memreview: {len(lines)} decision(s) from the weekly review"
    body = [f"- {p.queue} {p.decision.action}: {p.title}" for p in lines]
    return "\n".join([head, "", *body]) + "\n"
