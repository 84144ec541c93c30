"""The vocabulary of an EditPlan: targets, per-file content-addressed operations (DESIGN §3),
and the :class:`PlanBuilder` whose building blocks each queue's plan builder uses
(``decisions/units/``); ``decisions/planner.py`` runs them.

Pure: nothing here reads or writes the disk. An operation names its target by the content it
had when the workspace was loaded (the entry's lines, and its rank among identical entries),
never by a line number alone, so that ``rewrite`` can find it again in the file as it is at
write time.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from memreview.decisions.model import Decision, DecisionError
from memreview.decisions.scanned import ScannedWorkspace
from memreview.workspace.model import Anchor, Entry, MemoryFile, Workspace

SUPERSEDED_TITLE = "# Superseded"


# -- targets -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """An entry (or anchor block) as loaded: found again by its text.

    ``copy`` is its rank among the loaded file's entries with the same text (``copies`` of
    them): when the file now holds the same number of identical entries, the rank says which
    one is meant; otherwise an identical twin makes the target ambiguous.
    """

    file: str
    kind: str  # anchor | row | bullet (promoted entries count as bullets)
    text: str
    line: int
    copy: int = 0
    copies: int = 1
    anchor: str | None = None

    @property
    def first_line(self) -> str:
        """The target's first line (to name it in a message)."""
        return self.text.split("\n", 1)[0]

    @property
    def last(self) -> int:
        """The target's last line (1-based) when loaded."""
        return self.line + self.text.count("\n")

    def overlaps(self, other: Target) -> bool:
        """Do the two targets share a line of the same file (an entry inside an anchor
        block overlaps the block)?"""
        return self.file == other.file and self.line <= other.last and other.line <= self.last

    @property
    def name(self) -> str:
        """How a message names the target: ``anchor <id>`` or ``the entry '…' (file:line)``."""
        if self.kind == "anchor" and self.anchor:
            return f"anchor {self.anchor}"
        first = self.first_line.strip()
        first = first if len(first) <= 40 else first[:39] + "…"
        return f"the entry {first!r} ({self.file}:{self.line})"


def kind_group(kind: str) -> str:
    """Promoted entries and numbered items are list items: found again as bullets are."""
    return "bullet" if kind in ("promoted", "numbered") else kind


def entry_target(mf: MemoryFile, entry: Entry) -> Target:
    """The target of an entry of a loaded file, with its rank among identical twins."""
    group = kind_group(entry.kind)
    twins = [e for e in mf.entries if e.text == entry.text and kind_group(e.kind) == group]
    rank = next(k for k, e in enumerate(twins) if e is entry)
    return Target(mf.rel, group, entry.text, entry.line, rank, len(twins), entry.anchor)


def anchor_target(mf: MemoryFile, anchor: Anchor) -> Target:
    """The target of an anchor block of a loaded file, with its rank among identical twins."""
    twins = [a for a in mf.anchors if a.text == anchor.text]
    rank = next(k for k, a in enumerate(twins) if a is anchor)
    return Target(mf.rel, "anchor", anchor.text, anchor.line, rank, len(twins), anchor.id)


# -- operations ----------------------------------------------------------------------------
# Every operation carries ``key``, the decision it belongs to; a file's operations are kept in
# the order of the batch's decisions.


@dataclass(frozen=True)
class DeleteEntry:
    key: str
    target: Target


@dataclass(frozen=True)
class ReplaceEntry:
    key: str
    target: Target
    lines: tuple[str, ...]


@dataclass(frozen=True)
class SetMeta:
    """Set ``name: value`` in an anchor's metadata (replacing an existing value)."""

    key: str
    target: Target
    name: str
    value: str


@dataclass(frozen=True)
class AddRef:
    """Add ``[[ref]]`` to a reference-list key (``, [[ref]]`` on its line, else a new line)."""

    key: str
    target: Target
    name: str
    ref: str


@dataclass(frozen=True)
class RemoveRef:
    """Remove ``[[ref]]`` and one adjacent separator; drop the line if no reference is left."""

    key: str
    target: Target
    name: str
    ref: str


@dataclass(frozen=True)
class MoveBlock:
    """Take an anchor block (and the blank lines after it) out of its file; ``move`` pairs it
    with the AppendBlock that receives it. A promoted entry moves with its marker, after a
    ``note`` line (``Demoted: DATE (reviewed)``)."""

    key: str
    target: Target
    dest: str
    move: int
    note: str = ""


@dataclass(frozen=True)
class AppendBlock:
    """Append the block of MoveBlock ``move`` (from ``source``) to an archive file."""

    key: str
    source: str
    move: int
    title: str


@dataclass(frozen=True)
class InsertRule:
    """Insert ``line`` after the last entry of the first rules heading's section."""

    key: str
    line: str
    headings: tuple[str, ...]


@dataclass(frozen=True)
class AddTodo:
    """Add ``line`` to NOW.md's todo block (created, with NOW.md, when missing)."""

    key: str
    line: str


@dataclass(frozen=True)
class SetStatus:
    """Replace a project file's first ``Status:`` line, or insert one after its title."""

    key: str
    value: str


@dataclass(frozen=True)
class CreateFile:
    """Create a file that must not exist yet."""

    key: str
    content: str


@dataclass(frozen=True)
class RemoveCandidate:
    """Remove one candidate from skill_candidates.json, the rest of the text unchanged."""

    key: str
    theme: str
    content: str
    copy: int = 0
    copies: int = 1


@dataclass(frozen=True)
class AppendLine:
    """Append a line (a JSON verdict) to an append-only file."""

    key: str
    line: str


@dataclass(frozen=True)
class RedactLines:
    """Replace the lines ``old`` (found again by their text, nearest to ``line``) with
    ``new``: a credential's value becomes ``[redacted …]``. ``old`` is held in memory only."""

    key: str
    line: int
    old: tuple[str, ...]
    new: tuple[str, ...]


Op = (
    DeleteEntry
    | ReplaceEntry
    | SetMeta
    | AddRef
    | RemoveRef
    | MoveBlock
    | AppendBlock
    | InsertRule
    | AddTodo
    | SetStatus
    | CreateFile
    | RemoveCandidate
    | AppendLine
    | RedactLines
)


# -- the plan ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hide:
    """A state entry a decision adds once it is applied: ``until`` None means for good."""

    item: str
    until: date | None
    reason: str


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
        return self.fate in ("keep", "edit")

    def says(self) -> str:
        """The fate in a few words: ``kept``, ``moved to memory/archive/demoted.md``…"""
        if self.fate == "move":
            return f"moved to {self.dest}"
        if self.fate == "replace":
            return "rewritten"
        if self.fate == "delete":
            return "deleted"
        if self.fate == "edit":
            return "kept and edited"
        return "kept"


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
        return (
            f"{second.target.name} would be {first.says()} by {by_first} "
            f"and {second.says()} by {by_second}"
        )
    for op, name, value in second.edits:
        for op2, name2, value2 in first.edits:
            if name.lower() != name2.lower() or first.target != second.target:
                continue
            if op == op2 == "set" and value != value2:
                return (
                    f"{second.target.name} would get {name}: {value2} from {by_first} "
                    f"and {name}: {value} from {by_second}"
                )
            if {op, op2} == {"add", "remove"} and value == value2:
                return (
                    f"{second.target.name}: {by_first} and {by_second} disagree "
                    f"on [[{value}]] in {name}"
                )
    return None


@dataclass
class PlannedDecision:
    decision: Decision
    queue: str
    title: str
    files: list[str] = field(default_factory=list)  # the files its operations touch
    hide: Hide | None = None
    ops: list[tuple[str, Op]] = field(default_factory=list)
    kept: list[Target] = field(default_factory=list)  # targets it decides to leave as they are

    def claims(self) -> list[Claim]:
        """What the decision does to each target it names, one claim per target."""
        fates: dict[Target, tuple[str, str, tuple[str, ...]]] = {}
        edits: dict[Target, set[tuple[str, str, str]]] = {}
        for t in self.kept:
            fates.setdefault(t, ("keep", "", ()))
        for _rel, op in self.ops:
            target = getattr(op, "target", None)
            if target is None:
                continue
            fate = _FATE_OF.get(type(op).__name__)
            if fate is not None:
                lines = tuple(op.lines) if isinstance(op, ReplaceEntry) else ()
                fates[target] = (fate, getattr(op, "dest", ""), lines)
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

    def journal(self) -> dict:
        """How the decision is recorded in the journal."""
        record = {"key": self.key, "queue": self.queue, "title": self.title}
        record.update(self.decision.to_dict())
        return {k: printable(v) if isinstance(v, str) else v for k, v in record.items()}


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


# -- from decisions to operations ------------------------------------------------------------


def verdict_line(ts: str, proposal, verdict: str, kept: str | None = None) -> str:
    """One line of verdicts.jsonl (DESIGN §1.3)."""
    obj = {
        "ts": ts,
        "proposal": proposal.id,
        "relation": proposal.relation,
        "new": proposal.new,
        "old": proposal.old,
        "verdict": verdict,
        "by": "human",
    }
    if kept is not None:
        obj["kept"] = kept
    return json.dumps(obj, ensure_ascii=False)


# a heading that is an anchor's header (``[TYPE:id]``), not a section of the file
ANCHOR_TEXT_RE = re.compile(r"^\[[A-Z][A-Z0-9_-]*:[^\]\s]+\]")


class PlanBuilder:
    """The plan being built for one batch, and the building blocks the queues' builders
    share: find an entry or anchor again, supersede, move, record verdicts, hide."""

    def __init__(self, result: ScannedWorkspace, now: datetime) -> None:
        self.ws: Workspace = result.workspace
        self.cfg = self.ws.config
        self.today: date = result.today
        self.day = self.today.isoformat()
        self.ts = now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.plan = EditPlan(today=self.today, chronicle_words=tuple(self.cfg.chronicle_words))
        self._moves = 0

    # -- lookups ---------------------------------------------------------------------------
    def memory_file(self, rel: str) -> MemoryFile | None:
        """The loaded memory or archive file at ``rel``."""
        return self.ws.files.get(rel) or self.ws.archive_files.get(rel)

    def entry(self, ref: dict) -> Target:
        """The target of the entry a ref points at; DecisionError when it isn't loaded."""
        mf = self.memory_file(str(ref.get("file")))
        if mf is not None:
            for e in mf.entries:
                if e.line == ref.get("line"):
                    return entry_target(mf, e)
        raise DecisionError(
            f"the entry at {ref.get('file')}:{ref.get('line')} is not in the loaded workspace"
        )

    def anchor(self, ref: dict) -> Target:
        """The target of the anchor a ref points at; DecisionError when it isn't loaded."""
        mf = self.memory_file(str(ref.get("file")))
        if mf is not None:
            for a in mf.anchors:
                if a.line == ref.get("line") and (ref.get("anchor") in (None, a.id)):
                    return anchor_target(mf, a)
        raise DecisionError(
            f"the anchor {ref.get('anchor')} at {ref.get('file')}:{ref.get('line')} "
            "is not in the loaded workspace"
        )

    def proposals(self, ids) -> list:
        """The judge's proposals with these ids (unknown ids left out)."""
        by_id = {p.id: p for p in self.ws.proposals or []}
        return [by_id[i] for i in ids if i in by_id]

    # -- building blocks ---------------------------------------------------------------------
    def supersede(self, pd: PlannedDecision, new: Target, old: Target) -> None:
        """``old`` gets Superseded-By ``new`` (and ``new`` Supersedes ``old``), their
        conflict markers go, and ``old`` moves to the superseded archive."""
        key = pd.key
        p = self.plan
        p.add(old.file, SetMeta(key, old, "Superseded-By", f"[[{new.anchor}]] ({self.day})"), pd)
        p.add(new.file, AddRef(key, new, "Supersedes", str(old.anchor)), pd)
        p.add(old.file, RemoveRef(key, old, "CONFLICTS-WITH", str(new.anchor)), pd)
        p.add(new.file, RemoveRef(key, new, "CONFLICTS-WITH", str(old.anchor)), pd)
        self.move(pd, old, self.cfg.superseded_file, SUPERSEDED_TITLE)

    def move(
        self, pd: PlannedDecision, target: Target, dest: str, title: str, note: str = ""
    ) -> None:
        """Move an anchor block (or a promoted entry with its marker, after a ``note``
        line) to the end of ``dest`` (titled ``title`` when new)."""
        self._moves += 1
        origin = self.origin(target)
        if target.kind == "anchor":  # where it came from, for `memreview restore`
            self.plan.add(target.file, SetMeta(pd.key, target, "From", origin), pd)
        elif note:
            note = f"{note} · From: {origin}"
        self.plan.add(target.file, MoveBlock(pd.key, target, dest, self._moves, note), pd)
        self.plan.add(dest, AppendBlock(pd.key, target.file, self._moves, title), pd)

    def origin(self, target: Target) -> str:
        """``<file> § <heading>``: where an archived block came from (the heading it sat
        under; the file alone when it sat under none)."""
        mf = self.memory_file(target.file)
        above = [
            text
            for line, _level, text in (mf.headings if mf is not None else [])
            if line < target.line and not ANCHOR_TEXT_RE.match(text)
        ]
        return f"{target.file} § {above[-1]}" if above else target.file

    def verdicts(self, pd: PlannedDecision, proposal_ids, verdict: str, kept=None) -> None:
        """Append the human's verdict on each of these proposals to verdicts.jsonl."""
        for proposal in self.proposals(proposal_ids):
            line = verdict_line(self.ts, proposal, verdict, kept)
            self.plan.add(self.cfg.verdicts, AppendLine(pd.key, line), pd)

    def keep(self, pd: PlannedDecision, target: Target) -> None:
        """The decision leaves ``target`` where and as it is: no other decision of the batch
        may remove, move or rewrite it."""
        pd.kept.append(target)

    def hide(self, pd: PlannedDecision, reason: str, days: int | None = None) -> None:
        """Hide the item once the decision is applied: for ``days``, or for good."""
        until = self.today + timedelta(days=days) if days is not None else None
        pd.hide = Hide(pd.decision.item, until, reason)
