"""OpenClaw's state database (``state/openclaw.sqlite``), read-only: this workspace's rows of
the short-term recall store, of its meta rows, and of the promotion locks memory-core takes
on a workspace (docs/design.md §1.3, §1.6). One database serves every workspace of the machine, so
rows of other workspaces are skipped. Where the database is: ``openclaw.find_state_db``.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from memreview.i18n import N_, Message
from memreview.workspace import jsondoc, sqlite_ro
from memreview.workspace.dates import parse_day_stamp
from memreview.workspace.openclaw import (
    LOCK_NAMESPACE,
    STORE_NAMESPACE,
    STORE_PLUGIN,
    StoreEntry,
    store_entry,
)
from memreview.workspace.process import pid_alive


def _connect_ro(path: Path) -> sqlite3.Connection:
    return sqlite_ro.connect_ro(path)


class _Mine:
    """Whether a row (``{workspaceDir, …}``, or an entry key starting with the sha256 of the
    workspace path) belongs to the workspace at ``root``."""

    def __init__(self, root: Path) -> None:
        self.want = {str(root), os.path.realpath(root)}
        self.keys = tuple(hashlib.sha256(w.encode("utf-8")).hexdigest() for w in self.want)
        self._seen: dict[str, bool] = {}

    def __call__(self, doc: Mapping[str, Any], entry_key: str) -> bool:
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
) -> tuple[list[tuple[str, dict[str, Any], int | None, int | None]] | None, str | None]:
    """This workspace's rows of ``namespace`` (plugin ``memory-core``) in OpenClaw's state
    database, opened read-only: ``(entry_key, value_json document, created_at, expires_at)``;
    (None, reason) when it can't be read. Rows of other workspaces are skipped."""
    try:
        con = _connect_ro(path)
    except (sqlite3.Error, OSError, RuntimeError, ValueError) as exc:
        return None, Message(N_("cannot open OpenClaw's state database: {error}"), error=str(exc))
    try:
        sqlite_ro.require_table(con, "plugin_state_entries")
        rows = sqlite_ro.rows(
            con,
            "SELECT entry_key, value_json, created_at, expires_at FROM plugin_state_entries "
            "WHERE plugin_id = ? AND namespace = ?",
            (STORE_PLUGIN, namespace),
        )
    except sqlite3.Error as exc:
        return None, Message(N_("cannot read OpenClaw's state database: {error}"), error=str(exc))
    finally:
        con.close()
    out = []
    mine = _Mine(root)
    for entry_key, raw, created, expires in rows:
        try:
            doc = jsondoc.loads(raw) if raw else {}
        except (TypeError, ValueError):
            continue
        if not isinstance(doc, dict) or not mine(doc, str(entry_key)):
            continue
        out.append((str(entry_key), doc, _ms(created), _ms(expires)))
    return out, None


def _mapping(v: object) -> dict[str, Any]:
    """``v`` when it is an object, else an empty one."""
    return v if isinstance(v, dict) else {}


def _ms(v: object) -> int | None:
    return int(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def read_state_db(path: Path, root: Path) -> tuple[list[StoreEntry] | None, str | None]:
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
        e = store_entry(str(doc.get("key") or value.get("key") or ""), value, root)
        if e is not None:
            out.append(e)
    return out, None


def store_values(path: Path, root: Path) -> list[dict[str, Any]]:
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

    def state(self, now_ms: int, stale_ms: int, alive: Callable[[int], bool]) -> str:
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


def owner_pid(value: Mapping[str, Any]) -> int | None:
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
            sqlite_ro.require_table(con, "plugin_state_entries")
            rows = sqlite_ro.rows(
                con,
                "SELECT entry_key, value_json, expires_at FROM plugin_state_entries "
                "WHERE namespace = ?",
                (LOCK_NAMESPACE,),
            )
        finally:
            con.close()
    except (sqlite3.Error, OSError, RuntimeError, ValueError):
        return []
    out = []
    mine = _Mine(root)
    for entry_key, raw, expires in rows:
        try:
            doc = jsondoc.loads(raw) if raw else {}
        except (TypeError, ValueError):
            doc = {}
        doc = doc if isinstance(doc, dict) else {}
        if not mine(doc, str(entry_key)) and ("workspaceDir" in doc or ":" in str(entry_key)):
            continue
        value = _mapping(doc.get("value"))
        raw_owner = value.get("owner")
        owner = raw_owner if isinstance(raw_owner, str) else ""
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
        value = doc.get("value")
        value = value if isinstance(value, dict) else doc
        day = parse_day_stamp(value.get("updatedAt"))
        if day is not None:
            out.append(day)
    return out
