"""Load a workspace and compute every queue: the model the CLI and the app share."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from pathlib import Path
from types import MethodType

from memreview.decisions import registry
from memreview.decisions.reviewed import workspace_alarms
from memreview.decisions.state import State, load_state
from memreview.health import SCHEMA
from memreview.health import health as compute_health
from memreview.i18n import _, current_language
from memreview.judge_card import promotion_card, report_card
from memreview.secrets import holds_secret
from memreview.workspace.cache import ScanCache, cache_enabled
from memreview.workspace.config import Config, load_config
from memreview.workspace.loader import (
    DAILY_RE,
    SKIP_UNDER_MEMORY,
    check_workspace,
    load_workspace,
    review_date,
)
from memreview.workspace.model import Workspace
from memreview.workspace.openclaw import state_db_candidates
from memreview.workspace.reader import Reader
from memreview.workspace.yamlcap import CONFIG_LIMIT


@dataclass
class ScanResult:
    """A workspace loaded and its queues computed on a review date (what ``scan --json``
    prints and the app shows)."""

    root: Path
    today: date
    workspace: Workspace
    queues: dict[str, list[dict]]
    health: dict
    missing: dict[str, str]
    state: State
    hidden: dict[str, int] = field(default_factory=dict)
    all_queues: dict[str, list[dict]] = field(default_factory=dict)
    pending: set[str] = field(default_factory=set)  # queues not computed yet
    all_dormant: bool = False
    all_promotions: bool = False
    notes: list[str] = field(default_factory=list)  # about the cache: shown once, not saved

    def add_queue(self, name: str, items: list[dict]) -> None:
        """Queue ``name`` computed: its items, those shown (hidden ones and the limit
        applied) and how many are hidden."""
        visible = visible_items(name, items, self.state, self.today, self.all_promotions)
        self.all_queues[name] = items
        self.hidden[name] = len(items) - len(visible)
        self.queues[name] = limited(name, visible, self.workspace.config, self.all_dormant)
        self.pending.discard(name)
        self.__dict__.pop("_related", None)

    def in_order(self) -> None:
        """The queue tables in the registry's order (queues finish in any order)."""
        order = [n for n in registry.queue_names() if n in self.all_queues]
        order += [n for n in self.all_queues if n not in order]
        for table in ("queues", "hidden", "all_queues"):
            old = getattr(self, table)
            setattr(self, table, {n: old[n] for n in order if n in old})

    def copy(self) -> ScanResult:
        """Another result over the same workspace, with its own queue tables."""
        return replace(
            self,
            queues=dict(self.queues),
            hidden=dict(self.hidden),
            all_queues=dict(self.all_queues),
            pending=set(self.pending),
        )

    @property
    def counts(self) -> dict[str, int]:
        return {name: len(items) for name, items in self.queues.items()}

    @property
    def warnings(self) -> list[dict]:
        """The warnings about input files, each message in the interface's language
        (`to_json` gives them in English)."""
        return [w.shown() for w in self.workspace.warnings]

    def item(self, item_id: str) -> tuple[str, dict] | None:
        """(queue, item) for an id, hidden items included."""
        for name, items in self.all_queues.items():
            for it in items:
                if it["id"] == item_id:
                    return name, it
        return None

    def related(self, item_id: str) -> list[tuple[str, dict]]:
        """(queue, item) of the other shown items that name an anchor or entry this one
        names too (the same pair as a contradiction and a supersede proposal; an entry that
        is both a duplicate and in an archived fragment), in queue order."""
        index = self.__dict__.get("_related")
        if index is None:
            index = {}
            place: dict[str, int] = {}  # item id -> its place in queue order
            for name, items in self.queues.items():
                for it in items:
                    place.setdefault(it["id"], len(place))
                    for key in _ref_keys(it):
                        index.setdefault(key, []).append((name, it))
            self.__dict__["_related"] = index
            self.__dict__["_related_place"] = place
        place = self.__dict__["_related_place"]
        out: dict[str, tuple[str, dict]] = {}
        found = self.item(item_id)
        for key in _ref_keys(found[1]) if found else ():
            for name, it in index.get(key, ()):
                if it["id"] != item_id:
                    out.setdefault(it["id"], (name, it))
        # the keys come from a set: their order is not stable from one run to the next
        return sorted(out.values(), key=lambda found: place.get(found[1]["id"], 0))

    def context(
        self, file: str, line: int, end_line: int, before: int = 3, after: int = 3
    ) -> list[tuple[int, str]]:
        """Numbered lines of a memory file around ``line..end_line``."""
        ws = self.workspace
        mf = ws.files.get(file) or ws.archive_files.get(file)
        src = mf.source if mf is not None else ws.other_files.get(file)
        if src is None:
            return []
        lo = max(1, line - before)
        hi = min(len(src.lines), end_line + after)
        return [(k, src.lines[k - 1].text) for k in range(lo, hi + 1)]

    def to_json(self) -> dict:
        return {
            "schema": SCHEMA,
            "workspace": str(self.root),
            "today": self.today.isoformat(),
            "counts": self.counts,
            "queues": self.queues,
            "health": self.health,
            "missing": self.missing,
            "warnings": [w.to_json() for w in self.workspace.warnings],
        }


def _missing(ws: Workspace) -> dict[str, str]:
    """Why each queue that can't have items can't (its unit says)."""
    out = {}
    for unit in registry.units():
        why = unit.missing(ws) if unit.missing is not None else None
        if why is not None:
            out[unit.name] = why
    return out


def promotion_health(ws: Workspace, items: list[dict], today: date) -> dict:
    """Promotions per night over the 14 nights up to the review date, the flagged share of
    every promotion, the top flags, and the owner's archive rate per flag."""
    nights = [today - timedelta(days=k) for k in range(13, -1, -1)]
    per: dict[str, list[int]] = {d.isoformat(): [0, 0] for d in nights}
    flags: dict[str, int] = {}
    flagged = 0
    for it in items:
        cell = per.get(it.get("promoted") or "")
        if cell is not None:
            cell[0] += 1
            cell[1] += bool(it["flags"])
        flagged += bool(it["flags"])
        for f in it["flags"]:
            flags[f["flag"]] = flags.get(f["flag"], 0) + 1
    return {
        "count": len(items),
        "flagged": flagged,
        "flagged_share": round(flagged / len(items), 4) if items else None,
        "nights": [{"date": d, "promoted": c[0], "flagged": c[1]} for d, c in per.items()],
        "top_flags": sorted(flags.items(), key=lambda kv: (-kv[1], kv[0]))[:5],
        "card": promotion_card(ws),
    }


def _judge_card(ws: Workspace) -> dict | None:
    """The judge's report card (how often the human approved it, by confidence)."""
    if ws.proposals is None:
        return None
    return report_card(ws)


@dataclass(frozen=True)
class Counts:
    """Event: the shown counts of the queues known from the cache, before anything is read."""

    counts: dict[str, int]


@dataclass(frozen=True)
class Loaded:
    """Event: the workspace is read; ``result`` holds the queues known so far and names the
    others in ``result.pending`` (the scan never changes this object afterwards)."""

    result: ScanResult


@dataclass(frozen=True)
class QueueDone:
    """Event: one queue computed (its items before hiding)."""

    name: str
    items: list[dict]


@dataclass(frozen=True)
class HealthDone:
    """Event: the health figures, last of all."""

    health: dict


Emit = Callable[[object], None]


def new_result(
    ws: Workspace,
    today: date,
    state: State,
    all_dormant: bool = False,
    all_promotions: bool = False,
) -> ScanResult:
    """A result with no queue computed yet (every queue pending)."""
    return ScanResult(
        root=ws.root,
        today=today,
        workspace=ws,
        queues={},
        health={},
        missing=_missing(ws),
        state=state,
        pending=set(registry.queue_names()),
        all_dormant=all_dormant,
        all_promotions=all_promotions,
    )


def visible_items(
    name: str, items: list[dict], state: State, today: date, all_promotions: bool = False
) -> list[dict]:
    """The items of queue ``name`` that ``state`` doesn't hide (every promotion with
    ``all_promotions``)."""
    if all_promotions and name == "promotions":
        return list(items)
    return [it for it in items if not state.is_hidden(it["id"], today)]


def limited(name: str, items: list[dict], config, all_dormant: bool = False) -> list[dict]:
    """``items`` cut to the queue's limit (none with ``all_dormant``)."""
    unit = registry.unit(name)
    if unit is not None and unit.limit is not None and not all_dormant:
        return items[: unit.limit(config)]
    return items


# What each part of a loaded workspace is made of, by group of input files (see
# ``_classify``): a queue reading only some parts is computed again only when their files
# change. A part not named here counts as made of every file.
PART_GROUPS: dict[str, frozenset[str]] = {
    "root": frozenset(),
    "config": frozenset(),  # the settings file is in the base group every queue depends on
    "daily_logs": frozenset({"daily"}),
    **dict.fromkeys(
        (
            "files",
            "archive_files",
            "projects",
            "boot_ids",
            "other_files",
            "all_anchors",
            "anchor_index",
            "main_memory",
        ),
        frozenset({"md"}),
    ),
    "mtimes": frozenset({"md", "daily"}),
    **dict.fromkeys(
        ("fragments", "skills", "proposals", "verdicts", "openclaw"), frozenset({"data"})
    ),
    "recalls": frozenset({"data", "md"}),  # OpenClaw's line recalls are mapped to anchors
}
ALL_GROUPS = frozenset({"md", "daily", "data"})


class _Reading:
    """A workspace as one detector sees it, noting each part it reads (its methods run on
    this view too, so the parts they read are noted)."""

    def __init__(self, ws: Workspace):
        object.__setattr__(self, "_ws", ws)
        object.__setattr__(self, "parts", set())

    def __getattr__(self, name: str):
        self.parts.add(name)
        attr = getattr(type(self._ws), name, None)
        if callable(attr):
            return MethodType(attr, self)
        return getattr(self._ws, name)

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError("a detector does not change the workspace")

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
) -> Iterator[tuple[str, list[dict]]]:
    """(name, items) of the queues ``names``, each as soon as it is computed: the slow ones
    (archived: mostly numpy and rapidfuzz work, which lets go of the GIL) in a thread of
    their own while the others are computed in order (both cores). ``reads``: filled with
    the groups of input files each queue read."""
    units = [u for u in registry.units() if u.name in names]
    views = {u.name: (ws if reads is None else _Reading(ws)) for u in units}
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="memreview-queue") as pool:
        slow = {u.name: pool.submit(u.detect, views[u.name], today) for u in units if u.slow}
        for k, unit in enumerate(units):
            report(_("queue: {name}").format(name=_(unit.title)), 0.9 + 0.08 * k / len(units))
            if not unit.slow:
                items = unit.detect(views[unit.name], today)
                if reads is not None:
                    reads[unit.name] = views[unit.name].groups()
                yield unit.name, items
        for name, future in slow.items():
            items = future.result()
            if reads is not None:
                reads[name] = views[name].groups()
            yield name, items


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
) -> ScanResult:
    """Every queue and the health figures of a loaded workspace; decisions in ``state``
    hide items (``all_dormant`` lifts the dormant queue's limit, ``all_promotions`` shows
    the promotions already reviewed too). ``known``: queues computed before (the cache);
    ``emit`` is given a :class:`Loaded`, then a :class:`QueueDone` per queue computed, then
    :class:`HealthDone`; ``reads`` is filled with the groups of input files each queue
    computed here read."""
    report = progress or (lambda stage, frac: None)
    result = new_result(ws, today, state, all_dormant, all_promotions)
    result.notes = list(notes or ())
    for name, items in (known or {}).items():
        result.add_queue(name, items)
    if emit is not None:
        emit(Loaded(result))
        result = result.copy()  # the one emitted is the receiver's now
    for name, items in _detect_all(ws, today, sorted_pending(result), report, reads):
        result.add_queue(name, items)
        if emit is not None:
            emit(QueueDone(name, items))
    report(_("health"), 0.99)
    health = compute_health(ws, today)
    health["judge"] = _judge_card(ws)
    health["alarms"] = [a.to_json() for a in workspace_alarms(ws, today)]
    if "promotions" in result.all_queues:
        health["promotions"] = promotion_health(ws, result.all_queues["promotions"], today)
    result.health = health
    result.in_order()
    if emit is not None:
        emit(HealthDone(health))
    report(_("done"), 1.0)
    return result


def sorted_pending(result: ScanResult) -> list[str]:
    """The pending queues, in the registry's order."""
    return [n for n in registry.queue_names() if n in result.pending]


def scan_workspace(
    root: Path,
    today: date | None = None,
    all_dormant: bool = False,
    progress: Callable[[str, float], None] | None = None,
    all_promotions: bool = False,
    *,
    cache: bool | None = None,
    emit: Emit | None = None,
) -> ScanResult:
    """Load the workspace at ``root`` and compute its queues (NotAWorkspace if it isn't one).

    ``cache``: reuse (and update) the scan cache (``memreview.workspace.cache``; by default
    unless ``$MEMREVIEW_NO_CACHE`` is set); ``emit``:
    given the scan's events as they happen (:class:`Counts` when the cache knows the queues,
    :class:`Loaded`, :class:`QueueDone`…, :class:`HealthDone`), for a screen that shows
    them one by one."""
    root = check_workspace(Path(root))
    sc = ScanCache(root) if (cache_enabled() if cache is None else cache) else None
    if sc is not None and emit is not None:
        _emit_cached_counts(sc, root, today, emit, (all_dormant, all_promotions))
    ws = load_workspace(root, progress=progress, cache=sc)
    day = review_date(ws, today)
    state = load_state(root, ws)
    stored: dict[str, tuple[list[dict], list[str]]] = {}
    if sc is not None:
        digests = _digests(sc, ws.config, day, _outside(ws))
        stored = {k: v for k, v in sc.queues(digests).items() if k in registry.queue_names()}
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
    )
    if sc is not None:
        found = result.all_queues.get("secrets")
        sc.save_files({it["ref"]["file"] for it in found} if found is not None else None)
        keep = dict(stored)
        for name, items in _storable({k: result.all_queues[k] for k in reads}).items():
            keep[name] = (items, reads[name])
        sc.save_queues(digests, _outside(ws), keep)
    return result


def _classify(config) -> Callable[[str], str]:
    """The group of inputs a workspace file belongs to: ``base`` (the settings), ``daily``
    (daily logs, as the loader finds them), ``md`` (every other Markdown file), ``data``
    (the rest: databases, logs, JSON)."""
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
    return current_language() + ":" + ",".join(
        f"{u.name}={getattr(u.detect, '__module__', '')}.{getattr(u.detect, '__qualname__', '')}"
        for u in registry.units()
    )


def _outside(ws: Workspace) -> list[str]:
    """Files outside the workspace the scan reads (OpenClaw's state database, wherever it
    may be) and their ``-wal`` files."""
    out = []
    for p in state_db_candidates(ws.root, ws.config.openclaw_state_db, os.environ):
        out += [str(p), f"{p}-wal"]
    return out


def _storable(queues: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """The queues whose items hold no credential (the secrets queue's are masked)."""
    out = {}
    for name, items in queues.items():
        if name == "secrets" or not holds_secret(_strings(items)):
            out[name] = items
    return out


def _strings(value: object) -> Iterator[str]:
    """Every string inside a JSON-shaped value."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)


def _emit_cached_counts(
    sc: ScanCache, root: Path, today: date | None, emit: Emit, show_all: tuple[bool, bool]
) -> None:
    """Emit the shown counts of the queues the cache holds for the workspace as it is now,
    before reading it (those whose inputs changed are left out: they are computed)."""
    ws = Workspace(root=root, config=Config())
    raw = Reader(root, ws).read("memreview.yaml", CONFIG_LIMIT)
    ws.config, _problems = load_config(raw)
    day = review_date(ws, today)
    stored = sc.queues(_digests(sc, ws.config, day, sc.outside()))
    if not stored:
        return
    state = load_state(root)
    all_dormant, all_promotions = show_all
    counts = {}
    for name, (items, _groups) in stored.items():
        if name in registry.queue_names():
            visible = visible_items(name, items, state, day, all_promotions)
            counts[name] = len(limited(name, visible, ws.config, all_dormant))
    emit(Counts(counts))


def _ref_keys(value: object) -> set[tuple]:
    """The anchors (by id) and entries (by file and line) an item's refs name."""
    out: set[tuple] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if isinstance(v.get("file"), str) and isinstance(v.get("line"), int):
                anchor = v.get("anchor")  # an entry inside an anchor names it too
                header = str(v.get("text") or "").startswith("#")
                out.add(
                    ("anchor", anchor) if anchor and header else ("entry", v["file"], v["line"])
                )
            stack.extend(x for x in v.values() if isinstance(x, dict | list))
        elif isinstance(v, list):
            stack.extend(x for x in v if isinstance(x, dict | list))
    return out
