"""The review screen's queues: which items a queue shows (the new ones, or every one with
``A``), the items a decision hides and the staged decisions changed since, moving between
queues, and archiving the flagged items in bulk. ``ReviewQueues`` is a part of
``ReviewScreen`` (what it reads is declared in ``review_base``)."""

from __future__ import annotations

from textual.notifications import Notification, Notify
from textual.widgets import ContentSwitcher

from memreview.app.backend import make_decision
from memreview.app.keys import HEALTH, act_for, queue_names, queue_title
from memreview.app.messages import QueueChosen
from memreview.app.screens.dialogs import ConfirmDialog
from memreview.app.screens.review_base import ReviewBase
from memreview.app.widgets.panels import QueueBar, QueueNav
from memreview.display import one_line, visible
from memreview.i18n import _, ngettext
from memreview.workspace.cells import cut_cells

UNHIDE_PREVIEW_LINES = 14  # lines of an unhide's diff the question shows


class ReviewQueues(ReviewBase):
    """The queue shown, its items, hidden and changed items, and bulk archiving."""

    # -- hidden and changed items ------------------------------------------------------------
    def action_unhide(self) -> None:
        """Put the highlighted hidden item back in its queue (an undoable batch)."""
        item = self.items.current
        if item is None or item.get("id") not in self.hidden:
            self.notify(_("this item is not hidden"), markup=False, timeout=2)
            return
        try:
            preview = self.backend.unhide(item["id"], self.result.today, dry_run=True)
        except Exception as exc:  # a held lock, an unreadable state file: shown, not raised
            self.notify(str(exc), severity="error", markup=False)
            return
        if not preview.ok:  # refused (a candidates file that doesn't parse): nothing written
            self.notify(preview.message, title=_("Unhide"), severity="error", markup=False)
            return
        if not preview.diff:  # only memreview's state changes: no question
            self._unhide(item["id"])
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self._unhide(item["id"])

        lines = preview.diff.splitlines()
        shown = "\n".join(lines[:UNHIDE_PREVIEW_LINES])
        if len(lines) > UNHIDE_PREVIEW_LINES:
            shown += "\n" + _("… {count} more line(s) of diff").format(
                count=len(lines) - UNHIDE_PREVIEW_LINES
            )
        question = _("Put {title} back in its file?").format(
            title=cut_cells(one_line(str(item.get("title") or item["id"])), 60)
        )
        dialog = ConfirmDialog(question, visible(shown), yes=_("Unhide"), no=_("Keep hidden"))
        self.app.push_screen(dialog, answer)

    def _unhide(self, item_id: str) -> None:
        try:
            done = self.backend.unhide(item_id, self.result.today)
        except Exception as exc:  # a held lock, an unreadable state file: shown, not raised
            self.notify(str(exc), severity="error", markup=False)
            return
        severity = "information" if done.ok else "error"
        self.notify(done.message, title=_("Unhide"), severity=severity, markup=False)
        self.reload()

    def _say_asked_again(self, count: int) -> None:
        """Say that ``count`` staged decisions read otherwise now (marked ⚠ in the lists)."""
        self.notify(
            ngettext(
                "{count} staged decision changed since you decided (marked ⚠): look at it "
                "again and press its key again",
                "{count} staged decisions changed since you decided (marked ⚠): look at each "
                "again and press its key again",
                count,
            ).format(count=count),
            title=_("Pending decisions"),
            severity="warning",
            markup=False,
        )

    def _show_nav_row(self, queue: str) -> None:
        if self.result is not None:
            nav = self.query_one(QueueNav)
            computing = self.session.pending_queues()  # every one while a rescan loads
            nav.show_queue(queue, self.result, self.staging.count(queue), computing)
            self._show_queue_bar()

    def _show_queue_bar(self) -> None:
        counts: dict[str, int | None] = {HEALTH: None}
        if self.result is not None:
            computing = self.session.pending_queues()  # no count until it is computed
            counts.update(
                {
                    q: None if q in computing else len(self.result.queues.get(q, []))
                    for q in queue_names()
                }
            )
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
        """Show ``queue`` (or the health view); its list is drawn when the session says so."""
        self.first_shown = True  # chosen: no other queue takes its place when it is ready
        self.session.choose(queue)

    def _show_listing(self) -> None:
        """The shown queue's list (or the health view), drawn anew."""
        queue = self.queue
        self.first_shown = True
        if self.query_one("#loading").display:  # a queue shown: the loading pane makes way
            self.query_one("#loading").display = False
            self.query_one(ContentSwitcher).display = True
        nav = self.query_one(QueueNav)
        nav.set_current(queue)
        self._show_queue_bar()
        self._show_mark_width()
        switcher = self.query_one(ContentSwitcher)
        if queue == HEALTH:
            switcher.current = "health"
            self.query_one("#health").focus()  # its keys scroll it
            self._sync_bindings()
            return
        switcher.current = "review"
        items = self.session.queue_items(queue)
        why = self.result.missing.get(queue) if self.result is not None else None
        empty = _("nothing to review ({why})").format(why=why) if why else _("nothing to review")
        if queue in self.session.pending_queues():
            empty = _("computing this queue… (the others can be reviewed meanwhile)")
        self.pane.show_queue(queue, items, empty)
        self._fit_list()
        self._sync_bindings()

    def action_toggle_all(self) -> None:
        queue = self.queue
        if self.session.toggle_all():
            note = _(
                "{queue}: every item, the ones reviewed before too (⊘ hidden: Z shows one again)"
            )
            if self.result is not None and not self.result.hidden.get(queue, 0):
                # none hidden: what more shows is past the queue's limit (dormant, dropping)
                note = _("{queue}: every item, past the first ones it shows too")
        else:
            note = _("{queue}: only the new items")
        self.notify(note.format(queue=queue_title(queue)), markup=False, timeout=2)

    def _flagged_in_view(self) -> list[dict]:
        if self.result is None or act_for(self.queue, "archive") is None:
            return []
        # an item the owner has already decided keeps that decision: never archived over it
        return [
            it
            for it in self.items.in_view()
            if it.get("flags") and self.staging.for_item(it.get("id", "")) is None
        ]

    def action_bulk_archive(self) -> None:
        """Archive every flagged item in view not decided yet, after the confirm screen
        (nothing staged)."""
        flagged = self._flagged_in_view()
        if not flagged:
            self.notify(_("no undecided flagged item in view"), markup=False, timeout=2)
            return
        from memreview.app.screens.apply import outcome_note
        from memreview.app.screens.bulk import BulkArchiveScreen

        act = act_for(self.queue, "archive")
        decisions = [make_decision(it["id"], act.action, self.queue) for it in flagged]
        screen = BulkArchiveScreen(self.result, decisions, self.backend)
        ids = {d.item for d in decisions}

        def done(outcome) -> None:
            if outcome is None:
                return
            others = [d for d in self.staging.decisions() if d.item not in ids]
            kept = [d for d in outcome.keep_pending if d.item in ids]
            self.session.replace_staged(others)  # the bulk decisions were never staged
            msg, severity = outcome_note(outcome)
            if kept:
                msg += "\n" + ngettext(
                    "{count} flagged item not archived",
                    "{count} flagged items not archived",
                    len(kept),
                ).format(count=len(kept))
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
        return self.session.next_queue(delta)

    def _queue_done_note(self) -> None:
        """Said when the last item of the queue was decided: what is left, and where ``]``
        goes next. The note is kept so that it is taken back once it is no longer true."""
        undecided = self.session.undecided(self.items.all_items())
        shown = {it["id"] for it in self.items.in_view()}
        left = sum(1 for it in undecided if it["id"] in shown)
        hidden = len(undecided) - left  # undecided items the filter hides: the queue isn't done
        following = self.next_queue(1)
        where = queue_title(following)
        if following != HEALTH:
            where += f" ({len(self.session.queue_items(following))})"
        key = self.app.key_for("queue.next", "]")
        if left:
            msg = _("last item of {queue}; {n} above still undecided — {key} next: {where}")
        elif hidden:
            msg = ngettext(
                "every item the filter shows is decided; {n} more of {queue} is undecided "
                "(clear the filter to see it)",
                "every item the filter shows is decided; {n} more of {queue} are undecided "
                "(clear the filter to see them)",
                hidden,
            )
        else:
            msg = _("{queue} done — {key} next: {where}")
        text = msg.format(queue=queue_title(self.queue), n=left or hidden, key=key, where=where)
        self._withdraw_done_note()
        note = Notification(text, "", "information", 5, markup=False)
        self.app.post_message(Notify(note))
        self._done_note = (self.queue, len(undecided), note)

    def _withdraw_stale_done_note(self) -> None:
        """Take the queue's note back once it is no longer true: another queue is shown, or
        an unstage, an undo or a decision changed how many of its items are undecided."""
        if self._done_note is None:
            return
        queue, undecided, _note = self._done_note
        if queue == self.queue and len(self.session.undecided(self.items.all_items())) == undecided:
            return
        self._withdraw_done_note()

    def _withdraw_done_note(self) -> None:
        if self._done_note is None:
            return
        note = self._done_note[2]
        self._done_note = None
        try:
            self.app._unnotify(note)
        except KeyError:  # it timed out or was dismissed already
            pass
