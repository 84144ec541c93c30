"""``scan_workspace``: a workspace read and its queues computed, through the scan cache when
it is on (queues whose inputs are unchanged are taken from it; see
:mod:`memreview.workspace.cache`).

Before reading anything the scan emits the counts it knows: those the last scan showed when
no input changed since (``shown.pickle``, checked by a key over every input: the quickest
open), else those of the queues whose inputs are unchanged. Only this module, the loader's
check of the root and the cache are imported before those counts are out.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from memreview.scan.collector import fewer_collections
from memreview.scan.events import AlarmsDone, Counts, Emit, well_made
from memreview.workspace.cache import ScanCache, cache_enabled
from memreview.workspace.root import check_workspace

if TYPE_CHECKING:
    from memreview.scan.result import ScanResult
    from memreview.workspace.model import Workspace

STATE_FILE = ".memreview/state.yaml"  # the hidden items (memreview.decisions.state)


def scan_workspace(
    root: Path,
    today: date | None = None,
    all_dormant: bool = False,
    progress: Callable[[str, float], None] | None = None,
    all_promotions: bool = False,
    *,
    cache: bool | None = None,
    emit: Emit | None = None,
    first: str | None = None,
) -> ScanResult:
    """Load the workspace at ``root`` and compute its queues (NotAWorkspace if it isn't one).

    ``cache``: reuse (and update) the scan cache (``memreview.workspace.cache``; by default
    unless ``$MEMREVIEW_NO_CACHE`` is set); ``emit``:
    given the scan's events as they happen (:class:`Counts` when the cache knows the queues,
    :class:`Loaded`, :class:`QueueDone`…, :class:`HealthDone`), for a screen that shows
    them one by one; ``first``: the queue computed before the others when it is to be
    computed (the one the owner is looking at). The garbage collector runs less often
    meanwhile (:mod:`memreview.scan.collector`), whoever asked for the scan."""
    with fewer_collections():
        return _scan(root, today, all_dormant, progress, all_promotions, cache, emit, first)


def _scan(
    root: Path,
    today: date | None,
    all_dormant: bool,
    progress: Callable[[str, float], None] | None,
    all_promotions: bool,
    cache: bool | None,
    emit: Emit | None,
    first: str | None = None,
) -> ScanResult:
    root = check_workspace(Path(root))
    sc = ScanCache(root) if (cache_enabled() if cache is None else cache) else None
    whole = outside = health = None
    alarms_told = False
    if sc is not None:
        shown = sc.shown()
        # the files outside the workspace the key covers: those the last scan read (the
        # settings say which, read here when there was no last scan)
        outside = shown["outside"] if shown else _outside(_settings_only(root))
        whole = _whole_key(sc, outside, today, (all_dormant, all_promotions))
        if whole is not None and shown.get("key") == whole:
            health = shown.get("health")  # nothing changed since: the figures of then
            if health is not None and not well_made(health.get("alarms")):
                health = None  # damaged: worked out again
            if emit is not None:
                emit(Counts(dict(shown["counts"])))  # …and the counts shown then
        elif emit is not None:
            _emit_cached_counts(sc, root, today, emit, (all_dormant, all_promotions))
            alarms_told = _emit_shown_alarms(shown, emit)
    # what computing the queues needs, once the counts known are out
    from memreview.decisions.state import load_state
    from memreview.scan.computing import compute

    ws, day, digests, stored = _read(root, sc, today, progress)
    state = load_state(root, ws)
    reads: dict[str, list[str]] = {}
    result = compute(
        ws,
        day,
        state,
        all_dormant=all_dormant,
        progress=progress,
        all_promotions=all_promotions,
        known={k: items for k, (items, _groups) in stored.items()},
        emit=emit,
        notes=sc.problems if sc is not None else None,
        reads=reads if sc is not None else None,
        health=health,
        first=first,
        alarms_told=alarms_told,
        key=(lambda groups: sc.queue_key(digests, groups)) if sc is not None else None,
    )
    result.safe = frozenset(stored) | ({"health"} if health is not None else set())
    if sc is not None:
        sc.save_files(_secret_files(result))
        keep = dict(stored)
        detected = {k: [i for i in result.all_queues[k] if not i.get("skipped")] for k in reads}
        storable = _storable(detected)
        for name, items in storable.items():
            keep[name] = (items, reads[name])
        sc.save_queues(digests, _outside(ws), keep)
        same = _outside(ws) == outside  # the key covers the files this scan read
        clean_health = _safe(result.health)
        sc.save_shown(whole if same else None, _outside(ws), result.counts, clean_health)
        # what was just found to hold no credential is not searched again to be printed
        whole_queues = {n for n in storable if len(detected[n]) == len(result.all_queues[n])}
        result.safe |= whole_queues | ({"health"} if clean_health is not None else set())
        result.notes += [p for p in sc.problems if p not in result.notes]  # found since
        sc.problems = result.notes  # …and those found when a file from the cache is first used
    return result


def _read(
    root: Path,
    sc: ScanCache | None,
    today: date | None,
    progress: Callable[[str, float], None] | None = None,
) -> tuple[Workspace, date, dict[str, tuple[str, bool]], dict[str, tuple[list[dict], list[str]]]]:
    """The workspace read (what the first queue does not need is read after it: see
    ``load_workspace``'s defer), its review date, and with the scan cache the digests of its
    groups of files and the queues the cache holds for them."""
    from memreview.decisions import registry
    from memreview.workspace.loader import load_workspace, review_date

    ws = load_workspace(root, progress=progress, cache=sc, defer=True)
    if sc is not None:
        ws.per_file = sc.per_file()
    day = review_date(ws, today)
    digests: dict[str, tuple[str, bool]] = {}
    stored: dict[str, tuple[list[dict], list[str]]] = {}
    if sc is not None:
        digests = _digests(sc, ws.config, day, _outside(ws))
        stored = {k: v for k, v in sc.queues(digests).items() if k in registry.queue_names()}
    return ws, day, digests, stored


def ahead_messages(root: Path, today: date | None) -> list[tuple]:
    """What the app's second process sends (``memreview.scan.ahead``): the workspace at
    ``root`` read as ``scan_workspace`` reads it, and the queues marked ``apart`` that the
    scan cache does not hold computed, each with its key; nothing is written."""
    from memreview.scan.computing import ahead_messages as messages

    root = check_workspace(Path(root))
    sc = ScanCache(root)
    with fewer_collections():
        ws, day, digests, stored = _read(root, sc, today)
        return messages(ws, day, set(stored), lambda groups: sc.queue_key(digests, groups))


def _whole_key(
    sc: ScanCache, outside: list[str], today: date | None, show_all: tuple[bool, bool]
) -> str | None:
    """The key of everything the shown counts depend on (see ``ScanCache.whole_key``): the
    workspace's files, ``outside`` (the files outside it the last scan read), the hidden
    items, the review date asked for (or the day: ``review_date:`` is in a file), the
    options, the interface's language and the queues' detectors."""
    from memreview.i18n import current_language

    registry = sys.modules.get("memreview.decisions.registry")
    # the table as shipped is memreview's code, in the key already: the registry (and every
    # detector with it) is imported only when a queue is computed
    shipped = registry is None or registry.UNITS is registry.SHIPPED
    queues = f"{current_language()}:shipped" if shipped else _detectors()
    day = today.isoformat() if today is not None else f"clock {date.today().isoformat()}"
    extra = f"{day}|{show_all}|{queues}"
    return sc.whole_key(outside, [STATE_FILE], extra, os.environ)


def _classify(config) -> Callable[[str], str]:
    """The group of inputs a workspace file belongs to: ``base`` (the settings), ``daily``
    (daily logs, as the loader finds them), ``md`` (every other Markdown file), ``data``
    (the rest: databases, logs, JSON)."""
    from memreview.workspace.loader import DAILY_RE, SKIP_UNDER_MEMORY

    archive = config.archive_dir.rstrip("/") + "/"

    def classify(rel: str) -> str:
        if rel == "memreview.yaml":
            return "base"
        if not rel.endswith(".md"):
            return "data"
        parts = rel.split("/")
        daily = (
            len(parts) > 1
            and parts[0] == "memory"
            and parts[1] not in SKIP_UNDER_MEMORY
            and not rel.startswith(archive)
            and DAILY_RE.match(parts[-1])
        )
        return "daily" if daily else "md"

    return classify


def _digests(sc: ScanCache, config, day: date, outside: list[str]) -> dict[str, tuple[str, bool]]:
    return sc.digests(_classify(config), day.isoformat(), outside, os.environ, _detectors())


def _detectors() -> str:
    """The queues and the function computing each (a test may register one of its own), and
    the interface's language (an item's text may be in it)."""
    from memreview.decisions import registry
    from memreview.i18n import current_language

    return (
        current_language()
        + ":"
        + ",".join(
            f"{u.name}={getattr(u.detect, '__module__', '')}.{getattr(u.detect, '__qualname__', '')}"
            for u in registry.units()
        )
    )


def _outside(ws: Workspace) -> list[str]:
    """Files outside the workspace the scan reads (OpenClaw's state database, wherever it
    may be) and their ``-wal`` files."""
    from memreview.workspace.openclaw import state_db_candidates

    out = []
    for p in state_db_candidates(ws.root, ws.config.openclaw_state_db, os.environ):
        out += [str(p), f"{p}-wal"]
    return out


def _settings_only(root: Path) -> Workspace:
    """A workspace with nothing read but its settings (``memreview.yaml``)."""
    from memreview.workspace.config import Config, load_config
    from memreview.workspace.model import Workspace
    from memreview.workspace.reader import Reader
    from memreview.workspace.yamlcap import CONFIG_LIMIT

    ws = Workspace(root=root, config=Config())
    raw = Reader(root, ws).read("memreview.yaml", CONFIG_LIMIT)
    ws.config, _problems = load_config(raw)
    return ws


def _secret_files(result: ScanResult) -> set[str] | None:
    """The memory files holding a credential, as the queues finding credentials say (None
    when no such queue was computed: the cache then asks the secret finder file by file)."""
    from memreview.decisions import registry

    out: set[str] | None = None
    for unit in registry.units():
        found = result.all_queues.get(unit.name)
        if unit.secret_files is not None and found is not None:
            out = (out or set()) | unit.secret_files(found)
    return out


def _storable(queues: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """The queues whose items hold no credential (a queue finding credentials masks them:
    its items are stored)."""
    from memreview.decisions import registry
    from memreview.masking import strings_in
    from memreview.secrets import holds_secret

    out = {}
    for name, items in queues.items():
        unit = registry.unit(name)
        masks = unit is not None and unit.secret_files is not None
        if masks or not holds_secret(strings_in(items)):
            out[name] = items
    return out


def _safe(health: dict) -> dict | None:
    """The health figures when they hold no credential (else they are not kept)."""
    from memreview.masking import strings_in
    from memreview.secrets import holds_secret

    return None if holds_secret(strings_in(health)) else health


def _emit_shown_alarms(shown: dict, emit: Emit) -> bool:
    """Emit the alarms the last scan showed (kept with its health figures when those held
    no credential), before reading: a screen shows the banner at once, as it shows the
    counts known, and the workspace's own alarms replace them with the health figures.
    Most weeks they are the same, and nothing on the screen moves. Whether it emitted."""
    health = shown.get("health") if shown else None
    alarms = health.get("alarms") if isinstance(health, dict) else None
    if well_made(alarms):
        emit(AlarmsDone(alarms))
        return True
    return False


def _emit_cached_counts(
    sc: ScanCache, root: Path, today: date | None, emit: Emit, show_all: tuple[bool, bool]
) -> None:
    """Emit the shown counts of the queues the cache holds for the workspace as it is now,
    before reading it (those whose inputs changed are left out: they are computed)."""
    from memreview.decisions import registry
    from memreview.decisions.state import load_state
    from memreview.scan.result import limited, options, visible_items
    from memreview.workspace.loader import review_date

    ws = _settings_only(root)
    day = review_date(ws, today)
    stored = sc.queues(_digests(sc, ws.config, day, sc.outside()))
    if not stored:
        return
    state = load_state(root)
    on = options(*show_all)
    counts = {}
    for name, (items, _groups) in stored.items():
        if name in registry.queue_names():
            visible = visible_items(name, items, state, day, on)
            counts[name] = len(limited(name, visible, ws.config, on))
    emit(Counts(counts))
