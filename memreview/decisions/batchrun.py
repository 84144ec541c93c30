"""The store's jobs for one batch: ``BatchRun`` computes every file of the plan together
(a decision that can't be written in one file is left out of all of them), and a
``PlanJob`` is the store's view of one of its files."""

from __future__ import annotations

from pathlib import Path

from memreview import store
from memreview.decisions.plan import (
    AppendBlock,
    DeleteEntry,
    EditPlan,
    MoveBlock,
    Op,
    RemoveCandidate,
)
from memreview.decisions.rewrite import FileRewrite, Problem, rewrite
from memreview.i18n import _
from memreview.workspace.textfile import TextFile, decode_bytes

_LOSING = (MoveBlock, DeleteEntry, RemoveCandidate)  # operations that take text out of a file


class PlanJob:
    """The store's view of one file of the plan."""

    def __init__(self, run: BatchRun, rel: str) -> None:
        self.run = run
        self.rel = rel
        self.decisions = list(dict.fromkeys(op.key for op in run.plan.files[rel]))
        # written after the files that receive text (docs/design.md §4, "Order and repeat")
        self.loses_text = any(isinstance(op, _LOSING) for op in run.plan.files[rel])

    def compute(self, current: TextFile | None) -> store.FileOutcome:
        """The file's new bytes and decisions, computed with the rest of the batch."""
        return self.run.compute(self.rel, current)


class BatchRun:
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

    def _ops(self, rel: str) -> list[Op]:
        return self.plan.files[rel]

    def _rewrite(
        self, rel: str, current: TextFile | None, blocked: set[str] | frozenset[str]
    ) -> FileRewrite:
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
                reason = _("cannot read {file}: {error}").format(
                    file=rel, error=getattr(exc, "strerror", None) or exc
                )
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
        """File ``rel`` rewritten on ``current`` without the decisions blocked anywhere in
        the batch; its conflicts are the blocked decisions whose problem is in this file."""
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
