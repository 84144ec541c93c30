"""Load a workspace and compute every queue: the model the CLI and the app share."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from memreview.decisions import registry
from memreview.decisions.reviewed import workspace_alarms
from memreview.decisions.state import State, load_state
from memreview.health import SCHEMA
from memreview.health import health as compute_health
from memreview.judge_card import promotion_card, report_card
from memreview.workspace.loader import check_workspace, load_workspace, review_date
from memreview.workspace.model import Workspace


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

    @property
    def counts(self) -> dict[str, int]:
        return {name: len(items) for name, items in self.queues.items()}

    @property
    def warnings(self) -> list[dict]:
        return [w.to_json() for w in self.workspace.warnings]

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
            for name, items in self.queues.items():
                for it in items:
                    for key in _ref_keys(it):
                        index.setdefault(key, []).append((name, it))
            self.__dict__["_related"] = index
        out: dict[str, tuple[str, dict]] = {}
        found = self.item(item_id)
        for key in _ref_keys(found[1]) if found else ():
            for name, it in index.get(key, ()):
                if it["id"] != item_id:
                    out.setdefault(it["id"], (name, it))
        return list(out.values())

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
            "warnings": self.warnings,
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


def compute(
    ws: Workspace,
    today: date,
    state: State,
    all_dormant: bool = False,
    progress: Callable[[str, float], None] | None = None,
    all_promotions: bool = False,
) -> ScanResult:
    """Every queue and the health figures of a loaded workspace; decisions in ``state``
    hide items (``all_dormant`` lifts the dormant queue's limit, ``all_promotions`` shows
    the promotions already reviewed too)."""
    report = progress or (lambda stage, frac: None)
    all_queues: dict[str, list[dict]] = {}
    queues: dict[str, list[dict]] = {}
    hidden: dict[str, int] = {}
    # The slow queues (archived: mostly numpy and rapidfuzz work, which lets go of the GIL)
    # run in a thread of their own while the other queues are computed (both cores).
    units = registry.units()
    computed: dict[str, list[dict]] = {}
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="memreview-queue") as pool:
        slow = {u.name: pool.submit(u.detect, ws, today) for u in units if u.slow}
        for k, unit in enumerate(units):
            report(f"queue: {unit.name}", 0.9 + 0.08 * k / len(units))
            if not unit.slow:
                computed[unit.name] = unit.detect(ws, today)
        report("health", 0.99)
        health = compute_health(ws, today)
        health["judge"] = _judge_card(ws)
        health["alarms"] = [a.to_json() for a in workspace_alarms(ws, today)]
        for name, future in slow.items():
            computed[name] = future.result()
        if "promotions" in computed:
            health["promotions"] = promotion_health(ws, computed["promotions"], today)
    for unit in units:
        name = unit.name
        items = computed[name]
        all_queues[name] = items
        if all_promotions and name == "promotions":
            shown = list(items)
        else:
            shown = [it for it in items if not state.is_hidden(it["id"], today)]
        hidden[name] = len(items) - len(shown)
        if unit.limit is not None and not all_dormant:
            shown = shown[: unit.limit(ws.config)]
        queues[name] = shown
    result = ScanResult(
        root=ws.root,
        today=today,
        workspace=ws,
        queues=queues,
        health=health,
        missing=_missing(ws),
        state=state,
        hidden=hidden,
        all_queues=all_queues,
    )
    report("done", 1.0)
    return result


def scan_workspace(
    root: Path,
    today: date | None = None,
    all_dormant: bool = False,
    progress: Callable[[str, float], None] | None = None,
    all_promotions: bool = False,
) -> ScanResult:
    """Load the workspace at ``root`` and compute its queues (NotAWorkspace if it isn't one)."""
    root = check_workspace(Path(root))
    ws = load_workspace(root, progress=progress)
    day = review_date(ws, today)
    state = load_state(root, ws)
    return compute(
        ws, day, state, all_dormant=all_dormant, progress=progress, all_promotions=all_promotions
    )


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
