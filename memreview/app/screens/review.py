"""The review screen: queues on the left, items in the middle, evidence on the right."""

from __future__ import annotations

import gc
import os
import shlex
import subprocess
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult, SuspendNotSupported
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Input, Static

from memreview.app.backend import Backend, make_decision
from memreview.app.keys import (
    HEALTH,
    QUEUE_ACTIONS,
    QUEUE_TITLES,
    QUEUES,
    VERB_BY_NAME,
    Act,
    act_by_action,
    act_for,
    decision_label,
    default_act,
    review_bindings,
)
from memreview.app.render import primary_ref
from memreview.app.screens.apply import ApplyScreen
from memreview.app.screens.dialogs import ConfirmDialog, DiffDialog
from memreview.app.screens.merge import MergeEditor
from memreview.app.widgets.evidence import Evidence, PreviewRequest
from memreview.app.widgets.health import HealthView
from memreview.app.widgets.item_list import ItemList
from memreview.app.widgets.panels import LoadingPane, PendingBar, QueueNav, QueueRow
from memreview.display import one_line, visible

ScanFunction = Callable[..., object]


class UndoDone(Message):
    def __init__(self, summary: str, ok: bool, diff: str = "") -> None:
        super().__init__()
        self.summary = summary
        self.ok = ok
        self.diff = diff


class ReviewScreen(Screen):
    """Everything of the weekly review except the diff screen and the dialogs."""

    BINDINGS = review_bindings()

    def __init__(self, root: Path, today: date | None, scan: ScanFunction, backend: Backend):
        super().__init__()
        self.root = Path(root)
        self.today = today
        self.scan = scan
        self.backend = backend
        self.result = None
        self.scanning = True
        self.queue = QUEUES[0]
        self.pending: dict[str, object] = {}
        self.saved = True  # False once saving the pending decisions failed
        self._cursor_ids: dict[str, str] = {}
        self._binding_state: tuple | None = None
        self.load_seconds: float | None = None

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="topbar", markup=False)
        with Horizontal(id="body"):
            yield QueueNav(id="nav")
            yield LoadingPane(id="loading")
            with ContentSwitcher(initial="review", id="switcher"):
                with Horizontal(id="review"):
                    with Vertical(id="middle"):
                        yield Static(id="list-header", markup=False)
                        yield ItemList(id="items")
                        yield Input(placeholder="filter…", id="filter")
                    yield Evidence(id="evidence")
                yield HealthView(id="health")
        yield PendingBar(id="pending", markup=False)
        yield Footer()

    @property
    def items(self) -> ItemList:
        return self.query_one("#items", ItemList)

    @property
    def evidence(self) -> Evidence:
        return self.query_one("#evidence", Evidence)

    def on_mount(self) -> None:
        self.query_one("#switcher").display = False
        self.query_one("#filter").display = False
        self.items.mark_of = self._mark_of
        self.items.on_move = self._on_move
        self.query_one("#topbar", Static).update(self._topbar(), layout=False)
        try:
            staged, warnings = self.backend.load_pending()
        except Exception as exc:  # a broken pending.yaml is reported, never fatal
            staged, warnings = [], [f"pending decisions not loaded: {exc}"]
        for d in staged:
            self.pending[d.item] = d
        if warnings:
            self.notify(
                "\n".join(warnings), title="Pending decisions", severity="warning", markup=False
            )
        self._show_pending()
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self.items.focus()
        self.reload()

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

    def on_loading_pane_failed(self, message: LoadingPane.Failed) -> None:
        self.notify(
            message.reason, title="Could not load the workspace", severity="error", markup=False
        )

    def on_loading_pane_loaded(self, message: LoadingPane.Loaded) -> None:
        # The model of a large workspace is millions of objects that live until the next
        # reload; keeping them out of the cyclic collector's scans avoids long pauses.
        gc.freeze()
        self.result = message.result
        self.load_seconds = message.seconds
        self.scanning = False
        self.query_one(LoadingPane).display = False
        self.query_one("#switcher").display = True
        self.query_one("#topbar", Static).update(self._topbar(), layout=False)
        nav = self.query_one(QueueNav)
        for q in QUEUES:
            self._show_nav_row(q)
        nav.row(HEALTH).show(None)
        self.query_one(HealthView).show(
            self.result.health, self.result.warnings, self.result.missing
        )
        self.show_queue(self.queue)
        self._show_pending()

    def _topbar(self) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        t.append(" memreview ", "bold reverse")
        t.append(f"  {one_line(str(self.root))}")
        if self.result is not None:
            t.append(f"   review date {self.result.today.isoformat()}")
            n = len(self.result.warnings)
            if n:
                t.append(f"   {n} warning(s): h shows them", "bold")
        else:
            t.append("   loading…", "dim")
        return t

    def _show_nav_row(self, queue: str) -> None:
        if self.result is None:
            return
        staged = sum(1 for d in self.pending.values() if d.queue == queue)
        self.query_one(QueueNav).row(queue).show(
            len(self.result.queues.get(queue, [])),
            staged,
            self.result.missing.get(queue),
            (getattr(self.result, "hidden", None) or {}).get(queue, 0),
        )

    # -- queues ------------------------------------------------------------------------------
    def show_queue(self, queue: str) -> None:
        current = self.items.current
        if current is not None and self.queue != HEALTH:
            self._cursor_ids[self.queue] = current["id"]
        self.queue = queue
        nav = self.query_one(QueueNav)
        nav.set_current(queue)
        switcher = self.query_one(ContentSwitcher)
        if queue == HEALTH:
            switcher.current = "health"
            self._sync_bindings()
            return
        switcher.current = "review"
        self._hide_filter()
        items = self.result.queues.get(queue, []) if self.result is not None else []
        why = self.result.missing.get(queue) if self.result is not None else None
        self.items.empty_text = f"nothing to review ({why})" if why else "nothing to review"
        self.items.set_items(items, keep_id=self._cursor_ids.get(queue))
        self.items.focus()
        self._sync_bindings()

    def on_queue_row_chosen(self, message: QueueRow.Chosen) -> None:
        if not self.scanning:
            self.show_queue(message.queue)

    def action_show_queue(self, queue: str) -> None:
        self.show_queue(queue)
        self.app.key_done()

    def action_step_queue(self, delta: int) -> None:
        order = [*QUEUES, HEALTH]
        k = order.index(self.queue) if self.queue in order else 0
        self.show_queue(order[(k + delta) % len(order)])
        self.app.key_done()

    # -- the highlighted item ----------------------------------------------------------------
    def _on_move(self, index: int, item: dict | None) -> None:
        """Called by the list, synchronously, whenever its cursor or contents change."""
        self.query_one("#list-header", Static).update(self._list_header(), layout=False)
        self._show_current()
        self._sync_bindings()

    def _list_header(self) -> Text:
        lst = self.items
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        t.append(QUEUE_TITLES.get(self.queue, self.queue), "bold")
        if lst.count:
            t.append(f"   {lst.cursor + 1:,} of {lst.count:,}")
        else:
            t.append("   0 of 0")
        if lst.filter_text:
            t.append(f"   filter “{one_line(lst.filter_text)}” · {lst.total:,} in all", "dim")
        return t

    def _show_current(self) -> None:
        if self.result is None or self.queue == HEALTH:
            return
        item = self.items.current
        staged = None
        if item is not None and item["id"] in self.pending:
            label, act = decision_label(self.pending[item["id"]])
            if act is not None:
                staged = (act, label)
        why = self.result.missing.get(self.queue)
        self.evidence.show_item(
            self.queue,
            item,
            self.result.context,
            staged,
            self._hints(),
            empty_text=f"Nothing to review here: {why}." if why else "Nothing to review here.",
            preview=self._preview_request(item),
        )

    def _hints(self) -> list[tuple[str, Act]]:
        out = []
        for verb, act in QUEUE_ACTIONS.get(self.queue, {}).items():
            if verb == "member":
                key = "1-9"
            elif verb == "merge":
                key = self.app.key_for("decide.merge", "m")
            else:
                key = self.app.key_for(f"decide.{verb}", VERB_BY_NAME[verb].key)
            out.append((key, act))
        return out

    def _mark_of(self, item_id: str):
        d = self.pending.get(item_id)
        if d is None:
            return None
        label, act = decision_label(d)
        return label, act.tone if act else "defer"

    # -- preview -----------------------------------------------------------------------------
    def _preview_request(self, item: dict | None) -> PreviewRequest | None:
        """Preview the staged decision of ``item``, else the queue's first action."""
        if item is None:
            return None
        d = self.pending.get(item["id"])
        if d is not None:
            label = decision_label(d)[0]
        else:
            act = default_act(self.queue)
            if act is None:
                return None
            d = make_decision(item["id"], act.action, self.queue, keep=act.keep)
            label = act.label
        result, backend = self.result, self.backend

        def compute() -> tuple[dict | None, str]:
            act = act_by_action(d.queue, d.action)
            if d.action == "defer":
                return None, "defer writes nothing"
            preview = backend.preview(result, [d])
            if preview.problems:
                return preview.diffs, "✗ can't be written: " + "; ".join(preview.problems)
            if not preview.diffs:
                return None, f"writes no memory file: {act.effect}" if act else ""
            return preview.diffs, ""

        return PreviewRequest((item["id"], d.action, d.keep, d.text), label, compute)

    # -- bindings ----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        in_queue = self.queue != HEALTH
        has_item = not self.scanning and in_queue and self.items.current is not None
        if action == "decide":
            if not in_queue or act_for(self.queue, parameters[0]) is None:
                return False
            return True if has_item else None
        if action in ("keep_member", "merge"):
            if self.queue != "duplicates":
                return False
            return True if has_item else None
        if action == "open_editor":
            if not in_queue:
                return False
            return True if has_item else None
        if action == "unstage":
            return True if self.pending else None
        if action == "filter":
            return (not self.scanning) if in_queue else False
        if action == "clear_filter":
            return bool(self.items.filter_text) or self.query_one("#filter").display
        if action == "write":
            return True if self.pending and not self.scanning else None
        if action == "undo":
            return None if self.scanning else True
        if action in ("show_queue", "step_queue"):
            return None if self.scanning else True
        return True

    def _sync_bindings(self) -> None:
        """Refresh the footer only when what applies has changed (it is rebuilt each time)."""
        state = (
            self.queue,
            self.scanning,
            self.items.current is not None,
            bool(self.pending),
            bool(self.items.filter_text),
            bool(self.query_one("#filter").display),
        )
        if state != self._binding_state:
            self._binding_state = state
            self.refresh_bindings()

    @property
    def active_bindings(self):
        """The footer's view of the bindings: decision keys named as this queue names them."""
        bindings = super().active_bindings
        acts = QUEUE_ACTIONS.get(self.queue)
        if not acts:
            return bindings
        for key, active in list(bindings.items()):
            bid = active.binding.id or ""
            if bid.startswith("decide."):
                act = acts.get(bid.removeprefix("decide."))
                if act is not None:
                    bindings[key] = active._replace(
                        binding=replace(active.binding, description=act.label),
                        tooltip=f"{act.label}: {act.effect}",
                    )
        return bindings

    # -- deciding ----------------------------------------------------------------------------
    def _stage(self, act: Act, keep: int | None = None, text: str | None = None) -> None:
        item = self.items.current
        if item is None:
            return
        d = make_decision(item["id"], act.action, self.queue, keep=keep, text=text)
        problem = self.backend.check(self.queue, item, d)
        if problem:
            self.notify(problem, title="Not staged", severity="warning", markup=False)
            return
        old = self.pending.pop(item["id"], None)
        self.pending[item["id"]] = d
        self._pending_changed(item["id"], None if old and old.queue != self.queue else self.queue)
        if self.items.cursor + 1 < self.items.count:
            self.items.advance()
        else:
            self.items.refresh_item(item["id"])
            self._show_current()

    def _pending_changed(self, item_id: str | None = None, queue: str | None = None) -> None:
        """Save the pending decisions at once and redraw what shows them (``queue``: the
        only queue whose count changed, None for all)."""
        try:
            self.saved = self.backend.save_pending(list(self.pending.values()))
        except Exception as exc:  # the decisions stay staged in memory; say so
            self.saved = False
            self.notify(f"pending decisions not saved: {exc}", severity="error", markup=False)
        self._show_pending()
        for q in QUEUES if queue is None else (queue,):
            self._show_nav_row(q)
        if item_id is not None:
            self.items.refresh_item(item_id)
        self._sync_bindings()

    def _show_pending(self) -> None:
        rows = []
        for d in self.pending.values():
            label, act = decision_label(d)
            rows.append((d.queue, act or Act(d.action, d.action, "defer", ""), label))
        self.query_one(PendingBar).show(rows, self.saved)

    def action_decide(self, verb: str) -> None:
        act = act_for(self.queue, verb)
        if act is not None:
            self._stage(act, keep=act.keep)
        self.app.key_done()

    def action_keep_member(self, n: int) -> None:
        item = self.items.current
        if item is None:
            return
        members = len(item.get("refs") or [])
        if n > members:
            self.notify(
                f"this group has {members} members: 1–{members} keeps one. "
                "Here the digits pick members; [ and ] change the queue.",
                markup=False,
            )
            return
        self._stage(QUEUE_ACTIONS["duplicates"]["member"], keep=n)
        self.app.key_done()

    def action_merge(self) -> None:
        item = self.items.current
        if item is None:
            return
        proposal = item.get("merged")
        if not proposal:
            refs = item.get("refs") or []
            if refs:
                ref = refs[0]
                lines = self.result.context(ref["file"], ref["line"], ref["end_line"], 0, 0)
                proposal = "\n".join(text for _n, text in lines) or ref.get("text", "")
        item_id = item["id"]

        def done(text: str | None) -> None:
            if text is None:
                return
            current = self.items.current
            if current is None or current["id"] != item_id:
                return
            self._stage(QUEUE_ACTIONS["duplicates"]["merge"], text=text)

        def check(text: str) -> str | None:
            d = make_decision(item_id, "merge", "duplicates", text=text)
            return self.backend.check("duplicates", item, d)

        title = f"Merge: {one_line(str(item.get('title', '')))}"
        self.app.push_screen(MergeEditor(title, visible(proposal or ""), check), done)

    def action_unstage(self) -> None:
        if not self.pending:
            return
        item = self.items.current
        if item is not None and item["id"] in self.pending:
            item_id = item["id"]
        else:
            item_id = next(reversed(self.pending))
        d = self.pending.pop(item_id)
        self._pending_changed(item_id, d.queue)
        if self.result is not None and d.queue == self.queue:
            self._show_current()
        self.notify(f"unstaged: {decision_label(d)[0]}", markup=False, timeout=2)
        self.app.key_done()

    # -- filter ------------------------------------------------------------------------------
    def action_filter(self) -> None:
        box = self.query_one("#filter", Input)
        box.display = True
        box.value = self.items.filter_text
        self.set_focus(box)  # now, not after the keys already queued
        self._sync_bindings()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.items.set_filter(event.value)

    @on(Input.Submitted, "#filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            self._hide_filter()
        self.items.focus()
        self._sync_bindings()

    def action_clear_filter(self) -> None:
        self.items.set_filter("")
        self._hide_filter()
        self.items.focus()
        self._sync_bindings()

    def _hide_filter(self) -> None:
        box = self.query_one("#filter", Input)
        box.value = ""
        box.display = False

    # -- editor ------------------------------------------------------------------------------
    def action_open_editor(self) -> None:
        item = self.items.current
        if item is None or self.result is None:
            return
        ref = primary_ref(item)
        if ref is not None:
            path, line = self.root / ref["file"], int(ref.get("line") or 1)
        elif self.queue == "skills":
            path, line = self.root / self.result.workspace.config.skill_candidates, 1
        else:
            return
        editor = self.app.editor_command()
        try:
            with self.app.suspend():
                subprocess.call([*shlex.split(editor), f"+{line}", os.fspath(path)])
        except SuspendNotSupported:
            self.notify("an editor can't be opened from here", severity="warning")
            return
        except (OSError, ValueError) as exc:
            self.notify(f"cannot run the editor {editor!r}: {exc}", severity="error", markup=False)
        self.reload()

    # -- writing -----------------------------------------------------------------------------
    def action_write(self) -> None:
        if not self.pending or self.result is None:
            self.notify("nothing is staged")
            return
        screen = ApplyScreen(self.result, list(self.pending.values()), self.backend)
        self.app.push_screen(screen, self._applied)

    def _applied(self, outcome) -> None:
        if outcome is None:
            return
        self.pending = {d.item: d for d in outcome.keep_pending}
        self._pending_changed()
        kept = len(outcome.keep_pending)
        msg = f"written: {len(outcome.written)} file(s)"
        if kept:
            msg += f"; {kept} decision(s) stay pending"
        msg = "\n".join([msg, *outcome.messages])
        problems = outcome.conflicts or outcome.failures
        self.notify(msg, markup=False, severity="warning" if problems else "information")
        self.reload()

    def action_undo(self) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self.undo()

        self.app.push_screen(
            ConfirmDialog(
                "Undo the last written batch?",
                "Files it wrote are restored from their backups; its items show again.",
                yes="Undo",
                no="Keep",
            ),
            answer,
        )

    @work(thread=True, exclusive=True, group="undo")
    def undo(self) -> None:
        try:
            res = self.backend.undo_last()
        except Exception as exc:  # a held lock or an unreadable journal: shown, not raised
            self.post_message(UndoDone(str(exc) or type(exc).__name__, False))
            return
        self.post_message(UndoDone(res.message, res.ok, res.diff))

    def on_undo_done(self, message: UndoDone) -> None:
        if message.diff:
            self.app.push_screen(DiffDialog("Undo stopped", message.summary, message.diff))
        else:
            self.notify(
                message.summary,
                title="Undo" if message.ok else "Undo failed",
                severity="information" if message.ok else "error",
                markup=False,
            )
        if message.ok:
            self.reload()
