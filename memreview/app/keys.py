"""The key table: one key per verb, and what each verb means in each queue (DESIGN §2, §7).

This module is data. The screens look verbs and actions up here; nothing else decides which
key does what in which queue.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding

from memreview.queues.common import QUEUE_NAMES

QUEUES: tuple[str, ...] = QUEUE_NAMES

QUEUE_TITLES: dict[str, str] = {
    "contradictions": "Contradictions",
    "supersede": "Supersede",
    "skills": "Skills",
    "archived": "Archived",
    "duplicates": "Duplicates",
    "dormant": "Dormant",
    "demotion": "Demotion",
}

HEALTH = "health"


@dataclass(frozen=True)
class Verb:
    """A decision key: the same key means the same kind of thing in every queue."""

    name: str  # the binding id is "decide.<name>"
    key: str
    label: str  # footer text when the queue gives no better one
    tooltip: str


@dataclass(frozen=True)
class Act:
    """What a verb does in one queue: the backend action, how it reads, what it writes."""

    action: str
    label: str
    tone: str  # approve | reject | keep | defer | edit: the colour (theme variable action-<tone>)
    effect: str
    keep: int | None = None


VERBS: tuple[Verb, ...] = (
    Verb(
        "approve", "a", "approve", "Approve the proposal: keep A, solidify, remove, keep the first"
    ),
    Verb("keep_b", "b", "keep B", "Keep the newer side (B) of a contradiction"),
    Verb("keep", "k", "keep", "Keep both sides / keep the archived fragment's entries"),
    Verb("reject", "r", "reject", "Reject the proposal: reject, skip, not a duplicate"),
    Verb("defer", "d", "defer", "Decide later: nothing is written"),
    Verb("snooze", "s", "snooze", "Hide the dormant project for 28 days"),
    Verb("archive", "x", "archive", "Mark the dormant project archived"),
    Verb("done", "D", "done", "Mark the dormant project done"),
    Verb("pin", "p", "pin", "Pin the anchor: set Importance: high"),
    Verb("skill", "c", "create skill", "Write the candidate as skills/<slug>/SKILL.md"),
    Verb("revive", "v", "revive", "Add a todo for the project to NOW.md"),
)

VERB_BY_NAME: dict[str, Verb] = {v.name: v for v in VERBS}

_DEFER = Act("defer", "defer", "defer", "nothing is written; the item stays in the queue")

# queue -> verb -> Act. Digits (keep member N) and `m` (merge) are the duplicates queue's
# "keep" and "merge" actions; they are listed under the pseudo-verbs "member" and "merge".
QUEUE_ACTIONS: dict[str, dict[str, Act]] = {
    "contradictions": {
        "approve": Act(
            "keep-a",
            "keep A",
            "approve",
            "B gets Superseded-By A and moves to the superseded archive",
        ),
        "keep_b": Act(
            "keep-b",
            "keep B",
            "approve",
            "A gets Superseded-By B and moves to the superseded archive",
        ),
        "keep": Act(
            "keep-both",
            "keep both",
            "keep",
            "the CONFLICTS-WITH link becomes SEE-ALSO on both sides",
        ),
        "defer": _DEFER,
    },
    "supersede": {
        "approve": Act(
            "approve",
            "approve",
            "approve",
            "old gets Superseded-By new and moves to the superseded archive",
        ),
        "reject": Act(
            "reject", "reject", "reject", "the proposal is hidden and a verdict is recorded"
        ),
        "defer": _DEFER,
    },
    "skills": {
        "approve": Act("solidify", "solidify", "approve", "a bullet under the Rules heading"),
        "skill": Act("create-skill", "create skill", "approve", "a new skills/<slug>/SKILL.md"),
        "reject": Act("skip", "skip", "reject", "the candidate leaves skill_candidates.json"),
        "defer": _DEFER,
    },
    "archived": {
        "approve": Act("remove", "remove", "approve", "every matching entry is deleted"),
        "keep": Act("keep", "keep", "keep", "the entries stay; the item is hidden"),
        "defer": _DEFER,
    },
    "duplicates": {
        "approve": Act("keep", "keep first", "approve", "the other entries are deleted", keep=1),
        "member": Act("keep", "keep #", "approve", "the other entries are deleted"),
        "merge": Act(
            "merge", "merge", "edit", "the kept entry is rewritten, the others are deleted"
        ),
        "reject": Act("not-duplicate", "not dup", "reject", "nothing is written; hidden"),
        "defer": _DEFER,
    },
    "dormant": {
        "revive": Act(
            "revive", "revive", "approve", "a todo in NOW.md; the project is snoozed 28 days"
        ),
        "snooze": Act("snooze", "snooze", "defer", "hidden for 28 days"),
        "archive": Act("archive", "archive", "reject", "Status: archived (DATE)"),
        "done": Act("done", "done", "keep", "Status: done (DATE)"),
        "defer": _DEFER,
    },
    "demotion": {
        "approve": Act(
            "approve", "demote", "approve", "Demoted: DATE, moved to the demoted archive"
        ),
        "reject": Act("reject", "reject", "reject", "nothing is written; hidden 12 weeks"),
        "pin": Act("pin", "pin", "keep", "Importance: high"),
        "defer": _DEFER,
    },
}

TONES = ("approve", "reject", "keep", "defer", "edit")


def act_for(queue: str, verb: str) -> Act | None:
    """What ``verb`` does in ``queue``, or None when it means nothing there."""
    return QUEUE_ACTIONS.get(queue, {}).get(verb)


def act_by_action(queue: str, action: str) -> Act | None:
    """The table row for a staged action (to label and colour it)."""
    for act in QUEUE_ACTIONS.get(queue, {}).values():
        if act.action == action:
            return act
    return None


def decision_label(decision) -> tuple[str, Act | None]:
    """How a staged decision reads (``keep #2``, ``keep A``…) and its table row."""
    act = act_by_action(decision.queue, decision.action)
    if decision.queue == "duplicates" and decision.action == "keep":
        return f"keep #{decision.keep or 1}", act
    return (act.label if act else decision.action), act


def default_act(queue: str) -> Act | None:
    """The action previewed for an item nothing is staged for: the queue's first one."""
    acts = QUEUE_ACTIONS.get(queue)
    return next(iter(acts.values())) if acts else None


def verb_bindings() -> list[Binding]:
    """One binding per verb, plus merge and the member digits."""
    out = [
        Binding(v.key, f"decide('{v.name}')", v.label, id=f"decide.{v.name}", tooltip=v.tooltip)
        for v in VERBS
    ]
    out.append(
        Binding(
            "m",
            "merge",
            "merge",
            id="decide.merge",
            tooltip="Edit the merged entry of a duplicate group, then stage it",
        )
    )
    return out


MEMBER_GROUP = Binding.Group("keep #", compact=True)


def member_bindings() -> list[Binding]:
    """Digits 1-9: keep that member of a duplicate group."""
    return [
        Binding(
            str(n),
            f"keep_member({n})",
            f"keep #{n}",
            id=f"decide.member{n}",
            tooltip=f"Keep member {n} of the group, delete the others",
            group=MEMBER_GROUP,
        )
        for n in range(1, 10)
    ]


def queue_bindings() -> list[Binding]:
    """Keys 1-7 choose a queue, h the health view, [ and ] step through them."""
    out = [
        Binding(
            str(k),
            f"show_queue('{q}')",
            QUEUE_TITLES[q],
            show=False,
            id=f"queue.{q}",
            tooltip=f"Show the {QUEUE_TITLES[q].lower()} queue",
        )
        for k, q in enumerate(QUEUES, 1)
    ]
    out.append(
        Binding(
            "h",
            "show_queue('health')",
            "health",
            show=False,
            id="queue.health",
            tooltip="Show the health view",
        )
    )
    out.append(
        Binding(
            "left_square_bracket",
            "step_queue(-1)",
            "prev queue",
            show=False,
            id="queue.prev",
            tooltip="The previous queue",
        )
    )
    out.append(
        Binding(
            "right_square_bracket",
            "step_queue(1)",
            "next queue",
            show=False,
            id="queue.next",
            tooltip="The next queue",
        )
    )
    return out


def review_bindings() -> list[Binding]:
    """The review screen's keys: the verbs, then the keys around them, then the queues."""
    return [
        *verb_bindings(),
        Binding(
            "u",
            "unstage",
            "unstage",
            id="decide.unstage",
            tooltip="Unstage the highlighted item's decision (or the last one staged)",
        ),
        Binding(
            "o",
            "open_editor",
            "open",
            id="item.open",
            tooltip="Open the entry in your editor at its line, then reload",
        ),
        Binding(
            "slash",
            "filter",
            "filter",
            id="item.filter",
            tooltip="Show only the items whose text contains what you type",
        ),
        Binding(
            "escape",
            "clear_filter",
            "clear filter",
            show=False,
            id="item.clear_filter",
            tooltip="Clear the filter",
        ),
        Binding(
            "w",
            "write",
            "write…",
            id="batch.write",
            tooltip="Review the diff of the pending decisions, then write them",
        ),
        Binding(
            "U",
            "undo",
            "undo batch",
            id="batch.undo",
            tooltip="Undo the last written batch (asks first)",
        ),
        Binding(
            "ctrl+r",
            "reload",
            "reload",
            show=False,
            id="app.reload",
            tooltip="Read the workspace again (pending decisions stay)",
        ),
        Binding(
            "shift+down",
            "scroll_evidence(3)",
            "scroll evidence",
            show=False,
            id="evidence.down",
            tooltip="Scroll the evidence down",
        ),
        Binding(
            "shift+up",
            "scroll_evidence(-3)",
            "scroll evidence",
            show=False,
            id="evidence.up",
            tooltip="Scroll the evidence up",
        ),
        *queue_bindings(),
    ]
