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

from memreview.decisions.apply import apply, commit_message, preview
from memreview.decisions.model import Decision, DecisionError
from memreview.decisions.outcome import ApplyOutcome, DecisionProblem, FinishOutcome, UndoOutcome
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
from memreview.decisions.undo_finish import finish, recovery_notice, undo
from memreview.decisions.units.skills import skill_slug

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
    "build_plan",
    "check_decision",
    "check_decisions",
    "clash_of",
    "config_of",
    "seen_now",
    "commit_message",
    "finish",
    "load_pending",
    "parse_decisions_file",
    "preview",
    "recovery_notice",
    "save_pending",
    "skill_slug",
    "undo",
]
