"""The demotion queue: an old anchor nobody recalls; demote it to the archive, or pin it."""

from __future__ import annotations

from typing import Any

from memreview.decisions.model import Decision
from memreview.decisions.plan import PlanBuilder, PlannedDecision, SetMeta
from memreview.decisions.unit import DEFER, Act, Facts, ImportedOnUse, QueueUnit, RefBlock
from memreview.i18n import N_, _, ngettext
from memreview.workspace.model import Workspace

DEMOTED_TITLE = "# Demoted"


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict[str, Any]) -> None:
    """approve marks the anchor Demoted and moves it; pin sets Importance: high. A promoted
    entry moves with its marker under a ``Demoted: DATE`` line; pin hides it for good."""
    if d.action == "defer":
        return
    if d.action == "reject":
        if item.get("anchor"):
            b.keep(pd, b.anchor(item["anchor"]))
        b.hide(pd, "rejected", b.cfg.reject_hide_days)
        return
    if item.get("promoted"):  # an OpenClaw promoted entry: no metadata of its own
        if d.action == "pin":
            b.hide(pd, "pinned")
            return
        entry = b.entry(item["anchor"])
        b.move(pd, entry, b.cfg.demoted_file, DEMOTED_TITLE, f"Demoted: {b.day} (reviewed)")
        return
    target = b.anchor(item["anchor"])
    if d.action == "pin":
        b.plan.add(target.file, SetMeta(pd.key, target, "Importance", "high"), pd)
        return
    b.plan.add(target.file, SetMeta(pd.key, target, "Demoted", f"{b.day} (reviewed)"), pd)
    b.move(pd, target, b.cfg.demoted_file, DEMOTED_TITLE)


def evidence(item: dict[str, Any]) -> list[Any]:
    """Recalls and age, then the anchor (a promoted entry: when, and its place in context)."""
    promoted = item.get("promoted")
    days = item.get("age_days")
    pairs: tuple[Any, ...] = (
        (_("recalls in 90 days"), item.get("recalls_90d")),
        (
            _("age"),
            ngettext("{days} day", "{days} days", days if isinstance(days, int) else 2).format(
                days=days
            ),
        ),
    )
    if promoted:
        pairs += ((_("promoted"), promoted), (_("recalled since"), _("never")))
    blocks: list[Any] = [Facts(pairs)]
    if item.get("anchor"):
        label = _("promoted entry") if promoted else _("anchor")
        blocks.append(RefBlock(item["anchor"], label, before=1 if promoted else 0))
    return blocks


def note(item: dict[str, Any]) -> str:
    """Recalls in the window, and age."""
    recalls, days = item.get("recalls_90d"), item.get("age_days")
    age = ngettext("{days} day old", "{days} days old", days if isinstance(days, int) else 2)
    text = ngettext(
        " — {recalls} recall in 90 days, {age}",
        " — {recalls} recalls in 90 days, {age}",
        recalls if isinstance(recalls, int) else 2,
    )
    return text.format(recalls=recalls, age=age.format(days=days))


def missing(ws: Workspace) -> str | None:
    """Without a recall log every anchor counts as important."""
    if not ws.given("recalls"):
        return _("no recall log ({file}): every anchor counts as important").format(
            file=ws.config.recall_log
        )
    return None


UNIT = QueueUnit(
    name="demotion",
    title=N_("Demotion"),
    detect=ImportedOnUse("memreview.queues.demotion", "demotion"),
    acts=(
        Act(
            "approve",
            "approve",
            N_("approve"),
            "approve",
            N_("demoted: moved to the demoted archive with a Demoted: line dated today"),
        ),
        Act(
            "reject",
            "reject",
            N_("reject"),
            "reject",
            N_("no memory file is written; hidden 12 weeks"),
        ),
        Act(
            "pin",
            "pin",
            N_("pin"),
            "keep",
            N_("Importance: high (a promoted entry: hidden for good)"),
        ),
        DEFER,
    ),
    plan=plan,
    evidence=evidence,
    note=note,
    missing=missing,
)
