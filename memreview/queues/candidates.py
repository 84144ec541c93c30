"""Candidate filter for fuzzy matching: which pairs can possibly reach a similarity threshold.

Comparing every fragment with every entry (or every bullet with every other bullet of a big
file) is quadratic. The filter below is exact, by the pigeonhole principle: if a pattern of
length L is within D edits (insertions/deletions) of some window of a text, then cutting the
pattern into D + 1 disjoint pieces leaves at least one piece untouched, and that piece occurs
verbatim in the text. So we pick, per pattern, the D + 1 *rarest* of its disjoint q-character
pieces, look them up in a hash of every q-character window of the texts (numpy, no Python
loop over characters), and only the texts that contain one of them are candidates. Every pair
that can reach the threshold is among the candidates; rapidfuzz then scores just those.
"""

from __future__ import annotations

from collections import defaultdict

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


def _hash_piece(piece: str) -> int:
    h = 0
    for k, ch in enumerate(piece):
        h = ord(ch) if k == 0 else ((h * 0x100000001B3) & _MASK) ^ ord(ch)
    return h


def max_edits(length: int, share: float) -> int:
    return int(length * share + 1e-9)


Q = 3  # piece length: L // 3 pieces always outnumber a fifth of L in edits, for L ≥ 8


def candidate_pairs(patterns: list[str], texts: list[str], share: float) -> dict[int, set[int]]:
    """For each pattern index, the texts that may hold a window within
    ``floor(share * len(pattern))`` insertions/deletions of it.

    A pattern cut into m disjoint pieces, at most D of them touched by D edits, keeps at
    least m - D of its distinct pieces verbatim in any such window: only texts that contain
    that many of them are candidates.
    """
    out: dict[int, set[int]] = defaultdict(set)
    if not patterns or not texts:
        return out
    codes, starts = _code_array(texts)
    hashes = _window_hashes(codes, Q)
    if not len(hashes):
        return out
    # which texts hold each distinct piece (sorted unique (piece, text) pairs)
    pattern_pieces: list[np.ndarray] = []
    for p in patterns:
        pieces = {_hash_piece(p[i * Q : (i + 1) * Q]) for i in range(len(p) // Q)}
        pattern_pieces.append(np.fromiter(pieces, dtype=np.uint64, count=len(pieces)))
    every = np.unique(np.concatenate(pattern_pieces)) if pattern_pieces else None
    if every is None or not len(every):
        return out
    pos = np.nonzero(np.isin(hashes, every))[0]
    if not len(pos):
        return out
    owner = np.searchsorted(starts, pos, side="right") - 1
    slot = np.searchsorted(every, hashes[pos]).astype(np.uint64)
    key = np.unique(slot * np.uint64(len(texts)) + owner.astype(np.uint64))
    piece_of = (key // np.uint64(len(texts))).astype(np.int64)
    text_of = (key % np.uint64(len(texts))).astype(np.int64)
    bounds = np.searchsorted(piece_of, np.arange(len(every) + 1))
    for pi, ph in enumerate(pattern_pieces):
        need = max(1, len(ph) - max_edits(len(patterns[pi]), share))
        slots = np.searchsorted(every, ph)
        touched = [text_of[bounds[k] : bounds[k + 1]] for k in slots.tolist()]
        if not touched:
            continue
        hits = np.concatenate(touched)
        if len(hits) < need:
            continue
        texts_hit, times = np.unique(hits, return_counts=True)
        found = texts_hit[times >= need]
        if len(found):
            out[pi].update(found.tolist())
    return out


def _ranges(width: np.ndarray) -> np.ndarray:
    """Concatenated aranges: [0..w0-1, 0..w1-1, …]."""
    total = int(width.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(width)
    starts = np.repeat(ends - width, width)
    return np.arange(total, dtype=np.int64) - starts


def find_patterns(text: str, patterns: list[str]) -> list[tuple[int, int]]:
    """Every (pattern index, position) where a pattern occurs in ``text``.

    Many patterns, one pass: the hash of each pattern's first characters is looked up at
    every position of the text at once (numpy), and only those positions are compared.
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
            q = min(len(p), Q)
            by_q[q][_hash_piece(p[:q])].append(pi)
    for q, table in by_q.items():
        hashes = _window_hashes(codes, q)
        if not len(hashes):
            continue
        keys = np.fromiter(table.keys(), dtype=np.uint64, count=len(table))
        keys.sort()
        at = np.searchsorted(keys, hashes)
        at[at == len(keys)] = 0
        pos = np.nonzero(keys[at] == hashes)[0]
        for i, h in zip(pos.tolist(), hashes[pos].tolist(), strict=True):
            for pi in table[h]:
                if text.startswith(patterns[pi], i):
                    hits.append((pi, i))
    return hits
