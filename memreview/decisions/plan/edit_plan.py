"""The plan itself: each ``PlannedDecision`` with its operations and the ``Claim``s it makes
on targets (two decisions whose claims ``clash`` can't be written together), and the
``EditPlan`` that gathers a batch's decisions file by file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from memreview.decisions.model import Decision
from memreview.decisions.plan.ops import AddRef, Op, RemoveRef, ReplaceEntry, SetMeta
from memreview.decisions.plan.targets import Target
from memreview.i18n import _
from memreview.secrets import mask_secrets


@dataclass(frozen=True)
class Hide:
    """A state entry a decision adds once it is applied: ``until`` None means for good."""

    item: str
    until: date | None
    reason: str
    # what the decision took out of a file, to put back on unhide (a skipped skill:
    # ``{"file", "index", "candidate"}``)
    removed: dict[str, Any] | None = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class Claim:
    """What one decision does to one target: where the target ends up (``fate``: ``keep``
    and ``edit`` leave it in place, ``delete``, ``move`` to ``dest``, ``replace`` by
    ``lines``) and the metadata edits it makes there (``(op, name, value)``)."""

    target: Target
    fate: str
    dest: str = ""
    lines: tuple[str, ...] = ()
    edits: frozenset[tuple[str, str, str]] = frozenset()

    @property
    def stays(self) -> bool:
        """The target stays where it is (kept, or edited in place)."""
        return self.fate in ("keep", "edit")

    def says(self) -> str:
        """The fate in a few words: ``kept``, ``moved to memory/archive/demoted.md``…"""
        if self.fate == "move":
            return _("moved to {file}").format(file=self.dest)
        if self.fate == "replace":
            return _("rewritten")
        if self.fate == "delete":
            return _("deleted")
        if self.fate == "edit":
            return _("kept and edited")
        return _("kept")


_FATE_OF = {"DeleteEntry": "delete", "ReplaceEntry": "replace", "MoveBlock": "move"}


def clash(first: Claim, second: Claim, by_first: str, by_second: str) -> str | None:
    """Why two decisions' claims on overlapping targets can't both be written, or None.

    Two decisions may both leave a target in place (keep it, or edit it without
    contradicting each other), or send the very same target to the very same place
    (keep B in Contradictions and approve "B supersedes A"); anything else clashes."""
    if first.stays and second.stays:
        pass
    elif first.target != second.target or (first.fate, first.dest, first.lines) != (
        second.fate,
        second.dest,
        second.lines,
    ):
        return _("{target} would be {fate} by {decision} and {other_fate} by {other}").format(
            target=second.target.name,
            fate=first.says(),
            decision=by_first,
            other_fate=second.says(),
            other=by_second,
        )
    for op, name, value in second.edits:
        for op2, name2, value2 in first.edits:
            if name.lower() != name2.lower() or first.target != second.target:
                continue
            if op == op2 == "set" and value != value2:
                return _(
                    "{target} would get {field}: {value} from {decision} and {field}: "
                    "{other_value} from {other}"
                ).format(
                    target=second.target.name,
                    field=name,
                    value=value2,
                    decision=by_first,
                    other_value=value,
                    other=by_second,
                )
            if {op, op2} == {"add", "remove"} and value == value2:
                return _(
                    "{target}: {decision} and {other} disagree on [[{ref}]] in {field}"
                ).format(
                    target=second.target.name,
                    decision=by_first,
                    other=by_second,
                    ref=value,
                    field=name,
                )
    return None


@dataclass
class PlannedDecision:
    """One decision as planned: its queue and item title, the files its operations touch,
    whether it hides its item, and its operations as ``(file, Op)`` pairs."""

    decision: Decision
    queue: str
    title: str
    files: list[str] = field(default_factory=list)  # the files its operations touch
    hide: Hide | None = None
    ops: list[tuple[str, Op]] = field(default_factory=list)
    kept: list[Target] = field(default_factory=list)  # targets it decides to leave as they are
    # targets it changes in place without an operation naming them (a redaction's lines)
    edited: list[Target] = field(default_factory=list)
    # deleted targets whose text it keeps in an archive, by that archive (a promotion
    # archived): a move there, for the claims
    kept_in: dict[Target, str] = field(default_factory=dict)

    def claims(self) -> list[Claim]:
        """What the decision does to each target it names, one claim per target."""
        fates: dict[Target, tuple[str, str, tuple[str, ...]]] = {}
        edits: dict[Target, set[tuple[str, str, str]]] = {}
        for t in self.kept:
            fates.setdefault(t, ("keep", "", ()))
        for t in self.edited:
            fates[t] = ("edit", "", ())
        for _rel, op in self.ops:
            target = getattr(op, "target", None)
            if target is None:
                continue
            fate = _FATE_OF.get(type(op).__name__)
            if fate is not None:
                lines = tuple(op.lines) if isinstance(op, ReplaceEntry) else ()
                dest = getattr(op, "dest", "")
                if fate == "delete" and target in self.kept_in:
                    fate, dest = "move", self.kept_in[target]
                fates[target] = (fate, dest, lines)
                continue
            if fates.get(target, ("keep",))[0] == "keep":
                fates[target] = ("edit", "", ())
            if isinstance(op, SetMeta):
                edits.setdefault(target, set()).add(("set", op.name, op.value))
            elif isinstance(op, AddRef | RemoveRef):
                verb = "add" if isinstance(op, AddRef) else "remove"
                edits.setdefault(target, set()).add((verb, op.name, op.ref))
        return [
            Claim(t, fate, dest, lines, frozenset(edits.get(t, ())))
            for t, (fate, dest, lines) in fates.items()
        ]

    @property
    def key(self) -> str:
        """The decision's key (``item:action``)."""
        return self.decision.key

    def journal(self) -> dict[str, Any]:
        """How the decision is recorded in the journal: every text with its credentials
        masked (the journal is never rewritten, so a value written there would stay). A merge
        or edit text that was masked is marked ``text_masked``: undo does not stage it again
        (it would write the mask), the owner decides that item anew."""
        record = {"key": self.key, "queue": self.queue, "title": self.title}
        record.update(self.decision.to_dict())
        out: dict[str, Any] = {}
        for k, v in record.items():
            if isinstance(v, str):
                masked = mask_secrets(v)
                if k == "text" and masked != v:
                    out["text_masked"] = True
                v = printable(masked)
            out[k] = v
        return out


def printable(text: str) -> str:
    """``text`` with bytes that were not text (a file that isn't valid UTF-8) as ``\\xNN``."""
    text = re.sub("[\udc80-\udcff]", lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", text)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass
class EditPlan:
    """Everything a batch of decisions would write, file by file."""

    today: date
    decisions: list[PlannedDecision] = field(default_factory=list)
    invalid: list[tuple[Decision, str]] = field(default_factory=list)
    # decisions that can't be written together: (the earlier, the later, why)
    clashes: list[tuple[PlannedDecision, PlannedDecision, str]] = field(default_factory=list)
    # decisions whose targets read otherwise than when they were decided: they stay pending
    changed: list[tuple[Decision, str]] = field(default_factory=list)
    files: dict[str, list[Op]] = field(default_factory=dict)
    chronicle_words: tuple[str, ...] = ("编年史", "chronicle")
    _claims: dict[str, list[Claim]] = field(default_factory=dict, repr=False)

    def add(self, rel: str, op: Op, planned: PlannedDecision) -> None:
        """Give ``op`` to ``planned``; its operations join the plan once it is complete."""
        planned.ops.append((rel, op))
        if rel not in planned.files:
            planned.files.append(rel)

    def clash_with(self, planned: PlannedDecision) -> tuple[PlannedDecision, str] | None:
        """The first planned decision whose claims clash with ``planned``'s, and why."""
        mine = planned.claims()
        if not mine:
            return None
        for other in self.decisions:
            for theirs in self._claims.get(other.key) or []:
                for claim in mine:
                    if theirs.target.overlaps(claim.target):
                        why = clash(theirs, claim, other.decision.item, planned.decision.item)
                        if why is not None:
                            return other, why
        return None

    def commit(self, planned: PlannedDecision) -> None:
        """Add a completely planned decision and its operations to the plan."""
        for rel, op in planned.ops:
            self.files.setdefault(rel, []).append(op)
        self.decisions.append(planned)
        self._claims[planned.key] = planned.claims()

    @property
    def keys(self) -> list[str]:
        """The keys of the planned decisions, in order."""
        return [p.key for p in self.decisions]

    def by_key(self) -> dict[str, PlannedDecision]:
        """The planned decisions by key."""
        return {p.key: p for p in self.decisions}
