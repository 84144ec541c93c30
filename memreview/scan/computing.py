"""Computing the queues of a loaded workspace, each as soon as it is ready, and the health
figures; noting which groups of input files each queue read (for the cache)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from typing import Any

from memreview.decisions import registry
from memreview.decisions.reviewed import workspace_alarms
from memreview.decisions.state import State
from memreview.decisions.unit import IMPORTING
from memreview.forked import stop_ahead
from memreview.health import health as compute_health
from memreview.i18n import _
from memreview.judge_card import report_card
from memreview.scan.ahead import by_place, take_ahead
from memreview.scan.apart import fork_apart, left_behind, noted
from memreview.scan.events import AlarmsDone, Emit, HealthDone, Loaded, QueueDone, well_made
from memreview.scan.result import ScanResult, fill_missing, new_result, sorted_pending
from memreview.workspace.model import LoadsLater, Workspace, WorkspaceView


def _judge_card(ws: Workspace) -> dict | None:
    """The judge's report card (how often the human approved it, by confidence)."""
    if ws.proposals is None:
        return None
    return report_card(ws)


# What each part of a loaded workspace is made of, by group of input files (see
# ``_classify``): a queue reading only some parts is computed again only when their files
# change. A part not named here counts as made of every file.
PART_GROUPS: dict[str, frozenset[str]] = {
    "root": frozenset(),
    "per_file": frozenset(),  # the cache's results per file: what they are made of is read
    "config": frozenset(),  # the settings file is in the base group every queue depends on
    "daily_logs": frozenset({"daily"}),
    **dict.fromkeys(
        (
            "files",
            "archive_files",
            "projects",
            "boot_ids",
            "other_files",
            "boot_texts",
            "all_anchors",
            "anchor_index",
            "main_memory",
        ),
        frozenset({"md"}),
    ),
    "mtimes": frozenset({"md", "daily"}),
    **dict.fromkeys(
        ("fragments", "skills", "proposals", "verdicts", "openclaw", "short_term"),
        frozenset({"data"}),
    ),
    "recalls": frozenset({"data", "md"}),  # OpenClaw's line recalls are mapped to anchors
}
ALL_GROUPS = frozenset({"md", "daily", "data"})
# seconds between two looks at the second process while a slow queue's thread is waited for
SLOW_POLL = 0.02


class _Reading(WorkspaceView):
    """A workspace as one detector sees it, noting each part it reads."""

    def __init__(self, ws: Workspace):
        super().__init__(ws)
        object.__setattr__(self, "parts", set())

    def asked(self, name: str) -> None:
        self.parts.add(name)

    def __getattr__(self, name: str) -> Any:
        # noted once, then kept on the view: a detector asks for the same parts once per
        # item (``ws.files`` for each of thousands of promotions), and a plain attribute
        # costs nothing to read again (a detector changes no part of the workspace)
        value = super().__getattr__(name)
        object.__setattr__(self, name, value)
        return value

    def groups(self) -> list[str]:
        out: set[str] = set()
        for part in self.parts:
            out |= PART_GROUPS.get(part, ALL_GROUPS)
        return sorted(out)


def _detect_all(
    ws: Workspace,
    today: date,
    names: list[str],
    report: Callable[[str, float], None],
    reads: dict[str, list[str]] | None = None,
    result: ScanResult | None = None,
    key: Callable[[list[str]], Any] | None = None,
) -> Iterator[tuple[str, list[dict]]]:
    """(name, items) of the queues ``names``, each as soon as it is computed: the slow ones
    (archived: mostly numpy and rapidfuzz work, which lets go of the GIL) in a thread of
    their own while the others are computed in order (both cores). ``reads``: filled with
    the groups of input files each queue read; ``key``: the scan cache's key of a list of
    such groups (for the app's second process: ``memreview.scan.ahead``)."""
    by_name = {u.name: u for u in registry.units()}
    units = [by_name[n] for n in names if n in by_name]  # in the order asked
    views = {u.name: (ws if reads is None else _Reading(ws)) for u in units}

    def detect(k: int, unit) -> list[dict]:
        report(_("queue: {name}").format(name=_(unit.title)), 0.9 + 0.08 * k / len(units))
        items = unit.detect(views[unit.name], today)
        if reads is not None:
            reads[unit.name] = views[unit.name].groups()
        return items

    def finished(name: str, future) -> tuple[str, list[dict]]:
        items = future.result()
        if reads is not None:
            reads[name] = views[name].groups()
        return name, items

    # the first queue alone, before the others' detectors are imported or the slow ones
    # started: the app shows its items while the rest is computed
    first = next((u for u in units if not u.slow), None)
    if first is not None and not units[0].slow:
        with IMPORTING:  # what it imports as it runs too (contradictions: numpy)
            _resolve(first)
            items = detect(units.index(first), first)
        yield first.name, items
    else:
        first = None  # a slow queue asked for first: its thread starts before any other
    # what the loader left to read when first used, read here, in one thread, before the
    # slow queues' thread starts (and its warnings given, in their places)
    _settle(ws)
    if result is not None:
        fill_missing(result)
    for unit in units:  # imported here, not in two threads at once (see ImportedOnUse)
        _resolve(unit)
    apart = _second_process(ws, today, [u for u in units if u is not first], views, reads, key)
    away = set(apart.names) if apart is not None else set()
    try:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="memreview-queue") as pool:
            slow = {
                u.name: pool.submit(u.detect, views[u.name], today)
                for u in units
                if u.slow and u.name not in away
            }
            for k, unit in enumerate(units):
                if not unit.slow and unit is not first and unit.name not in away:
                    yield unit.name, detect(k, unit)
                for name in [n for n, f in slow.items() if f.done()]:  # each as soon as it is in
                    yield finished(name, slow.pop(name))
                if apart is not None:
                    yield from apart.ready()
            yield from _when_done(slow, finished, apart)
        if apart is not None:
            yield from apart.rest(lambda unit: detect(units.index(unit), unit))
    finally:
        if apart is not None:
            apart.close()  # (the scan stopped before the child was done: it ends too)


def _when_done(slow: dict[str, Any], finished, apart) -> Iterator[tuple[str, list[dict]]]:
    """Each slow queue once its thread is done (``finished(name, future)``), and meanwhile
    the queues of the second process (``apart``, if any) as they come."""
    for name, future in slow.items():
        while apart is not None and not future.done() and apart.sending():
            yield from apart.ready(wait=SLOW_POLL)
        yield finished(name, future)


def _second_process(ws: Workspace, today: date, rest: list, views, reads, key):
    """The second process computing the queues marked ``apart`` among ``rest``, if any: a
    command that ends with its scan forks it now, before any thread starts
    (:mod:`memreview.scan.apart`); the app's first scan takes the one the app forked before
    its first thread (:mod:`memreview.scan.ahead`)."""
    away = [u for u in rest if _apart(u)]
    apart = fork_apart(ws, today, away, [u for u in rest if not _apart(u)], views, reads)
    if apart is not None:
        return apart
    return take_ahead(ws, today, [u for u in rest if _ahead(u)], reads, key)


def _apart(unit) -> bool:
    """Whether ``unit`` may be computed in a second process (a test's own unit may not say)."""
    return bool(getattr(unit, "apart", False))


def _ahead(unit) -> bool:
    """Whether the app's second process computes ``unit`` (its own and the commands')."""
    return _apart(unit) or bool(getattr(unit, "ahead", False))


def _settle(ws: Workspace) -> None:
    """Every part of ``ws`` the loader deferred, read (a workspace of a test's own may be
    anything a detector takes)."""
    if isinstance(ws, Workspace):
        ws.settle()


def ready_detectors() -> None:
    """Every queue's detector imported now, numpy and rapidfuzz with them. An open that took
    every queue from the scan cache imported none; the app calls this once its scan is over,
    in a thread of its own while the owner reviews, so that the rescan after a write does not
    wait for them (numpy alone is about 60 ms, before the first queue's count)."""
    with IMPORTING:  # never beside a scan's first queue, which may import numpy itself
        import numpy  # noqa: F401

        for unit in registry.units():
            _resolve(unit)


def ready_rescan(ws: Any) -> None:
    """What the rescan after a write needs and an open from the scan cache left undone,
    done now (the app calls it once its scan is over, in a thread of its own while the owner
    reviews): every detector imported (``ready_detectors``), and every parsed file and value
    the cache handed out unread, unpickled. The rescan takes the files a write left alone
    from this process (their very objects): the first one of a session then does not wait
    for them (about 0.25 s at 25,000 entries)."""
    ready_detectors()
    if not isinstance(ws, Workspace):
        return
    for name in list(ws.__dict__.get("_later") or ()):
        if not ws.deferred(name):  # a value the cache handed out unread (never a part)
            getattr(ws, name, None)
    for name in ("files", "archive_files", "daily_logs"):
        if ws.deferred(name):
            continue  # a part the open never read: the rescan reads it its own way
        part = getattr(ws, name, None)
        found = part.values() if isinstance(part, dict) else part or ()
        for f in list(found):
            if isinstance(f, LoadsLater):
                f.loaded()


def _resolve(unit) -> None:
    """Import the module of the unit's detector now (see ImportedOnUse)."""
    resolve = getattr(unit.detect, "resolve", None)
    if resolve is not None:
        resolve()


def _alarms(ws: Workspace, today: date) -> list[dict]:
    """The alarms of ``ws`` (``reviewed.workspace_alarms``), as the health figures hold them."""
    return [a.to_json() for a in workspace_alarms(ws, today)]


def _health(ws: Workspace, today: date, result: ScanResult) -> dict:
    health = compute_health(ws, today)
    health["judge"] = _judge_card(ws)
    health["alarms"] = result.alarms if result.alarms is not None else _alarms(ws, today)
    for unit in registry.units():  # figures a queue adds of its own, under its name
        if unit.health is not None and unit.name in result.all_queues:
            health[unit.name] = unit.health(ws, result.all_queues[unit.name], today)
    return health


def compute(
    ws: Workspace,
    today: date,
    state: State,
    all_dormant: bool = False,
    progress: Callable[[str, float], None] | None = None,
    all_promotions: bool = False,
    *,
    known: dict[str, list[dict]] | None = None,
    emit: Emit | None = None,
    notes: list[str] | None = None,
    reads: dict[str, list[str]] | None = None,
    health: dict | None = None,
    first: str | None = None,
    alarms_told: bool = False,
    key: Callable[[list[str]], Any] | None = None,
) -> ScanResult:
    """Every queue and the health figures of a loaded workspace; decisions in ``state``
    hide items (``all_dormant`` lifts the dormant queue's limit, ``all_promotions`` shows
    the promotions already reviewed too). ``known``: queues computed before (the cache);
    ``emit`` is given a :class:`Loaded`, then a :class:`QueueDone` per queue computed (and
    an :class:`AlarmsDone` after the first), then :class:`HealthDone`; ``reads`` is filled with the groups of input files each queue
    computed here read; ``health``: the health figures known (the cache's, when no input
    changed), not computed again; ``first``: the queue computed first when it is to be;
    ``alarms_told``: ``emit`` was given the alarms the last scan showed (their own come with
    the health figures then, not after the first queue); ``key``: the scan cache's key of a
    list of groups of input files (see ``_detect_all``)."""
    report = progress or (lambda stage, frac: None)
    result = new_result(ws, today, state, all_dormant, all_promotions)
    result.notes = list(notes or ())
    for name, items in (known or {}).items():
        result.add_queue(name, items)
    known_alarms = health.get("alarms") if health is not None else None
    if well_made(known_alarms):  # the health figures of the cache: shown at once
        result.alarms = known_alarms
    if emit is not None:
        emit(Loaded(result))
        result = result.copy()  # the one emitted is the receiver's now
    pending = sorted_pending(result)
    if first in pending:  # the queue the owner looks at, before the others
        pending.remove(first)
        pending.insert(0, first)
    for name, items in _detect_all(ws, today, pending, report, reads, result, key):
        result.add_queue(name, items)
        if emit is not None:
            emit(QueueDone(name, items))
        if result.alarms is None and not alarms_told:
            # the alarms once the first queue is out, not with the health figures after the
            # last (a banner then would push down the list the owner is reading); not before
            # it either: they may read every daily log, which an open from the cache has not
            # unpickled yet (0.2 s at scale 1). When the last scan's were told, the screen
            # shows those: the workspace's own come with the health figures, and the
            # unpickling is not spent before every count. The health figures take them.
            result.alarms = _alarms(ws, today)
            if emit is not None:
                emit(AlarmsDone(result.alarms))
    stop_ahead()  # the app's second process, when this scan needed none of its queues
    report(_("health"), 0.99)  # every part of the workspace read by now (``_detect_all``)
    result.health = health = _health(ws, today, result) if health is None else health
    result.in_order()
    if emit is not None:
        emit(HealthDone(health))
    report(_("done"), 1.0)
    return result


def ahead_messages(
    ws: Workspace, day: date, stored: set[str], key: Callable[[list[str]], Any]
) -> list[tuple]:
    """The child's messages: the items of each queue marked ``apart`` or ``ahead`` and not
    ``stored`` (in the scan cache) with the groups of files it read and their key
    (``key(groups)``), then what the queues left besides (``apart.left_behind``)."""
    units = [u for u in registry.units() if _ahead(u) and u.name not in stored]
    if not units:
        return []
    _settle(ws)
    for u in units:
        _resolve(u)
    since = noted(ws)
    out: list[tuple] = []
    for u in units:
        view = _Reading(ws)
        items = u.detect(view, day)
        groups = view.groups()
        out.append(("queue", u.name, items, groups, key(groups)))
    place = {id(f): k for k, f in by_place(ws).items()}
    out.append(("left", left_behind(ws, since, place)))
    return out
