"""Candidate filter for fuzzy matching: which pairs can possibly reach a similarity threshold.

Comparing every fragment with every entry is quadratic. The filter below is exact, by the
pigeonhole principle: if a pattern of length L is within D edits (insertions/deletions) of
some window of a text, then of the pattern's m disjoint q-character pieces at least m - D
occur verbatim in that window, on nearby diagonals. Every q-character window of the texts is
hashed at once (numpy, no Python loop over characters); a text is a candidate only when it
holds m - D occurrences of the pattern's pieces on neighbouring diagonals. Every pair that
can reach the threshold is among the candidates, with the stretch of text where the match
must lie; the caller bounds and scores just those (``queues.archived.contained_in``).
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import NamedTuple

import numpy as np

_MUL = np.uint64(0x100000001B3)
_MASK = (1 << 64) - 1


def _unique(values: np.ndarray) -> np.ndarray:
    """The distinct values of a 1-d array, in order: ``np.unique``'s answer, without the
    import of ``numpy.ma`` that numpy 2.3+ makes on the first call without counts (about
    30 ms of every scan that computes the archived queue)."""
    ordered = np.sort(values, kind="stable")
    if len(ordered) < 2:
        return ordered
    first = np.empty(len(ordered), dtype=bool)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return ordered[first]


def _code_array(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    data = "\x00".join(texts).encode("utf-32-le", "surrogatepass")
    codes = np.frombuffer(data, dtype=np.uint32)
    starts = np.zeros(len(texts), dtype=np.int64)
    if texts:
        lengths = np.fromiter((len(t) + 1 for t in texts), dtype=np.int64, count=len(texts))
        starts[1:] = np.cumsum(lengths)[:-1]
    return codes.astype(np.uint64), starts


def _window_hashes(codes: np.ndarray, q: int) -> np.ndarray:
    n = len(codes) - q + 1
    if n <= 0:
        return np.zeros(0, dtype=np.uint64)
    h = codes[:n].copy()
    for k in range(1, q):
        h *= _MUL
        h ^= codes[k : k + n]
    return h


@lru_cache(maxsize=1 << 16)  # the same patterns are hashed again for every log
def _hash_piece(piece: str) -> int:
    h = 0
    for k, ch in enumerate(piece):
        h = ord(ch) if k == 0 else ((h * 0x100000001B3) & _MASK) ^ ord(ch)
    return h


def max_edits(length: int, share: float) -> int:
    """The edits ``share`` of ``length`` characters allows (rounded down, float-safe)."""
    return int(length * share + 1e-9)


Q = 3  # piece length: L // 3 pieces always outnumber a fifth of L in edits, for L ≥ 8


class Spans(NamedTuple):
    """A pattern's candidate texts (ascending) and, per text, the stretch [lo, hi) where a
    matching window must lie (hi may run past the text's end)."""

    text: np.ndarray
    lo: np.ndarray
    hi: np.ndarray


MORE_PIECES = 8  # pieces looked up beyond the edits + 1 rarest (see candidate_pairs)


def candidate_pairs(patterns: list[str], texts: list[str], share: float) -> dict[int, Spans]:
    """For each pattern index with any, the texts that may hold a window within
    ``D = floor(share * len(pattern))`` insertions/deletions of it, each with the stretch
    of the text where such a window must lie.

    Exact, by the pigeonhole principle. Cut the pattern into m disjoint pieces of Q
    characters; D edits break at most D of them, so in a matching window at least m - D
    pieces occur intact, and then of ANY s of the pieces at least s - D do. The filter
    takes for each pattern its s = D + MORE_PIECES pieces with the shortest postings (all
    m when m is smaller) and asks for s - D of them: it never walks the occurrences of a
    common piece that a rarer one makes needless. No match is lost whichever s pieces are
    taken: the rarest are just the cheapest to look up, and the ones a look-alike text is
    least likely to hold. The intact pieces sit on nearby diagonals (text position minus
    pattern offset), any two within D of each other: so a text is a candidate only when
    s - D of the chosen pieces' occurrences fall on diagonals within two neighbouring
    buckets of width D + 1, and the window's start lies within D of each of them. A
    pattern with m ≤ D (a low cutoff) can lose every piece: every text is its candidate.
    """
    out: dict[int, Spans] = {}
    if not patterns or not texts:
        return out
    edits = [max_edits(len(p), share) for p in patterns]
    for pi, p in enumerate(patterns):
        if len(p) // Q <= edits[pi]:  # no piece need survive: nothing to filter on
            out[pi] = _everywhere(texts)
    codes, starts = _code_array(texts)
    hashes = _window_hashes(codes, Q)
    n_codes = len(codes)
    del codes  # 8 bytes a character: not kept beside the hashes (the scan's peak memory)
    plans = [[] if pi in out else _pieces(p) for pi, p in enumerate(patterns)]
    every = _unique(np.fromiter((h for plan in plans for h, _o in plan), dtype=np.uint64))
    if not len(hashes) or not len(every):
        return out
    found = list(_positions_of(hashes, every))
    del hashes  # 8 bytes a character, not needed once the pieces are found (the peak memory)
    sizes = np.bincount(found[1], minlength=len(every)).tolist()
    slot_of = {h: k for k, h in enumerate(every.tolist())}
    picks: dict[int, list[tuple[int, int, int]]] = {}
    for pi, plan in enumerate(plans):
        ranked = sorted((sizes[slot_of[h]], off, slot_of[h]) for h, off in plan)
        chosen = ranked[: edits[pi] + MORE_PIECES]
        # one of any D + 1 pieces occurs intact: when the D + 1 rarest occur nowhere, no
        # text can match (most patterns end here, before any array is made)
        if ranked and sum(n for n, _o, _s in ranked[: edits[pi] + 1]):
            picks[pi] = chosen
    if not picks:
        return out
    used = {s for c in picks.values() for _n, _o, s in c}
    grouped = _group(found, used, len(every), starts)
    for pi, chosen in picks.items():
        spans = _candidates_of(patterns[pi], chosen, edits[pi], grouped, (starts, n_codes))
        if spans is not None:
            out[pi] = spans
    return out


def _pieces(p: str) -> list[tuple[int, int]]:
    """The pattern's disjoint Q-character pieces: (hash, offset)."""
    return [(_hash_piece(p[i * Q : (i + 1) * Q]), i * Q) for i in range(len(p) // Q)]


def _everywhere(texts: list[str]) -> Spans:
    every = np.arange(len(texts), dtype=np.int64)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    return Spans(every, np.zeros(len(texts), dtype=np.int64), lengths)


class Grouped(NamedTuple):
    """The chosen pieces' occurrences, grouped by piece (see ``_group``)."""

    bounds: np.ndarray
    pos: np.ndarray
    owner: np.ndarray
    piece_text: np.ndarray
    n_texts: int


def _group(found: list[np.ndarray], used: set[int], n_slots: int, starts: np.ndarray) -> Grouped:
    """The occurrences of the pieces in ``used`` only, grouped by piece (a piece's slot
    indexes ``bounds``): each one's text position and text, and (piece, text) ascending,
    so that a piece's occurrences in given texts are bisected. ``found`` (the positions
    and slots of every piece's occurrences) is emptied: the arrays are let go as soon as
    the ones kept are made, not held by the caller beside them."""
    pos, slot = found
    found.clear()
    keep = np.zeros(n_slots, dtype=bool)
    keep[np.fromiter(used, dtype=np.int64, count=len(used))] = True
    mine = keep[slot]
    pos, slot = pos[mine], slot[mine]
    # a radix sort when the slots fit in 16 bits
    order = np.argsort(slot.astype(np.uint16 if n_slots <= 1 << 16 else np.int64), kind="stable")
    pos, slot = pos[order], slot[order]
    bounds = np.searchsorted(slot, np.arange(n_slots + 1))
    owner = np.searchsorted(starts, pos, side="right") - 1  # the text each lies in
    return Grouped(bounds, pos, owner, slot.astype(np.int64) * len(starts) + owner, len(starts))


def _candidates_of(pattern: str, chosen, edits: int, g: Grouped, layout) -> Spans | None:
    """One pattern's candidate texts and stretches, from its ``chosen`` pieces' occurrences
    (see candidate_pairs)."""
    starts, n_codes = layout
    need = len(chosen) - edits  # ≥ 1: the pattern has more pieces than edits
    if sum(n for n, _o, _s in chosen) < need:
        return None
    at, off_rep = _occurrences(chosen, edits, g)
    kept = _at_least(g.owner[at], need, g.n_texts)
    if not kept.any():
        return None
    at, off_rep = at[kept], off_rep[kept]
    # its diagonal: text position - piece offset
    diag = g.pos[at] - off_rep
    sel = _in_band(diag, need, edits + 1, len(pattern), n_codes)
    if not sel.any():
        return None
    d_sel = diag[sel]
    owners = g.owner[at[sel]]
    # per text, the stretch where a matching window must lie: its start is within D of
    # the selected diagonals
    order = np.argsort(owners, kind="stable")
    owners, d_sel = owners[order], d_sel[order]
    first = np.nonzero(np.r_[True, owners[1:] != owners[:-1]])[0]
    lo = np.minimum.reduceat(d_sel, first) - edits
    hi = np.maximum.reduceat(d_sel, first) + len(pattern) + edits
    base = starts[owners[first]]
    return Spans(owners[first], np.maximum(lo - base, 0), hi - base)


def _at_least(keys: np.ndarray, need: int, n_keys: int) -> np.ndarray:
    """Which of ``keys`` (each below ``n_keys``) occur at least ``need`` times: counted in
    a table when the keys are many, else by sorting them (never a table per call larger
    than the keys themselves call for)."""
    if len(keys) * 8 >= n_keys:
        return np.bincount(keys, minlength=n_keys)[keys] >= need
    _u, inv, cnt = np.unique(keys, return_inverse=True, return_counts=True)
    return cnt[inv] >= need


def _in_band(diag: np.ndarray, need: int, width: int, length: int, n_codes: int) -> np.ndarray:
    """Which occurrences lie in a pair of neighbouring diagonal buckets of ``width`` that
    holds ``need`` of them together."""
    # diagonals may start before position 0: shift so every bucket is ≥ 0
    lift = length // width + 1  # whole buckets: diag ≥ -len(pattern)
    bucket = (diag + (lift + 1) * width) // width
    n_buckets = (n_codes + length * 2 + 2 * width) // width + 2
    if len(diag) * 8 >= n_buckets:
        cnt = np.bincount(bucket, minlength=n_buckets)
        good = np.zeros(n_buckets + 1, dtype=bool)
        good[:-2] = cnt[:-1] + cnt[1:] >= need  # buckets k and k + 1 together
        keep = good[:-1].copy()
        keep[1:] |= good[:-2]  # a bucket is kept when its pair or the one below is good
        return keep[bucket]
    ub, inv, cnt = np.unique(bucket, return_inverse=True, return_counts=True)
    nxt = np.minimum(np.searchsorted(ub, ub + 1), len(ub) - 1)
    pair_ok = cnt + np.where(ub[nxt] == ub + 1, cnt[nxt], 0) >= need
    prv = np.minimum(np.searchsorted(ub, ub - 1), len(ub) - 1)
    keep_u = pair_ok | ((ub[prv] == ub - 1) & pair_ok[prv])
    return keep_u[inv]


LOOKUP_GAIN = 8  # a bisection costs about this many steps of the walk through occurrences


def _occurrences(chosen, edits: int, g: Grouped):
    """The occurrences of the chosen pieces (positions in the grouped arrays, and each
    one's piece offset) in the texts that can match: those holding one of the ``edits + 1``
    rarest (one of any edits + 1 stays intact in a match), so that the commoner ones are
    not walked through texts that hold only them."""
    slots = np.fromiter((s for _n, _o, s in chosen), dtype=np.int64, count=len(chosen))
    offs = np.fromiter((o for _n, o, _s in chosen), dtype=np.int64, count=len(chosen))
    lo_b = g.bounds[slots]
    sizes = g.bounds[slots + 1] - lo_b
    total = int(sizes.sum())
    rare = slice(0, edits + 1)  # ``chosen`` is ranked rarest first
    texts = None
    if int(sizes[rare].sum()) * LOOKUP_GAIN < total:
        r_at = np.repeat(lo_b[rare], sizes[rare]) + _ranges(sizes[rare])
        texts = _unique(g.owner[r_at])
    if texts is None or len(texts) * len(slots) * LOOKUP_GAIN >= total:  # walk them all
        return np.repeat(lo_b, sizes) + _ranges(sizes), np.repeat(offs, sizes)
    keys = (slots[:, None] * g.n_texts + texts[None, :]).ravel()
    lo = np.searchsorted(g.piece_text, keys, side="left")
    width = np.searchsorted(g.piece_text, keys, side="right") - lo
    at = np.repeat(lo, width) + _ranges(width)
    return at, np.repeat(np.repeat(offs, len(texts)), width)


def _positions_of(hashes: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices of ``hashes`` whose value is among the sorted ``keys``, and which key each is.

    A bitmap of the keys' low bits rules out almost every position at once; only the few
    that pass are looked up exactly. The bitmap is sized to the keys (about one bit in 64
    set): a search for a few hundred names needs no 4 MB table for each text.
    """
    bits = min(22, max(12, (len(keys) * 64).bit_length()))
    mask = np.uint64((1 << bits) - 1)
    table = np.zeros(1 << bits, dtype=bool)
    table[(keys & mask).astype(np.int64)] = True
    # the low bits of every hash in one array, read as indices without a copy (they are
    # below 2**22): one array the size of the hashes, not two
    low = np.bitwise_and(hashes, mask).view(np.int64)
    maybe = np.nonzero(table[low])[0]
    del low
    at = np.searchsorted(keys, hashes[maybe])
    at[at == len(keys)] = 0
    found = keys[at] == hashes[maybe]
    return maybe[found], at[found]


def _ranges(width: np.ndarray) -> np.ndarray:
    """Concatenated aranges: [0..w0-1, 0..w1-1, …]."""
    total = int(width.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(width)
    starts = np.repeat(ends - width, width)
    return np.arange(total, dtype=np.int64) - starts


PREFIX = 8  # find_patterns compares a pattern's first characters by hash, up to this many


def find_patterns(text: str, patterns: list[str]) -> list[tuple[int, int]]:
    """Every (pattern index, position) where a pattern occurs in ``text``.

    Many patterns, one pass per prefix length: the hash of each pattern's first characters
    (up to PREFIX) is looked up at every position of the text at once (numpy), and only the
    positions where it matches are compared in full.
    """
    hits: list[tuple[int, int]] = []
    if not text or not patterns:
        return hits
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(
        np.uint64
    )
    by_q: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for pi, p in enumerate(patterns):
        if p:
            q = min(len(p), PREFIX)
            by_q[q][_hash_piece(p[:q])].append(pi)
    for q, table in by_q.items():
        hashes = _window_hashes(codes, q)
        if not len(hashes):
            continue
        keys = np.fromiter(table.keys(), dtype=np.uint64, count=len(table))
        keys.sort()
        pos, _key = _positions_of(hashes, keys)
        for i, h in zip(pos.tolist(), hashes[pos].tolist(), strict=True):
            for pi in table[h]:
                if text.startswith(patterns[pi], i):
                    hits.append((pi, i))
    return hits
