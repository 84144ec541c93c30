"""Decisions → an EditPlan: each decision checked against its queue's unit, then planned by
the unit's own builder (docs/design.md §3).

Pure: nothing here reads or writes the disk. The queues, their actions and their builders
come from ``registry.py``; the operations and building blocks from the ``plan`` package.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from memreview.decisions import registry
from memreview.decisions.model import Decision, DecisionError, check_slug
from memreview.decisions.plan import EditPlan, PlanBuilder, PlannedDecision
from memreview.decisions.scanned import ScannedWorkspace
from memreview.decisions.unit import QueueUnit
from memreview.i18n import _
from memreview.queues.common import current_id


def check_decision(queue: str, item: dict[str, Any], d: Decision) -> QueueUnit:
    """Raise DecisionError when ``d`` is not valid for ``item`` of ``queue``; else the
    queue's unit, which plans it."""
    unit = registry.unit(queue)
    valid = unit.actions if unit is not None else ()
    if d.queue is not None and d.queue != queue:
        raise DecisionError(
            _("item {item} is in the {queue} queue, not {other}").format(
                item=d.item, queue=queue, other=d.queue
            )
        )
    if unit is None or d.action not in valid:
        raise DecisionError(
            _("action {action!r} is not valid for a {queue} item; valid: {valid}").format(
                action=d.action, queue=queue, valid=", ".join(valid)
            )
        )
    takes = {o for a in unit.acts if a.action == d.action for o in a.takes}
    if d.keep is not None and "keep" not in takes:
        raise DecisionError(_only_with(d.item, "keep"))
    if d.text is not None and "text" not in takes:
        raise DecisionError(_only_with(d.item, "text"))
    if d.slug is not None and "slug" not in takes:
        raise DecisionError(_only_with(d.item, "slug"))
    if d.slug is not None:
        check_slug(d.item, d.slug)
    if unit.check is not None:
        unit.check(item, d)
    return unit


def _only_with(item: str, option: str) -> str:
    return _("{item}: {option!r} only goes with {actions}").format(
        item=item, option=option, actions=_taking(option)
    )


def _taking(option: str) -> str:
    """The actions that take ``option``, as ``duplicates keep or merge``."""
    out = []
    for u in registry.units():
        names = [n for n in u.actions if any(option in a.takes for a in u.acts if a.action == n)]
        if names:
            out.append(_("{queue} {actions}").format(queue=u.name, actions=_(" or ").join(names)))
    return "; ".join(out) or _("no action")


def build_plan(
    result: ScannedWorkspace,
    decisions: Sequence[Decision | dict[str, Any]],
    *,
    now: datetime | None = None,
) -> EditPlan:
    """The EditPlan of ``decisions`` on the workspace ``result`` was scanned from.

    Invalid decisions (unknown item, wrong action, keep out of range, a merge text that is
    not an entry…) are listed in ``plan.invalid`` with a reason; a decision that sends an
    anchor or entry somewhere an earlier one doesn't (keep A here, "A is superseded" there)
    is listed in ``plan.clashes`` with that earlier one; the others are planned.
    """
    b = PlanBuilder(result, now or datetime.now(UTC))
    seen: set[str] = set()
    for raw in decisions:
        try:
            d = Decision.from_dict(raw)
        except DecisionError as exc:
            b.plan.invalid.append((_placeholder(raw), str(exc)))
            continue
        found = result.item(d.item)
        if found is None:
            b.plan.invalid.append(
                (d, _("unknown item id {item!r} (not in any queue)").format(item=d.item))
            )
            continue
        queue, item = found
        if item["id"] != d.item:  # an id of the item's former form: today's is kept
            d = replace(d, item=item["id"])
        if d.item in seen:
            b.plan.invalid.append(
                (d, _("item {item} is decided twice in this batch").format(item=d.item))
            )
            continue
        try:
            unit = check_decision(queue, item, d)
            with_queue = d if d.queue == queue else _with_queue(d, queue)
            _plan_one(b, unit, with_queue, item)
        except DecisionError as exc:
            b.plan.invalid.append((d, str(exc)))
            continue
        seen.add(d.item)
    return b.plan


def _plan_one(b: PlanBuilder, unit: QueueUnit, d: Decision, item: dict[str, Any]) -> None:
    """Let the queue's unit plan ``d``; its operations join the plan only when it is done."""
    pd = PlannedDecision(d, unit.name, str(item.get("title") or d.item))
    unit.plan(b, pd, d, item)
    if d.seen is not None and d.seen != fingerprint(pd):
        b.plan.changed.append(
            (
                d,
                _(
                    "changed since you decided: what it would change reads otherwise now; "
                    "look again and decide again"
                ),
            )
        )
        return
    found = b.plan.clash_with(pd)
    if found is not None:
        first, why = found
        b.plan.clashes.append((first, pd, why))
        return
    b.plan.commit(pd)


def _with_queue(d: Decision, queue: str) -> Decision:
    return replace(d, queue=queue, item=current_id(d.item, queue))


def _placeholder(raw: object) -> Decision:
    """Something to name a malformed decision by."""
    if isinstance(raw, dict):
        return Decision(str(raw.get("item") or "?"), str(raw.get("action") or "?"))
    return Decision("?", "?")


def clash_of(result: ScannedWorkspace, staged: Sequence[Decision], d: Decision) -> str | None:
    """Why ``d`` can't be staged beside ``staged`` (it clashes with one of them), or None.

    The message names the staged decision and what each would do to the shared target."""
    others = [s for s in staged if s.item != d.item]
    plan = build_plan(result, [*others, d])
    for first, second, why in plan.clashes:
        if second.decision.item == d.item:
            return _("conflicts with {other}: {why}").format(other=describe(first), why=why)
        if first.decision.item == d.item:
            return _("conflicts with {other}: {why}").format(other=describe(second), why=why)
    return None


def describe(pd: PlannedDecision) -> str:
    """``p-0107 (Supersede: approve)``."""
    return name_decision(pd.decision, pd.queue)


def name_decision(d: Decision, queue: str | None = None) -> str:
    """``p-0107 (Supersede: approve)``: the item, its queue's title and the action's label
    (the action alone when the queue is not known)."""
    unit = registry.unit(queue or d.queue or "")
    act = unit.act_by_action(d.action) if unit is not None else None
    label = _(act.label) if act else d.action
    if unit is None:
        return f"{d.item} ({label})"
    return f"{d.item} ({_(unit.title)}: {label})"


def fingerprint(pd: PlannedDecision) -> str | None:
    """What the targets of a planned decision read (a short hash), or None without targets."""
    texts = sorted({(c.target.file, c.target.kind, c.target.text) for c in pd.claims()})
    if not texts:
        return None
    return hashlib.sha256(repr(texts).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def seen_now(result: ScannedWorkspace, d: Decision) -> str | None:
    """The fingerprint ``d`` would carry if it were decided now (None: nothing to compare,
    or the decision is not valid)."""
    plan = build_plan(result, [replace(d, seen=None)])
    return fingerprint(plan.decisions[0]) if plan.decisions else None


def check_decisions(
    entries: Sequence[object], items: Mapping[str, tuple[str, dict[str, Any]]]
) -> list[str]:
    """Every problem of a whole decisions file, before anything is written (docs/design.md §4).

    ``items`` maps item id -> (queue, item) for the scanned workspace. Each problem names the
    entry (``item 2``, 1-based) and says why: not a decision, a wrong type, an action the
    item's queue doesn't have, ``keep`` out of range, a merge text that is not an entry, an
    item decided twice. An id that is in no queue is not a problem of the file (the item
    may have been decided already); ``apply`` reports it and applies the others.
    """
    problems: list[str] = []
    seen: dict[str, int] = {}
    for k, raw in enumerate(entries, 1):
        try:
            d = Decision.from_dict(raw)
        except DecisionError as exc:
            problems.append(_("item {n}: {problem}").format(n=k, problem=exc))
            continue
        if d.item in seen:
            problems.append(
                _("item {n}: {item} is decided twice (also item {other})").format(
                    n=k, item=d.item, other=seen[d.item]
                )
            )
            continue
        seen[d.item] = k
        found = items.get(d.item)
        if found is None:
            continue
        try:
            check_decision(found[0], found[1], d)
        except DecisionError as exc:
            problems.append(_("item {n}: {problem}").format(n=k, problem=exc))
    return problems
