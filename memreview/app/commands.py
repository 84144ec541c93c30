"""The command palette's memreview entries: queues, decisions, apply, undo, theme."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from memreview.app.keys import HEALTH, queue_acts, queue_key, queue_names, queue_title
from memreview.decisions.unit import MEMBER, MERGE
from memreview.i18n import LANGUAGE_NAMES, _, current_language, ngettext


class MemReviewCommands(Provider):
    """Prefixed names, so that typing "queue" or "decision" lists a family."""

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        from memreview.app.screens.review import ReviewScreen

        app = self.app
        screen = self.screen if isinstance(self.screen, ReviewScreen) else None
        if screen is None:
            screen = next((s for s in app.screen_stack if isinstance(s, ReviewScreen)), None)
        out: list[tuple[str, Callable[[], object], str]] = []
        if screen is not None and not screen.scanning:
            counts = screen.result.counts if screen.result is not None else {}
            pending = getattr(screen.result, "pending", None) or ()
            for k, q in enumerate(queue_names(), 1):
                n = counts.get(q, 0)
                if q in pending:  # not "0 items" while it is being computed
                    about = _("being computed — key {key}").format(key=queue_key(k))
                else:
                    about = ngettext(
                        "{count} item — key {key}", "{count} items — key {key}", n
                    ).format(count=n, key=queue_key(k))
                out.append(
                    (
                        _("queue: {queue}").format(queue=queue_title(q)),
                        partial(screen.show_queue, q),
                        about,
                    )
                )
            out.append(
                (
                    _("queue: {queue}").format(queue=queue_title(HEALTH)),
                    partial(screen.show_queue, HEALTH),
                    _("the health view"),
                )
            )
            if screen.items.current is not None:
                for verb, act in queue_acts(screen.queue).items():
                    if verb == MEMBER:
                        continue
                    run = (
                        screen.action_merge
                        if verb == MERGE
                        else partial(screen.action_decide, verb)
                    )
                    name = _("decision: {action}").format(action=_(act.label))
                    out.append((name, run, _(act.effect)))
            if screen.staging:
                out.append(
                    (
                        _("decision: unstage"),
                        screen.action_unstage,
                        _("unstage the highlighted (or last) decision"),
                    )
                )
                out.append(
                    (
                        _("apply"),
                        screen.action_write,
                        ngettext(
                            "review and write the {count} pending decision",
                            "review and write the {count} pending decisions",
                            len(screen.staging),
                        ).format(count=len(screen.staging)),
                    )
                )
            out.append((_("undo"), screen.action_undo, _("undo the last written batch")))
            out.append(
                (_("history"), app.action_history, _("every batch written; undo any of them (L)"))
            )
            out.append((_("archive"), app.action_archive, _("search the archive, put back (R)")))
        out.append(
            (_("theme"), app.action_change_theme, _("choose a theme (saved in your config)"))
        )
        out.append((_("help"), app.action_help, _("keys and how the review works")))
        other = "en" if current_language() == "zh" else "zh"
        out.append(
            (
                _("language: {name}").format(name=LANGUAGE_NAMES[other]),
                partial(app.switch_language, other),
                _("the app in {name} from now on (the command line keeps its own language)").format(
                    name=LANGUAGE_NAMES[other]
                ),
            )
        )
        return out

    async def discover(self) -> Hits:
        for name, run, help_text in self._commands():
            yield DiscoveryHit(name, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, run, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), run, help=help_text)
