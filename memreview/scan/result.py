"""A scan's result: the workspace loaded and its queues, those shown and those hidden."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from memreview.decisions import registry
from memreview.decisions.state import State
from memreview.health import SCHEMA
from memreview.queues.common import RENAMED_PREFIXES, current_id
from memreview.workspace.model import Workspace, WorkspaceView


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
    # the ids of the items a queue's limit left out (dormant, dropping: no decision hid them)
    past_limit: dict[str, frozenset[str]] = field(default_factory=dict)
    pending: set[str] = field(default_factory=set)  # queues not computed yet
    show_all: frozenset[str] = frozenset()  # the options showing every item (``options``)
    notes: list[str] = field(default_factory=list)  # about the cache: shown once, not saved
    # the queues (and "health") known to hold no credential: taken from the scan cache, which
    # keeps only those, or found so by this scan as it stored them (a queue finding
    # credentials masks its items): not searched for one again
    safe: frozenset[str] = frozenset()
    # the alarms (``health["alarms"]``): the cache's health figures', or worked out once the
    # first queue is out (``compute``); None: not known yet
    alarms: list[dict] | None = None
    # the queues whose ``missing`` can be told only once the parts of the workspace read
    # later are (``fill_missing``)
    missing_later: set[str] = field(default_factory=set)

    def add_queue(self, name: str, items: list[dict]) -> None:
        """Queue ``name`` computed: its items, those shown (hidden ones and the limit
        applied) and how many are hidden."""
        if name == "skills" and any(h.removed for h in self.state.hidden.values()):
            from memreview.decisions.hidden import skipped_skills

            # the candidates a skip took out of the file, hidden
            items = items + skipped_skills(self.state, items)
        visible = visible_items(name, items, self.state, self.today, self.show_all)
        self.all_queues[name] = items
        self.hidden[name] = len(items) - len(visible)
        shown = limited(name, visible, self.workspace.config, self.show_all)
        self.queues[name] = shown
        self.past_limit[name] = frozenset(it.get("id") for it in visible[len(shown) :])
        self.pending.discard(name)
        self.__dict__.pop("_related", None)

    def missing_in_order(self) -> dict[str, str]:
        """``missing`` in the queues' order, as it is now (the scan tells some reasons after
        the first queue, into this table, while a screen may be reading it)."""
        now = dict(self.missing)  # one copy at once, whatever another thread adds meanwhile
        return {n: now[n] for n in _in_registry_order(now)}

    def in_order(self) -> None:
        """The queue tables in the registry's order (queues finish in any order)."""
        order = [n for n in registry.queue_names() if n in self.all_queues]
        order += [n for n in self.all_queues if n not in order]
        for table in ("queues", "hidden", "all_queues", "past_limit"):
            old = getattr(self, table)
            setattr(self, table, {n: old[n] for n in order if n in old})

    def copy(self) -> ScanResult:
        """Another result over the same workspace, with its own queue tables."""
        return replace(
            self,
            queues=dict(self.queues),
            hidden=dict(self.hidden),
            all_queues=dict(self.all_queues),
            past_limit=dict(self.past_limit),
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
        """(queue, item) for an id, hidden items included; an id of the form an item had
        before its queue's prefix changed (a secret's ``s-…``) finds the item too."""
        # the table copied in one step: the evidence preview asks from a worker thread
        # while the app's thread adds each queue as it comes in
        for name, items in list(self.all_queues.items()):
            for it in items:
                if it["id"] == item_id:
                    return name, it
        for name in RENAMED_PREFIXES:
            now = current_id(item_id, name)
            if now != item_id:
                found = next((it for it in self.all_queues.get(name, ()) if it["id"] == now), None)
                if found is not None:
                    return name, found
        return None

    def relates(self, item_id: str, queue: str) -> bool:
        """Whether one of the shown items of ``queue`` is among ``related(item_id)``: asked
        as each queue comes in, so only that queue's items are looked at (``related`` makes
        its index over every queue, again after each new one)."""
        found = self.item(item_id)
        keys = _ref_keys(found[1]) if found else set()
        return bool(keys) and any(
            it["id"] != item_id and not keys.isdisjoint(_ref_keys(it))
            for it in self.queues.get(queue, ())
        )

    def related(self, item_id: str) -> list[tuple[str, dict]]:
        """(queue, item) of the other shown items that name an anchor or entry this one
        names too (the same pair as a contradiction and a supersede proposal; an entry that
        is both a duplicate and in an archived fragment), in queue order."""
        index = self.__dict__.get("_related")
        if index is None:
            index = {}
            # item id -> its place: its queue's in the registry (whatever order the queues
            # came in), then its own in the queue
            place: dict[str, tuple[int, int]] = {}
            rank = {n: k for k, n in enumerate(registry.queue_names())}
            for name, items in self.queues.items():
                for k, it in enumerate(items):
                    place.setdefault(it["id"], (rank.get(name, len(rank)), k))
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
        return sorted(out.values(), key=lambda found: place.get(found[1]["id"], (0, 0)))

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
            "missing": self.missing_in_order(),
            "warnings": [w.to_json() for w in self.workspace.warnings],
        }


def _missing(ws: Workspace, names: set[str] | None = None) -> tuple[dict[str, str], set[str]]:
    """Why each queue (of ``names``) that can't have items can't (its unit says), and the
    queues that can't be told yet: their unit asks for a part of the workspace not read yet
    (see ``load_workspace``'s ``defer``; told by ``fill_missing`` once it is read)."""
    out: dict[str, str] = {}
    later: set[str] = set()
    view = _ReadSoFar(ws)
    for unit in registry.units():
        if unit.missing is None or (names is not None and unit.name not in names):
            continue
        try:
            why = unit.missing(view)
        except _NotReadYet:
            later.add(unit.name)
            continue
        if why is not None:
            out[unit.name] = why
    return out, later


def fill_missing(result: ScanResult) -> None:
    """Why each queue left untold by ``new_result`` can't have items, now that every part of
    the workspace is read (into the same table: a copy of the result shares it)."""
    if result.missing_later:
        found, _later = _missing(result.workspace, result.missing_later)
        result.missing.update(found)
        result.missing_later = set()


def _in_registry_order(names) -> list[str]:
    order = [n for n in registry.queue_names() if n in names]
    return order + [n for n in names if n not in order]


class _NotReadYet(Exception):
    """A part of the workspace not read yet was asked for."""


class _ReadSoFar(WorkspaceView):
    """A workspace as read so far: asking for a part not read yet raises ``_NotReadYet``."""

    def asked(self, name: str) -> None:
        if self._ws.deferred(name):
            raise _NotReadYet(name)

    def given(self, name: str) -> bool:
        # the workspace's own: a value the scan cache hands out is not unpickled to tell
        if self._ws.deferred(name):
            raise _NotReadYet(name)
        return self._ws.given(name)


def new_result(
    ws: Workspace,
    today: date,
    state: State,
    all_dormant: bool = False,
    all_promotions: bool = False,
) -> ScanResult:
    """A result with no queue computed yet (every queue pending)."""
    missing, later = _missing(ws)
    return ScanResult(
        root=ws.root,
        today=today,
        workspace=ws,
        queues={},
        health={},
        missing=missing,
        state=state,
        pending=set(registry.queue_names()),
        show_all=options(all_dormant, all_promotions),
        missing_later=later,
    )


def options(all_dormant: bool = False, all_promotions: bool = False) -> frozenset[str]:
    """The scan's options showing every item that are on, by name: a queue declares the one
    showing its hidden items (``QueueUnit.unhide``) and the one lifting its limit
    (``unlimit``)."""
    on = {"all_dormant": all_dormant, "all_promotions": all_promotions}
    return frozenset(name for name, value in on.items() if value)


def visible_items(
    name: str, items: list[dict], state: State, today: date, show_all: frozenset[str] = frozenset()
) -> list[dict]:
    """The items of queue ``name`` that ``state`` doesn't hide (every one when the option
    its unit names as ``unhide`` is in ``show_all``)."""
    unit = registry.unit(name)
    if unit is not None and unit.unhide in show_all:
        return list(items)
    return [
        it
        for it in items
        if not any(state.is_hidden(i, today) for i in (it["id"], *it.get("former_ids", ())))
    ]


def limited(
    name: str, items: list[dict], config, show_all: frozenset[str] = frozenset()
) -> list[dict]:
    """``items`` cut to the queue's limit (none when its ``unlimit`` option is in
    ``show_all``)."""
    unit = registry.unit(name)
    if unit is None or unit.limit is None or unit.unlimit in show_all:
        return items
    return items[: unit.limit(config)]


def sorted_pending(result: ScanResult) -> list[str]:
    """The pending queues, in the registry's order."""
    return [n for n in registry.queue_names() if n in result.pending]


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
