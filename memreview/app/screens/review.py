"""The review screen: queues on the left, items in the middle, evidence on the right."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import date
from pathlib import Path

from textual import events, on
from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Input

from memreview.app.backend import Backend, make_decision
from memreview.app.editor import editor_target, run_editor
from memreview.app.keys import (
    HEALTH,
    act_for,
    decision_label,
    queue_acts,
    queue_names,
    queue_title,
    review_bindings,
    verb_key,
)
from memreview.app.messages import LoadFailed, QueueChosen, UndoDone, WorkspaceLoaded
from memreview.app.screens.apply import ApplyScreen, outcome_note
from memreview.app.screens.bulk import BulkArchiveScreen
from memreview.app.screens.merge import MergeEditor, merge_proposal
from memreview.app.screens.undo import ask_undo, report_undo, start_undo
from memreview.app.widgets.evidence import Evidence, preview_request
from memreview.app.widgets.health import HealthView
from memreview.app.widgets.item_list import ItemList
from memreview.app.widgets.items_pane import ItemsPane
from memreview.app.widgets.keybar import KeyBar
from memreview.app.widgets.panels import LoadingPane, PendingBar, QueueBar, QueueNav, TopBar
from memreview.decisions.staging import Staging
from memreview.decisions.unit import MEMBER, MERGE, Act
from memreview.display import one_line, visible
from memreview.i18n import _

ScanFunction = Callable[..., object]


class ReviewScreen(Screen):
    """Everything of the weekly review except the diff screen and the dialogs."""

    BINDINGS = review_bindings()
    # below 100 columns the left pane becomes a line of queues; below 200 the items sit
    # above the evidence, so that titles and evidence each get the whole width; from 140 on
    # the two entries of a pair stand side by side (memreview.tcss)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-medium"), (140, "-wide"), (200, "-huge")]

    def __init__(self, root: Path, today: date | None, scan: ScanFunction, backend: Backend):
        super().__init__()
        self.root = Path(root)
        self.today = today
        self.scan = scan
        self.backend = backend
        self.result = None
        self.scanning = True
        self.queue = queue_names()[0]
        self.staging = Staging(backend)  # the decisions staged and not written yet
        self.changed: set[str] = set()  # items whose staged decision is to be asked again
        self._binding_state: tuple | None = None
        self.show_all: set[str] = set()  # queues showing the items reviewed before too
        self.member_prompt = False  # `#` was pressed: the next digit keeps that member

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TopBar(id="topbar", markup=False)
        yield QueueBar(id="queuebar")
        with Horizontal(id="body"):
            yield QueueNav(id="nav")
            yield LoadingPane(id="loading")
            with ContentSwitcher(initial="review", id="switcher"):
                with Horizontal(id="review"):
                    yield ItemsPane(id="middle")
                    yield Evidence(id="evidence")
                yield HealthView(id="health")
        yield PendingBar(id="pending", markup=False)
        yield KeyBar(id="keybar")

    @property
    def pane(self) -> ItemsPane:
        return self.query_one(ItemsPane)

    @property
    def items(self) -> ItemList:
        return self.query_one("#items", ItemList)

    @property
    def evidence(self) -> Evidence:
        return self.query_one("#evidence", Evidence)

    def on_mount(self) -> None:
        self.query_one("#switcher").display = False
        self.items.mark_of = self._mark_of
        self.items.on_move = self._on_move
        self.query_one(TopBar).show(self.root, self.result)
        warnings = self.staging.load()  # a broken pending.yaml is reported, never fatal
        if warnings:
            self.notify(
                "\n".join(warnings), title="Pending decisions", severity="warning", markup=False
            )
        self._show_pending()
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self.items.focus()
        self.reload()

    def on_resize(self, _event) -> None:
        # the width class (-wide, -medium, -narrow) may have changed: A/B stack or not
        if self.result is not None:
            self.call_after_refresh(self._after_resize)

    def _after_resize(self) -> None:
        self._fit_list()
        self._show_current()

    def _theme_changed(self, _theme) -> None:
        # the styles of the new theme are in place after the next refresh
        self.call_after_refresh(self._restyle)

    def _restyle(self) -> None:
        self._show_pending()
        if self.result is not None:
            self._show_current()
            self.query_one(HealthView).show(
                self.result.health, self.result.warnings, self.result.missing
            )

    def action_reload(self) -> None:
        self.reload()

    def action_scroll_evidence(self, delta: int) -> None:
        self.evidence.scroll_lines(delta)

    # -- loading -----------------------------------------------------------------------------
    def reload(self) -> None:
        """Scan the workspace again in a worker; the pending decisions stay."""
        gc.unfreeze()  # the old model may go now
        self.scanning = True
        self.evidence.forget_previews()
        self.query_one("#switcher").display = False
        self._sync_bindings()
        self.query_one(LoadingPane).start(self.scan, self.root, self.today)

    def on_load_failed(self, message: LoadFailed) -> None:
        self.notify(
            message.reason, title="Could not load the workspace", severity="error", markup=False
        )

    def on_workspace_loaded(self, message: WorkspaceLoaded) -> None:
        # The model of a large workspace is millions of objects that live until the next
        # reload; keeping them out of the cyclic collector's scans avoids long pauses.
        gc.freeze()
        self.result = message.result
        self.scanning = False
        self._find_changed()
        self.query_one(LoadingPane).display = False
        self.query_one("#switcher").display = True
        self.query_one(TopBar).show(self.root, self.result)
        nav = self.query_one(QueueNav)
        for q in queue_names():
            self._show_nav_row(q)
        nav.row(HEALTH).show(None)
        self.query_one(HealthView).show(
            self.result.health, self.result.warnings, self.result.missing
        )
        self.show_queue(self.queue)
        self._show_pending()

    def _find_changed(self) -> None:
        """The staged decisions whose targets read otherwise than when they were decided
        (an agent wrote meanwhile; a write left them pending after a conflict): they are
        marked and not written until decided again."""
        self.changed = {
            d.item
            for d in self.staging
            if d.seen is not None and self.backend.seen(self.result, d) != d.seen
        }
        if self.changed:
            self.notify(
                f"{len(self.changed)} staged decision(s) changed since you decided "
                "(marked ⚠): look at each again and press its key again",
                title="Pending decisions",
                severity="warning",
                markup=False,
            )

    def _show_nav_row(self, queue: str) -> None:
        if self.result is not None:
            self.query_one(QueueNav).show_queue(queue, self.result, self.staging.count(queue))
            self._show_queue_bar()

    def _show_queue_bar(self) -> None:
        counts: dict[str, int | None] = {HEALTH: None}
        if self.result is not None:
            counts.update({q: len(self.result.queues.get(q, [])) for q in queue_names()})
        self.query_one(QueueBar).show(counts, self.queue)

    # -- queues ------------------------------------------------------------------------------
    LIST_ROWS = {"-narrow": 8, "-medium": 10, "-wide": 12}  # the most rows the list takes

    def _fit_list(self) -> None:
        """Where the items sit above the evidence, the list is as tall as its items (and the
        filter box) need, up to ``LIST_ROWS``: the rest goes to the evidence."""
        most = next((n for cls, n in self.LIST_ROWS.items() if self.has_class(cls)), None)
        if most is None:
            self.pane.styles.height = None  # side by side: the CSS's height
            return
        rows = 1 + max(1, self.items.count) + (3 if self.pane.filtering else 0)
        self.pane.styles.height = max(3, min(most + (3 if self.pane.filtering else 0), rows))

    def show_queue(self, queue: str) -> None:
        self.queue = queue
        nav = self.query_one(QueueNav)
        nav.set_current(queue)
        self._show_queue_bar()
        self._show_mark_width()
        switcher = self.query_one(ContentSwitcher)
        if queue == HEALTH:
            switcher.current = "health"
            self._sync_bindings()
            return
        switcher.current = "review"
        items = self._queue_items(queue)
        why = self.result.missing.get(queue) if self.result is not None else None
        empty = f"nothing to review ({why})" if why else "nothing to review"
        self.pane.show_queue(queue, items, empty)
        self._fit_list()
        self._sync_bindings()

    def _queue_items(self, queue: str) -> list[dict]:
        """The queue's items: the new ones, or every one when asked (``A``)."""
        if self.result is None:
            return []
        if queue in self.show_all:
            return self.result.all_queues.get(queue, [])
        return self.result.queues.get(queue, [])

    def action_toggle_all(self) -> None:
        queue = self.queue
        if queue in self.show_all:
            self.show_all.discard(queue)
            note = "only the new items"
        else:
            self.show_all.add(queue)
            note = "every item, the ones reviewed before too"
        self.show_queue(queue)
        self.notify(f"{queue_title(queue)}: {note}", markup=False, timeout=2)

    def _flagged_in_view(self) -> list[dict]:
        if self.result is None or act_for(self.queue, "archive") is None:
            return []
        return [it for it in self.items.in_view() if it.get("flags")]

    def action_bulk_archive(self) -> None:
        """Archive every flagged item in view, after the confirm screen (nothing staged)."""
        flagged = self._flagged_in_view()
        if not flagged:
            self.notify("no flagged item in view", markup=False, timeout=2)
            return
        act = act_for(self.queue, "archive")
        decisions = [make_decision(it["id"], act.action, self.queue) for it in flagged]
        screen = BulkArchiveScreen(self.result, decisions, self.backend)
        ids = {d.item for d in decisions}

        def done(outcome) -> None:
            if outcome is None:
                return
            others = [d for d in self.staging.decisions() if d.item not in ids]
            kept = [d for d in outcome.keep_pending if d.item in ids]
            self.staging.replace(others)  # the bulk decisions were never staged
            self._staging_changed()
            msg, severity = outcome_note(outcome)
            if kept:
                msg += f"\n{len(kept)} flagged item(s) not archived"
            self.notify(msg, markup=False, severity=severity)
            self.reload()

        self.app.push_screen(screen, done)

    def on_queue_chosen(self, message: QueueChosen) -> None:
        if not self.scanning:
            self.show_queue(message.queue)

    def action_show_queue(self, queue: str) -> None:
        self.show_queue(queue)
        self.app.key_done()

    def action_step_queue(self, delta: int) -> None:
        self.show_queue(self.next_queue(delta))
        self.app.key_done()

    def next_queue(self, delta: int) -> str:
        """The queue ``delta`` steps from this one, passing over the empty ones (the
        health view is never passed over)."""
        order = [*queue_names(), HEALTH]
        k = order.index(self.queue) if self.queue in order else 0
        for step in range(1, len(order)):
            queue = order[(k + delta * step) % len(order)]
            if queue == HEALTH or self._queue_items(queue):
                return queue
        return self.queue

    def _queue_done_note(self) -> None:
        """Said when the last item of the queue was decided: what is left, and where ``]``
        goes next."""
        left = sum(1 for it in self.items.in_view() if self.staging.for_item(it["id"]) is None)
        following = self.next_queue(1)
        where = queue_title(following)
        if following != HEALTH:
            where += f" ({len(self._queue_items(following))})"
        key = self.app.key_for("queue.next", "]")
        if left:
            msg = _("last item of {queue}; {n} above still undecided — {key} next: {where}")
        else:
            msg = _("{queue} done — {key} next: {where}")
        self.notify(
            msg.format(queue=queue_title(self.queue), n=left, key=key, where=where),
            markup=False,
            timeout=5,
        )

    # -- the highlighted item ----------------------------------------------------------------
    def _on_move(self, index: int, item: dict | None) -> None:
        """Called by the list, synchronously, whenever its cursor or contents change."""
        self.pane.show_header(queue_title(self.queue))
        self._show_current()
        self._sync_bindings()

    def _show_current(self) -> None:
        if self.result is None or self.queue == HEALTH:
            return
        item = self.items.current
        decision = self.staging.for_item(item["id"]) if item is not None else None
        why = self.result.missing.get(self.queue)
        self.evidence.show_item(
            self.queue,
            item,
            self.result.context,
            decision,
            self._hints(),
            also=self._also(item) if item is not None else (),
            changed=item is not None and item["id"] in self.changed,
            empty_text=f"Nothing to review here: {why}." if why else "Nothing to review here.",
            preview=preview_request(self.queue, item, decision, self.result, self.backend),
        )

    def _also(self, item: dict) -> list[str]:
        """One line per other item naming the same anchor or entry, with what is staged
        for it (deciding both must agree: the planner refuses a contradiction)."""
        out = []
        for queue, other in self.result.related(item["id"]):
            title = one_line(str(other.get("title", "")))
            line = f"also in {queue_title(queue)}: {other['id']} {title}"
            d = self.staging.for_item(other["id"])
            if d is not None:
                line += f" — staged: {decision_label(d)[0]}"
            out.append(line)
        return out

    def _hints(self) -> list[tuple[str, Act]]:
        out = []
        for verb, act in queue_acts(self.queue).items():
            out.append((verb_key(verb, self.app.key_for), act))
        return out

    def _mark_of(self, item_id: str):
        d = self.staging.for_item(item_id)
        if d is None:
            return None
        label, act = decision_label(d)
        if d.item in self.changed:
            return f"⚠ {label}", "reject"
        return label, act.tone if act else "defer"

    # -- bindings ----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """False hides a key (not in this queue), None greys it out (nothing to act on)."""
        in_queue = self.queue != HEALTH
        has_item = not self.scanning and in_queue and self.items.current is not None
        on_item = True if has_item else None
        if action == "decide":
            known = act_for(self.queue, parameters[0]) is not None
            return on_item if in_queue and known else False
        if action in ("keep_member", "pick_member", "merge"):
            verb = MERGE if action == "merge" else MEMBER
            return on_item if act_for(self.queue, verb) is not None else False
        if action == "open_editor":
            return on_item if in_queue else False
        if action == "unstage":
            return True if self.staging else None
        if action == "filter":
            return (not self.scanning) if in_queue else False
        if action == "clear_filter":
            return bool(self.items.filter_text) or self.pane.filtering
        if action == "write":
            return True if self.staging and not self.scanning else None
        if action == "bulk_archive":
            has_flags = in_queue and any("flags" in it for it in self._queue_items(self.queue)[:1])
            if not has_flags or act_for(self.queue, "archive") is None:
                return False
            return True if not self.scanning and self._flagged_in_view() else None
        if action == "toggle_all":
            if not in_queue or self.scanning or self.result is None:
                return False if not in_queue else None
            hidden = self.result.hidden.get(self.queue, 0)
            return True if hidden or self.queue in self.show_all else False
        if action in ("undo", "show_queue", "step_queue"):
            return None if self.scanning else True
        return True

    def why_not(self, action: str, parameters: tuple) -> str | None:
        """Why ``action`` does nothing now, in words (None when it acts, or when a key doing
        nothing needs no word: moving past the end of a list)."""
        if self.scanning and action not in ("show_queue", "step_queue", "reload"):
            return _("still loading the workspace")
        title = queue_title(self.queue)
        in_queue = self.queue != HEALTH
        verb = None
        if action == "decide":
            verb = parameters[0]
        elif action in ("keep_member", "pick_member"):
            verb = MEMBER
        elif action == "merge":
            verb = MERGE
        if verb is not None:
            if not in_queue:
                return _("the health view has nothing to decide: choose a queue (1–9)")
            if act_for(self.queue, verb) is None:
                return _("{key} does nothing in {queue}; here: {keys}").format(
                    key=self._key_name(action, parameters), queue=title, keys=self._offered()
                )
            if self.items.current is None:
                return _("{queue} has nothing to decide").format(queue=title)
            return None
        if action == "open_editor":
            if not in_queue:
                return _("the health view has no entry to open: choose a queue (1–9)")
            return _("{queue} has no item to open").format(queue=title)
        if action == "write":
            return _("nothing is staged to write: decide an item first (its keys are below)")
        if action == "unstage":
            return _("nothing is staged to unstage")
        if action == "filter" and not in_queue:
            return _("the health view has no items to filter: choose a queue (1–9)")
        if action == "bulk_archive":
            return _("no flagged item in view to archive")
        return None

    def _key_name(self, action: str, parameters: tuple) -> str:
        if action == "decide":
            return verb_key(parameters[0], self.app.key_for)
        if action == "merge":
            return verb_key(MERGE, self.app.key_for)
        return verb_key(MEMBER, self.app.key_for, members="#")

    def _offered(self) -> str:
        """The keys of this queue as the footer names them: ``a keep A · b keep B…``."""
        return " · ".join(f"{key} {_(act.label)}" for key, act in self._hints())

    def on_key(self, event: events.Key) -> None:
        """Before the bindings: the digit after `#`, and the keys that can't act now,
        which say why instead of doing nothing."""
        if self.member_prompt:
            self.member_prompt = False
            event.stop()
            event.prevent_default()
            if event.character is not None and event.character in "123456789":
                self.action_keep_member(int(event.character))
            else:
                self.notify(_("no member kept: # then a digit keeps one"), timeout=3)
            return
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            _namespace, action, parameters = parse_action(binding.action)
            if self.check_action(action, parameters) is True:
                return
            why = self.why_not(action, parameters)
            if why:
                event.stop()
                event.prevent_default()
                self.notify(why, markup=False, timeout=4)
                self.app.key_done()
                return

    def _sync_bindings(self) -> None:
        """Refresh the footer only when what applies has changed (it is rebuilt each time)."""
        state = (
            self.queue,
            self.scanning,
            self.items.current is not None,
            bool(self.staging),
            bool(self.items.filter_text),
            self.pane.filtering,
        )
        if state != self._binding_state:
            self._binding_state = state
            self.refresh_bindings()

    @property
    def active_bindings(self):
        """The footer's view of the bindings: decision keys named as this queue names them."""
        bindings = super().active_bindings
        acts = queue_acts(self.queue)
        if not acts:
            return bindings
        order = {verb: k for k, verb in enumerate(acts)}
        decide, rest = [], {}
        for key, active in bindings.items():
            bid = active.binding.id or ""
            act = acts.get(bid.removeprefix("decide.")) if bid.startswith("decide.") else None
            if act is None:
                rest[key] = active
                continue
            renamed = active._replace(
                binding=replace(active.binding, description=_(act.label)),
                tooltip=f"{_(act.label)}: {_(act.effect)}",
            )
            decide.append((order[act.verb], key, renamed))
        # the decision keys first, in the order the queue lists them (as in the evidence)
        return {key: active for _n, key, active in sorted(decide)} | rest

    # -- deciding ----------------------------------------------------------------------------
    def _stage(self, act: Act, keep: int | None = None, text: str | None = None) -> None:
        item = self.items.current
        if item is None:
            return
        d = make_decision(item["id"], act.action, self.queue, keep=keep, text=text)
        problem = self.backend.check(self.queue, item, d)
        if not problem and self.result is not None:
            problem = self.backend.clash(self.result, self.staging.decisions(), d)
        if problem:
            self.notify(problem, title="Not staged", severity="warning", markup=False)
            return
        d = replace(d, seen=self.backend.seen(self.result, d))
        self.changed.discard(d.item)  # decided again, on what the item reads now
        old = self.staging.stage(d)
        self._staging_changed(item["id"], {d.queue, old.queue if old else d.queue})
        if self.items.cursor + 1 < self.items.count:
            self.items.advance()
        else:
            self.items.refresh_item(item["id"])
            self._show_current()
            self._queue_done_note()

    def _staging_changed(self, item_id: str | None = None, queues: Iterable | None = None) -> None:
        """Redraw what shows the staged decisions (``queues``: those whose count changed)
        and say so when they could not be saved."""
        if self.staging.save_error:
            self.notify(self.staging.save_error, severity="error", markup=False)
        self._show_pending()
        shown = queue_names()
        for q in shown if queues is None else queues:
            if q in shown:
                self._show_nav_row(q)
        if item_id is not None:
            self.items.refresh_item(item_id)
        self._sync_bindings()

    def _show_pending(self) -> None:
        self.query_one(PendingBar).show(self.staging.decisions(), self.staging.saved)
        self._show_mark_width()

    def _show_mark_width(self) -> None:
        """The list's mark column as wide as the widest staged label of this queue (one
        column when nothing is staged there: the titles get the room)."""
        widest = max(
            (len(self._mark_of(d.item)[0]) for d in self.staging if d.queue == self.queue),
            default=1,
        )
        self.items.set_mark_width(widest)

    def action_decide(self, verb: str) -> None:
        act = act_for(self.queue, verb)
        if act is not None:
            self._stage(act, keep=act.keep)
        self.app.key_done()

    def action_pick_member(self) -> None:
        item = self.items.current
        if item is None:
            return
        members = len(item.get("refs") or [])
        self.member_prompt = True
        self.notify(
            _("keep which member? press 1–{n} (any other key: none)").format(n=members),
            markup=False,
            timeout=3,
        )
        self.app.key_done()

    def action_keep_member(self, n: int) -> None:
        item = self.items.current
        if item is None:
            return
        members = len(item.get("refs") or [])
        if n > members:
            self.notify(
                _("this group has {n} members: # then 1–{n} keeps one").format(n=members),
                markup=False,
            )
            return
        self._stage(act_for(self.queue, MEMBER), keep=n)
        self.app.key_done()

    def action_merge(self) -> None:
        item = self.items.current
        if item is None:
            return
        item_id, queue, act = item["id"], self.queue, act_for(self.queue, MERGE)

        def done(text: str | None) -> None:
            if text is None:
                return
            current = self.items.current
            if current is None or current["id"] != item_id:
                return
            self._stage(act, text=text)

        def check(text: str) -> str | None:
            d = make_decision(item_id, act.action, queue, text=text)
            return self.backend.check(queue, item, d)

        title = f"Merge: {one_line(str(item.get('title', '')))}"
        proposal = visible(merge_proposal(item, self.result.context))
        self.app.push_screen(MergeEditor(title, proposal, check), done)

    def action_unstage(self) -> None:
        item = self.items.current
        d = self.staging.for_item(item["id"]) if item is not None else None
        d = d or self.staging.newest()  # not staged here: the decision staged last
        if d is None:
            return
        self.staging.unstage(d.item)
        self._staging_changed(d.item, (d.queue,))
        if self.result is not None and d.queue == self.queue:
            self._show_current()
        self.notify(f"unstaged: {decision_label(d)[0]}", markup=False, timeout=2)
        self.app.key_done()

    # -- filter ------------------------------------------------------------------------------
    def action_filter(self) -> None:
        self.pane.open_filter()
        self._fit_list()
        self._sync_bindings()

    @on(Input.Changed, "#filter")
    def _filter_typed(self) -> None:
        self._fit_list()

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self._fit_list()
        self._sync_bindings()
        self.app.key_done()

    def action_clear_filter(self) -> None:
        self.pane.clear_filter()
        self._fit_list()
        self._sync_bindings()

    # -- editor ------------------------------------------------------------------------------
    def action_open_editor(self) -> None:
        item = self.items.current
        if item is None or self.result is None:
            return
        target = editor_target(self.root, self.queue, item, self.result)
        if target is not None and run_editor(self.app, self.app.editor_command(), *target):
            self.reload()

    # -- writing -----------------------------------------------------------------------------
    def action_write(self) -> None:
        if not self.staging or self.result is None:
            self.notify("nothing is staged")
            return
        screen = ApplyScreen(self.result, self.staging.decisions(), self.backend)
        self.app.push_screen(screen, self._applied)
        self.app.key_done()

    def _applied(self, outcome) -> None:
        if outcome is None:
            return
        self.staging.replace(outcome.keep_pending)
        self._staging_changed()
        msg, severity = outcome_note(outcome)
        self.notify(msg, markup=False, severity=severity)
        self.reload()

    def action_undo(self) -> None:
        nothing = self.backend.nothing_to_undo()
        if nothing:  # said before asking, not after
            self.notify(nothing, markup=False, timeout=4)
            return
        ask_undo(self.app, lambda: start_undo(self, self.backend))

    def on_undo_done(self, message: UndoDone) -> None:
        report_undo(self.app, message)
        if message.ok:
            if self.staging.saved:  # the undo staged the batch's decisions again on disk
                self.staging.load()
                self._staging_changed()
            self.reload()
