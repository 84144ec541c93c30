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


def _code_array(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    joined = "\x00".join(texts)
    codes = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
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


def candidate_pairs(patterns: list[str], texts: list[str], share: float) -> dict[int, Spans]:  # noqa: PLR0915
    """For each pattern index with any, the texts that may hold a window within
    ``D = floor(share * len(pattern))`` insertions/deletions of it, each with the stretch
    of the text where such a window must lie.

    A pattern cut into m disjoint pieces keeps at least m - D of them intact in such a
    window, and the intact pieces sit on nearby diagonals (text position minus pattern
    offset): any two differ by at most D. So a text is a candidate only when m - D piece
    occurrences fall on diagonals within two neighbouring buckets of width D + 1.
    """
    out: dict[int, Spans] = {}
    if not patterns or not texts:
        return out
    codes, starts = _code_array(texts)
    hashes = _window_hashes(codes, Q)
    if not len(hashes):
        return out
    plans = []
    for p in patterns:
        m = len(p) // Q
        plans.append([(_hash_piece(p[i * Q : (i + 1) * Q]), i * Q) for i in range(m)])
    every = np.unique(np.fromiter((h for plan in plans for h, _o in plan), dtype=np.uint64))
    if not len(every):
        return out
    pos, slot = _positions_of(hashes, every)
    if not len(pos):
        return out
    # occurrences grouped by piece (a radix sort when the pieces fit in 16 bits)
    order = np.argsort(slot.astype(np.uint16 if len(every) <= 1 << 16 else np.int64), kind="stable")
    pos_by_slot = pos[order]
    bounds = np.searchsorted(slot[order], np.arange(len(every) + 1))
    n_codes = len(codes)
    # the text each occurrence lies in
    owner_of = np.repeat(np.arange(len(texts), dtype=np.int32), np.diff(np.r_[starts, n_codes]))
    owner_by_slot = owner_of[pos_by_slot]
    piece_text = slot[order].astype(np.int64) * len(texts) + owner_by_slot  # ascending
    grouped = (bounds, piece_text, owner_by_slot, len(texts))
    slot_of = {h: k for k, h in enumerate(every.tolist())}
    bound_list = bounds.tolist()
    for pi, plan in enumerate(plans):
        if not plan:
            continue
        edits = max_edits(len(patterns[pi]), share)
        need = max(1, len(plan) - edits)
        slot_list = [slot_of[h] for h, _o in plan]
        counts = sorted(bound_list[s + 1] - bound_list[s] for s in slot_list)
        # At most `edits` pieces are broken in a matching window, so one of any edits + 1
        # pieces occurs intact: when the rarest edits + 1 occur nowhere, no text can match
        # (most patterns end here, before any array is made).
        if not sum(counts[: edits + 1]) or sum(counts) < need:
            continue
        at, off_rep = _occurrences(plan, slot_list, edits, grouped)
        in_text = owner_by_slot[at]
        enough = np.bincount(in_text, minlength=len(texts)) >= need
        if not enough.any():
            continue
        kept = enough[in_text]
        at, off_rep = at[kept], off_rep[kept]
        total = len(at)
        # its diagonal: text position - piece offset
        diag = pos_by_slot[at] - off_rep
        width = edits + 1
        # diagonals may start before position 0: shift so every bucket is ≥ 0
        lift = len(patterns[pi]) // width + 1  # whole buckets: diag ≥ -len(pattern)
        bucket = (diag + (lift + 1) * width) // width
        n_buckets = (n_codes + len(patterns[pi]) * 2 + 2 * width) // width + 2
        if total * 8 >= n_buckets:
            cnt = np.bincount(bucket, minlength=n_buckets)
            good = np.zeros(n_buckets + 1, dtype=bool)
            good[:-2] = cnt[:-1] + cnt[1:] >= need  # buckets k and k + 1 together
            keep = good[:-1].copy()
            keep[1:] |= good[:-2]  # a bucket is kept when its pair or the one below is good
            sel = keep[bucket]
        else:
            ub, inv, cnt = np.unique(bucket, return_inverse=True, return_counts=True)
            nxt = np.searchsorted(ub, ub + 1)
            nxt_c = np.minimum(nxt, len(ub) - 1)
            pair_ok = cnt + np.where(ub[nxt_c] == ub + 1, cnt[nxt_c], 0) >= need
            if not pair_ok.any():
                continue
            prv = np.searchsorted(ub, ub - 1)
            prv_c = np.minimum(prv, len(ub) - 1)
            keep_u = pair_ok | ((ub[prv_c] == ub - 1) & pair_ok[prv_c])
            sel = keep_u[inv]
        if not sel.any():
            continue
        d_sel = diag[sel]
        owners = owner_by_slot[at[sel]]
        # per text, the stretch where a matching window must lie: its start is within D of
        # the selected diagonals
        order = np.argsort(owners, kind="stable")
        owners, d_sel = owners[order], d_sel[order]
        first = np.nonzero(np.r_[True, owners[1:] != owners[:-1]])[0]
        lo = np.minimum.reduceat(d_sel, first) - edits
        hi = np.maximum.reduceat(d_sel, first) + len(patterns[pi]) + edits
        base = starts[owners[first]]
        out[pi] = Spans(owners[first], np.maximum(lo - base, 0), hi - base)
    return out


LOOKUP_GAIN = 8  # a bisection costs about this many steps of the walk through occurrences


def _occurrences(plan, slot_list, edits, grouped):
    """The occurrences of a pattern's pieces (positions in the grouped arrays, and each one's
    piece offset) in the texts that can match: those holding one of its ``edits + 1`` rarest
    pieces (one of any edits + 1 stays intact in a match), so the common pieces are never
    walked through texts that hold only them. ``piece_text``: (piece, text) of each
    occurrence, ascending, so that a piece's occurrences in given texts are bisected."""
    bounds, piece_text, owner_by_slot, n_texts = grouped
    slots = np.array(slot_list, dtype=np.int64)
    lo_b = bounds[slots]
    sizes = bounds[slots + 1] - lo_b
    offs = np.fromiter((off for _h, off in plan), dtype=np.int64, count=len(plan))
    total = int(sizes.sum())
    rare = np.argsort(sizes, kind="stable")[: edits + 1]
    texts = None
    if int(sizes[rare].sum()) * LOOKUP_GAIN < total:
        r_at = np.repeat(lo_b[rare], sizes[rare]) + _ranges(sizes[rare])
        texts = np.unique(owner_by_slot[r_at])
    if texts is None or len(texts) * len(slots) * LOOKUP_GAIN >= total:  # walk them all
        return np.repeat(lo_b, sizes) + _ranges(sizes), np.repeat(offs, sizes)
    keys = (slots[:, None] * n_texts + texts[None, :]).ravel()
    lo = np.searchsorted(piece_text, keys, side="left")
    width = np.searchsorted(piece_text, keys, side="right") - lo
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
    maybe = np.nonzero(table[(hashes & mask).astype(np.int64)])[0]
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
