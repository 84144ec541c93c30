"""The vocabulary of an EditPlan: targets, per-file content-addressed operations (docs/design.md §3),
and the :class:`PlanBuilder` whose building blocks each queue's plan builder uses
(``decisions/units/``); ``decisions/planner.py`` runs them.

Pure: nothing here reads or writes the disk. An operation names its target by the content it
had when the workspace was loaded (the entry's lines, and its rank among identical entries),
never by a line number alone, so that ``rewrite`` can find it again in the file as it is at
write time.

The package, by seam:
- ``targets``: ``Target`` and how an entry or anchor of a loaded file becomes one;
- ``ops``: the operations (``DeleteEntry`` … ``RedactLines``) and their union ``Op``;
- ``edit_plan``: ``PlannedDecision``, its claims and clashes, and ``EditPlan``;
- ``builder``: ``PlanBuilder`` and its building blocks, and ``verdict_line``.
"""

from memreview.decisions.plan.builder import SUPERSEDED_TITLE, PlanBuilder, verdict_line
from memreview.decisions.plan.edit_plan import (
    Claim,
    EditPlan,
    Hide,
    PlannedDecision,
    clash,
    printable,
)
from memreview.decisions.plan.ops import (
    AddRef,
    AddTodo,
    AppendBlock,
    AppendLine,
    AppendSection,
    CreateFile,
    DeleteEntry,
    InsertRule,
    MoveBlock,
    MoveRefs,
    Op,
    RedactLines,
    RemoveCandidate,
    RemoveRef,
    ReplaceEntry,
    SetMeta,
    SetStatus,
)
from memreview.decisions.plan.targets import (
    Target,
    anchor_target,
    entry_target,
    heading_spans,
    heading_target,
    kind_group,
)

__all__ = [
    "AddRef",
    "AddTodo",
    "AppendBlock",
    "AppendLine",
    "AppendSection",
    "Claim",
    "CreateFile",
    "DeleteEntry",
    "EditPlan",
    "Hide",
    "InsertRule",
    "MoveBlock",
    "Op",
    "PlanBuilder",
    "PlannedDecision",
    "RedactLines",
    "RemoveCandidate",
    "MoveRefs",
    "RemoveRef",
    "ReplaceEntry",
    "SUPERSEDED_TITLE",
    "SetMeta",
    "SetStatus",
    "Target",
    "anchor_target",
    "clash",
    "entry_target",
    "heading_spans",
    "heading_target",
    "kind_group",
    "printable",
    "verdict_line",
]
