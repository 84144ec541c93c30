"""Near duplicates: the bounded near search, fingerprint groups and union-find (issue 18).

A near pair (ratio ≥ ``near_ratio`` on the comparison forms, ``queues.sameness``) must also
differ only in filler — never in a number, path, code span, name or content word. A
fingerprint group of long entries (OpenClaw prefixes snippets with their source heading)
holds only the members that agree beyond the shared prefix.

The search is bounded: identical comparison forms are grouped first, each text keeps at most
``duplicates_candidates`` partners, and above ``EXACT_PAIRS`` comparisons only neighbours in
prefix and suffix order are scored, so time and memory stay linear.
"""

from __future__ import annotations

import heapq
from collections import defaultdict

import numpy as np
from rapidfuzz import fuzz, process

from memreview.queues.duplicates.scope import MAX_SAME, Scope
from memreview.queues.sameness import numbers, same_fact
from memreview.workspace.model import Entry
from memreview.workspace.normalize import confirmed_key, fingerprint, without_parentheticals

WINDOW = 12  # above EXACT_PAIRS: neighbours in prefix and in suffix order are scored
# Up to this many comparisons (texts to look for × texts) every pair is scored (rapidfuzz's
# C++ loop, about 0.2 s at the limit); above it the neighbour search can miss a pair whose
# edits touch both ends.
EXACT_PAIRS = 4_000_000
ROW_CHUNK = 256  # texts to look for scored at once against their window of lengths


class _Union:
    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, x: int) -> int:
        parent = self.parent
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(self, a: int, b: int) -> None:
        self.parent[self.find(a)] = self.find(b)


def fingerprint_groups(entries: list[Entry], canon: dict[int, str], cfg) -> list[list[Entry]]:
    """Seed 002's groups (one section, same fingerprint and confirmation key); a group with a
    member longer than ``duplicates_confirm_beyond`` keeps only members whose texts agree
    beyond the shared prefix (same fact, ratio ≥ near_ratio), split into connected sets."""
    groups: dict[tuple, list[Entry]] = defaultdict(list)
    for e in entries:
        groups[(e.section_line, fingerprint(e.norm), confirmed_key(e.norm))].append(e)
    out = []
    for g in groups.values():
        if len(g) < 2:
            continue
        if max(len(e.norm) for e in g) <= cfg.duplicates_confirm_beyond:
            out.append(g)
            continue
        forms = [without_parentheticals(canon[id(e)]) for e in g]
        u = _Union()
        first: dict[str, int] = {}
        for x, f in enumerate(forms):  # the same form: one member stands for all
            u.join(x, first.setdefault(f, x))
        distinct = list(first)
        cap = max(1, cfg.duplicates_candidates)
        pairs = near_candidates(distinct, list(range(len(distinct))), cfg.near_ratio, cap)
        nums = [numbers(f) for f in distinct]
        for a, b in sorted(pairs):
            fa, fb = distinct[a], distinct[b]
            if nums[a] != nums[b] or u.find(first[fa]) == u.find(first[fb]):
                continue
            if same_fact(fa, fb, numbers_differ=False):
                u.join(first[fa], first[fb])
        parts: dict[int, list[Entry]] = defaultdict(list)
        for x, e in enumerate(g):
            parts[u.find(x)].append(e)
        out.extend(p for p in parts.values() if len(p) > 1)
    return out


def near_candidates(
    texts: list[str], queries: list[int], cutoff: float, cap: int
) -> dict[tuple[int, int], float]:
    """Pairs (i < j) of texts with ratio ≥ cutoff, i among ``queries``: at most ``cap``
    partners per query (the best scores). Every pair is scored up to EXACT_PAIRS
    comparisons; above it only neighbours in prefix and suffix order (WINDOW each side)."""
    out: dict[tuple[int, int], float] = {}
    if len(texts) < 2 or not queries:
        return out
    if len(queries) * len(texts) <= EXACT_PAIRS:
        return _all_candidates(texts, queries, cutoff, cap)
    want = np.zeros(len(texts), dtype=bool)
    want[queries] = True
    # each text's best partners so far, a heap bounded to ``cap`` (memory: texts × cap)
    best: dict[int, list[tuple[float, int]]] = defaultdict(list)

    def offer(i: int, s: float, j: int) -> None:
        heap = best[i]
        if len(heap) < cap:
            heapq.heappush(heap, (s, -j))
        elif (s, -j) > heap[0]:
            heapq.heapreplace(heap, (s, -j))

    n = len(texts)
    ahead = np.arange(n)[:, None] + np.arange(1, WINDOW + 1)[None, :]  # row x: x+1 … x+WINDOW
    inside = ahead < n
    for key in (lambda k: texts[k], lambda k: texts[k][::-1]):
        order = np.array(sorted(range(n), key=key), dtype=np.int64)
        # every (text, neighbour) pair in the window, in order, one of them a query
        first = np.broadcast_to(order[:, None], ahead.shape)[inside]
        second = order[ahead[inside]]
        pair = want[first] | want[second]
        first, second = first[pair].tolist(), second[pair].tolist()
        if not first:
            continue
        scores = _pair_ratios([texts[i] for i in first], [texts[j] for j in second], cutoff)
        for k in np.nonzero(scores)[0].tolist():
            i, j, s = first[k], second[k], float(scores[k])
            offer(i, s, j)
            offer(j, s, i)
    for i, heap in best.items():
        for s, neg_j in heap:
            j = -neg_j
            out[(i, j) if i < j else (j, i)] = s
    return out


def _pair_ratios(a: list[str], b: list[str], cutoff: float) -> np.ndarray:
    """``fuzz.ratio(a[k], b[k], score_cutoff=cutoff)`` for every k, in one call (rapidfuzz's
    threads) where rapidfuzz has ``cpdist`` (3.8 on)."""
    cpdist = getattr(process, "cpdist", None)
    if cpdist is None:
        return np.array([fuzz.ratio(x, y, score_cutoff=cutoff) for x, y in zip(a, b, strict=True)])
    # float64: the very figures fuzz.ratio gives, so that ties break the same way
    return cpdist(a, b, scorer=fuzz.ratio, score_cutoff=cutoff, dtype=np.float64, workers=-1)


def _all_candidates(
    texts: list[str], queries: list[int], cutoff: float, cap: int
) -> dict[tuple[int, int], float]:
    """Every query scored against every text whose length allows the cutoff.

    ratio = 2·LCS / (|a| + |b|) ≤ 2·min / (min + max): a pair can only reach the cutoff when
    min/max ≥ cutoff / (200 − cutoff). Queries are taken in order of length, in chunks, each
    against the window of lengths it can pair with; each keeps its ``cap`` best partners.
    """
    out: dict[tuple[int, int], float] = {}
    order = sorted(range(len(texts)), key=lambda i: (len(texts[i]), i))
    by_len = [texts[i] for i in order]
    lengths = np.fromiter(map(len, by_len), dtype=np.int64, count=len(by_len))
    qs = sorted(queries, key=lambda i: (len(texts[i]), i))
    keep = cutoff / (200 - cutoff)
    step = ROW_CHUNK
    for start in range(0, len(qs), step):
        rows = qs[start : start + step]
        lo = int(np.searchsorted(lengths, len(texts[rows[0]]) * keep - 1e-9, side="left"))
        hi = int(np.searchsorted(lengths, len(texts[rows[-1]]) / keep + 1e-9, side="right"))
        if hi - lo < 1:
            continue
        scores = process.cdist(
            [texts[i] for i in rows],
            by_len[lo:hi],
            scorer=fuzz.ratio,
            score_cutoff=cutoff,
            dtype=np.float32,
            workers=-1,
        )
        for r, i in enumerate(rows):
            row = scores[r]
            cols = np.nonzero(row)[0]
            if not len(cols):
                continue
            if len(cols) > cap + 1:
                cols = cols[np.argsort(-row[cols], kind="stable")[: cap + 1]]
            taken = 0
            for c in cols.tolist():
                j = order[lo + c]
                if j == i:
                    continue
                if taken == cap:
                    break
                taken += 1
                out[(i, j) if i < j else (j, i)] = float(row[c])
    return out


def near_edges(units: list[Entry], canon: dict[int, str], scope: Scope, cfg):  # noqa: C901
    """Edges (unit index, unit index, score on normalized texts) of the same fact: identical
    comparison forms, and near pairs whose differences are filler only."""
    texts: list[str] = []
    members: list[list[int]] = []
    at: dict[str, int] = {}
    for k, e in enumerate(units):
        c = canon[id(e)]
        t = at.get(c)
        if t is None:
            at[c] = t = len(texts)
            texts.append(c)
            members.append([])
        members[t].append(k)
    edges: list[tuple[int, int, float]] = []
    for ms in members:  # one text, several places: each joined to the first curated one
        if len(ms) < 2:
            continue
        hub = next((k for k in ms if scope.allows(units[k].file, units[k].file)), None)
        if hub is None:
            continue
        for k in ms:
            if k != hub:
                edges.append((hub, k, _score(units[hub], units[k])))
    queries = [
        t
        for t, ms in enumerate(members)
        if scope.all or any(units[k].file in scope.curated for k in ms)
    ]
    pairs = near_candidates(texts, queries, cfg.near_ratio, max(1, cfg.duplicates_candidates))
    u = _Union()
    nums = [numbers(t) for t in texts]
    for ti, tj in sorted(pairs):
        if nums[ti] != nums[tj] or u.find(ti) == u.find(tj):
            continue  # another number: another fact; or already one group
        if not same_fact(texts[ti], texts[tj], numbers_differ=False):
            continue
        joined = False
        for a in members[ti][:MAX_SAME]:
            for b in members[tj][:MAX_SAME]:
                if scope.allows(units[a].file, units[b].file):
                    edges.append((a, b, _score(units[a], units[b])))
                    joined = True
                    break
            if joined:
                break
        if joined:
            u.join(ti, tj)
    return edges


def _score(a: Entry, b: Entry) -> float:
    return float(fuzz.ratio(a.norm, b.norm))


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
