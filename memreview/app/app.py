"""The memreview app: themes, user config, keymap, help, quitting, key timing."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import Reactive
from textual.screen import Screen

from memreview.app.config import UserConfig
from memreview.app.screens.start import StartScreen
from memreview.app.themes import ACTION_VARIABLES, DEFAULT_THEME, ThemeSet
from memreview.i18n import N_, _, ngettext, use_language

if TYPE_CHECKING:
    from memreview.app.backend import Backend
    from memreview.app.screens.review import ReviewScreen

# What the first frame waits for is only this module and the start screen's: the review
# screen and all it imports (the decisions, the store, the queues' table) are imported after
# it, in a worker thread (``_boot``).
REVIEW_MODULE = "memreview.app.screens.review"


def _commands():
    """The palette's entries of memreview (imported when the palette first opens)."""
    from memreview.app.commands import MemReviewCommands

    return MemReviewCommands


def _review_screen() -> type[ReviewScreen]:
    from memreview.app.screens.review import ReviewScreen

    return ReviewScreen


# Textual's own palette entries that memreview keeps, named in the interface's language (its
# "Theme" and "Keys" are left out: the palette's `theme` and `help` entries do that here)
SYSTEM_COMMANDS = {
    "Quit": (N_("quit"), N_("quit (asks when decisions are pending; they stay saved)")),
    "Screenshot": (N_("screenshot"), N_("save an SVG picture of the screen")),
    "Maximize": (N_("maximize"), N_("the focused pane fills the screen")),
    "Minimize": (N_("minimize"), N_("the pane back to its place")),
}


class MemReviewApp(App):
    """The weekly review of an agent workspace's memory."""

    CSS_PATH = "memreview.tcss"
    TITLE = "memreview"
    # the theme the stylesheet is first parsed with: one set in ``__init__`` made Textual
    # parse the whole stylesheet again as the app started, before the first frame (10 ms);
    # the default is set there only when a theme file made it light (``_take_theme``)
    theme: Reactive[str] = Reactive(DEFAULT_THEME)
    COMMANDS = App.COMMANDS | {_commands}
    BINDINGS = [
        Binding(
            "question_mark,f1",
            "help",
            N_("help"),
            id="app.help",
            tooltip=N_("Keys and how the review works"),
        ),
        Binding(
            "L",
            "history",
            N_("history"),
            id="app.history",
            tooltip=N_("Every batch written; undo any of them"),
        ),
        Binding(
            "R",
            "archive",
            N_("archive"),
            id="app.archive",
            tooltip=N_("Search the archive and put an entry back"),
        ),
        Binding(
            "q",
            "request_quit",
            N_("quit"),
            id="app.quit",
            tooltip=N_("Quit (asks when decisions are pending; they stay saved)"),
        ),
    ]

    def __init__(
        self,
        root: Path,
        today: date | None,
        scan: Callable[..., object],
        backend: Backend | None,
        themes: ThemeSet,
        theme: str | None,
        user_config: UserConfig,
        throwaway: bool = False,
    ) -> None:
        super().__init__()
        self.root = Path(root)
        self.throwaway = throwaway  # a demo copy, deleted on quit with what is pending in it
        self.today = today
        self.scan = scan
        self.backend = backend  # None: made with the review screen (``_boot``)
        self.user_config = user_config
        self.theme_set = themes
        # key handling times in seconds, newest last: key arrival to the next screen refresh
        self.key_latencies: list[float] = []
        # the same keys' CPU time on the app's own thread (what a busy machine doesn't inflate)
        self.key_cpu_times: list[float] = []
        self._key_started: tuple[float, float] | None = None
        self._help_started = False  # the help drawn ahead (``scan_done``)
        self._keymap_keys = dict(user_config.keymap)
        for t in themes.themes:
            self.register_theme(t)
        self._problems = list(themes.problems)
        if user_config.problem:
            self._problems.append(user_config.problem)
        wanted = themes.resolve(theme) or themes.resolve(user_config.theme) or DEFAULT_THEME
        if wanted not in self.available_themes:
            self._problems.append(
                _("unknown theme {theme!r}; using {default}").format(
                    theme=wanted, default=DEFAULT_THEME
                )
            )
            wanted = DEFAULT_THEME
        self._take_theme(wanted)
        self._saved_theme = wanted

    def _take_theme(self, wanted: str) -> None:
        """The theme ``wanted``. Textual's ``__init__`` made the stylesheet's variables, the
        app's classes and its colour filter before memreview's themes were registered, so
        with those of its own dark theme: when ``wanted`` is the default and dark too, only
        the variables are made again (setting the theme would parse the whole stylesheet a
        second time as the app starts); else it is set, and Textual's watcher does it all
        (a theme file may have made the default light)."""
        if wanted == self.theme and self.current_theme.dark:
            self.stylesheet.set_variables(self.get_css_variables())
            self.set_class(True, f"-theme-{wanted}", update=False)  # as the watcher adds it
            return
        if wanted == self.theme:  # set as another first, or the watcher would not run
            self.set_reactive(MemReviewApp.theme, "textual-dark")
        self.theme = wanted

    def get_theme_variable_defaults(self) -> dict[str, str]:
        # Textual's own themes don't know the app's colours
        return dict(ACTION_VARIABLES)

    def on_mount(self) -> None:
        if self.user_config.keymap:
            self.set_keymap(self.user_config.keymap)
        if REVIEW_MODULE in sys.modules and self.backend is not None:
            self._add_themes(self._theme_files())
            self._show_review()  # nothing to import: the review screen is the first frame
        else:
            self.push_screen(StartScreen(self.root))
            self.call_after_refresh(self._boot)

    @work(thread=True, exclusive=True, group="boot")
    def _boot(self) -> None:
        """After the first frame: import the review screen and what it needs, off the
        app's thread, then show it."""
        themes = self._theme_files()
        if themes is not None:
            self.call_from_thread(self._add_themes, themes)
        _review_screen()
        if self.backend is None:
            from memreview.app.backend import Backend

            self.backend = Backend(self.root)
        self.call_from_thread(self._show_review)

    def _theme_files(self) -> ThemeSet | None:
        """The themes with the theme files read, when the first frame had the built-in
        ones only."""
        if self.theme_set.files_read:
            return None
        from memreview.app.themes import load_themes

        return load_themes()

    def _add_themes(self, themes: ThemeSet | None) -> None:
        """Take the themes of the theme files (the current one restyled if a file changed
        it); their problems are told with the others."""
        if themes is None:
            return
        shown = self.current_theme
        for t in themes.themes:
            self.register_theme(t)
        self._problems.extend(themes.problems)
        self.theme_set = themes
        if self.current_theme != shown:
            self.refresh_css(animate=False)

    def _show_review(self) -> None:
        """The review screen (it starts the scan), then what the app tells at its start."""
        from memreview.app.screens.recovery import offer_recovery

        review = _review_screen()(self.root, self.today, self.scan, self.backend)
        if isinstance(self.screen, StartScreen):
            self.switch_screen(review)
        else:
            self.push_screen(review)
        offer_recovery(self, review, self.backend)
        if self._problems:
            # reported once, in one notification
            self.notify(
                "\n".join(self._problems),
                title=_("Settings"),
                severity="warning",
                markup=False,
                timeout=8,
            )
        self.theme_changed_signal.subscribe(self, self._remember_theme)

    def scan_done(self, workspace: object = None) -> None:
        """Told by the review screen when its scan is over: the help is drawn ahead then
        (not before: it would take the scan's time to the first items), and what the rescan
        after a write needs and an open from the cache did not (the detectors, the parsed
        files of ``workspace`` the cache handed out unread) is made ready."""
        if not self._help_started:
            self._help_started = True
            self.run_worker(
                lambda: self._prepare_ahead(workspace),
                thread=True,
                group="help",
                exit_on_error=False,
            )

    def _prepare_ahead(self, workspace: object) -> None:
        # drawn ahead, so that the first `?` doesn't wait for it; then the rescan's needs
        from memreview.app.screens.help import help_markdown, help_text, text_width
        from memreview.scan import ready_rescan

        help_text(help_markdown(self.key_for), text_width(self.size.width))
        ready_rescan(workspace)
        self.call_from_thread(self._freeze_made_ready)

    def _freeze_made_ready(self) -> None:
        """The parsed files ``ready_rescan`` unpickled (the model of an open from the scan
        cache) out of the collector's reach too, as the scan's were (``set_aside``); not
        while a rescan runs: its own end does it."""
        review_screen = _review_screen()
        review = next((s for s in self.screen_stack if isinstance(s, review_screen)), None)
        if review is not None:
            review.set_aside_soon()

    def _remember_theme(self, theme) -> None:
        if theme.name == self._saved_theme:
            return
        self._saved_theme = theme.name
        problem = self.user_config.save_theme(theme.name)
        if problem:
            self.notify(problem, severity="warning", markup=False)

    # -- keys --------------------------------------------------------------------------------
    def key_for(self, binding_id: str, default: str) -> str:
        """The key bound to ``binding_id`` now (the user's keymap wins)."""
        return self._keymap_keys.get(binding_id, default)

    def editor_command(self) -> str:
        return (
            self.user_config.editor or os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        )

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            self._key_started = (time.perf_counter(), time.thread_time())
        await super().on_event(event)

    def key_done(self) -> None:
        """Called by a key's handler when its work is done: the time to the next refresh of
        the screen is recorded in ``key_latencies``."""
        started, self._key_started = self._key_started, None
        if started is not None:
            self.screen.call_after_refresh(self._record_latency, started)

    def _record_latency(self, started: tuple[float, float]) -> None:
        self.key_latencies.append(time.perf_counter() - started[0])
        self.key_cpu_times.append(time.thread_time() - started[1])

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        # a screen names the app-wide keys that don't apply on it (``APP_KEYS_OFF``): they
        # are left out of its key bar and do nothing there
        return action not in getattr(self.screen, "APP_KEYS_OFF", ())

    # -- actions -----------------------------------------------------------------------------
    def action_help(self) -> None:
        from memreview.app.screens.help import HelpScreen, help_markdown

        if isinstance(self.screen, HelpScreen):
            return
        if not self.is_screen_installed("help"):  # kept: opened again at no cost
            self.install_screen(HelpScreen(help_markdown(self.key_for)), "help")
        self.push_screen("help")
        self.key_done()

    def action_history(self) -> None:
        """The History view: every batch, its diff, undo of any batch."""
        if self.backend is None:  # the review screen is still being made
            return
        from memreview.app.screens.history import HistoryScreen

        if not isinstance(self.screen, HistoryScreen):
            self.push_screen(HistoryScreen(self.backend))
        self.key_done()

    def action_archive(self) -> None:
        """The Archive view: search what was archived and put an entry back."""
        if self.backend is None:  # the review screen is still being made
            return
        from memreview.app.screens.history import ArchiveScreen

        if not isinstance(self.screen, ArchiveScreen):
            self.push_screen(ArchiveScreen(self.backend))
        self.key_done()

    def switch_language(self, lang: str) -> None:
        """Speak ``lang`` from now on (the palette's ``language:`` entry): the review screen
        is made again in it, its staged decisions read back from pending.yaml, and the choice
        is saved in the user config as the app's (``app_lang:``: the command line keeps its
        own ``lang:``, else the locale)."""
        review_screen = _review_screen()
        review = next((s for s in self.screen_stack if isinstance(s, review_screen)), None)
        if review is not None and len(review.staging) and not review.staging.saved:
            self.notify(
                _("the staged decisions could not be saved: the language stays as it is"),
                severity="warning",
                markup=False,
            )
            return
        use_language(lang)
        if self.is_screen_installed("help"):
            self.uninstall_screen("help")
        fresh = review_screen(self.root, self.today, self.scan, self.backend)
        if review is not None and self.screen is review:
            self.switch_screen(fresh)
        else:
            self.push_screen(fresh)
        problem = self.user_config.save_app_lang(lang)
        if problem:
            self.notify(problem, severity="warning", markup=False)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.title in SYSTEM_COMMANDS:
                title, help_text = SYSTEM_COMMANDS[command.title]
                yield SystemCommand(_(title), _(help_text), command.callback, command.discover)

    def action_command_palette(self) -> None:
        from textual.command import CommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(
                CommandPalette(placeholder=_("Search for commands…"), id="--command-palette")
            )
        self.key_done()

    def _pending_count(self) -> int:
        if REVIEW_MODULE not in sys.modules:  # quit before the review screen: nothing staged
            return 0
        review_screen = _review_screen()
        for screen in self.screen_stack:
            if isinstance(screen, review_screen):
                return len(screen.staging)
        return 0

    def action_request_quit(self) -> None:
        n = self._pending_count()
        if not n:
            self.exit()
            return
        from memreview.app.screens.dialogs import ConfirmDialog

        if isinstance(self.screen, ConfirmDialog):
            return
        review = next(s for s in self.screen_stack if isinstance(s, _review_screen()))
        if self.throwaway:
            where = _(
                "This is the demo's temporary copy: it is deleted when you quit, and they "
                "with it. Run memreview demo --keep to keep the copy and its pending decisions."
            )
        elif review.staging.saved:
            where = _("They are saved in .memreview/pending.yaml and offered again next time.")
        else:
            where = _("They could not be saved and will be lost.")

        def answer(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(
            ConfirmDialog(
                ngettext(
                    "{count} decision is pending. Quit?", "{count} decisions are pending. Quit?", n
                ).format(count=n),
                where,
                yes=_("Quit"),
                no=_("Stay"),
            ),
            answer,
        )

    async def action_quit(self) -> None:
        self.action_request_quit()
