"""Preview, apply and undo a batch of decisions (DESIGN §4).

``apply`` plans the decisions, hands one job per file to the store (which re-reads each file
under the locks, backs it up, rewrites it atomically and journals it), then records the
decisions that only hide items in ``.memreview/state.yaml`` under the batch id, and leaves in
``pending.yaml`` only the decisions that could not be written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from memreview import store
from memreview.decisions.hidden import rehide
from memreview.decisions.model import Decision, DecisionError
from memreview.decisions.pending import PENDING_FILE, load_pending, save_pending
from memreview.decisions.plan import (
    AppendBlock,
    DeleteEntry,
    EditPlan,
    MoveBlock,
    PlannedDecision,
    RedactLines,
    RemoveCandidate,
)
from memreview.decisions.planner import build_plan, describe
from memreview.decisions.rewrite import FileRewrite, Problem, rewrite
from memreview.decisions.scanned import ScannedWorkspace
from memreview.decisions.state import (
    STATE_FILE,
    Hidden,
    State,
    config_of,
    load_state,
    parse_state,
)
from memreview.i18n import _
from memreview.secrets import find_secrets
from memreview.workspace.config import Config
from memreview.workspace.textfile import TextFile, decode_bytes

_STATE_NAME = STATE_FILE.split("/", 1)[1]
_LOSING = (MoveBlock, DeleteEntry, RemoveCandidate)  # operations that take text out of a file


@dataclass(frozen=True)
class DecisionProblem:
    """A decision that was not written, and why."""

    decision: Decision
    file: str | None
    reason: str
    stays_pending: bool = True  # False for a decision that can never apply as written


@dataclass
class ApplyOutcome:
    """What a batch did (or, for a dry run, would do)."""

    batch: str | None = None  # the journal's batch id; None when nothing was journaled
    dry_run: bool = False
    applied: list[Decision] = field(default_factory=list)
    conflicts: list[DecisionProblem] = field(default_factory=list)
    failures: list[DecisionProblem] = field(default_factory=list)
    files: list[store.FileResult] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)  # item ids now hidden by state.yaml
    pending: list[Decision] = field(default_factory=list)  # still staged afterwards
    skipped: list[Decision] = field(default_factory=list)  # applied by an earlier batch
    state_diff: str = ""
    messages: list[str] = field(default_factory=list)
    # decisions that contradict each other: the whole batch is refused, nothing is written
    refused: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every decision written: no conflict, no failure, nothing refused."""
        return not self.conflicts and not self.failures and not self.refused

    @property
    def exit_code(self) -> int:
        """The command's exit status: 0 when every decision was written, 2 when the batch
        was refused (decisions that contradict each other), else 1."""
        if self.refused:
            return 2
        return 0 if self.ok else 1

    @property
    def diff(self) -> str:
        """The unified diff of every file written, then of state.yaml."""
        return "".join(f.diff for f in self.files) + self.state_diff


class _PlanJob:
    """The store's view of one file of the plan."""

    def __init__(self, run: _BatchRun, rel: str) -> None:
        self.run = run
        self.rel = rel
        self.decisions = list(dict.fromkeys(op.key for op in run.plan.files[rel]))
        # written after the files that receive text (DESIGN §4, "Order and repeat")
        self.loses_text = any(isinstance(op, _LOSING) for op in run.plan.files[rel])

    def compute(self, current: TextFile | None) -> store.FileOutcome:
        return self.run.compute(self.rel, current)


class _BatchRun:
    """Computes every file of a batch together, so a decision that can't be written in one
    file is left out of all of them (no decision lands half-done).

    The store calls ``compute`` for every file under the locks before it writes any; the
    first call reads all the batch's files and settles which decisions conflict.
    """

    def __init__(self, root: Path, plan: EditPlan) -> None:
        self.root = root
        self.plan = plan
        self.problems: dict[str, Problem] = {}
        self.exports: dict[int, list[str] | None] = {}
        self.prepared = False

    def _ops(self, rel: str):
        return self.plan.files[rel]

    def _rewrite(self, rel: str, current: TextFile | None, blocked) -> FileRewrite:
        return rewrite(
            rel,
            current,
            self._ops(rel),
            blocked=blocked,
            imports=self.exports,
            chronicle_words=self.plan.chronicle_words,
        )

    def _order(self) -> list[str]:
        """Files that receive moved blocks come after the files the blocks leave."""
        rels = list(self.plan.files)
        receives = {r for r in rels if any(isinstance(op, AppendBlock) for op in self._ops(r))}
        return [r for r in rels if r not in receives] + [r for r in rels if r in receives]

    def prepare(self) -> None:
        """Read every file of the batch and settle, across files, which decisions can't be
        written: a conflict in one file blocks the decision everywhere (a fixed point)."""
        self.prepared = True
        currents: dict[str, TextFile | None] = {}
        for rel in self._order():
            try:
                currents[rel] = decode_bytes(rel, store.safe_read_bytes(self.root, rel))
            except FileNotFoundError:
                currents[rel] = None
            except (OSError, store.PathEscape) as exc:
                reason = f"cannot read {rel}: {getattr(exc, 'strerror', None) or exc}"
                for op in self._ops(rel):
                    self.problems.setdefault(op.key, Problem("failure", rel, reason))
        while True:
            self.exports = {}
            fresh = False
            for rel, current in currents.items():
                result = self._rewrite(rel, current, set(self.problems))
                self.exports.update(result.exports)
                for key, problem in result.problems.items():
                    if key not in self.problems:
                        self.problems[key] = problem
                        fresh = True
            if not fresh:
                return

    def compute(self, rel: str, current: TextFile | None) -> store.FileOutcome:
        if not self.prepared:
            self.prepare()
        result = self._rewrite(rel, current, set(self.problems))
        for key, problem in result.problems.items():
            self.problems.setdefault(key, problem)  # changed again since the first read
        mine = {op.key for op in self._ops(rel)}
        conflicts = [
            store.Conflict(key, p.file, p.reason)
            for key, p in self.problems.items()
            if key in mine and p.file == rel
        ]
        applied = [k for k in result.applied if k not in self.problems]
        return store.FileOutcome(result.new_bytes, applied=applied, conflicts=conflicts)


def _applied_before(root: Path) -> dict[str, str]:
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
        keys = (
            batch.applied
            if batch.committed
            else [d.get("key") for d in batch.decisions if isinstance(d, dict)]
        )
        for key in keys:
            if isinstance(key, str):
                done[key] = batch.batch_id
    return done


def _skip_hidden_repeats(root: Path, plan: EditPlan, done: dict[str, str], outcome) -> None:
    """Take out of ``plan`` the decisions an earlier batch applied whose item it still hides
    (a revive or a snooze applied twice): a decision applies once."""
    if not done:
        return
    hidden = load_state(root).hidden
    repeats = {
        p.key
        for p in plan.decisions
        if p.key in done
        and p.decision.item in hidden
        and hidden[p.decision.item].batch == done[p.key]
    }
    if not repeats:
        return
    for p in plan.decisions:
        if p.key in repeats:
            outcome.skipped.append(p.decision)
            outcome.messages.append(f"{p.key}: already applied (batch {done[p.key]}); skipped")
    plan.decisions = [p for p in plan.decisions if p.key not in repeats]
    for rel in list(plan.files):
        plan.files[rel] = [op for op in plan.files[rel] if op.key not in repeats]
        if not plan.files[rel]:
            del plan.files[rel]


def _config(root: Path) -> Config:
    return config_of(root)


def _run(
    result: ScannedWorkspace,
    decisions: Sequence[Decision | dict],
    *,
    dry_run: bool,
    now: datetime | None,
    lock_wait: float,
    fault=None,
) -> tuple[EditPlan, ApplyOutcome, store.BatchResult | None]:
    root = Path(result.root)
    now = now or datetime.now().astimezone()  # local time names the backups, as the store does
    plan = build_plan(result, decisions, now=now)
    outcome = ApplyOutcome(dry_run=dry_run)
    if plan.clashes:  # checked whole, like any invalid input: nothing is written
        outcome.refused = [
            f"{describe(second)} conflicts with {describe(first)}: {why}"
            for first, second, why in plan.clashes
        ]
        return plan, outcome, None
    done = _applied_before(root)
    _skip_hidden_repeats(root, plan, done, outcome)
    for d, reason in plan.invalid:
        if d.key in done and result.item(d.item) is None:
            # a decision applies once: its item left the queues when it was applied
            outcome.skipped.append(d)
            outcome.messages.append(f"{d.key}: already applied (batch {done[d.key]}); skipped")
            continue
        outcome.failures.append(DecisionProblem(d, None, reason, stays_pending=False))
    for d, reason in plan.changed:
        outcome.conflicts.append(DecisionProblem(d, None, reason))
    acting = [p for p in plan.decisions if p.files or p.hide]
    if not acting:
        outcome.applied = [p.decision for p in plan.decisions]
        return plan, outcome, None
    run = _BatchRun(root, plan)
    jobs = [_PlanJob(run, rel) for rel in plan.files]
    cfg = result.workspace.config
    try:
        batch = store.apply_batch(
            root,
            jobs,
            [_journal_record(p) for p in acting],
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


def _journal_record(p: PlannedDecision) -> dict:
    """The decision as the journal keeps it, with the state entry it adds (so finishing an
    interrupted batch can add it too)."""
    record = p.journal()
    if p.hide is not None:
        until = p.hide.until.isoformat() if p.hide.until else None
        record["hide"] = {"item": p.hide.item, "until": until, "reason": p.hide.reason}
    return record


def _classify(plan: EditPlan, outcome: ApplyOutcome, batch, run: _BatchRun) -> None:
    by_key = plan.by_key()
    failed: dict[str, DecisionProblem] = {}
    conflicted: dict[str, DecisionProblem] = {}
    for key, p in run.problems.items():
        if key in by_key:
            target = failed if p.kind == "failure" else conflicted
            target.setdefault(key, DecisionProblem(by_key[key].decision, p.file, p.reason))
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
            failed[p.key] = DecisionProblem(p.decision, None, "not written (see the journal)")
            continue
        outcome.applied.append(p.decision)
    outcome.conflicts += list(conflicted.values())
    outcome.failures += list(failed.values())
    outcome.files = list(batch.files)
    outcome.batch = batch.batch_id if batch.journaled else None
    outcome.messages += batch.notes


def _hides(plan: EditPlan, outcome: ApplyOutcome) -> list[PlannedDecision]:
    done = {d.key for d in outcome.applied}
    return [p for p in plan.decisions if p.hide is not None and p.key in done]


def _state_with(root: Path, hides: list[PlannedDecision], batch: str) -> tuple[State, bytes | None]:
    """The state with ``hides`` added under ``batch``, and the state file's bytes now."""
    try:
        before = store.read_private(root, _STATE_NAME)
    except (OSError, store.PathEscape):
        before = None
    state, _problem = parse_state(before)
    for p in hides:
        h = p.hide
        assert h is not None
        state.hidden[h.item] = Hidden(h.until, h.reason, batch)
    return state, before


def _keep_broken_state(root: Path, outcome: ApplyOutcome) -> None:
    """A state file that doesn't parse is copied aside before it is replaced."""
    before = store.read_private(root, _STATE_NAME)
    if before and parse_state(before)[1]:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        name = f"{_STATE_NAME}.broken-{stamp}"
        store.write_private(root, name, before)
        outcome.messages.append(
            f"{STATE_FILE} did not parse; its old bytes are in .memreview/{name}"
        )


def preview(
    result: ScannedWorkspace, decisions: Sequence[Decision | dict], *, now: datetime | None = None
):
    """{relative path: unified diff} of what ``decisions`` would write; nothing is written."""
    outcome = apply(result, decisions, dry_run=True, now=now)
    out = {f.rel: f.diff for f in outcome.files if f.diff}
    if outcome.state_diff:
        out[STATE_FILE] = outcome.state_diff
    return out


def apply(
    result: ScannedWorkspace,
    decisions: Sequence[Decision | dict],
    *,
    dry_run: bool = False,
    commit: bool | None = None,
    now: datetime | None = None,
    lock_wait: float = 2.0,
    fault=None,
) -> ApplyOutcome:
    """Apply ``decisions`` to the workspace ``result`` was scanned from.

    Conflicts and failures are reported in the outcome and stay pending; the others are
    written. With ``dry_run`` nothing at all is written (not even under ``.memreview/``).
    ``commit`` (default: the workspace's ``commit`` setting) commits the batch when the
    workspace is a git repository. Raises nothing for bad decisions or a held lock.
    """
    root = Path(result.root)
    plan, outcome, batch = _run(
        result, decisions, dry_run=dry_run, now=now, lock_wait=lock_wait, fault=fault
    )
    if outcome.refused:
        return outcome
    hides = _hides(plan, outcome)
    batch_id = outcome.batch or ("dry-run" if dry_run else None)
    if hides and batch_id:
        state, before = _state_with(root, hides, batch_id)
        data = state.to_bytes()
        if dry_run:
            outcome.state_diff = store.unified_diff(STATE_FILE, before, data)
        else:
            try:
                _keep_broken_state(root, outcome)
                store.write_private(root, _STATE_NAME, data)
                outcome.hidden = [p.hide.item for p in hides if p.hide]
            except (OSError, store.PathEscape) as exc:
                outcome.messages.append(f"could not record hidden items in {STATE_FILE}: {exc}")
    if dry_run:
        return outcome
    _scrub_redacted(root, plan, outcome)
    if batch is not None and batch.journaled:
        _prune(root, result.workspace.config, outcome)
    stay = [p.decision for p in outcome.conflicts + outcome.failures if p.stays_pending]
    outcome.pending = _update_pending(root, plan, decisions, stay, outcome)
    cfg = result.workspace.config
    if (cfg.commit if commit is None else commit) and batch is not None and batch.journaled:
        message = commit_message(plan, outcome)
        extra = [STATE_FILE] if outcome.hidden else []
        said = store.commit_batch(root, batch, message, extra=extra)
        outcome.messages.append(said or "not a git repository: nothing committed")
    return outcome


def _prune(root: Path, cfg: Config, outcome: ApplyOutcome) -> None:
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
    if pruned.batches:
        outcome.messages.append(
            _(
                "pruned the backups of {count} old batch(es) ({kib} KiB); `memreview log` lists them"
            ).format(count=len(pruned.batches), kib=(pruned.bytes + 1023) // 1024)
        )


def _scrub_redacted(root: Path, plan: EditPlan, outcome: ApplyOutcome) -> None:
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
        outcome.messages.append(f"could not redact memreview's backups: {exc}")
        return
    outcome.messages.append(
        f"redacted: the value is also replaced in {len(changed)} backup cop"
        f"{'y' if len(changed) == 1 else 'ies'} under .memreview/backups (this can't be undone)"
    )


def _update_pending(root, plan, decisions, stay, outcome) -> list[Decision]:
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
                    f".memreview/{PENDING_FILE} did not parse; its old bytes are in {kept}"
                )
        except (OSError, store.PathEscape) as exc:
            outcome.messages.append(f"could not save .memreview/{PENDING_FILE}: {exc}")
    return keep


def _item_of(d: Decision | dict) -> str | None:
    """The item id a raw decision names, when it is one (a malformed entry may hold a list)."""
    item = d.get("item") if isinstance(d, dict) else getattr(d, "item", None)
    return item if isinstance(item, str) else None


def commit_message(plan: EditPlan, outcome: ApplyOutcome) -> str:
    """The git commit message of an applied batch: one line per decision that changed
    something."""
    done = {d.key for d in outcome.applied}
    lines = [p for p in plan.decisions if p.key in done and (p.files or p.hide)]
    head = f"memreview: {len(lines)} decision(s) from the weekly review"
    body = [f"- {p.queue} {p.decision.action}: {p.title}" for p in lines]
    return "\n".join([head, "", *body]) + "\n"


@dataclass
class UndoOutcome:
    """What ``undo`` did: the store's result and the items shown again."""

    result: store.UndoResult
    unhidden: list[str] = field(default_factory=list)
    restaged: list[Decision] = field(default_factory=list)  # the batch's decisions, pending again
    restage_error: str | None = None  # why pending.yaml could not take them
    rehidden: list[str] = field(default_factory=list)  # undo of an unhide: hidden again

    @property
    def ok(self) -> bool:
        """The undo took back the whole batch."""
        return self.result.ok

    @property
    def message(self) -> str:
        """One line for the user: what was undone, and how many items show again."""
        extra = f"; {len(self.unhidden)} item(s) show again" if self.unhidden else ""
        if self.rehidden:
            extra += "; " + _("{count} item(s) hidden again").format(count=len(self.rehidden))
        if self.restaged:
            extra += (
                f"; its {len(self.restaged)} decision(s) are staged again "
                f"(.memreview/{PENDING_FILE}): change what was wrong and write again"
            )
        if self.restage_error:
            extra += f"; its decisions could not be staged again: {self.restage_error}"
        return self.result.message + extra

    @property
    def files(self):
        """The files the undo restored."""
        return self.result.files

    @property
    def diff(self) -> str:
        """The unified diff of the undo."""
        return self.result.diff

    @property
    def exit_code(self) -> int:
        """The command's exit status: 0 when the batch was undone, else 1."""
        return 0 if self.ok else 1


def undo(
    root: Path | str,
    *,
    now: datetime | None = None,
    lock_wait: float = 2.0,
    batch_id: str | None = None,
) -> UndoOutcome:
    """Take back batch ``batch_id`` (default: the last one not undone): its files (store)
    and its hidden items (state.yaml); its decisions are staged again.

    Raises store.LockHeld when a lock stays held.
    """
    root = Path(root).resolve()
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
            store.write_private(root, _STATE_NAME, state.to_bytes())
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
        if not isinstance(raw, dict) or raw.get("key") in failed:
            continue
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


@dataclass
class FinishOutcome:
    """What finishing an interrupted batch did."""

    ok: bool
    message: str
    batch: str | None = None
    hidden: list[str] = field(default_factory=list)


def finish(root: Path | str, batch_id: str | None = None, *, lock_wait: float = 2.0):
    """Finish the interrupted batch ``batch_id`` (default: the last): its files (store), the
    items its decisions hide (state.yaml) and pending.yaml without its decisions.

    Raises store.LockHeld when a lock stays held.
    """
    root = Path(root).resolve()
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
            until = _day(hide.get("until"))
            state.hidden[hide["item"]] = Hidden(until, str(hide.get("reason")), record.batch_id)
            out.hidden.append(hide["item"])
    if out.hidden:
        store.write_private(root, _STATE_NAME, state.to_bytes())
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
        cleaned = store.clean_temp_files(root)
        found = store.interrupted_batches(root)
    except (OSError, store.PathEscape):
        return None
    if not found:
        return None
    lines = [found[-1].describe()]
    lines += [f"also {other.headline()}" for other in found[:-1]]
    lines += [f"removed {rel}, a temp file it left" for rel in cleaned]
    return "\n".join(lines)


def _day(text) -> date | None:
    try:
        return date.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None
