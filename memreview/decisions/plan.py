"""Decisions → an EditPlan: per file, content-addressed operations (DESIGN §3).

Pure: nothing here reads or writes the disk. An operation names its target by the content it
had when the workspace was loaded (the entry's lines, and its rank among identical entries),
never by a line number alone, so that ``rewrite`` can find it again in the file as it is at
write time.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from memreview.decisions.model import Decision, DecisionError, check_decision, merge_lines
from memreview.decisions.scanned import ScannedWorkspace
from memreview.workspace.model import Anchor, Entry, MemoryFile, Workspace

SUPERSEDED_TITLE = "# Superseded"
DEMOTED_TITLE = "# Demoted"


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
        return self.text.split("\n", 1)[0]


def kind_group(kind: str) -> str:
    return "bullet" if kind == "promoted" else kind


def entry_target(mf: MemoryFile, entry: Entry) -> Target:
    group = kind_group(entry.kind)
    twins = [e for e in mf.entries if e.text == entry.text and kind_group(e.kind) == group]
    rank = next(k for k, e in enumerate(twins) if e is entry)
    return Target(mf.rel, group, entry.text, entry.line, rank, len(twins), entry.anchor)


def anchor_target(mf: MemoryFile, anchor: Anchor) -> Target:
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
    with the AppendBlock that receives it."""

    key: str
    target: Target
    dest: str
    move: int


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
)


# -- the plan ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hide:
    """A state entry a decision adds once it is applied: ``until`` None means for good."""

    item: str
    until: date | None
    reason: str


@dataclass
class PlannedDecision:
    decision: Decision
    queue: str
    title: str
    files: list[str] = field(default_factory=list)  # the files its operations touch
    hide: Hide | None = None
    ops: list[tuple[str, Op]] = field(default_factory=list)

    @property
    def key(self) -> str:
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
    files: dict[str, list[Op]] = field(default_factory=dict)
    chronicle_words: tuple[str, ...] = ("编年史", "chronicle")

    def add(self, rel: str, op: Op, planned: PlannedDecision) -> None:
        """Give ``op`` to ``planned``; its operations join the plan once it is complete."""
        planned.ops.append((rel, op))
        if rel not in planned.files:
            planned.files.append(rel)

    def commit(self, planned: PlannedDecision) -> None:
        for rel, op in planned.ops:
            self.files.setdefault(rel, []).append(op)
        self.decisions.append(planned)

    @property
    def keys(self) -> list[str]:
        return [p.key for p in self.decisions]

    def by_key(self) -> dict[str, PlannedDecision]:
        return {p.key: p for p in self.decisions}


# -- from decisions to operations ------------------------------------------------------------


def skill_slug(theme: str) -> str:
    """The theme's ASCII letters and digits, lower-cased, runs joined by ``-``; else
    ``skill-`` and the first 8 hex digits of the theme's sha256."""
    runs = re.findall(r"[A-Za-z0-9]+", theme)
    if runs:
        return "-".join(runs).lower()
    return "skill-" + hashlib.sha256(theme.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def skill_file(theme: str, content: str, slug: str) -> str:
    """SKILL.md: front matter with ``name`` and ``description``, then the content."""
    body = content.replace("\r\n", "\n")
    if not body.endswith("\n"):
        body += "\n"
    return f"---\nname: {slug}\ndescription: {_yaml_scalar(theme)}\n---\n\n{body}"


def _yaml_scalar(text: str) -> str:
    """``text`` as a YAML plain scalar when that is safe, else double-quoted."""
    plain = (
        text
        and text == text.strip()
        and "\n" not in text
        and not re.search(r"[:#'\"\[\]{},&*!|>%@`\\]", text)
        and text[0] not in "-?"
        and text.lower() not in ("true", "false", "yes", "no", "null", "on", "off", "~")
        and not re.fullmatch(r"[-+]?[\d.]+(e[-+]?\d+)?", text, re.I)
    )
    if plain:
        return text
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


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


class _Builder:
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
        return self.ws.files.get(rel) or self.ws.archive_files.get(rel)

    def entry(self, ref: dict) -> Target:
        mf = self.memory_file(str(ref.get("file")))
        if mf is not None:
            for e in mf.entries:
                if e.line == ref.get("line"):
                    return entry_target(mf, e)
        raise DecisionError(
            f"the entry at {ref.get('file')}:{ref.get('line')} is not in the loaded workspace"
        )

    def anchor(self, ref: dict) -> Target:
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
        by_id = {p.id: p for p in self.ws.proposals or []}
        return [by_id[i] for i in ids if i in by_id]

    # -- building blocks ---------------------------------------------------------------------
    def supersede(self, pd: PlannedDecision, new: Target, old: Target) -> None:
        key = pd.key
        p = self.plan
        p.add(old.file, SetMeta(key, old, "Superseded-By", f"[[{new.anchor}]] ({self.day})"), pd)
        p.add(new.file, AddRef(key, new, "Supersedes", str(old.anchor)), pd)
        p.add(old.file, RemoveRef(key, old, "CONFLICTS-WITH", str(new.anchor)), pd)
        p.add(new.file, RemoveRef(key, new, "CONFLICTS-WITH", str(old.anchor)), pd)
        self.move(pd, old, self.cfg.superseded_file, SUPERSEDED_TITLE)

    def move(self, pd: PlannedDecision, target: Target, dest: str, title: str) -> None:
        self._moves += 1
        self.plan.add(target.file, MoveBlock(pd.key, target, dest, self._moves), pd)
        self.plan.add(dest, AppendBlock(pd.key, target.file, self._moves, title), pd)

    def verdicts(self, pd: PlannedDecision, proposal_ids, verdict: str, kept=None) -> None:
        for proposal in self.proposals(proposal_ids):
            line = verdict_line(self.ts, proposal, verdict, kept)
            self.plan.add(self.cfg.verdicts, AppendLine(pd.key, line), pd)

    def hide(self, pd: PlannedDecision, reason: str, days: int | None = None) -> None:
        until = self.today + timedelta(days=days) if days is not None else None
        pd.hide = Hide(pd.decision.item, until, reason)

    # -- one decision ----------------------------------------------------------------------
    def add(self, d: Decision, queue: str, item: dict) -> None:
        pd = PlannedDecision(d, queue, str(item.get("title") or d.item))
        getattr(self, "_" + queue.replace("-", "_"))(pd, d, item)
        self.plan.commit(pd)

    def _contradictions(self, pd: PlannedDecision, d: Decision, item: dict) -> None:
        if d.action == "defer":
            return
        a, b = self.anchor(item["a"]), self.anchor(item["b"])
        proposals = item.get("proposals") or []
        if d.action in ("keep-a", "keep-b"):
            new, old = (a, b) if d.action == "keep-a" else (b, a)
            self.supersede(pd, new, old)
            self.verdicts(pd, proposals, "approved", kept=new.anchor)
            return
        # keep-both: the conflict marker becomes a see-also, both ways
        p = self.plan
        p.add(a.file, RemoveRef(pd.key, a, "CONFLICTS-WITH", str(b.anchor)), pd)
        p.add(b.file, RemoveRef(pd.key, b, "CONFLICTS-WITH", str(a.anchor)), pd)
        p.add(a.file, AddRef(pd.key, a, "SEE-ALSO", str(b.anchor)), pd)
        p.add(b.file, AddRef(pd.key, b, "SEE-ALSO", str(a.anchor)), pd)
        self.verdicts(pd, proposals, "kept-both")
        # a judge proposal would bring the pair back on the next scan
        self.hide(pd, "kept-both")

    def _supersede(self, pd: PlannedDecision, d: Decision, item: dict) -> None:
        proposal = [item["proposal"]] if item.get("proposal") else []
        if d.action == "approve":
            self.supersede(pd, self.anchor(item["new"]), self.anchor(item["old"]))
            self.verdicts(pd, proposal, "approved")
        elif d.action == "reject":
            self.verdicts(pd, proposal, "rejected")
            self.hide(pd, "rejected")

    def _skills(self, pd: PlannedDecision, d: Decision, item: dict) -> None:
        if d.action == "defer":
            return
        theme, content = str(item.get("theme") or ""), str(item.get("content") or "")
        if d.action == "solidify":
            main = self.ws.main_memory()
            if main is None:
                raise DecisionError("there is no MEMORY.md to solidify the rule into")
            line = "- " + content.replace("\r\n", " ").replace("\n", " ").strip()
            self.plan.add(main, InsertRule(pd.key, line, tuple(self.cfg.rules_headings)), pd)
        elif d.action == "create-skill":
            slug = skill_slug(theme)
            rel = f"{self.cfg.skills_dir.rstrip('/')}/{slug}/SKILL.md"
            self.plan.add(rel, CreateFile(pd.key, skill_file(theme, content, slug)), pd)
        # Identical candidates share one item id: the decision takes the first of them.
        twins = [c for c in self.ws.skills or [] if (c.theme, c.content) == (theme, content)]
        self.plan.add(
            self.cfg.skill_candidates,
            RemoveCandidate(pd.key, theme, content, 0, max(1, len(twins))),
            pd,
        )

    def _archived(self, pd: PlannedDecision, d: Decision, item: dict) -> None:
        if d.action == "remove":
            targets = {}
            for ref in item.get("matches") or []:
                target = self.entry(ref)
                targets.setdefault((target.file, target.line), target)
            for target in targets.values():
                self.plan.add(target.file, DeleteEntry(pd.key, target), pd)
        elif d.action == "keep":
            self.hide(pd, "kept")

    def _duplicates(self, pd: PlannedDecision, d: Decision, item: dict) -> None:
        if d.action == "not-duplicate":
            self.hide(pd, "not-duplicate")
            return
        if d.action == "defer":
            return
        refs = item.get("refs") or []
        keep = (d.keep or 1) - 1
        # a copied block or record is one ref naming each of its entries' lines
        runs = [
            [self.entry({**ref, "line": ln}) for ln in ref.get("lines") or [ref.get("line")]]
            for ref in refs
        ]
        for k, run in enumerate(runs):
            if k == keep:
                if d.action == "merge":
                    text = d.text if d.text is not None else str(item.get("merged") or "")
                    lines = tuple(merge_lines(text))
                    self.plan.add(run[0].file, ReplaceEntry(pd.key, run[0], lines), pd)
                    for target in run[1:]:
                        self.plan.add(target.file, DeleteEntry(pd.key, target), pd)
                continue
            for target in run:
                self.plan.add(target.file, DeleteEntry(pd.key, target), pd)

    def _dormant(self, pd: PlannedDecision, d: Decision, item: dict) -> None:
        if d.action == "defer":
            return
        if d.action in ("snooze", "revive"):
            if d.action == "revive":
                title = " ".join(str(item.get("title") or item.get("project")).split())
                line = f"- [ ] Revisit {title} ({self.day})"
                self.plan.add(self.cfg.now, AddTodo(pd.key, line), pd)
            self.hide(pd, "snoozed" if d.action == "snooze" else "revived", self.cfg.snooze_days)
            return
        value = f"{'archived' if d.action == 'archive' else 'done'} ({self.day})"
        project = self.ws.projects.get(str(item.get("project")))
        if project is None:
            raise DecisionError(f"project {item.get('project')!r} is not in the loaded workspace")
        if project.file:
            self.plan.add(project.file, SetStatus(pd.key, value), pd)
        elif project.anchor:
            target = self.anchor(project.ref)
            self.plan.add(target.file, SetMeta(pd.key, target, "Status", value), pd)
        else:
            raise DecisionError(
                f"project {project.key!r} is only known from <!-- project: --> markers; it has no "
                f"file or PROJECT anchor whose Status memreview could set"
            )

    def _demotion(self, pd: PlannedDecision, d: Decision, item: dict) -> None:
        if d.action == "defer":
            return
        if d.action == "reject":
            self.hide(pd, "rejected", self.cfg.reject_hide_days)
            return
        target = self.anchor(item["anchor"])
        if d.action == "pin":
            self.plan.add(target.file, SetMeta(pd.key, target, "Importance", "high"), pd)
            return
        self.plan.add(target.file, SetMeta(pd.key, target, "Demoted", f"{self.day} (reviewed)"), pd)
        self.move(pd, target, self.cfg.demoted_file, DEMOTED_TITLE)


def build_plan(
    result: ScannedWorkspace, decisions: Sequence[Decision | dict], *, now: datetime | None = None
):
    """The EditPlan of ``decisions`` on the workspace ``result`` was scanned from.

    Invalid decisions (unknown item, wrong action, keep out of range, a merge text that is
    not an entry…) are listed in ``plan.invalid`` with a reason; the others are planned.
    """
    b = _Builder(result, now or datetime.now(UTC))
    seen: set[str] = set()
    for raw in decisions:
        try:
            d = Decision.from_dict(raw)
        except DecisionError as exc:
            b.plan.invalid.append((_placeholder(raw), str(exc)))
            continue
        found = result.item(d.item)
        if found is None:
            b.plan.invalid.append((d, f"unknown item id {d.item!r} (not in any queue)"))
            continue
        queue, item = found
        if d.item in seen:
            b.plan.invalid.append((d, f"item {d.item} is decided twice in this batch"))
            continue
        try:
            check_decision(queue, item, d)
            with_queue = d if d.queue == queue else _with_queue(d, queue)
            b.add(with_queue, queue, item)
        except DecisionError as exc:
            b.plan.invalid.append((d, str(exc)))
            continue
        seen.add(d.item)
    return b.plan


def _with_queue(d: Decision, queue: str) -> Decision:
    return Decision(d.item, d.action, d.keep, d.text, queue)


def _placeholder(raw: object) -> Decision:
    """Something to name a malformed decision by."""
    if isinstance(raw, dict):
        return Decision(str(raw.get("item") or "?"), str(raw.get("action") or "?"))
    return Decision("?", "?")
