"""History you can walk back, in the app: every batch (``L``) and the archive (``R``).

The History view lists the batches as ``memreview log`` does, newest first; Enter shows a
batch's diff, ``u`` undoes the highlighted batch (asked first). The Archive view lists what
``memreview restore`` can put back, filtered by what is typed; Enter shows what a restore
would write and asks. Both run the write in a worker thread and tell the review screen
(:class:`UndoDone`), which reports it and loads the workspace again.
"""

from __future__ import annotations

from functools import partial

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from memreview import store
from memreview.app.messages import UndoDone
from memreview.app.screens.dialogs import ConfirmDialog, DiffDialog
from memreview.app.widgets.keybar import KeyBar
from memreview.app.wrap import Indented
from memreview.display import one_line, visible
from memreview.i18n import N_, _
from memreview.workspace.cells import cut_cells

PREVIEW_LINES = 14  # lines of a restore's diff the question shows (its buttons stay in view)
ROW_CELLS = 150  # the most cells a row of the list takes


def _when(ts: str | None) -> str:
    return (ts or "?").replace("T", " ")[:19]


def _review(app):
    from memreview.app.screens.review import ReviewScreen

    return next((s for s in app.screen_stack if isinstance(s, ReviewScreen)), None)


class _ListScreen(Screen[None]):
    """A title, a list, the highlighted row's details, the key bar; escape goes back."""

    BINDINGS = [Binding("escape", "back", N_("back"), id="history.back", tooltip=N_("Back"))]
    FIRST_FOCUS = "#rows"  # the widget focused when the view opens

    def __init__(self, backend, title: str) -> None:
        super().__init__()
        self.backend = backend
        self.heading = title
        self.rows: list = []
        self.loading_rows = False  # the rows are being read (in a worker)

    def compose(self) -> ComposeResult:
        with Vertical(classes="history"):
            yield Label(self.heading, classes="dialog-question", markup=False)
            yield from self.top()
            yield OptionList(id="rows", markup=False)  # titles are memory text, not markup
            yield Static("", id="detail", markup=False)
        yield KeyBar(id="keybar")

    def top(self) -> ComposeResult:
        yield from ()

    def on_mount(self) -> None:
        self.refresh_rows()
        self.query_one(self.FIRST_FOCUS).focus()

    def refresh_rows(self) -> None:
        """Read the rows again in a worker thread (the journal and its backups: 0.6 s at
        200 batches) and show them; meanwhile the view says it is reading, keys stay live."""
        self.loading_rows = True
        self.show_detail(self.reading())
        self._read_rows()

    @work(thread=True, exclusive=True, group="rows")
    def _read_rows(self) -> None:
        worker = get_current_worker()
        try:
            rows, problem = self.load(), None
        except Exception as exc:  # an unreadable journal or archive: said, not raised
            rows, problem = [], str(exc) or type(exc).__name__
        if not worker.is_cancelled:
            self.app.call_from_thread(self._rows_read, rows, problem)

    def _rows_read(self, rows: list, problem: str | None) -> None:
        if not self.is_attached:  # the view was closed meanwhile
            return
        self.rows = rows
        self.loading_rows = False
        self.show_rows()
        if problem is not None:
            self.show_detail(_("could not read: {reason}").format(reason=problem))

    def show_rows(self) -> None:
        rows = self.query_one("#rows", OptionList)
        rows.clear_options()
        shown = self.shown()
        rows.add_options([Option(self.line(r), id=str(i)) for i, r in shown])
        if shown:
            rows.highlighted = 0
        if shown:
            detail = self.details(shown[0][1])
        else:
            detail = self.reading() if self.loading_rows else self.empty()
        self.show_detail(detail)

    def shown(self) -> list[tuple[int, object]]:
        return list(enumerate(self.rows))

    def current(self):
        rows = self.query_one("#rows", OptionList)
        if rows.highlighted is None or rows.option_count == 0:
            return None
        option = rows.get_option_at_index(rows.highlighted)
        return self.rows[int(option.id)]

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        row = self.current()
        if row is not None:
            self.show_detail(self.details(row))

    def show_detail(self, text: str) -> None:
        # a wrapped line stays under its own text, Chinese wraps between characters
        self.query_one("#detail", Static).update(Indented(Text(text)))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        row = self.current()
        if row is not None:
            self.open(row)

    def action_back(self) -> None:
        self.dismiss(None)

    def run_write(self, write, title: str) -> None:
        """Run ``write()`` (returning an UndoSummary) in a thread; report it through the
        review screen, and read the rows again."""
        self.run_worker(
            partial(self._write, write, title), group="history", exclusive=True, thread=True
        )

    def _write(self, write, title: str) -> None:
        try:
            res = write()
            done = UndoDone(res.message, res.ok, "" if res.ok else res.diff, title)
        except Exception as exc:  # a held lock, an unreadable file: shown, not raised
            done = UndoDone(str(exc) or type(exc).__name__, False, "", title)
        self.app.call_from_thread(self._written, done)

    def _written(self, done: UndoDone) -> None:
        review = _review(self.app)
        if review is not None:
            review.post_message(done)
        else:
            self.app.notify(done.summary, title=done.title, markup=False)
        # this view and the ones under it (History under the Archive it opened): a restore
        # is a batch, an undo may bring an entry back to the archive
        for screen in self.app.screen_stack:
            if isinstance(screen, _ListScreen):
                screen.refresh_rows()

    # what each list shows
    def load(self) -> list:
        raise NotImplementedError

    def line(self, row) -> str:
        raise NotImplementedError

    def details(self, row) -> str:
        raise NotImplementedError

    def empty(self) -> str:
        return ""

    def reading(self) -> str:
        """What the view says while its rows are read."""
        return _("Reading…")

    def open(self, row) -> None:
        raise NotImplementedError


class HistoryScreen(_ListScreen):
    """Every batch, newest first; Enter: its diff; u: undo it."""

    BINDINGS = [
        *_ListScreen.BINDINGS,
        Binding("u", "undo_batch", N_("undo batch"), id="history.undo", tooltip=N_("Undo it")),
    ]
    APP_KEYS_OFF = frozenset({"history"})  # this is it

    def __init__(self, backend) -> None:
        super().__init__(backend, _("History: every batch written, newest first"))

    def load(self) -> list:
        return list(self.backend.history())

    def line(self, entry) -> str:
        r = entry.record
        mark = "↶" if entry.undoable else " "
        first = next(
            (
                f"{d.get('queue', '?')} {d.get('action', '?')}: {d.get('title', '')}"
                for d in r.decisions
                if isinstance(d, dict) and "undo" not in d
            ),
            _("undo of {batch}").format(batch=r.undoes) if r.kind == "undo" else "",
        )
        more = len([d for d in r.decisions if isinstance(d, dict) and "undo" not in d]) - 1
        extra = f" (+{more})" if more > 0 else ""
        kind = store.kind_word(r.kind)
        pad = " " * max(0, 8 - cell_len(kind))  # Chinese words are two cells a character
        line = one_line(f"{mark} {_when(r.committed_ts or r.ts)}  {kind}{pad} {first}{extra}")
        return cut_cells(line, ROW_CELLS)

    def details(self, entry) -> str:
        r = entry.record
        lines = [f"{r.batch_id}  {_when(r.committed_ts or r.ts)}  {store.kind_word(r.kind)}"]
        for d in r.decisions:
            if isinstance(d, dict) and "undo" not in d:
                lines.append(
                    f"  {d.get('queue', '?')} {d.get('action', '?')}: {d.get('title', '')}"
                )
        if entry.files:
            lines.append(_("  files: {names}").format(names=", ".join(entry.files)))
        if entry.undoable:
            lines.append(_("  can be undone (u); Enter shows its diff"))
        else:
            lines.append(_("  can't be undone: {why}").format(why=entry.why_not))
        return visible("\n".join(lines))

    def empty(self) -> str:
        return _("No batch yet: nothing was written by memreview in this workspace.")

    def reading(self) -> str:
        return _("Reading the journal…")

    def open(self, entry) -> None:
        diff = self.backend.batch_diff(entry.batch_id) or _("(it wrote no file)")
        self.app.push_screen(DiffDialog(_("Batch {batch}").format(batch=entry.batch_id), "", diff))

    def action_undo_batch(self) -> None:
        entry = self.current()
        if entry is None:
            return
        if not entry.undoable:
            self.app.notify(
                _("Batch {batch} can't be undone: {why}").format(
                    batch=entry.batch_id, why=entry.why_not
                ),
                severity="warning",
                markup=False,
            )
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.run_write(partial(self.backend.undo_batch, entry.batch_id), _("Undo"))

        self.app.push_screen(
            ConfirmDialog(
                _("Undo batch {batch}?").format(batch=entry.batch_id),
                _(
                    "The lines it changed are put back as they were; later batches stay. "
                    "Its decisions are staged again."
                ),
                yes=_("Undo"),
                no=_("Keep"),
            ),
            answer,
        )


class ArchiveScreen(_ListScreen):
    """What can be put back; type to filter (Enter: to the list, / back to the search),
    Enter on an entry to restore it (asked first)."""

    def __init__(self, backend) -> None:
        super().__init__(backend, _("Archive: entries that can be put back"))
        self.query_text = ""

    def top(self) -> ComposeResult:
        yield Input(placeholder=_("search the archive"), id="search")

    def load(self) -> list:
        return list(self.backend.archived())

    def shown(self) -> list[tuple[int, object]]:
        q = self.query_text.casefold()
        return [
            (i, a) for i, a in enumerate(self.rows) if not q or q in "\n".join(a.lines).casefold()
        ]

    BINDINGS = [
        *_ListScreen.BINDINGS,
        Binding("slash", "search", N_("search"), id="archive.search", tooltip=N_("Search")),
        # the search box has no use for ↓: it goes to the entries (the list takes it there)
        Binding("down", "to_rows", show=False, id="archive.to_rows", tooltip=N_("To the entries")),
    ]
    APP_KEYS_OFF = frozenset({"archive"})  # this is it
    FIRST_FOCUS = "#search"

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_text = event.value
        self.show_rows()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#rows", OptionList).focus()

    def action_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_to_rows(self) -> None:
        self.query_one("#rows", OptionList).focus()

    def line(self, item) -> str:
        return cut_cells(one_line(f"{item.kind:<18} {item.title}"), ROW_CELLS)

    def details(self, item) -> str:
        if item.origin:
            where = item.origin + (f" § {item.heading}" if item.heading else "")
            head = _("goes back to {where}").format(where=where)
        else:
            head = _("origin unknown: restore it with memreview restore --to FILE")
        return visible(f"{item.id}  {head}\n" + "\n".join(item.restored_lines[:8]))

    def empty(self) -> str:
        return _("Nothing archived to restore.")

    def reading(self) -> str:
        return _("Reading the archive and the journal…")

    def open(self, item) -> None:
        if not item.origin:
            self.app.notify(self.details(item), severity="warning", markup=False)
            return
        self.show_detail(_("Working out what the restore would write…"))
        self._preview(item)

    @work(thread=True, exclusive=True, group="preview")
    def _preview(self, item) -> None:
        """What restoring ``item`` would write (a dry run: it reads the archive and the
        journal again), then the question, on the UI thread."""
        try:
            preview = self.backend.restore(item.id, dry_run=True)
        except Exception as exc:  # a held lock, an unreadable file: shown, not raised
            self.app.call_from_thread(
                self.app.notify, str(exc) or type(exc).__name__, severity="error", markup=False
            )
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._ask, item, preview)

    def _ask(self, item, preview) -> None:
        if not self.is_attached:
            return
        row = self.current()
        self.show_detail(self.details(row) if row else self.empty())

        def answer(yes: bool | None) -> None:
            if yes:
                self.run_write(partial(self.backend.restore, item.id), _("Restore"))

        lines = (preview.diff or preview.message).splitlines()
        shown = "\n".join(lines[:PREVIEW_LINES])
        if len(lines) > PREVIEW_LINES:
            shown += "\n" + _("… {count} more line(s) of diff").format(
                count=len(lines) - PREVIEW_LINES
            )
        self.app.push_screen(
            ConfirmDialog(
                _("Put {title} back?").format(title=cut_cells(one_line(item.title), 60)),
                visible(shown),
                yes=_("Restore"),
                no=_("Keep archived"),
            ),
            answer,
        )
