"""OpenClaw's usage data: recall events and the short-term recall store (docs/design.md §1.3, §1.6).

OpenClaw records what its memory search returned as line ranges of workspace files, not as
anchor ids: ``memory/.dreams/events.jsonl`` (``memory.recall.recorded`` events) and the
short-term recall store — the legacy ``memory/.dreams/short-term-recall.json`` or, in current
releases, rows of its SQLite state database (``plugin_state_entries``, plugin ``memory-core``,
namespace ``short-term-recall``), one database for every workspace of the machine. memreview
uses them where a workspace has no recall log: a recall of lines that hold an entry is a
recall of that entry.

Parsing only: the loader reads the bytes. Where the state database is: here; its rows (the
store, its meta rows, the promotion locks), read-only: :mod:`memreview.workspace.openclaw_state`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from memreview.workspace.dates import parse_date_prefix, parse_day_stamp

RECALL_EVENT = "memory.recall.recorded"
STATE_DB = Path("state") / "openclaw.sqlite"
STORE_PLUGIN = "memory-core"
STORE_NAMESPACE = "short-term-recall"
LOCK_NAMESPACE = "short-term-locks"


@dataclass(frozen=True)
class LineRecall:
    """One recall of lines ``start..end`` (1-based, inclusive) of a workspace file."""

    day: date
    path: str  # relative to the workspace, with /
    start: int
    end: int
    query: str = ""


@dataclass(frozen=True)
class StoreEntry:
    """A row of the short-term recall store (``memory:<path>:<start>:<end>``)."""

    key: str
    path: str
    start: int
    end: int
    recall_days: tuple[date, ...]
    last_recalled: date | None
    promoted_at: date | None
    # what the queue of candidates about to be dropped shows (and OpenClaw's gates read)
    snippet: str = ""
    signals: int = 0  # recallCount + dailyCount + groundedCount
    avg: float | None = None  # totalScore / signals
    queries: int = 0  # max(unique query hashes, recall days)


@dataclass
class Usage:
    """Everything OpenClaw recorded about recalls in one workspace."""

    recalls: list[LineRecall] = field(default_factory=list)
    store: dict[str, StoreEntry] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)  # what was read, for the owner

    def add_store(self, entries: list[StoreEntry]) -> None:
        """Add the store's rows; a recall day already recorded as an event counts once."""
        seen = {(r.day, r.path, r.start, r.end) for r in self.recalls}
        for e in entries:
            self.store.setdefault(e.key, e)
            days = set(e.recall_days)
            if e.last_recalled is not None:
                days.add(e.last_recalled)
            for day in sorted(days):
                if (day, e.path, e.start, e.end) not in seen:
                    seen.add((day, e.path, e.start, e.end))
                    self.recalls.append(LineRecall(day, e.path, e.start, e.end))


def store_key(marker: str) -> str:
    """The store key of a promotion marker (``memory:<path>:<start>:<end>``, without the
    optional claim hash that newer markers carry)."""
    parts = marker.split(":")
    return ":".join(parts[:4]) if len(parts) > 4 else marker


def relative(path: str, root: Path) -> str | None:
    """A recorded path as a workspace-relative one (None when it lies outside)."""
    if not path:
        return None
    p = path.replace("\\", "/")
    if os.path.isabs(p):
        try:
            return Path(os.path.normpath(p)).relative_to(root).as_posix()
        except ValueError:
            return None
    norm = os.path.normpath(p).replace("\\", "/")
    return None if norm.startswith("../") or norm == ".." else norm


def _int(v: object) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None


def parse_events(rows: Iterable[Any], root: Path) -> tuple[list[LineRecall], int]:
    """Recall events from ``(line number, object)`` rows; also the number of recall events
    that were unusable (no date or no results)."""
    out: list[LineRecall] = []
    bad = 0
    for _no, obj in rows:
        if obj.get("type") != RECALL_EVENT:
            continue
        day = parse_day_stamp(obj.get("timestamp") or obj.get("ts"))
        results = obj.get("results")
        if day is None or not isinstance(results, list):
            bad += 1
            continue
        query = obj.get("query") if isinstance(obj.get("query"), str) else ""
        for r in results:
            if not isinstance(r, dict):
                continue
            raw_path = r.get("path")
            path = relative(raw_path if isinstance(raw_path, str) else "", root)
            start, end = _int(r.get("startLine")), _int(r.get("endLine"))
            if path is None or start is None:
                continue
            out.append(LineRecall(day, path, start, max(start, end or start), query))
    return out, bad


def store_entry(key: str, value: Mapping[str, Any], root: Path) -> StoreEntry | None:
    """One short-term store entry (its lines from ``path``/``startLine``/``endLine``, else from
    its key ``memory:<path>:<start>:<end>``); None when it names no lines of the workspace."""
    path = value.get("path")
    path = relative(path, root) if isinstance(path, str) else None
    start, end = _int(value.get("startLine")), _int(value.get("endLine"))
    if path is None or start is None:
        parts = key.split(":")
        if len(parts) < 4:
            return None
        try:
            path, start, end = relative(parts[1], root), int(parts[2]), int(parts[3])
        except ValueError:
            return None
        if path is None:
            return None
    days = value.get("recallDays")
    parsed = (parse_date_prefix(x) for x in days) if isinstance(days, list) else ()
    recall_days = tuple(d for d in parsed if d is not None)
    return StoreEntry(
        key=key,
        path=path,
        start=start,
        end=max(start, end or start),
        recall_days=recall_days,
        last_recalled=parse_date_prefix(value.get("lastRecalledAt")),
        promoted_at=parse_date_prefix(value.get("promotedAt")),
        **_figures(value, recall_days),
    )


def _count(v: object) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 0


def _figures(value: Mapping[str, Any], recall_days: tuple[date, ...]) -> dict[str, Any]:
    """The snippet and the figures OpenClaw's promotion gates read, as its ranking counts them
    (signals: recalls, daily and grounded hits; queries: unique query hashes or recall days)."""
    snippet = value.get("snippet")
    signals = sum(_count(value.get(k)) for k in ("recallCount", "dailyCount", "groundedCount"))
    total = value.get("totalScore")
    avg = None
    if isinstance(total, int | float) and not isinstance(total, bool) and signals:
        avg = max(0.0, min(1.0, float(total) / signals))
    hashes = value.get("userQueryHashes") or value.get("queryHashes")
    queries = len(hashes) if isinstance(hashes, list) else 0
    return {
        "snippet": snippet[:2000] if isinstance(snippet, str) else "",
        "signals": signals,
        "avg": avg,
        "queries": max(queries, len(recall_days)),
    }


def parse_store_json(doc: object, root: Path) -> list[StoreEntry] | None:
    """The legacy ``short-term-recall.json`` (None when it is not that shape)."""
    entries = doc.get("entries") if isinstance(doc, dict) else None
    if not isinstance(entries, dict):
        return None
    out = []
    for key, value in entries.items():
        if isinstance(value, dict):
            e = store_entry(str(value.get("key") or key), value, root)
            if e is not None:
                out.append(e)
    return out


def state_db_candidates(root: Path, setting: str, environ: Mapping[str, str]) -> list[Path]:
    """Where OpenClaw's state database may be, most specific first: the configured path
    (relative to the workspace), the state directory the workspace lives in
    (``<state>/workspace``, ``<state>/workspace-<agent>``), ``$OPENCLAW_STATE_DIR``,
    ``~/.openclaw-<profile>`` for ``$OPENCLAW_PROFILE``, ``~/.openclaw``."""
    if setting:
        p = Path(setting).expanduser()
        return [p if p.is_absolute() else root / p]
    out: list[Path] = []
    if root.name == "workspace" or root.name.startswith("workspace-"):
        out.append(root.parent / STATE_DB)
    state = environ.get("OPENCLAW_STATE_DIR")
    if state:
        out.append(Path(state).expanduser() / STATE_DB)
    home = Path(environ.get("HOME") or Path.home())
    profile = environ.get("OPENCLAW_PROFILE")
    if profile and profile != "default":
        out.append(home / f".openclaw-{profile}" / STATE_DB)
    out.append(home / ".openclaw" / STATE_DB)
    return list(dict.fromkeys(out))


def find_state_db(root: Path, setting: str, environ: Mapping[str, str]) -> Path | None:
    """OpenClaw's state database for this workspace: the first of ``state_db_candidates``
    that is a file, or None when there is none."""
    for db in state_db_candidates(root, setting, environ):
        try:
            if db.is_file():
                return db
        except OSError:
            continue
    return None


def legacy_updated(doc: object) -> date | None:
    """The ``updatedAt`` of a legacy ``short-term-recall.json`` document."""
    return parse_day_stamp(doc.get("updatedAt")) if isinstance(doc, dict) else None
