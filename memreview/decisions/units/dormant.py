"""The dormant queue: a project nobody mentioned for weeks; revive, snooze or close it."""

from __future__ import annotations

from typing import Any

from memreview.decisions.model import Decision, DecisionError
from memreview.decisions.plan import AddTodo, PlanBuilder, PlannedDecision, SetMeta, SetStatus
from memreview.decisions.unit import (
    DEFER,
    Act,
    Caption,
    Facts,
    ImportedOnUse,
    Passage,
    QueueUnit,
    RefBlock,
    in_words,
)
from memreview.display import dated, plural
from memreview.i18n import N_, _, ngettext
from memreview.workspace.config import Config
from memreview.workspace.model import Workspace


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict[str, Any]) -> None:
    """revive adds a todo and snoozes; snooze hides; archive and done set the Status."""
    if d.action == "defer":
        return
    if d.action in ("snooze", "revive"):
        if d.action == "revive":
            title = " ".join(str(item.get("title") or item.get("project")).split())
            b.plan.add(b.cfg.now, AddTodo(pd.key, title, b.day), pd)
        b.hide(pd, "snoozed" if d.action == "snooze" else "revived", b.cfg.snooze_days)
        project = b.ws.projects.get(str(item.get("project")))
        if project is not None and not project.file and project.anchor:
            b.keep(pd, b.anchor(project.ref))  # the project stays: its anchor is not archived
        return
    status = "archived" if d.action == "archive" else "done"
    project = b.ws.projects.get(str(item.get("project")))
    if project is None:
        raise DecisionError(
            _("project {project!r} is not in the loaded workspace").format(
                project=item.get("project")
            )
        )
    if project.file and project.source in ("item", "row", "heading"):
        lines = b.ws.files[project.file].source.texts
        first, last = project.ref["line"], project.ref["end_line"]
        old = tuple(lines[first - 1 : last])
        op = SetStatus(pd.key, status, b.day, project.source, first, old, project.status_cell)
        b.plan.add(project.file, op, pd)
    elif project.file:
        b.plan.add(project.file, SetStatus(pd.key, status, b.day), pd)
    elif project.anchor:
        target = b.anchor(project.ref)
        b.plan.add(target.file, SetMeta(pd.key, target, "Status", f"{status} ({b.day})"), pd)
    else:
        raise DecisionError(
            _(
                "project {project!r} is only known from <!-- project: --> markers; it has no "
                "file or PROJECT anchor whose Status memreview could set"
            ).format(project=project.key)
        )


def check(item: dict[str, Any], d: Decision) -> None:
    """archive and done set the project's Status: a project known only from markers has no
    Status line to set, so they are refused when decided (not failed when written)."""
    if d.action in ("archive", "done") and item.get("source") == "marker":
        raise DecisionError(
            _(
                "{action} sets a project's Status, and {project!r} is only known from <!-- "
                "project: --> markers (no project file or PROJECT anchor holds one): snooze "
                "hides it, revive adds a todo"
            ).format(action=d.action, project=item.get("project"))
        )


# Where a project is known from, in words (the scan's ``source``).
KNOWN_FROM = {
    "file": N_("its page in the projects folder"),
    "front-matter": N_("a note whose front matter says type: project"),
    "item": N_("an item of a projects list in a memory file"),
    "row": N_("a row of a projects table in a memory file"),
    "heading": N_("a heading of a projects list in a memory file"),
    "anchor": N_("a PROJECT anchor in memory"),
    "marker": N_("<!-- project: … --> markers in entries only"),
}


def _asleep(item: dict[str, Any]) -> tuple[str, str | None]:
    """How long it has slept, in words, and a hint when that needs one."""
    days, last = item.get("days_dormant"), item.get("last_mentioned")
    if last:
        return plural(days, "day"), None
    if days is not None:
        return (
            ngettext("{n} day", "{n} days", days).format(n=days),
            _("never named in a daily log or a recall: counted from its Added: date"),
        )
    return (
        _("for an unknown time"),
        _("never named in a daily log or a recall, and no Added: date to count from"),
    )


def evidence(item: dict[str, Any]) -> list[Any]:
    """When the project was last mentioned, and where it is defined."""
    source = item.get("source")
    asleep, hint = _asleep(item)
    last = item.get("last_mentioned")
    blocks: list[Any] = [
        Facts(
            (
                (_("project"), item.get("project")),
                (
                    _("last mentioned"),
                    dated(last, item.get("days_dormant")) if last else _("never"),
                ),
                (_("asleep"), None if last else asleep),
                (_("known from"), in_words(KNOWN_FROM, source)),
            )
        )
    ]
    if hint:
        blocks.append(Caption(hint, style="dim"))
    if source == "marker":
        blocks.append(
            Caption(
                _(
                    "A marker ties an entry to a project; with no page or PROJECT anchor, "
                    "archive and done have no status line to set (revive and snooze work)."
                ),
                style="dim",
            )
        )
    if item.get("ref"):
        blocks.append(RefBlock(item["ref"], _("project"), before=0))
    partial = item.get("partial_mentions") or []
    if partial:
        lines = [
            f"{p.get('date')}  {p.get('file')}:{p.get('line')}  {p.get('text', '')}"
            for p in partial
        ]
        blocks.append(
            Passage(
                _("partial mentions since (part of its name, not a mention):"),
                "\n".join(lines),
                style="context",
            )
        )
    return blocks


def note(item: dict[str, Any]) -> str:
    """How long the project has slept."""
    days = item.get("days_dormant")
    if days is None:
        return _(" — never mentioned")
    return ngettext(" — dormant {days} day", " — dormant {days} days", days).format(days=days)


def missing(ws: Workspace) -> str | None:
    """Projects come from the projects folder, PROJECT anchors or markers."""
    if not ws.projects:
        return _("no projects ({folder}/, PROJECT anchors or markers)").format(
            folder=ws.config.projects_dir
        )
    return None


def limit(cfg: Config) -> int:
    """Only the longest sleepers are shown (``--all-dormant`` shows every one)."""
    return cfg.dormant_limit


UNIT = QueueUnit(
    name="dormant",
    title=N_("Dormant"),
    detect=ImportedOnUse("memreview.queues.dormant", "dormant"),
    ahead=True,  # the app's second process has its reading time to spare
    acts=(
        Act(
            "revive",
            "revive",
            N_("revive"),
            "approve",
            N_("a todo in NOW.md; the project is snoozed 28 days"),
        ),
        Act("snooze", "snooze", N_("snooze"), "defer", N_("hidden for 28 days")),
        Act(
            "archive",
            "archive",
            N_("archive"),
            "reject",
            N_("its status line: archived, dated today"),
        ),
        Act("done", "done", N_("done"), "keep", N_("its status line: done, dated today")),
        DEFER,
    ),
    plan=plan,
    evidence=evidence,
    note=note,
    missing=missing,
    limit=limit,
    check=check,
    unlimit="all_dormant",
)
