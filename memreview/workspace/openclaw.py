"""OpenClaw's usage data: recall events and the short-term recall store (DESIGN §1.3, §1.6).

OpenClaw records what its memory search returned as line ranges of workspace files, not as
anchor ids: ``memory/.dreams/events.jsonl`` (``memory.recall.recorded`` events) and the
short-term recall store — the legacy ``memory/.dreams/short-term-recall.json`` or, in current
releases, rows of its SQLite state database (``plugin_state_entries``, plugin ``memory-core``,
namespace ``short-term-recall``), one database for every workspace of the machine. memreview
uses them where a workspace has no recall log: a recall of lines that hold an entry is a
recall of that entry.

Parsing only: the loader reads the bytes, and the state database is opened read-only.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from memreview.i18n import N_, Message
from memreview.workspace.dates import parse_date_prefix
from memreview.workspace.process import pid_alive

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


def _int(v) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None


def _day(value) -> date | None:
    """The date of an ISO timestamp as written, or of epoch seconds/milliseconds (UTC)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        try:
            return datetime.fromtimestamp(value / 1000 if value > 1e11 else value, UTC).date()
        except (OverflowError, OSError, ValueError):
            return None
    return parse_date_prefix(value)


def parse_events(rows, root: Path) -> tuple[list[LineRecall], int]:
    """Recall events from ``(line number, object)`` rows; also the number of recall events
    that were unusable (no date or no results)."""
    out: list[LineRecall] = []
    bad = 0
    for _no, obj in rows:
        if obj.get("type") != RECALL_EVENT:
            continue
        day = _day(obj.get("timestamp") or obj.get("ts"))
        results = obj.get("results")
        if day is None or not isinstance(results, list):
            bad += 1
            continue
        query = obj.get("query") if isinstance(obj.get("query"), str) else ""
        for r in results:
            if not isinstance(r, dict):
                continue
            path = relative(r.get("path") if isinstance(r.get("path"), str) else "", root)
            start, end = _int(r.get("startLine")), _int(r.get("endLine"))
            if path is None or start is None:
                continue
            out.append(LineRecall(day, path, start, max(start, end or start), query))
    return out, bad


def _entry(key: str, value: Mapping, root: Path) -> StoreEntry | None:
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
    )


def parse_store_json(doc, root: Path) -> list[StoreEntry] | None:
    """The legacy ``short-term-recall.json`` (None when it is not that shape)."""
    entries = doc.get("entries") if isinstance(doc, dict) else None
    if not isinstance(entries, dict):
        return None
    out = []
    for key, value in entries.items():
        if isinstance(value, dict):
            e = _entry(str(value.get("key") or key), value, root)
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


def _connect_ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=0.5)


class _Mine:
    """Whether a row (``{workspaceDir, …}``, or an entry key starting with the sha256 of the
    workspace path) belongs to the workspace at ``root``."""

    def __init__(self, root: Path) -> None:
        self.want = {str(root), os.path.realpath(root)}
        self.keys = tuple(hashlib.sha256(w.encode("utf-8")).hexdigest() for w in self.want)
        self._seen: dict[str, bool] = {}

    def __call__(self, doc: Mapping, entry_key: str) -> bool:
        where = doc.get("workspaceDir")
        if isinstance(where, str):
            if where not in self._seen:  # one realpath per directory named, not per row
                self._seen[where] = (
                    where in self.want or os.path.realpath(os.path.expanduser(where)) in self.want
                )
            return self._seen[where]
        return str(entry_key).startswith(self.keys)


def read_state_rows(
    path: Path, root: Path, namespace: str
) -> tuple[list[tuple[str, dict, int | None, int | None]] | None, Message | None]:
    """This workspace's rows of ``namespace`` (plugin ``memory-core``) in OpenClaw's state
    database, opened read-only: ``(entry_key, value_json document, created_at, expires_at)``;
    (None, reason) when it can't be read. Rows of other workspaces are skipped."""
    try:
        con = _connect_ro(path)
    except (sqlite3.Error, OSError, RuntimeError, ValueError) as exc:
        return None, Message(N_("cannot open OpenClaw's state database: {error}"), error=str(exc))
    try:
        rows = con.execute(
            "SELECT entry_key, value_json, created_at, expires_at FROM plugin_state_entries "
            "WHERE plugin_id = ? AND namespace = ?",
            (STORE_PLUGIN, namespace),
        ).fetchall()
    except sqlite3.Error as exc:
        return None, Message(N_("cannot read OpenClaw's state database: {error}"), error=str(exc))
    finally:
        con.close()
    out = []
    mine = _Mine(root)
    for entry_key, raw, created, expires in rows:
        try:
            doc = json.loads(raw) if raw else {}
        except (TypeError, ValueError):
            continue
        if not isinstance(doc, dict) or not mine(doc, str(entry_key)):
            continue
        out.append((str(entry_key), doc, _ms(created), _ms(expires)))
    return out, None


def _ms(v) -> int | None:
    return int(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def read_state_db(path: Path, root: Path) -> tuple[list[StoreEntry] | None, Message | None]:
    """This workspace's rows of the short-term store in OpenClaw's state database, opened
    read-only; (None, reason) when it can't be read. Rows of other workspaces are skipped."""
    rows, problem = read_state_rows(path, root, STORE_NAMESPACE)
    if rows is None:
        return None, problem
    out: list[StoreEntry] = []
    for _key, doc, _created, _expires in rows:
        value = doc.get("value")
        if not isinstance(value, dict):
            continue
        e = _entry(str(doc.get("key") or value.get("key") or ""), value, root)
        if e is not None:
            out.append(e)
    return out, None


def store_values(path: Path, root: Path) -> list[dict]:
    """The ``value`` objects of this workspace's short-term store rows (snippets, counts),
    [] when the database can't be read."""
    rows, _problem = read_state_rows(path, root, STORE_NAMESPACE)
    return [d["value"] for _k, d, _c, _e in rows or () if isinstance(d.get("value"), dict)]


@dataclass(frozen=True)
class LockRow:
    """A ``short-term-locks`` row: OpenClaw's promotion lock on a workspace.

    Written by memory-core as ``{owner: "<pid>:<token>", acquiredAt: <ms>, ownerStartTime?}``
    (older rows: ``pid``); OpenClaw itself takes a row over once it is older than 60 s and its
    owner's process is dead or not named (``isShortTermLockStealable``).
    """

    db: Path
    entry_key: str
    owner: str
    pid: int | None
    acquired_ms: int | None
    expires_ms: int | None

    def state(self, now_ms: int, stale_ms: int, alive) -> str:
        """``held``, ``stale`` (OpenClaw may take it over) or ``expired``."""
        if self.expires_ms is not None and self.expires_ms <= now_ms:
            return "expired"
        if self.acquired_ms is not None and now_ms - self.acquired_ms <= stale_ms:
            return "held"
        if self.pid is not None and alive(self.pid):
            return "held"
        if self.acquired_ms is None and self.pid is None:
            return "held"  # nothing to judge it by: treat as live, as memreview always has
        return "stale"


_OWNER_PID = re.compile(r"^\s*(\d+):")


def owner_pid(value: Mapping) -> int | None:
    """The process a lock row names: ``owner`` as ``<pid>:<anything>`` (memory-core's
    ``parseLockOwnerPid``), or a ``pid``/``ownerPid``/``holderPid`` number."""
    owner = value.get("owner")
    if isinstance(owner, str):
        m = _OWNER_PID.match(owner)
        if m and int(m.group(1)) > 0:
            return int(m.group(1))
    for key in ("pid", "ownerPid", "holderPid"):
        v = value.get(key)
        if isinstance(v, int) and not isinstance(v, bool) and v > 0:
            return v
    return None


def read_lock_rows(path: Path, root: Path) -> list[LockRow]:
    """OpenClaw's promotion lock rows on this workspace ([] when there are none or the
    database can't be read). A row naming no workspace counts as this one's unless its key
    looks like another workspace's (``<hash>:…``)."""
    try:
        con = _connect_ro(path)
        try:
            rows = con.execute(
                "SELECT entry_key, value_json, expires_at FROM plugin_state_entries "
                "WHERE namespace = ?",
                (LOCK_NAMESPACE,),
            ).fetchall()
        finally:
            con.close()
    except (sqlite3.Error, OSError, RuntimeError, ValueError):
        return []
    out = []
    mine = _Mine(root)
    for entry_key, raw, expires in rows:
        try:
            doc = json.loads(raw) if raw else {}
        except (TypeError, ValueError):
            doc = {}
        doc = doc if isinstance(doc, dict) else {}
        if not mine(doc, str(entry_key)) and (
            "workspaceDir" in doc or ":" in str(entry_key)
        ):
            continue
        value = doc.get("value") if isinstance(doc.get("value"), dict) else {}
        owner = value.get("owner") if isinstance(value.get("owner"), str) else ""
        out.append(
            LockRow(
                db=path,
                entry_key=str(entry_key),
                owner=owner,
                pid=owner_pid(value) or owner_pid(doc),
                acquired_ms=_ms(value.get("acquiredAt")),
                expires_ms=_ms(expires),
            )
        )
    return out


def lock_states(
    db: Path, root: Path, stale_ms: int, now_ms: int | None = None
) -> list[tuple[LockRow, str]]:
    """OpenClaw's promotion lock rows on ``root`` with their state now (``held``, ``stale``
    or ``expired``, see :meth:`LockRow.state`), measured against the clock."""
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    return [(row, row.state(now_ms, stale_ms, pid_alive)) for row in read_lock_rows(db, root)]


META_NAMESPACE = "short-term-meta"


def store_updated(path: Path, root: Path) -> list[date]:
    """When OpenClaw last changed this workspace's short-term store: the ``updatedAt`` of its
    ``short-term-meta`` rows (``recall``, ``phase``); [] when unknown."""
    rows, _problem = read_state_rows(path, root, META_NAMESPACE)
    out = []
    for _key, doc, _created, _expires in rows or ():
        value = doc.get("value") if isinstance(doc.get("value"), dict) else doc
        day = _day(value.get("updatedAt"))
        if day is not None:
            out.append(day)
    return out


def legacy_updated(doc) -> date | None:
    """The ``updatedAt`` of a legacy ``short-term-recall.json`` document."""
    return _day(doc.get("updatedAt")) if isinstance(doc, dict) else None
