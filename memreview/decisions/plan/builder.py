"""``PlanBuilder``: the plan being built for one batch, and the building blocks each queue's
plan builder (``decisions/units/``) uses: find an entry or anchor again, supersede, move,
record verdicts, keep, hide."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from memreview.decisions.model import DecisionError
from memreview.decisions.plan.edit_plan import EditPlan, Hide, PlannedDecision
from memreview.decisions.plan.ops import (
    AddRef,
    AppendBlock,
    AppendLine,
    MoveBlock,
    RemoveRef,
    SetMeta,
)
from memreview.decisions.plan.targets import Target, anchor_target, entry_target, heading_target
from memreview.decisions.scanned import ScannedWorkspace
from memreview.i18n import _
from memreview.workspace.model import MemoryFile, Proposal, Workspace

SUPERSEDED_TITLE = "# Superseded"


def verdict_line(ts: str, proposal: Proposal, verdict: str, kept: str | None = None) -> str:
    """One line of verdicts.jsonl (docs/design.md §1.3)."""
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

    def entry(self, ref: dict[str, Any]) -> Target:
        """The target of the entry a ref points at; DecisionError when it isn't loaded."""
        mf = self.memory_file(str(ref.get("file")))
        if mf is not None:
            for e in [*mf.entries, *mf.paragraphs]:  # a duplicate may be a paragraph line
                if e.line == ref.get("line"):
                    return entry_target(mf, e)
        raise DecisionError(
            _("the entry at {file}:{line} is not in the loaded workspace").format(
                file=ref.get("file"), line=ref.get("line")
            )
        )

    def heading(self, rel: str, line: int) -> Target:
        """The target of the heading at ``rel``:``line`` with the blank lines above it (a
        copied block takes them with it); DecisionError when it isn't loaded."""
        mf = self.memory_file(rel)
        target = heading_target(mf, line) if mf is not None else None
        if target is None:
            raise DecisionError(
                _("the heading at {file}:{line} is not in the loaded workspace").format(
                    file=rel, line=line
                )
            )
        return target

    def anchor(self, ref: dict[str, Any]) -> Target:
        """The target of the anchor a ref points at; DecisionError when it isn't loaded."""
        mf = self.memory_file(str(ref.get("file")))
        if mf is not None:
            for a in mf.anchors:
                if a.line == ref.get("line") and (ref.get("anchor") in (None, a.id)):
                    return anchor_target(mf, a)
        raise DecisionError(
            _("the anchor {anchor} at {file}:{line} is not in the loaded workspace").format(
                anchor=ref.get("anchor"), file=ref.get("file"), line=ref.get("line")
            )
        )

    def proposals(self, ids: Iterable[str]) -> list[Proposal]:
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
        """``<file> § <heading>``: where an archived block came from (the nearest heading
        above it that is not an anchor's header; the file alone when there is none), and
        for an anchor ``after [[id]]``, the anchor right before it in that section (the first
        of its section: ``before [[id]]``, the anchor right after it)."""
        mf = self.memory_file(target.file)
        above = [
            (line, text)
            for line, _level, text in (mf.headings if mf is not None else [])
            if line < target.line and not ANCHOR_TEXT_RE.match(text)
        ]
        where = f"{target.file} § {above[-1][1]}" if above else target.file
        if target.kind == "anchor" and mf is not None:
            start = above[-1][0] if above else 0
            before = [a for a in mf.anchors if start < a.line < target.line]
            below = [
                line
                for line, _level, text in mf.headings
                if line > target.line and not ANCHOR_TEXT_RE.match(text)
            ]
            end = below[0] if below else float("inf")  # where the section ends
            after = [a for a in mf.anchors if target.last < a.line < end]
            if before:
                where += f" after [[{before[-1].id}]]"
            elif after:
                where += f" before [[{after[0].id}]]"
        return where

    def verdicts(
        self,
        pd: PlannedDecision,
        proposal_ids: Iterable[str],
        verdict: str,
        kept: str | None = None,
    ) -> None:
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
