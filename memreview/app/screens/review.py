"""The review screen: queues on the left, items in the middle, evidence on the right.

Here: the layout, loading, the highlighted item, the filter and which keys apply
(``check_action``). The queues (moving between them, hidden and changed items, bulk archive)
are in ``review_queues``; deciding, writing and undo in ``review_decide``; why a key does
nothing, and the footer's names for the keys, in ``review_keys``."""

from __future__ import annotations

import gc
from collections.abc import Callable
from datetime import date
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import ContentSwitcher, Input

from memreview.app.keys import (
    HEALTH,
    act_for,
    decision_label,
    no_member_to_pick,
    queue_acts,
    queue_names,
    queue_title,
    review_bindings,
    verb_key,
)
from memreview.app.messages import (
    AlarmsReady,
    HealthReady,
    LoadFailed,
    QueueCounts,
    QueueReady,
    ScanOver,
    SessionChanged,
    WorkspaceLoaded,
)
from memreview.app.ports import LedgerBackend
from memreview.app.screens.review_decide import ReviewDecisions
from memreview.app.screens.review_keys import ReviewKeys
from memreview.app.screens.review_queues import ReviewQueues
from memreview.app.session import Change, ReviewSession
from memreview.app.widgets.evidence import Evidence, preview_request
from memreview.app.widgets.health import HealthView
from memreview.app.widgets.items_pane import ItemsPane
from memreview.app.widgets.keybar import KeyBar
from memreview.app.widgets.panels import (
    AlarmBanner,
    LoadingPane,
    PendingBar,
    QueueBar,
    QueueNav,
    TopBar,
)
from memreview.decisions.unit import MEMBER, MERGE, Act
from memreview.display import one_line
from memreview.i18n import _, ngettext
from memreview.scan.collector import set_aside

ScanFunction = Callable[..., object]
SET_ASIDE_AFTER = 0.3  # seconds from the scan's end on the screen to its model set aside


ALSO_SHOWN = 5  # other items on the same anchors named in the evidence (all staged ones too)


class ReviewScreen(ReviewKeys, ReviewDecisions, ReviewQueues):
    """Everything of the weekly review except the diff screen and the dialogs."""

    BINDINGS = review_bindings()
    # below 100 columns the left pane becomes a line of queues; below 200 the items sit
    # above the evidence, so that titles and evidence each get the whole width; from 140 on
    # the two entries of a pair stand side by side (memreview.tcss)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-medium"), (140, "-wide"), (200, "-huge")]

    def __init__(
        self, root: Path, today: date | None, scan: ScanFunction, backend: LedgerBackend
    ) -> None:
        super().__init__()
        self.root = Path(root)
        self.today = today
        self.scan = scan
        self.backend = backend
        # the review's state: the screen shows it, and redraws what each change names
        self.session = ReviewSession(backend, self._tell_changed)
        self._binding_state: tuple | None = None
        self.member_prompt = False  # `#` was pressed: the next digit keeps that member
        # until a queue's items first show, the loading pane stays: the first queue computed
        # that has items is the one shown (``_show_when_ready``)
        self.first_shown = False
        self._done_note = None  # the "<queue> done" toast shown, while it is still true
        self.scans_over = 0  # scans whose thread is done
        self.set_aside_for = 0  # the last of them whose model was set aside (``set_aside``)

    def _tell_changed(self, change: Change) -> None:
        self.post_message(SessionChanged(change))

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TopBar(id="topbar", markup=False)
        yield AlarmBanner(id="alarms", markup=False)
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

    def on_mount(self) -> None:
        self.query_one("#switcher").display = False
        self.items.mark_of = self.session.mark_of
        self.items.on_move = self._on_move
        self.query_one(TopBar).show(self.root, self.result)
        warnings = self.session.load_staged()  # a broken pending.yaml is reported, never fatal
        if warnings:
            self.notify(
                "\n".join(warnings), title=_("Pending decisions"), severity="warning", markup=False
            )
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
                self.result.health, self.result.warnings, self.result.missing_in_order()
            )

    def action_reload(self) -> None:
        self.reload()

    def action_scroll_evidence(self, delta: int) -> None:
        self.evidence.scroll_lines(delta)

    # -- loading -----------------------------------------------------------------------------
    def reload(self) -> None:
        """Scan the workspace again in a worker; the pending decisions stay."""
        gc.unfreeze()  # the old model may go now
        again = self.result is not None
        if again:  # the counts shown are from before: "…" until told
            self.query_one(QueueNav).show_counts({})
        self.session.rescanning()  # a rescan: each queue "computing…", not the loading pane
        self.evidence.forget_previews()
        if not again:
            self.query_one("#switcher").display = False
        self._sync_bindings()
        # the queue shown is computed before the others (the rescan after a write)
        first = self.queue if self.in_queue else None
        pane = self.query_one(LoadingPane)
        pane.start(self.scan, self.root, self.today, first=first, shown=not again)

    def on_load_failed(self, message: LoadFailed) -> None:
        self.query_one("#switcher").display = False  # the pane says why (a rescan's too)
        self.query_one(LoadingPane).display = True
        self.notify(
            message.reason, title=_("Could not load the workspace"), severity="error", markup=False
        )

    def on_scan_over(self, message: ScanOver) -> None:
        # The model of a large workspace is millions of objects that live until the next
        # reload: kept out of the cyclic collector's scans, which would pause the app each
        # time they walk it (the last model's garbage collected first). Once the scan's
        # thread is done (garbage it made after a collection would be frozen with the
        # rest), and once the screen shows what it found: the collection takes a moment
        # (0.15 s at scale 1), which the last counts or the first items must not wait for.
        self.scans_over += 1
        self.set_aside_soon()

    def set_aside_soon(self) -> None:
        """``set_aside`` a moment after the screen's next refresh, unless a scan started."""
        over = self.scans_over

        def set_aside_now() -> None:
            if over == self.scans_over and not self.scanning:  # no scan since
                set_aside()
                self.set_aside_for = over

        self.call_after_refresh(lambda: self.set_timer(SET_ASIDE_AFTER, set_aside_now))

    def on_workspace_loaded(self, message: WorkspaceLoaded) -> None:
        self.session.loaded(message.result)
        for note in getattr(self.result, "notes", ()):
            self.notify(note, title=_("Scan cache"), severity="warning", markup=False)

    def _show_loaded(self) -> None:
        """A new scan result: the panes it fills (the loading pane stays until a queue's
        items show, ``_show_listing``)."""
        self.query_one(TopBar).show(self.root, self.result)
        self.query_one(QueueNav).row(HEALTH).show(None)
        alarms = getattr(self.result, "alarms", None)
        if alarms is not None:  # known from the cache: shown with the first frame of the list
            self.query_one(AlarmBanner).show(alarms)

    def _show_when_ready(self) -> None:
        """At the first load: the first queue in order that is computed and has items, as
        soon as there is one (else, once every queue is computed, the first queue)."""
        pending = self.session.pending_queues()
        ready = [q for q in queue_names() if q not in pending and self.session.queue_items(q)]
        if ready or not pending:
            self.show_queue(ready[0] if ready else queue_names()[0])

    def _show_health(self) -> None:
        # the warnings of the parts read after the first queue are in by now (the count)
        self.query_one(TopBar).show(self.root, self.result)
        self.query_one(HealthView).show(
            self.result.health, self.result.warnings, self.result.missing_in_order()
        )
        self.query_one(AlarmBanner).show(self.result.health.get("alarms") or [])

    def on_session_changed(self, message: SessionChanged) -> None:
        """Redraw what the review's change names (and nothing else)."""
        change: Change = message.change
        if change.loaded:
            self._show_loaded()
        if self.result is not None and change.health:
            self._show_health()
            self._scan_over()
        if change.asked_again:
            self._say_asked_again(change.asked_again)
        if change.pending:
            if self.staging.save_error:
                self.notify(self.staging.save_error, severity="error", markup=False)
            self._show_pending()
        for q in change.queues:
            self._show_nav_row(q)
        if change.listing:
            if self.first_shown or not self.session.pending_queues():
                self._show_listing()
            else:  # the first queue's items before anything else: no empty list meanwhile
                self._show_when_ready()
        else:
            for item_id in change.items:
                self.items.refresh_item(item_id)
            if change.current and self.result is not None:
                self._show_current()
        self._withdraw_stale_done_note()
        self._sync_bindings()

    def on_queue_counts(self, message: QueueCounts) -> None:
        if self.scanning:
            self.query_one(QueueNav).show_counts(message.counts)

    def on_queue_ready(self, message: QueueReady) -> None:
        """One more queue computed: its count, and its items when it is the one shown."""
        if self.result is None:
            return
        self.session.queue_ready(message.name, message.items)
        if not self.first_shown:
            self._show_when_ready()
        elif message.name != self.queue and self.queue != HEALTH:
            item = self.items.current
            if item is not None and self.result.relates(item["id"], message.name):
                self._show_current()  # its "also in …" lines name the new queue's items

    def on_alarms_ready(self, message: AlarmsReady) -> None:
        """The alarms: those the last scan showed, with the counts known from the cache,
        then the workspace's own as soon as the first queue is in; not after the last queue
        (the banner would push the list down while the owner reads it)."""
        if self.scanning or self.result is not None:
            self.query_one(AlarmBanner).show(message.alarms)

    def on_health_ready(self, message: HealthReady) -> None:
        """The scan's end: health and its alarms, and the staged decisions checked against
        every queue."""
        self.session.health_ready(message.health)

    def _scan_over(self) -> None:
        scan_done = getattr(self.app, "scan_done", None)
        if scan_done is not None:  # the app draws its help ahead now
            scan_done(getattr(self.session.result, "workspace", None))

    # -- the highlighted item ----------------------------------------------------------------
    def _on_move(self, index: int, item: dict | None) -> None:
        """Called by the list, synchronously, whenever its cursor or contents change."""
        self.pane.show_header(queue_title(self.queue), self.queue in self.session.pending_queues())
        self._show_current()
        self._sync_bindings()

    def _show_current(self) -> None:
        if self.result is None or self.queue == HEALTH:
            return
        item = self.items.current
        decision = self.staging.for_item(item["id"]) if item is not None else None
        self.evidence.show_item(
            self.queue,
            item,
            self.result.context,
            decision,
            self._hints(),
            also=self._also(item) if item is not None else (),
            changed=item is not None and item["id"] in self.changed,
            empty_text=self._empty_text(),
            preview=preview_request(self.queue, item, decision, self.result, self.backend),
        )

    def _empty_text(self) -> str:
        """The evidence of a queue with no item shown: why it is empty, or nothing while
        it is being computed (the list says so)."""
        if self.queue in self.session.pending_queues():
            return ""
        why = self.result.missing.get(self.queue)
        if why:
            return _("Nothing to review here: {why}.").format(why=why)
        return _("Nothing to review here.")

    def _also(self, item: dict) -> list[str]:
        """One line per other item naming the same anchor or entry, with what is staged
        for it (deciding both must agree: the planner refuses a contradiction)."""
        out = []
        related = self.result.related(item["id"])
        hidden = 0
        for k, (queue, other) in enumerate(related):
            d = self.staging.for_item(other["id"])
            if d is None and k >= ALSO_SHOWN:  # a group of thousands: the staged ones, a few
                hidden += 1
                continue
            title = one_line(str(other.get("title", "")))
            line = _("also in {queue}: {id} {title}").format(
                queue=queue_title(queue), id=other["id"], title=title
            )
            if d is not None:
                line += " — " + _("staged: {decision}").format(decision=decision_label(d)[0])
            out.append(line)
        if hidden:
            out.append(
                ngettext(
                    "… and {n} more item on the same anchors or entries",
                    "… and {n} more items on the same anchors or entries",
                    hidden,
                ).format(n=f"{hidden:,}")
            )
        return out

    def _hints(self) -> list[tuple[str, Act]]:
        out = []
        current = self.items.current
        for verb, act in queue_acts(self.queue).items():
            if no_member_to_pick(verb, current):
                continue
            if self._refusal(act) is None:  # a strip with nothing to strip is not offered
                out.append((verb_key(verb, self.app.key_for), act))
        return out

    # -- bindings ----------------------------------------------------------------------------
    def _refusal(self, act: Act) -> str | None:
        """Why staging ``act`` on the current item would be refused, when it is a strip with
        nothing to strip (None otherwise: the other verbs say so when staged)."""
        from memreview.app.backend import make_decision

        item = self.items.current
        if act.action != "strip" or item is None or self.scanning or not self.in_queue:
            return None
        d = make_decision(item["id"], act.action, self.queue)
        return self.backend.check(self.queue, item, d)

    def check_action(self, action: str, parameters: tuple) -> bool | None:  # noqa: C901
        """False hides a key (not in this queue), None greys it out (nothing to act on)."""
        in_queue = self.queue != HEALTH
        has_item = not self.scanning and in_queue and self.items.current is not None
        on_item = True if has_item else None
        if action == "decide":
            act = act_for(self.queue, parameters[0])
            if not in_queue or act is None:
                return False
            if has_item and self._refusal(act) is not None:
                return None  # nothing of the pipeline's to strip from this entry
            return on_item
        if action in ("keep_member", "pick_member", "merge"):
            verb = MERGE if action == "merge" else MEMBER
            if act_for(self.queue, verb) is None:
                return False
            if no_member_to_pick(verb, self.items.current if has_item else None):
                return False
            return on_item
        if action == "open_editor":
            return on_item if in_queue else False
        if action == "unstage":
            return True if self.staging else None
        if action == "filter":
            return (not self.scanning) if in_queue else False
        if action == "clear_filter":
            return bool(self.items.filter_text) or self.pane.filtering
        if action == "write":  # a staged decision may be on a queue still computed
            return (
                True
                if self.staging and not self.scanning and not self.session.pending_queues()
                else None
            )
        if action == "bulk_archive":
            has_flags = in_queue and any(
                "flags" in it for it in self.session.queue_items(self.queue)[:1]
            )
            if not has_flags or act_for(self.queue, "archive") is None:
                return False
            return True if not self.scanning and self._flagged_in_view() else None
        if action == "unhide":
            current = self.items.current if has_item else None
            return True if current is not None and current.get("id") in self.hidden else None
        if action == "toggle_all":
            if not in_queue or self.scanning or self.result is None:
                return False if not in_queue else None
            # more to list: items a decision hid, or past the queue's limit (dormant)
            every = getattr(self.result, "all_queues", None) or {}  # (a result of a test's own)
            more = len(every.get(self.queue, ())) > len(self.result.queues.get(self.queue, ()))
            return True if more or self.queue in self.show_all else False
        if action in ("undo", "show_queue", "step_queue"):
            return None if self.scanning else True
        return True

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
