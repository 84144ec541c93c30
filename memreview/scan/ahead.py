"""The app's scan reading the queues of its second process (:mod:`memreview.ahead`, which
tells why and when; :mod:`memreview.forked` keeps it until then), and the second process's
own part.

Each queue the child sends comes with the scan cache's key of the groups of files it read
(``ScanCache.queue_key``: their sizes, times and content hashes, the day, the settings, the
code), and the app's scan takes it only when it finds the same key: the same files, so the
same items. A queue it does not take, and every queue the child does not send, the scan
computes itself (``apart.Apart.rest``). What the child's queues left besides their items
(the values kept with each parsed file, the cache's per-file records, the notes) is taken
in only when every queue it sent was.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from memreview import forked
from memreview.scan import apart
from memreview.workspace.model import Workspace


def take_ahead(
    ws: Any,
    today: date,
    units: list[Any],
    reads: dict[str, list[str]] | None,
    key: Callable[[list[str]], Any] | None,
) -> Ahead | None:
    """The child forked ahead for this workspace, to read ``units`` from, when the scan
    asking is the app's first of it (None otherwise: the scan computes them)."""
    if not isinstance(ws, Workspace):
        return None
    started = forked.take(ws.root)
    if started is None:
        return None
    if not units or reads is None or key is None:
        forked.end(started)
        return None
    return Ahead(ws, units, reads, key, started)


class Ahead(apart.Apart):
    """The child forked ahead, from the app's scan (see the module)."""

    def __init__(
        self,
        ws: Workspace,
        units: list[Any],
        reads: dict[str, list[str]],
        key: Callable[[list[str]], Any],
        started: forked.Started,
    ):
        self._setup(ws, units, reads)
        self._key = key  # the groups of files read -> this scan's key of them
        self._refused = False
        self._attach(started.pid, started.fd, started.started)

    def _take_in(self, message: tuple) -> None:
        if message[0] == "queue":
            _kind, name, items, groups, theirs = message
            # checked even when not asked for (the cache held it here): what its detector
            # kept with the files it read comes with the rest of ``left``
            if theirs is None or self._key(groups) != theirs:
                self._refused = True  # other files than this scan's: computed here
                return
            if name not in self._units:
                return
            self._got[name] = items
            if self.reads is not None:
                self.reads[name] = groups
        elif message[0] == "left" and not self._refused:
            self._merge(message[1])

    def _holders(self) -> dict[Any, Any]:
        return by_place(self.ws)


def by_place(ws: Workspace) -> dict[tuple[str, str], Any]:
    """Each parsed file by (the part of the workspace, its name)."""
    out: dict[tuple[str, str], Any] = {}
    for rel, f in ws.files.items():
        out["files", rel] = f
    for rel, f in ws.archive_files.items():
        out["archive_files", rel] = f
    for f in ws.daily_logs:
        out["daily_logs", f.rel] = f
    return out
