"""Archived fragments whose content still sits in a memory file (DESIGN §2)."""

from __future__ import annotations

from datetime import date

from rapidfuzz import fuzz

from memreview.queues.common import item_id, short
from memreview.workspace.model import Entry, Workspace
from memreview.workspace.normalize import normalize

PIECE = 6  # length of the exact pieces used to find candidate entries


def _pieces(norm: str) -> set[str]:
    """Disjoint pieces of ``norm``: a close match keeps at least one of them intact."""
    if len(norm) <= PIECE:
        return {norm}
    out = {norm[i : i + PIECE] for i in range(0, len(norm) - PIECE + 1, PIECE)}
    out.add(norm[-PIECE:])
    return out


def archived(ws: Workspace, today: date) -> list[dict]:
    cfg = ws.config
    if not ws.fragments:
        return []
    wanted: list[tuple] = []
    for f in ws.fragments:
        if f.status != "archived":
            continue
        seen = f.last_seen_date()
        if seen is None:
            continue
        days = (today - seen).days
        if days < cfg.archived_days:
            continue
        norm = normalize(f.content)
        if len(norm) < cfg.min_match_chars:
            continue
        wanted.append((f, norm, days))
    if not wanted:
        return []

    # Candidate filter: an index of the fragments' pieces; each entry is scanned once.
    by_piece: dict[str, list[int]] = {}
    for k, (_f, norm, _d) in enumerate(wanted):
        for p in _pieces(norm):
            by_piece.setdefault(p, []).append(k)
    entries: list[Entry] = [
        e for mf in ws.files.values() for e in mf.entries if len(e.norm) >= cfg.min_match_chars
    ]
    candidates: dict[int, set[int]] = {}
    lengths = {len(p) for p in by_piece}
    for ei, e in enumerate(entries):
        norm = e.norm
        hits: set[int] = set()
        for size in lengths:
            for i in range(len(norm) - size + 1):
                ks = by_piece.get(norm[i : i + size])
                if ks:
                    hits.update(ks)
        for k in hits:
            candidates.setdefault(k, set()).add(ei)

    items = []
    cutoff = cfg.archived_partial_ratio
    for k, (f, norm, days) in enumerate(wanted):
        matches = []
        for ei in sorted(candidates.get(k, ())):
            e = entries[ei]
            if norm in e.norm:
                score = 100.0
            else:
                score = fuzz.partial_ratio(norm, e.norm, score_cutoff=cutoff)
                if not score:
                    continue
            matches.append({**e.ref(), "score": round(float(score), 1)})
        if not matches:
            continue
        items.append(
            {
                "id": item_id("a", f.id, f.content),
                "title": short(f.content),
                "fragment": {
                    "id": f.id,
                    "content": f.content,
                    "status": f.status,
                    "last_seen": f.last_seen,
                },
                "days_since_last_seen": days,
                "matches": matches,
            }
        )
    return items
