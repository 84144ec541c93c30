"""Archived fragments whose content still sits in a memory file (docs/design.md §2)."""

from __future__ import annotations

import functools
import hashlib
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

    norms = [n for _f, n, _d in wanted]
    found = matches_by_file(ws, norms)
    items = []
    for k, (f, _norm, days) in enumerate(wanted):
        matches = found.get(k)
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


def matches_by_file(ws: Workspace, norms: list[str]) -> dict[int, list[dict]]:
    """For each pattern index, the memory entries holding it (their refs and scores), in
    file and entry order: each file's are its own (a pattern found in a file is found there
    whatever the other files hold), so a file unchanged since the last scan gives those of
    the patterns it was searched for then (the scan cache's ``PerFile``), searched only
    for the new ones, and is never read."""
    cfg = ws.config
    store = ws.per_file
    params = f"{cfg.archived_partial_ratio}|{cfg.min_match_chars}"
    ids = [_pattern_id(n) for n in norms]
    wanted = frozenset(ids)
    kept: dict[str, dict[str, list]] = {}  # file -> pattern id -> matches
    todo: dict[frozenset[str], list[str]] = defaultdict(list)  # patterns missing -> files
    missing_of: dict[frozenset[str], frozenset[str]] = {}  # files searched alike: once
    for rel in ws.files:
        check = functools.partial(_well_made, rel=rel)
        record = store.get("archived", rel, params, check) if store is not None else None
        done, hits = record if record is not None else (frozenset(), {})
        kept[rel] = {pid: m for pid, m in hits.items() if pid in wanted}
        if done not in missing_of:
            missing_of[done] = wanted - done
        todo[missing_of[done]].append(rel)
    first = {pid: k for k, pid in reversed(list(enumerate(ids)))}  # two fragments, one text
    for missing, rels in todo.items():
        if missing:
            _search(ws, sorted(first[pid] for pid in missing), norms, ids, rels, kept)
    out: dict[int, list[dict]] = defaultdict(list)
    where = defaultdict(list)
    for k, pid in enumerate(ids):
        where[pid].append(k)
    for rel in ws.files:
        if store is not None:
            store.put("archived", rel, params, (wanted, kept[rel]))
        for pid, matches in kept[rel].items():
            for k in where[pid]:
                out[k].extend(matches)
    return out


def _search(
    ws: Workspace,
    pats: list[int],
    norms: list[str],
    ids: list[str],
    rels: list[str],
    kept: dict[str, dict[str, list]],
) -> None:
    """Search the entries of files ``rels`` for the patterns ``pats``; their matches added
    to ``kept`` by file and pattern id."""
    cfg = ws.config
    entries: list[Entry] = [
        e for rel in rels for e in ws.files[rel].entries if len(e.norm) >= cfg.min_match_chars
    ]
    hits = contained_in(
        [norms[k] for k in pats], [e.norm for e in entries], cfg.archived_partial_ratio
    )
    for j, found in hits.items():
        pid = ids[pats[j]]
        for ei, score in found:
            e = entries[ei]
            kept[e.file].setdefault(pid, []).append({**e.ref(), "score": round(float(score), 1)})


def _pattern_id(norm: str) -> str:
    """A pattern as the cache keeps it: a hash (a fragment's text is never written)."""
    return hashlib.blake2b(norm.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def _well_made(record, rel: str) -> bool:
    """A record stored for file ``rel``: (the pattern ids searched for, their matches in
    it by id)."""
    if not (isinstance(record, tuple) and len(record) == 2):
        return False
    done, hits = record
    return (
        isinstance(done, frozenset)
        and all(isinstance(pid, str) for pid in done)
        and isinstance(hits, dict)
        and all(
            pid in done
            and isinstance(matches, list)
            and matches
            and all(_well_made_match(m) and m["file"] == rel for m in matches)
            for pid, matches in hits.items()
        )
    )


def _well_made_match(m) -> bool:
    return (
        isinstance(m, dict)
        and set(m) == {"file", "line", "end_line", "text", "anchor", "score"}
        and isinstance(m["file"], str)
        and type(m["line"]) is int
        and type(m["end_line"]) is int
        and isinstance(m["text"], str)
        and isinstance(m["anchor"], str | None)
        and type(m["score"]) is float
    )


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
