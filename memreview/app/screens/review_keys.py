"""The review screen's keys that can't act now: ``why_not`` says why in words, ``on_key``
says it instead of doing nothing (and takes the digit after ``#``), and the footer names
each decision key as the current queue names it. ``ReviewKeys`` is a part of
``ReviewScreen`` (what it reads is declared in ``review_base``); ``check_action`` stays on the screen."""

from __future__ import annotations

from dataclasses import replace

from textual import events
from textual.actions import parse as parse_action

from memreview.app.keys import (
    HEALTH,
    act_for,
    no_member_to_pick,
    queue_acts,
    queue_title,
    verb_key,
)
from memreview.app.screens.review_base import ReviewBase
from memreview.decisions.unit import MEMBER, MERGE
from memreview.i18n import _


class ReviewKeys(ReviewBase):
    """Why a key does nothing, the digit after ``#``, and the footer's bindings."""

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
            return self._why_not_decide(verb, action, parameters, title)
        if action == "open_editor":
            if not in_queue:
                return _("the health view has no entry to open: choose a queue (1–9)")
            return _("{queue} has no item to open").format(queue=title)
        if action == "write":
            if self.staging:  # a staged decision may be on a queue still computed
                return _(
                    "the staged decisions are written once every queue is computed "
                    "({count} still computing)"
                ).format(count=len(self.session.pending_queues()))
            return _("nothing is staged to write: decide an item first (its keys are below)")
        if action == "unstage":
            return _("nothing is staged to unstage")
        if action == "filter" and not in_queue:
            return _("the health view has no items to filter: choose a queue (1–9)")
        if action == "bulk_archive":
            return _("no flagged item in view to archive")
        if action in ("unhide", "toggle_all"):
            return self._why_not_hidden(action, title)
        return None

    def _why_not_decide(self, verb: str, action: str, parameters: tuple, title: str) -> str | None:
        """Why a decision key does nothing: the health view, a verb this queue lacks, no item,
        a strip with nothing to strip."""
        if not self.in_queue:
            return _("the health view has nothing to decide: choose a queue (1–9)")
        act = act_for(self.queue, verb)
        if act is None:
            return _("{key} does nothing in {queue}; here: {keys}").format(
                key=self._key_name(action, parameters), queue=title, keys=self._offered()
            )
        if self.items.current is None:
            return _("{queue} has nothing to decide").format(queue=title)
        if no_member_to_pick(verb, self.items.current):
            return _("{key} keeps one member of a group; this item is a pair: {keys}").format(
                key=self._key_name(action, parameters), keys=self._offered()
            )
        return self._refusal(act)

    def _why_not_hidden(self, action: str, title: str) -> str:
        """Why `Z` or `A` does nothing: no hidden item here to show."""
        if not self.in_queue:
            return _("the health view has no hidden items: choose a queue (1–9)")
        if action == "unhide":
            return _("this item is not hidden: Z shows again an item marked ⊘ (A lists them)")
        return _("{queue} has no hidden items: A shows the ones earlier decisions hid").format(
            queue=title
        )

    def _key_name(self, action: str, parameters: tuple) -> str:
        if action == "decide":
            return verb_key(parameters[0], self.app.key_for)
        if action == "merge":
            return verb_key(MERGE, self.app.key_for)
        return verb_key(MEMBER, self.app.key_for, members="#")

    def _offered(self) -> str:
        """The keys of this queue as the footer names them: ``a keep-a · b keep-b…``."""
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
                if action == "pick_member":
                    # armed now, not by the binding: that runs once the key has passed the
                    # app, after this screen has had the digit behind it (one terminal read)
                    event.stop()
                    event.prevent_default()
                    self.action_pick_member()
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
            bool(getattr(self.result, "pending", None)),
            self.items.current is not None,
            bool(self.staging),
            bool(self.items.filter_text),
            self.pane.filtering,
            tuple(self._hints()),  # a strip is offered on some entries only
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
