"""The keys: one key per verb, and what each verb means in each queue (docs/design.md §2, §7).

What each queue offers is declared by its unit (``decisions/units/``) and read here from the
one table, ``decisions/registry.py``, every time it is asked: this module turns it into
bindings and answers the screens' questions. Nothing else decides which key does what in
which queue.

The table is imported when a key is first asked about, not with this module: the queues'
names and titles, all the first frame shows, come from ``decisions.queue_list`` until then.
"""

from __future__ import annotations

from textual.binding import Binding

from memreview.decisions.queue_list import queue_list
from memreview.decisions.unit import MEMBER, MERGE, Act
from memreview.i18n import N_, _, current_language

HEALTH = "health"
QUEUE_KEYS = 10  # the first ten queues are on the digits 1-9 and 0; the rest on [ ] and ctrl+p


def _registry():
    """The one table of queues (imported on first use)."""
    from memreview.decisions import registry

    return registry


def queue_names() -> tuple[str, ...]:
    """The queues' names, in the sidebar's order."""
    return tuple(name for name, _title in queue_list())


def queue_title(queue: str) -> str:
    """The queue's name as the sidebar shows it (``Health`` for the health view)."""
    title = next((t for name, t in queue_list() if name == queue), None)
    return _(title) if title is not None else _("Health")


def queue_short(queue: str) -> str:
    """A queue where space is short (the pending bar): its id in English, else its title."""
    return queue if current_language() == "en" else queue_title(queue)


def queue_acts(queue: str) -> dict[str, Act]:
    """verb -> Act for the queue, in the order the queue offers them."""
    unit = _registry().unit(queue)
    return {a.verb: a for a in unit.acts} if unit is not None else {}


def queue_key(position: int) -> str:
    """The key of the queue at ``position`` (from 1): its digit, ``0`` for the tenth, none
    past it (those are reached with ``[``/``]`` and the palette)."""
    return str(position % 10) if position <= QUEUE_KEYS else " "


def verb_key(verb: str, key_for, members: str = "#1–9") -> str:
    """The key bound to ``verb`` now (``key_for(binding id, default)``), ``members`` for the
    member keys (``#`` then the member's digit)."""
    if verb == MEMBER:
        key = key_for("decide.member", "#")
        return members if key in ("#", MEMBER_KEY) else f"{key} 1–9"
    if verb == MERGE:
        return key_for("decide.merge", "m")
    found = _registry().verb(verb)
    return key_for(f"decide.{verb}", found.key if found else "?")


def act_for(queue: str, verb: str) -> Act | None:
    """What ``verb`` does in ``queue``, or None when it means nothing there."""
    unit = _registry().unit(queue)
    return unit.act(verb) if unit is not None else None


def act_by_action(queue: str, action: str) -> Act | None:
    """The table row for a staged action (to label and colour it)."""
    unit = _registry().unit(queue)
    return unit.act_by_action(action) if unit is not None else None


def decision_label(decision) -> tuple[str, Act | None]:
    """How a staged decision reads (``keep #2``, ``keep-a``…) and its table row."""
    act = act_by_action(decision.queue, decision.action)
    if act is not None and act.staged is not None:
        return _(act.staged).format(keep=decision.keep or 1), act
    label = _(act.label) if act else decision.action
    if getattr(decision, "slug", None):  # a skill's folder the owner named
        label = f"{label} → {decision.slug}/"
    return label, act


def no_member_to_pick(verb: str, item: dict | None) -> bool:
    """Whether ``verb`` picks a member (``#`` then a digit) of an item that has none: a
    pair of contradictions, not a group."""
    return verb == MEMBER and item is not None and "refs" not in item


def default_act(queue: str) -> Act | None:
    """The action previewed for an item nothing is staged for: the queue's first one."""
    unit = _registry().unit(queue)
    return unit.acts[0] if unit is not None and unit.acts else None


def verb_bindings() -> list[Binding]:
    """One binding per verb, plus merge and the member key."""
    out = [
        Binding(v.key, f"decide('{v.name}')", v.label, id=f"decide.{v.name}", tooltip=v.tooltip)
        for v in _registry().verbs()
    ]
    out.append(
        Binding(
            "m",
            "merge",
            N_("merge"),
            id="decide.merge",
            tooltip=N_("Edit the merged entry of a duplicate group, then stage it"),
        )
    )
    out.append(member_binding())
    return out


MEMBER_KEY = "number_sign"  # then a digit: keep that member of a duplicate group


def member_binding() -> Binding:
    """``#`` then a digit keeps that member of a duplicate group (the digits alone always
    choose a queue)."""
    return Binding(
        MEMBER_KEY,
        "pick_member",
        N_("keep #…"),
        id="decide.member",
        tooltip=N_("Keep one member of the duplicate group: # then its number"),
    )


def queue_bindings() -> list[Binding]:
    """Keys 1-9 and 0 choose a queue, h the health view, [ and ] step through them."""
    out = [
        Binding(
            queue_key(k),
            f"show_queue('{u.name}')",
            u.title,
            show=False,
            id=f"queue.{u.name}",
            tooltip=N_("Show this queue"),
        )
        for k, u in enumerate(_registry().units()[:QUEUE_KEYS], 1)
    ]
    out.append(
        Binding(
            "h",
            "show_queue('health')",
            N_("health"),
            show=False,
            id="queue.health",
            tooltip=N_("Show the health view"),
        )
    )
    out.append(
        Binding(
            "left_square_bracket",
            "step_queue(-1)",
            N_("prev queue"),
            show=False,
            id="queue.prev",
            tooltip=N_("The previous queue"),
        )
    )
    out.append(
        Binding(
            "right_square_bracket",
            "step_queue(1)",
            N_("next queue"),
            show=False,
            id="queue.next",
            tooltip=N_("The next queue"),
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
            N_("unstage"),
            id="decide.unstage",
            tooltip=N_("Unstage the highlighted item's decision (or the last one staged)"),
        ),
        Binding(
            "o",
            "open_editor",
            N_("open"),
            id="item.open",
            tooltip=N_("Open the entry in your editor at its line, then reload"),
        ),
        Binding(
            "slash",
            "filter",
            N_("filter"),
            id="item.filter",
            tooltip=N_("Show only the items whose text contains what you type"),
        ),
        Binding(
            "escape",
            "clear_filter",
            N_("clear filter"),
            show=False,
            id="item.clear_filter",
            tooltip=N_("Clear the filter"),
        ),
        Binding(
            "X",
            "bulk_archive",
            N_("archive flagged…"),
            id="batch.archive_flagged",
            tooltip=N_(
                "Archive the undecided flagged items in view, after a screen listing them and the diff"
            ),
        ),
        Binding(
            "A",
            "toggle_all",
            N_("all/new"),
            id="item.toggle_all",
            tooltip=N_("Show every item, the ones reviewed before too (again: only the new ones)"),
        ),
        Binding(
            "Z",
            "unhide",
            "unhide",
            show=False,
            id="item.unhide",
            tooltip=N_("Show a hidden item (⊘, after A) in its queue again"),
        ),
        Binding(
            "w",
            "write",
            N_("write…"),
            id="batch.write",
            tooltip=N_("Review the diff of the pending decisions, then write them"),
        ),
        Binding(
            "U",
            "undo",
            N_("undo batch"),
            id="batch.undo",
            tooltip=N_("Undo the last written batch (asks first)"),
        ),
        Binding(
            "ctrl+r",
            "reload",
            N_("reload"),
            show=False,
            id="app.reload",
            tooltip=N_("Read the workspace again (pending decisions stay)"),
        ),
        Binding(
            "shift+down",
            "scroll_evidence(3)",
            N_("scroll evidence"),
            show=False,
            id="evidence.down",
            tooltip=N_("Scroll the evidence down"),
        ),
        Binding(
            "shift+up",
            "scroll_evidence(-3)",
            N_("scroll evidence"),
            show=False,
            id="evidence.up",
            tooltip=N_("Scroll the evidence up"),
        ),
        *queue_bindings(),
    ]
