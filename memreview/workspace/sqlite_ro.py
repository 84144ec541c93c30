"""SQLite databases from the workspace (or OpenClaw's state directory), read with a budget.

The agent can write the database: a ``dreams`` that is a view over an endless recursive
query, or a table of a billion rows, must not hang a scan or a cron ``doctor``. Every read
here is read-only, names only real tables (``sqlite_master`` type ``table``, not a view,
not a virtual table), and stops with ``sqlite3.OperationalError`` ("interrupted") once it
has run for ``READ_SECONDS`` (a progress handler) or returned ``ROW_CAP`` rows.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from memreview.i18n import _

READ_SECONDS = 10.0
ROW_CAP = 1_000_000
_STEPS = 10_000  # SQLite virtual-machine steps between two looks at the clock


class NotATable(sqlite3.DatabaseError):
    """The name is missing, a view or a virtual table."""


def connect_ro(
    path: Path, *, busy: float = 0.5, seconds: float = READ_SECONDS
) -> sqlite3.Connection:
    """``path`` opened read-only, every statement bounded by ``seconds`` in all."""
    con = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True, timeout=busy)
    deadline = time.monotonic() + seconds
    con.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, _STEPS)
    try:
        con.execute("PRAGMA trusted_schema = OFF")
    except sqlite3.Error:
        pass  # an older SQLite: nothing in a plain SELECT of a table uses it
    return con


def table_kind(con: sqlite3.Connection, name: str) -> str | None:
    """``table``, ``view``, ``virtual`` or None (no such name) for ``name``."""
    row = con.execute(
        "SELECT type, sql FROM sqlite_master WHERE name = ? COLLATE NOCASE AND type IN "
        "('table', 'view') LIMIT 1",
        (name,),
    ).fetchone()
    if row is None:
        return None
    kind, sql = row
    if kind == "table" and str(sql or "").lstrip().upper().startswith("CREATE VIRTUAL"):
        return "virtual"
    return str(kind)


def require_table(con: sqlite3.Connection, name: str) -> None:
    """Raise NotATable unless ``name`` is a real table."""
    kind = table_kind(con, name)
    if kind != "table":
        if kind is None:
            raise NotATable(_("no table {name}; not read").format(name=name))
        raise NotATable(_("{name} is a {kind}, not a table; not read").format(name=name, kind=kind))


def rows(
    con: sqlite3.Connection, sql: str, params: tuple[Any, ...] = (), cap: int = ROW_CAP
) -> list[tuple[Any, ...]]:
    """The rows of ``sql``, at most ``cap`` of them (more: OperationalError)."""
    cur = con.execute(sql, params)
    out: list[tuple[Any, ...]] = []
    while batch := cur.fetchmany(4096):
        out.extend(batch)
        if len(out) > cap:
            raise sqlite3.OperationalError(
                _("more than {count} rows; not read").format(count=f"{cap:,}")
            )
    return out
