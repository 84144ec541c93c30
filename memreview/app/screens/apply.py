"""Review the pending diff, then write it (docs/design.md §4): conflicts are listed and stay pending."""

from __future__ import annotations

from rich.cells import set_cell_size
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, LoadingIndicator, Static

from memreview.app.backend import Outcome
from memreview.app.keys import decision_label, queue_short
from memreview.app.messages import BatchWritten, DiffPreviewed
from memreview.app.ports import ReviewBackend
from memreview.app.render import STYLE_NAMES, diff_text
from memreview.app.widgets.keybar import KeyBar
from memreview.app.wrap import DIFF_INDENT, Indented
from memreview.decisions import files_phrase
from memreview.display import one_line
from memreview.i18n import N_, _, ngettext
from memreview.store import BatchStopped


def outcome_note(outcome: Outcome) -> tuple[str, str]:
    """The notification after a write: its text and severity (a warning when some
    decisions could not be written)."""
    kept = len(outcome.keep_pending)
    msg = _("written: {files}").format(files=files_phrase(len(outcome.written), outcome.hidden > 0))
    if kept:
        msg += "; " + ngettext(
            "{n} decision stays pending", "{n} decisions stay pending", kept
        ).format(n=kept)
    msg = "\n".join([msg, *outcome.messages])
    problems = outcome.conflicts or outcome.failures
    return msg, "warning" if problems else "information"


class ApplyScreen(Screen[Outcome | None]):
    """The diff of every pending decision; `y` writes, escape goes back unchanged."""

    BINDINGS = [
        Binding(
            "y",
            "confirm",
            N_("write"),
            id="apply.confirm",
            tooltip=N_("Write these changes (backups are kept)"),
        ),
        Binding("escape", "back", N_("back"), id="apply.back", tooltip=N_("Back to the queues")),
    ]

    COMPONENT_CLASSES = {f"evidence--{name}" for name in STYLE_NAMES}
    # the history and the archive are read from the queues, not over a write
    APP_KEYS_OFF = frozenset({"history", "archive"})

    def __init__(self, result, decisions: list, backend: ReviewBackend) -> None:
        super().__init__()
        self.result = result
        self.decisions = list(decisions)
        self.backend = backend
        self.state = "previewing"  # previewing | ready | unavailable | writing | done
        self.outcome: Outcome | None = None

    def compose(self) -> ComposeResult:
        yield Label(
            ngettext(
                "Review {count} pending decision",
                "Review {count} pending decisions",
                len(self.decisions),
            ).format(count=len(self.decisions)),
            classes="pane-title",
            id="apply-title",
        )
        yield Static(self._decision_list(), id="apply-decisions", markup=False)
        note = self._redaction_note()
        if note is not None:
            yield Static(note, id="apply-redaction", markup=False)
        yield LoadingIndicator(id="apply-loading")
        with VerticalScroll(id="apply-diff"):
            yield Static("", id="apply-diff-text", markup=False)
        yield Static("", id="apply-status", markup=False)
        yield KeyBar(id="keybar")

    def on_mount(self) -> None:
        self.preview()

    def style_of(self, name: str):
        return self.get_component_rich_style(f"evidence--{name}")

    def _decision_line(self, d) -> Text:
        """``queue  label  item title`` of one decision."""
        found = self.result.item(d.item) if self.result is not None else None
        if found:
            title = found[1].get("title", "")
        else:
            title = _("{item} (no longer in a queue)").format(item=d.item)
        label, _act = decision_label(d)
        t = Text(end="")
        # padded in terminal cells: a Chinese label is twice as wide as its length
        t.append("  " + set_cell_size(queue_short(d.queue), 14) + " ", "dim")
        t.append(set_cell_size(label, 13) + " ", "bold")
        t.append(one_line(str(title)))
        return t

    def _decision_list(self) -> Text:
        t = Text("\n", end="").join(self._decision_line(d) for d in self.decisions)
        t.no_wrap, t.overflow = True, "ellipsis"  # one line per decision at any width
        return t

    def _redaction_note(self) -> Text | None:
        if not any(getattr(d, "action", None) == "redact" for d in self.decisions):
            return None
        return Text(
            "  "
            + _(
                "A redaction can't be undone: the value also leaves memreview's backups; "
                "undo of this batch restores everything else."
            ),
            "bold",
        )

    @work(thread=True, exclusive=True, group="apply-preview")
    def preview(self) -> None:
        try:
            preview = self.backend.preview(self.result, self.decisions)
        except Exception as exc:  # any failure is shown, never raised at the user
            self.post_message(DiffPreviewed(None, _("preview failed: {error}").format(error=exc)))
            return
        self.post_message(DiffPreviewed(preview, None))

    def on_diff_previewed(self, message: DiffPreviewed) -> None:
        self.query_one("#apply-loading").display = False
        body = self.query_one("#apply-diff-text", Static)
        status = self.query_one("#apply-status", Static)
        if message.problem:
            self.state = "unavailable"
            body.update(Text(message.problem, style=self.style_of("dim")))
            status.update(_("Nothing can be written from here yet. escape: back"))
        else:
            self.state = "ready"
            preview = message.preview
            diffs = preview.diffs if preview else {}
            t = Text()
            for problem in preview.problems if preview else []:
                t.append(_("✗ won't be written: "), self.style_of("reject"))
                t.append(one_line(problem) + "\n")
            if diffs:
                t.append_text(diff_text(diffs, self.style_of))
            else:
                t.append(_("No file changes."), self.style_of("dim"))
            body.update(Indented(t, DIFF_INDENT, "+-"))  # a wrapped line stays past its + or -
            files = files_phrase(len(preview.files), preview.hides) if preview else files_phrase(0)
            status.update(_("{files} would change.  y: write   escape: back").format(files=files))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "confirm":
            # greyed until the diff is there; gone from the key bar once written
            return {"ready": True, "done": False}.get(self.state)
        if action == "back":
            return None if self.state == "writing" else True
        return True

    def why_not(self) -> str | None:
        """Why `y` writes nothing now."""
        return {
            "previewing": _("the diff is still being computed"),
            "unavailable": _("nothing can be written from here: escape goes back"),
            "writing": _("writing…"),
            "done": _("already written: escape goes back to the queues, U there undoes it"),
        }.get(self.state)

    def on_key(self, event: events.Key) -> None:
        if self.state == "ready":
            return
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if binding.action == "confirm":
                event.stop()
                event.prevent_default()
                self.notify(self.why_not() or "", markup=False, timeout=4)
                return

    def action_confirm(self) -> None:
        self.state = "writing"
        self.query_one("#apply-loading").display = True
        self.query_one("#apply-status", Static).update(_("Writing…"))
        self.refresh_bindings()
        self.write()

    @work(thread=True, exclusive=True, group="apply-write")
    def write(self) -> None:
        try:
            outcome = self.backend.apply(self.result, self.decisions)
        except BatchStopped as exc:  # written in part: named, and ended by recover
            self.post_message(BatchWritten(None, str(exc), stopped=True))
            return
        except Exception as exc:  # shown on screen; the decisions stay pending
            self.post_message(BatchWritten(None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(BatchWritten(outcome, None))

    def on_batch_written(self, message: BatchWritten) -> None:
        self.query_one("#apply-loading").display = False
        self.state = "done"
        self.outcome = message.outcome
        if message.problem:
            self.outcome = Outcome(
                failures=[(None, message.problem)], keep_pending=list(self.decisions)
            )
        body = self.query_one("#apply-diff-text", Static)
        t = Text(end="")
        if message.problem and message.stopped:
            t.append(_("The batch stopped part way: "), "bold")
            t.append(one_line(message.problem))
            t.append("\n" + _("Every decision stays pending."), "dim")
        elif message.problem:
            t.append(_("Nothing was written: "), "bold")
            t.append(one_line(message.problem))
            t.append("\n" + _("Every decision stays pending."), "dim")
        else:
            out = message.outcome
            written = files_phrase(len(out.written), out.hidden > 0)
            t.append(_("Written: {files}").format(files=written), "bold")
            for path in out.written:
                t.append(f"\n  {one_line(path)}")
            if out.batch and (out.written or out.hidden):
                key = getattr(self.app, "key_for", lambda _id, default: default)("batch.undo", "U")
                t.append(
                    "\n"
                    + _("batch {batch}: {key} on the queues takes it back").format(
                        batch=out.batch, key=key
                    ),
                    "dim",
                )
            for note in out.messages:
                t.append(f"\n{one_line(note)}", "dim")
            for heading, rows in (
                (_("Conflicts (these stay pending):"), out.conflicts),
                (_("Failures (these stay pending):"), out.failures),
            ):
                if not rows:
                    continue
                t.append("\n\n" + heading, "bold")
                for d, why in rows:
                    t.append("\n")
                    if d is not None:
                        t.append_text(self._decision_line(d))
                        t.append("\n")
                    t.append("      ✗ ", self.style_of("reject"))
                    t.append(one_line(why))
        body.update(t)
        self.query_one("#apply-title", Label).update(_("Result"))
        self.query_one("#apply-status", Static).update(_("escape: back to the queues"))
        self.refresh_bindings()

    def action_back(self) -> None:
        self.dismiss(self.outcome)
        self.app.key_done()
