"""The command palette's memreview entries: queues, decisions, apply, undo, theme."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from memreview.app.keys import HEALTH, queue_acts, queue_key, queue_names, queue_title
from memreview.decisions.unit import MEMBER, MERGE


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
            for k, q in enumerate(queue_names(), 1):
                out.append(
                    (
                        f"queue: {queue_title(q)}",
                        partial(screen.show_queue, q),
                        f"{counts.get(q, 0)} item(s) — key {queue_key(k)}",
                    )
                )
            out.append(("queue: Health", partial(screen.show_queue, HEALTH), "the health view"))
            if screen.items.current is not None:
                for verb, act in queue_acts(screen.queue).items():
                    if verb == MEMBER:
                        continue
                    run = (
                        screen.action_merge
                        if verb == MERGE
                        else partial(screen.action_decide, verb)
                    )
                    out.append((f"decision: {act.label}", run, act.effect))
            if screen.staging:
                out.append(
                    (
                        "decision: unstage",
                        screen.action_unstage,
                        "unstage the highlighted (or last) decision",
                    )
                )
                out.append(
                    (
                        "apply",
                        screen.action_write,
                        f"review and write the {len(screen.staging)} pending decision(s)",
                    )
                )
            out.append(("undo", screen.action_undo, "undo the last written batch"))
            out.append(("history", app.action_history, "every batch written; undo any of them (L)"))
            out.append(("archive", app.action_archive, "search the archive, put back (R)"))
        out.append(("theme", app.action_change_theme, "choose a theme (saved in your config)"))
        out.append(("help", app.action_help, "keys and how the review works"))
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
