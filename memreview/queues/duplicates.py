"""Duplicates: chronicle dates, fingerprint groups, near duplicates (DESIGN §1.5, §2)."""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import date

import numpy as np
from rapidfuzz import fuzz, process

from memreview.queues.common import item_id, short
from memreview.workspace.model import ChronicleRow, Entry, Workspace
from memreview.workspace.normalize import confirmed_key, fingerprint

_EVENT_SPLIT = re.compile(r"[；;]")
BLOCK_KEY = 8  # near duplicates are looked for among entries sharing a prefix or suffix
WINDOW = 12  # and among neighbours in sorted order
BIG_BLOCK = 64  # blocks larger than this are compared in rapidfuzz's own loop
# Files with up to this many entries have every pair compared (rapidfuzz's C++ loop, about
# 0.2 s at the limit); only larger files fall back to the blocked search, which can miss a
# pair whose edits touch both ends.
EXACT_LIMIT = 2000


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


def _chronicle_items(ws: Workspace) -> list[dict]:
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
                    "title": f"{day}: {len(rows)} chronicle rows",
                    "kind": "chronicle",
                    "refs": [r.entry.ref() for r in ordered],
                    "merged": merged,
                    "score": None,
                }
            )
    return items


def comparable(e: Entry) -> bool:
    return e.kind != "anchor" and e.in_anchor is None and not e.in_chronicle and bool(e.norm)


def _fingerprint_groups(entries: list[Entry]) -> list[list[Entry]]:
    groups: dict[tuple, list[Entry]] = defaultdict(list)
    for e in entries:
        groups[(e.section_line, fingerprint(e.norm), confirmed_key(e.norm))].append(e)
    return [g for g in groups.values() if len(g) > 1]


def _near_pairs(norms: list[str], cutoff: float) -> dict[tuple[int, int], float]:
    """Pairs (i < j) with ratio ≥ cutoff: all of them up to EXACT_LIMIT entries, else among
    blocked candidates only."""
    if len(norms) <= EXACT_LIMIT:
        return _all_near_pairs(norms, cutoff)
    blocks: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(norms):
        blocks["<" + s[:BLOCK_KEY]].append(i)
        blocks[">" + s[-BLOCK_KEY:]].append(i)
    cand: set[tuple[int, int]] = set()
    out: dict[tuple[int, int], float] = {}
    for members in blocks.values():
        if len(members) < 2:
            continue
        if len(members) > BIG_BLOCK:
            for i, j, s in _near_pairs_big_block(norms, members, cutoff):
                out[(i, j) if i < j else (j, i)] = s
            continue
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                i, j = members[x], members[y]
                cand.add((i, j) if i < j else (j, i))
    # neighbours in sorted order catch pairs whose edits touch both ends
    order = sorted(range(len(norms)), key=norms.__getitem__)
    for x in range(len(order)):
        for y in range(x + 1, min(x + 1 + WINDOW, len(order))):
            i, j = order[x], order[y]
            cand.add((i, j) if i < j else (j, i))
    ratio = fuzz.ratio
    for i, j in cand - out.keys():
        s = ratio(norms[i], norms[j], score_cutoff=cutoff)
        if s:
            out[(i, j)] = s
    return out


def _all_near_pairs(norms: list[str], cutoff: float) -> dict[tuple[int, int], float]:
    """Every pair (i < j) with ratio ≥ cutoff.

    ratio = 2·LCS / (|a| + |b|) ≤ 2·min / (min + max), so a pair can only reach the cutoff
    when min/max ≥ cutoff / (200 − cutoff): rows are taken in order of length, in chunks,
    and each chunk is scored only against the columns whose length allows it.
    """
    out: dict[tuple[int, int], float] = {}
    order = sorted(range(len(norms)), key=lambda i: len(norms[i]))
    by_len = [norms[i] for i in order]
    lengths = np.fromiter(map(len, by_len), dtype=np.int64, count=len(by_len))
    keep = cutoff / (200 - cutoff)
    for start in range(0, len(by_len), 256):  # row chunks keep the score matrix small
        rows = by_len[start : start + 256]
        # columns from the chunk's own start (pairs below it were scored as rows before)
        # up to the longest length the chunk's longest row can pair with
        stop = int(np.searchsorted(lengths, len(rows[-1]) / keep + 1e-9, side="right"))
        scores = process.cdist(
            rows,
            by_len[start:stop],
            scorer=fuzz.ratio,
            score_cutoff=cutoff,
            dtype=np.float64,
            workers=-1,
        )
        for r, c in zip(*(a.tolist() for a in np.nonzero(scores)), strict=True):
            if c > r:
                i, j = order[start + r], order[start + c]
                out[(i, j) if i < j else (j, i)] = float(scores[r, c])
    return out


def _near_pairs_big_block(norms: list[str], members: list[int], cutoff: float):
    """All pairs of one large block, compared in rapidfuzz's C++ loop."""
    sub = [norms[m] for m in members]
    for x, q in enumerate(sub):
        for _choice, score, y in process.extract(
            q, sub, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None
        ):
            if y > x:
                yield members[x], members[y], score


def connected_groups(n: int, edges: list[tuple[int, int, float]]):
    """Connected sets of the pairs (union-find) and each set's lowest pair score."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j, _s in edges:
        parent[find(i)] = find(j)
    low: dict[int, float] = {}
    for i, _j, s in edges:
        r = find(i)
        low[r] = min(low.get(r, 100.0), s)
    comps: dict[int, list[int]] = defaultdict(list)
    for i in range(n):
        r = find(i)
        if r in low:
            comps[r].append(i)
    return comps, low


def duplicates(ws: Workspace, today: date) -> list[dict]:
    cfg = ws.config
    items = _chronicle_items(ws)
    for mf in ws.files.values():
        entries = [e for e in mf.entries if comparable(e)]
        in_group: dict[int, int] = {}
        for g_no, group in enumerate(_fingerprint_groups(entries)):
            for e in group:
                in_group[id(e)] = g_no
            items.append(
                {
                    "id": item_id("d", "fingerprint", mf.rel, *sorted(e.norm for e in group)),
                    "title": short(group[0].first_line),
                    "kind": "fingerprint",
                    "refs": [e.ref() for e in group],
                    "merged": None,
                    "score": None,
                }
            )
        near = [e for e in entries if len(e.norm) >= cfg.min_match_chars]
        if len(near) < 2:
            continue
        pairs = _near_pairs([e.norm for e in near], cfg.near_ratio)
        edges = []
        for (i, j), sc in pairs.items():
            gi, gj = in_group.get(id(near[i])), in_group.get(id(near[j]))
            if gi is None or gi != gj:
                edges.append((i, j, sc))
        comps, low = connected_groups(len(near), edges)
        for r, members in comps.items():
            group = [near[i] for i in sorted(members)]
            items.append(
                {
                    "id": item_id("d", "near", mf.rel, *sorted(e.norm for e in group)),
                    "title": short(group[0].first_line),
                    "kind": "near",
                    "refs": [e.ref() for e in group],
                    "merged": None,
                    "score": round(float(low[r]), 1),
                }
            )
    return items
