"""Archived fragments whose content still sits in a memory file (docs/design.md §2)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

import numpy as np
from rapidfuzz import fuzz, process
from rapidfuzz.distance import LCSseq

from memreview.queues.candidates import candidate_pairs
from memreview.queues.common import item_id, short
from memreview.workspace.model import Entry, Workspace
from memreview.workspace.normalize import normalize


def archived(ws: Workspace, today: date) -> list[dict]:
    """Fragments archived at least ``archived_days`` ago whose text still lives in a memory
    entry (partial ratio ≥ the configured cutoff), with every entry that holds it."""
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
    hits = contained_in(norms, texts, cfg.archived_partial_ratio)
    items = []
    for k, (f, _norm, days) in enumerate(wanted):
        matches = [
            {**entries[ei].ref(), "score": round(float(score), 1)} for ei, score in hits.get(k, [])
        ]
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


def contained_in(
    patterns: list[str], texts: list[str], cutoff: float
) -> dict[int, list[tuple[int, float]]]:
    """For each pattern index, every (text index, score) with ``partial_ratio ≥ cutoff``
    where the text is at least as long as the pattern, in text order.

    The pattern is looked for inside each text: a text shorter than the pattern can't hold
    its content (partial_ratio would otherwise score a short entry found inside a long
    fragment). Three steps, each exact: the q-gram candidate filter, an LCS bound on the
    stretch of text where a match must lie, then the score itself.
    """
    found: dict[int, list[tuple[int, float]]] = defaultdict(list)

    def score(k: int, ti: int) -> None:
        s = fuzz.partial_ratio(patterns[k], texts[ti], score_cutoff=cutoff)
        if s:
            found[k].append((ti, s))

    # A longer text: partial_ratio scores the pattern against the text's windows, which
    # leaves at most (100 − cutoff)/50 of the pattern's length in insertions and deletions.
    candidates = candidate_pairs(patterns, texts, (100 - cutoff) / 50)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    for k, spans in candidates.items():
        longer = lengths[spans.text] > len(patterns[k])
        cand = spans.text[longer].tolist()
        stretches = [
            texts[ti][a:b]
            for ti, a, b in zip(
                cand, spans.lo[longer].tolist(), spans.hi[longer].tolist(), strict=True
            )
        ]
        for at in _lcs_survivors(patterns[k], stretches, cutoff):
            score(k, cand[at])
    # A text exactly as long: partial_ratio also scores the whole text against windows of
    # the pattern, which the filter above doesn't bound. Such texts are few per length;
    # the LCS bound on the whole text sorts them out (rapidfuzz's threads, both cores).
    by_len: dict[int, list[int]] = defaultdict(list)
    for ti, t in enumerate(texts):
        by_len[len(t)].append(ti)
    pats_by_len: dict[int, list[int]] = defaultdict(list)
    for k, p in enumerate(patterns):
        if by_len.get(len(p)):
            pats_by_len[len(p)].append(k)
    for n, ks in pats_by_len.items():
        tis = by_len[n]
        lcs = process.cdist(
            [patterns[k] for k in ks],
            [texts[ti] for ti in tis],
            scorer=LCSseq.similarity,
            dtype=np.int32,
            workers=-1,
        )
        for r, c in zip(*np.nonzero(lcs >= _lcs_needed(n, cutoff)), strict=True):
            score(ks[int(r)], tis[int(c)])
    return {k: sorted(v) for k, v in found.items()}


def _lcs_needed(length: int, cutoff: float) -> float:
    return cutoff * length / (200 - cutoff) - 1e-9


def _lcs_survivors(pattern: str, stretches: list[str], cutoff: float) -> list[int]:
    """Indices of the stretches that can still reach ``partial_ratio ≥ cutoff``: an exact
    bound, far cheaper than the score itself (bit-parallel LCS).

    partial_ratio scores a window w (a substring of the stretch, at most as long as the
    pattern p) as 2·LCS(p, w) / (|p| + |w|). With X = LCS(p, stretch) ≥ LCS(p, w) and
    LCS(p, w) ≤ |w|, that is at most 2X / (|p| + X). So a stretch needs
    X ≥ cutoff·|p| / (200 − cutoff).
    """
    if not stretches:
        return []
    lcs = process.cdist([pattern], stretches, scorer=LCSseq.similarity, dtype=np.int32)[0]
    return np.nonzero(lcs >= _lcs_needed(len(pattern), cutoff))[0].tolist()
