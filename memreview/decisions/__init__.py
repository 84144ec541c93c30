"""Decisions: what the human decided, turned into edit plans and written through the store.

Nothing here imports Textual. The flow is ``Decision`` → ``build_plan`` (pure) → ``rewrite``
(pure, per file, on its current content) → ``store.apply_batch`` (the only writer).
"""

from memreview.decisions.apply import (
    ApplyOutcome,
    DecisionProblem,
    UndoOutcome,
    apply,
    commit_message,
    preview,
    undo,
)
from memreview.decisions.model import ACTIONS, Decision, DecisionError, check_decision
from memreview.decisions.pending import (
    DecisionsFileError,
    load_pending,
    parse_decisions_file,
    save_pending,
)
from memreview.decisions.plan import EditPlan, build_plan, skill_slug

__all__ = [
    "ACTIONS",
    "ApplyOutcome",
    "Decision",
    "DecisionError",
    "DecisionProblem",
    "DecisionsFileError",
    "EditPlan",
    "UndoOutcome",
    "apply",
    "build_plan",
    "check_decision",
    "commit_message",
    "load_pending",
    "parse_decisions_file",
    "preview",
    "save_pending",
    "skill_slug",
    "undo",
]
