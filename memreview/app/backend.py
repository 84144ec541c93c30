"""The app's only door to the decisions package: staging, previews, writing and undo.

The screens talk to a :class:`Backend`; tests hand them a fake one with the same methods.
Everything the decisions package returns is turned here into the few plain facts the screens
show (files written, conflicts with their reasons, what stays pending).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memreview import decisions as _decisions
from memreview import store
from memreview.decisions import Decision, DecisionError
from memreview.decisions.staging import PendingFile
from memreview.decisions.state import STATE_FILE
from memreview.i18n import _


def make_decision(
    item: str,
    action: str,
    queue: str,
    keep: int | None = None,
    text: str | None = None,
    slug: str | None = None,
) -> Decision:
    return Decision(item=item, action=action, keep=keep, text=text, queue=queue, slug=slug)


@dataclass
class Outcome:
    """What a write did, as the app shows it: the rest stays pending."""

    written: list[str] = field(default_factory=list)
    conflicts: list[tuple[Any, str]] = field(default_factory=list)  # (decision, why)
    failures: list[tuple[Any, str]] = field(default_factory=list)
    keep_pending: list[Any] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    batch: str | None = None
    hidden: int = 0  # items the batch hid (memreview's own state, not a workspace file)


@dataclass
class Preview:
    """What decisions would write: a unified diff per file, and why some would not be."""

    diffs: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def files(self) -> list[str]:
        """The workspace files that would change (memreview's own state left out)."""
        return [rel for rel in self.diffs if rel != STATE_FILE]

    @property
    def hides(self) -> bool:
        """Whether memreview's list of hidden items would change."""
        return STATE_FILE in self.diffs


@dataclass
class UndoSummary:
    ok: bool
    message: str
    diff: str = ""


class Backend(PendingFile):
    """The decisions backend of one workspace (its staged decisions are its pending file)."""

    def check(self, queue: str, item: dict, decision: Decision) -> str | None:
        """Why ``decision`` can't be staged for ``item``, or None when it can."""
        try:
            _decisions.check_decision(queue, item, decision)
        except DecisionError as exc:
            return str(exc)
        return None

    def clash(self, result, staged: list[Decision], decision: Decision) -> str | None:
        """Why ``decision`` contradicts one of the ``staged`` ones (it sends an anchor or
        entry they share somewhere else), naming that one; None when it doesn't."""
        try:
            return _decisions.clash_of(result, list(staged), decision)
        except DecisionError as exc:
            return str(exc)

    def seen(self, result, decision: Decision) -> str | None:
        """What ``decision``'s targets read now (a fingerprint to stage it with); None when
        there is nothing to compare."""
        try:
            return _decisions.seen_now(result, decision)
        except DecisionError:
            return None

    def preview(self, result, decisions: list[Decision]) -> Preview:
        """The diffs ``decisions`` would write (nothing is written), and their problems."""
        out = _decisions.apply(result, list(decisions), dry_run=True)
        diffs = {f.rel: f.diff for f in out.files if f.diff}
        if out.state_diff:
            diffs[STATE_FILE] = out.state_diff
        problems = [_where(p) for p in [*out.conflicts, *out.failures]]
        return Preview(diffs, problems)

    def apply(self, result, decisions: list[Decision]) -> Outcome:
        return outcome_of(_decisions.apply(result, list(decisions)), decisions)

    def nothing_to_undo(self) -> str | None:
        """Why there is nothing to undo (no batch written, or each one taken back), or
        None when the last batch can be undone."""
        if store.last_batch(self.root, undoable=True) is None:
            return _("nothing to undo: no batch written yet, or each one already undone")
        return None

    def last_batch_said(self) -> str | None:
        """The batch ``undo_last`` would take back, said for the question (or None)."""
        return _decisions.last_batch_said(self.root)

    def undo_last(self) -> UndoSummary:
        res = _decisions.undo(self.root, scan=_scan)
        return UndoSummary(bool(res.ok), str(res.message), "" if res.ok else str(res.diff))

    # -- history: every batch, undo of any batch, archived entries put back -----------------
    def history(self) -> list:
        """Every batch, newest first (``store.BatchEntry``: record, undoable, why_not)."""
        return _decisions.batch_history(self.root)

    def batch_diff(self, batch_id: str) -> str:
        """What batch ``batch_id`` changed, as a unified diff."""
        record = next((b for b in store.batches(self.root) if b.batch_id == batch_id), None)
        return store.batch_diff(self.root, record) if record is not None else ""

    def undo_batch(self, batch_id: str) -> UndoSummary:
        """Undo batch ``batch_id`` (later batches stay); its decisions are staged again."""
        res = _decisions.undo(self.root, batch_id=batch_id, scan=_scan)
        return UndoSummary(bool(res.ok), str(res.message), "" if res.ok else str(res.diff))

    def archived(self) -> list:
        """The archived entries that can be put back (``decisions.restore.Archived``)."""
        from memreview.decisions.restore import archived_entries

        return archived_entries(self.root)

    def restore(self, item_id: str, dry_run: bool = False) -> UndoSummary:
        """Put the archived entry ``item_id`` back (or, with ``dry_run``, say what would
        change); the diff is what was (or would be) written."""
        from memreview.decisions.restore import restore

        res = restore(self.root, item_id, dry_run=dry_run)
        return UndoSummary(bool(res.ok), str(res.message), str(res.diff))

    def hidden_reasons(self, today=None) -> dict[str, str]:
        """{item id: why it is hidden on ``today``} (``rejected``, ``snoozed, hidden until
        …``)."""
        from memreview.decisions.hidden import hidden_items

        return {h.id: h.why() for h in hidden_items(self.root, today)}

    def unhide(self, item_id: str, today=None, dry_run: bool = False) -> UndoSummary:
        """Show a hidden item again (a journaled batch, undone by ``U``), or with
        ``dry_run`` say what would change; the diff is what was (or would be) written to a
        file (a skipped skill's candidate going back)."""
        from memreview.decisions.hidden import unhide

        res = unhide(self.root, item_id, today=today, dry_run=dry_run)
        return UndoSummary(bool(res.ok), str(res.message), str(res.diff))

    def removed_temps(self) -> list[str]:
        """Remove the temp files a stopped memreview left (those it can prove it made);
        their paths."""
        try:
            return store.clean_temp_files(self.root)
        except (OSError, store.PathEscape):
            return []

    def interrupted(self) -> str | None:
        """What a crash left (temp files removed, a batch cut short), or None."""
        return _decisions.recovery_notice(self.root)

    def finish_interrupted(self) -> UndoSummary:
        res = _decisions.finish(self.root)
        return UndoSummary(bool(res.ok), str(res.message))


def _where(problem: Any) -> str:
    file = getattr(problem, "file", None)
    reason = str(getattr(problem, "reason", problem))
    return f"{file}: {reason}" if file and file not in reason else reason


def outcome_of(out: Any, decisions: list) -> Outcome:
    """An :class:`Outcome` from the decisions package's ``ApplyOutcome``."""
    written = [
        f.rel for f in out.files if getattr(f, "written", True) or getattr(f, "removed", False)
    ]
    return Outcome(
        written=written,
        conflicts=[(p.decision, _where(p)) for p in out.conflicts],
        failures=[(p.decision, _where(p)) for p in out.failures],
        keep_pending=list(out.pending),
        messages=list(out.messages),
        batch=out.batch,
        hidden=len(getattr(out, "hidden", ()) or ()),
    )


def _scan(root):
    """The workspace as an undo leaves it: what it stages again is checked against it."""
    from memreview.scan import scan_workspace

    return scan_workspace(root)
