"""Helpers every test folder uses: the fragments table, and the screen as plain text.

A plain module (not a conftest) so that it can be imported by name from any folder, and by
the hostile tests' worker processes.
"""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

from rich.console import Console

FRAGMENT_COLUMNS = (
    "id, date, category, theme, content, context, emotion, source_date, content_hash, "
    "created_at, status, mention_count, first_seen, last_seen, confidence, skill_candidate"
)


def write_dreams_db(path: Path, rows) -> None:
    """A ``dreams.db`` holding ``rows`` (dicts; missing columns are NULL)."""
    con = sqlite3.connect(path)
    con.execute(f"CREATE TABLE dreams ({FRAGMENT_COLUMNS})")
    cols = [c.strip() for c in FRAGMENT_COLUMNS.split(",")]
    for row in rows:
        con.execute(
            f"INSERT INTO dreams VALUES ({','.join('?' * len(cols))})",
            [row.get(c) for c in cols],
        )
    con.commit()
    con.close()


def screen_text(app) -> str:
    """The screen as plain text, as a user would read it."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        legacy_windows=False,
        force_terminal=True,
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)
