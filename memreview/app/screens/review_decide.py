"""Deciding on the review screen: staging a decision (a key, a member, a merge text),
unstaging, opening the editor, writing the staged decisions and undoing the last batch.
``ReviewDecisions`` is a part of ``ReviewScreen`` (what it reads is declared in ``review_base``)."""

from __future__ import annotations

from rich.cells import cell_len

from memreview.app.backend import make_decision
from memreview.app.editor import editor_target, run_editor
from memreview.app.keys import act_for, decision_label, queue_title
from memreview.app.messages import UndoDone
from memreview.app.screens.review_base import ReviewBase
from memreview.app.widgets.panels import PendingBar
from memreview.decisions.unit import MEMBER, MERGE, Act
from memreview.display import one_line, visible
from memreview.i18n import _
from memreview.workspace.cells import cut_cells


class ReviewDecisions(ReviewBase):
    """Staging, unstaging, the editor, writing and undo."""

    # -- deciding ----------------------------------------------------------------------------
    def _stage(
        self, act: Act, keep: int | None = None, text: str | None = None, slug: str | None = None
    ) -> None:
        item = self.items.current
        if item is None:
            return
        staged = self.session.stage(item, act, keep=keep, text=text, slug=slug)
        if staged.refused:
            self.notify(staged.refused, title=_("Not staged"), severity="warning", markup=False)
            return
        if self.items.cursor + 1 < self.items.count:
            self.items.advance()
        else:  # the last one: it stays highlighted, with its decision
            self._show_current()
            self._queue_done_note()

    def _show_pending(self) -> None:
        self.query_one(PendingBar).show(self.staging.decisions(), self.staging.saved)
        self._show_mark_width()

    def _show_mark_width(self) -> None:
        """The list's mark column as wide as the widest staged label of this queue, in
        terminal cells (one column when nothing is staged there: the titles get the room)."""
        widest = max(
            (cell_len(self._mark_width_of(d.item)) for d in self.staging if d.queue == self.queue),
            default=1,
        )
        if self.queue in self.show_all and self.hidden and self.result is not None:
            # `A` shows the hidden items too, each marked "⊘ why": make room for the widest
            shown = {it.get("id") for it in self.result.all_queues.get(self.queue, [])}
            widest = max(
                [widest] + [cell_len(self._mark_width_of(i)) for i in self.hidden if i in shown]
            )
        self.items.set_mark_width(widest)

    def _mark_width_of(self, item_id: str) -> str:
        mark = self.session.mark_of(item_id)
        return mark[0] if mark is not None else ""

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
        from memreview.app.screens.merge import MergeEditor, merge_proposal

        item = self.items.current
        if item is None:
            return
        item_id, queue, act = item["id"], self.queue, act_for(self.queue, MERGE)
        if act is not None and "slug" in act.takes:
            self._edit_slug(item, act)
            return

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

        shown = one_line(str(item.get("title", "")))
        proposal = visible(merge_proposal(item, self.result.context))
        if act.action == "merge":
            self.app.push_screen(
                MergeEditor(_("Merge: {title}").format(title=shown), proposal, check), done
            )
            return
        # an edit of one entry (a promotion, a candidate to promote), not a merge of several
        editor = MergeEditor(
            _("Edit: {title}").format(title=shown),
            proposal,
            check,
            detail=_(
                "The entry's text as it should read. Control characters are shown as visible "
                "escapes and written as shown."
            ),
            hint=_("ctrl+s stage {action}   escape cancel").format(action=act.action),
        )
        self.app.push_screen(editor, done)

    def _edit_slug(self, item: dict, act: Act) -> None:
        """``m`` in the skills queue: name the new skill's folder, then stage create-skill."""
        from memreview.app.screens.merge import MergeEditor

        item_id, queue = item["id"], self.queue

        def done(text: str | None) -> None:
            current = self.items.current
            if text is not None and current is not None and current["id"] == item_id:
                self._stage(act, slug=text.strip())

        def check(text: str) -> str | None:
            d = make_decision(item_id, act.action, queue, slug=text.strip())
            return self.backend.check(queue, item, d)

        title = _("Folder of the new skill: {theme}").format(
            theme=one_line(visible(str(item.get("theme", ""))))
        )
        editor = MergeEditor(
            title,
            str(item.get("slug") or ""),
            check,
            detail=_(
                "The new skill is written as SKILL.md in this folder of the skills directory. "
                "A folder name is a-z, 0-9 and single '-' between them (pinyin for a Chinese "
                "theme)."
            ),
            hint=_("ctrl+s stage create-skill into this folder   escape cancel"),
            at_end=True,  # typing adds to the name suggested, not before it
        )
        self.app.push_screen(editor, done)

    def action_unstage(self) -> None:
        item = self.items.current
        # not staged here: the decision staged last
        d = self.session.unstage(item["id"] if item is not None else None)
        if d is None:
            return
        what = decision_label(d)[0]
        if item is not None and d.item == item["id"]:
            message = _("unstaged: {decision}").format(decision=what)
        else:  # another item's: say which, or the owner can't tell what went
            message = _("unstaged the decision staged last: {decision} — {queue}: {title}").format(
                decision=what, queue=queue_title(d.queue), title=self._title_of(d.queue, d.item)
            )
        self.notify(message, markup=False, timeout=4)
        self.app.key_done()

    def _title_of(self, queue: str, item_id: str) -> str:
        """An item's title as one line, cut to 60 columns (its id when it is not shown)."""
        found = self.result.all_queues.get(queue, []) if self.result is not None else []
        title = next((str(it.get("title", "")) for it in found if it.get("id") == item_id), "")
        return cut_cells(one_line(title or item_id), 60)

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
        from memreview.app.screens.apply import ApplyScreen

        if not self.staging or self.result is None:
            self.notify(_("nothing is staged"))
            return
        screen = ApplyScreen(self.result, self.staging.decisions(), self.backend)
        self.app.push_screen(screen, self._applied)
        self.app.key_done()

    def _applied(self, outcome) -> None:
        from memreview.app.screens.apply import outcome_note

        if outcome is None:
            return
        self.session.replace_staged(outcome.keep_pending)
        msg, severity = outcome_note(outcome)
        self.notify(msg, markup=False, severity=severity)
        self.reload()

    def action_undo(self) -> None:
        from memreview.app.screens.undo import ask_undo, start_undo

        nothing = self.backend.nothing_to_undo()
        if nothing:  # said before asking, not after
            self.notify(nothing, markup=False, timeout=4)
            return
        batch = self.backend.last_batch_said()
        ask_undo(self.app, lambda: start_undo(self, self.backend), batch)

    def on_undo_done(self, message: UndoDone) -> None:
        from memreview.app.screens.undo import report_undo

        report_undo(self.app, message)
        if message.ok:
            if self.staging.saved:  # the undo staged the batch's decisions again on disk
                self.session.reload_staged()
            self.reload()
