"""Archived fragments whose content still sits in a memory file (DESIGN §2)."""

from __future__ import annotations

from datetime import date

from rapidfuzz import fuzz, process

from memreview.queues.candidates import candidate_pairs
from memreview.queues.common import item_id, short
from memreview.workspace.model import Entry, Workspace
from memreview.workspace.normalize import normalize


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

    entries: list[Entry] = [
        e for mf in ws.files.values() for e in mf.entries if len(e.norm) >= cfg.min_match_chars
    ]
    norms = [n for _f, n, _d in wanted]
    texts = [e.norm for e in entries]
    # partial_ratio ≥ 90 leaves at most a fifth of the shorter string's length in edits.
    share = (100 - cfg.archived_partial_ratio) / 50
    # The fragment is looked for inside each entry: an entry shorter than the fragment can't
    # hold its content (partial_ratio would otherwise score a short entry found inside a
    # long fragment).
    candidates = candidate_pairs(norms, texts, share)

    items = []
    cutoff = cfg.archived_partial_ratio
    for k, (f, norm, days) in enumerate(wanted):
        spans = candidates.get(k, {})
        cand = sorted(ei for ei in spans if len(texts[ei]) >= len(norm))
        # Score only the stretch of each entry where a match must lie (cheaper), then
        # confirm a hit on the whole entry: a stretch's own ends could score a window the
        # whole text wouldn't. A substring scores 100.
        stretches = [texts[ei][spans[ei][0] : spans[ei][1]] for ei in cand]
        near = process.extract(
            norm, stretches, scorer=fuzz.partial_ratio, score_cutoff=cutoff, limit=None
        )
        matches = []
        for at in sorted(r[2] for r in near):
            ei = cand[at]
            score = fuzz.partial_ratio(norm, texts[ei], score_cutoff=cutoff)
            if score:
                matches.append({**entries[ei].ref(), "score": round(float(score), 1)})
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
