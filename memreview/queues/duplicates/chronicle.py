"""The chronicle queue kind: rows of one day in a chronicle table, merged as seed 002 does."""

from __future__ import annotations

import re
from collections import defaultdict

from memreview.i18n import _
from memreview.queues.common import item_id
from memreview.workspace.model import ChronicleRow, Workspace

_EVENT_SPLIT = re.compile(r"[；;]")


def chronicle_merge(rows: list[ChronicleRow]) -> tuple[ChronicleRow, str]:
    """Seed 002's merge: keep the longest row, append the others' new events with '；'."""
    kept = max(rows, key=lambda r: len(r.text))  # max keeps the first on a tie
    events = kept.events
    for r in rows:
        if r is kept:
            continue
        for ev in _EVENT_SPLIT.split(r.events):
            ev = ev.strip()
            if ev and ev not in events:
                events = f"{events}；{ev}" if events else ev
    parts = kept.text.split("|")
    # parts: [lead, date, events, …, trail]; keep every other cell and the spacing style
    if len(parts) >= 3:
        cell = parts[2]
        lead = cell[: len(cell) - len(cell.lstrip())] or " "
        tail = cell[len(cell.rstrip()) :] or " "
        parts[2] = f"{lead}{events}{tail}"
    return kept, "|".join(parts)


def chronicle_items(ws: Workspace) -> list[dict]:
    """One item per day with two or more rows in a file's chronicle table, with the
    merged row seed 002 proposes (``chronicle_merge``)."""
    items = []
    for mf in ws.files.values():
        by_date: dict[str, list[ChronicleRow]] = defaultdict(list)
        for row in mf.chronicle:
            by_date[row.date].append(row)
        for day, rows in by_date.items():
            if len(rows) < 2:
                continue
            kept, merged = chronicle_merge(rows)
            ordered = [kept] + [r for r in rows if r is not kept]
            items.append(
                {
                    "id": item_id("d", "chronicle", mf.rel, day, *sorted(r.text for r in rows)),
                    "title": _("{day}: {count} chronicle rows").format(day=day, count=len(rows)),
                    "kind": "chronicle",
                    "refs": [r.entry.ref() for r in ordered],
                    "merged": merged,
                    "score": None,
                }
            )
    return items
