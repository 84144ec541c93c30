"""Decisions: what the human decided, turned into edit plans and written through the store.

Nothing here imports Textual. The flow is ``Decision`` → ``build_plan`` (pure; each queue's
unit, listed in ``registry.py``, plans its own decisions) → ``rewrite``
(pure, per file, on its current content) → ``store.apply_batch`` (the only writer).

The decisions sit one floor above the store and reach it only through the interface
``memreview.store`` exports (file jobs and ``apply_batch`` for edit plans, ``read_private`` /
``write_private`` for state and pending decisions, ``commit_batch``, ``undo_last``), never
through its modules: the import contracts in pyproject.toml check it. Orchestrating an
apply stays here rather than a floor up because it is the decisions' own sequence (plan,
write, record the hidden items, keep the failed decisions pending); what a scan must offer
for it is :class:`~memreview.decisions.scanned.ScannedWorkspace`, a type of this floor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memreview import names_imported_on_use

# What the package offers, by the module that holds it: each module is imported when one of
# its names is first used, so a scan (which needs the registry and the state, not the
# planner or the writer) does not pay for them.
_WHERE = {
    "apply": "applying",
    "batch_history": "history",
    "commit_message": "applying",
    "preview": "applying",
    "Decision": "model",
    "DecisionError": "model",
    "ApplyOutcome": "outcome",
    "DecisionProblem": "outcome",
    "FinishOutcome": "outcome",
    "UndoOutcome": "outcome",
    "files_phrase": "outcome",
    "DecisionsFileError": "pending",
    "load_pending": "pending",
    "parse_decisions_file": "pending",
    "save_pending": "pending",
    "EditPlan": "plan",
    "build_plan": "planner",
    "check_decision": "planner",
    "check_decisions": "planner",
    "clash_of": "planner",
    "seen_now": "planner",
    "config_of": "state",
    "finish": "undo_finish",
    "last_batch_said": "undo_finish",
    "recovery_notice": "undo_finish",
    "undo": "undo_finish",
    "skill_slug": "units.skills",
}

__all__ = [
    "ApplyOutcome",
    "Decision",
    "DecisionError",
    "DecisionProblem",
    "DecisionsFileError",
    "EditPlan",
    "FinishOutcome",
    "UndoOutcome",
    "apply",
    "batch_history",
    "build_plan",
    "check_decision",
    "check_decisions",
    "clash_of",
    "commit_message",
    "config_of",
    "files_phrase",
    "finish",
    "load_pending",
    "parse_decisions_file",
    "preview",
    "recovery_notice",
    "save_pending",
    "seen_now",
    "skill_slug",
    "undo",
    "last_batch_said",
]


__getattr__ = names_imported_on_use(__name__, _WHERE)


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})


if TYPE_CHECKING:  # for the type checker and the reader: what __getattr__ gives
    from memreview.decisions.applying import apply, commit_message, preview
    from memreview.decisions.history import batch_history
    from memreview.decisions.model import Decision, DecisionError
    from memreview.decisions.outcome import (
        ApplyOutcome,
        DecisionProblem,
        FinishOutcome,
        UndoOutcome,
        files_phrase,
    )
    from memreview.decisions.pending import (
        DecisionsFileError,
        load_pending,
        parse_decisions_file,
        save_pending,
    )
    from memreview.decisions.plan import EditPlan
    from memreview.decisions.planner import (
        build_plan,
        check_decision,
        check_decisions,
        clash_of,
        seen_now,
    )
    from memreview.decisions.state import config_of
    from memreview.decisions.undo_finish import finish, last_batch_said, recovery_notice, undo
    from memreview.queues.skills import skill_slug
