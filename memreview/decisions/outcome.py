"""What a batch of decisions did: ``ApplyOutcome`` (and ``DecisionProblem``, a decision not
written), ``UndoOutcome`` and ``FinishOutcome``, as the app and the command line read them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memreview import store
from memreview.decisions.model import Decision
from memreview.decisions.pending import PENDING_FILE
from memreview.decisions.planner import name_decision
from memreview.i18n import _, ngettext


def files_phrase(count: int, own_state: bool = False) -> str:
    """How many workspace files a batch changes, in the same words in the app's review, its
    result and ``apply``: ``2 files``; ``own_state`` adds memreview's own list of hidden
    items (``.memreview/state.yaml``), which is not one of the workspace's files."""
    files = ngettext("{n} file", "{n} files", count).format(n=count)
    if own_state:
        return _("{files} and memreview's list of hidden items").format(files=files)
    return files


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
    pending_error: str | None = None  # pending.yaml could not be saved: ``pending`` is not in it
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


@dataclass
class UndoOutcome:
    """What ``undo`` did: the store's result and the items shown again."""

    result: store.UndoResult
    unhidden: list[str] = field(default_factory=list)
    restaged: list[Decision] = field(default_factory=list)  # the batch's decisions, pending again
    restage_error: str | None = None  # why pending.yaml could not take them
    rehidden: list[str] = field(default_factory=list)  # undo of an unhide: hidden again
    # the journal's records of the batch's decisions the undo left in place (a redaction)
    lasting: list[dict[str, Any]] = field(default_factory=list)
    kept_files: list[str] = field(default_factory=list)  # the batch's files it left as they are
    # the batch's decisions not staged again, each with why (a clash, an item gone)
    left_out: list[tuple[Decision, str]] = field(default_factory=list)
    # decisions staged before whose item the undo took out of every queue: unstaged
    unstaged: list[Decision] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """The undo took back the whole batch."""
        return self.result.ok

    @property
    def message(self) -> str:
        """One line for the user: what was undone, how many items it hid are hidden no more
        (the others of its decisions show again as their files are restored)."""
        extra = ""
        if self.unhidden:
            n = len(self.unhidden)
            extra += ngettext(
                "; {count} item it hid is hidden no more",
                "; {count} items it hid are hidden no more",
                n,
            ).format(count=n)
        if self.rehidden:
            n = len(self.rehidden)
            extra += ngettext(
                "; {count} item is hidden again", "; {count} items are hidden again", n
            ).format(count=n)
        if self.restaged:
            n = len(self.restaged)
            extra += ngettext(
                "; its {count} decision is staged again ({file}): change what was wrong and "
                "write again",
                "; its {count} decisions are staged again ({file}): change what was wrong and "
                "write again",
                n,
            ).format(count=n, file=f".memreview/{PENDING_FILE}")
        if self.lasting:
            n = len(self.lasting)
            extra += ngettext(
                "; the redaction stays ({files}): undo never writes a credential back; put "
                "the value back by hand from where it is kept, if it belongs there",
                "; the {count} redactions stay ({files}): undo never writes a credential back; "
                "put the values back by hand from where they are kept, if they belong there",
                n,
            ).format(count=n, files=", ".join(self.kept_files) or _("in their files"))
        for d, why in self.left_out:
            extra += "; " + _("{decision} is not staged again: {why}").format(
                decision=name_decision(d), why=why
            )
        for d in self.unstaged:
            extra += "; " + _(
                "{decision} is no longer staged: its item is in no queue any more"
            ).format(decision=name_decision(d))
        if self.restage_error:
            extra += _("; its decisions could not be staged again: {error}").format(
                error=self.restage_error
            )
        return self.result.message + extra

    @property
    def files(self) -> list[store.FileResult]:
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


@dataclass
class FinishOutcome:
    """What finishing an interrupted batch did."""

    ok: bool
    message: str
    batch: str | None = None
    hidden: list[str] = field(default_factory=list)
