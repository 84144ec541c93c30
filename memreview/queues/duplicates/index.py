"""The texts a query reaches ``fuzz.ratio ≥ cutoff`` with, against a fixed list of texts,
found the way ``near.py`` finds its pairs below ``EXACT_PAIRS``: by length windows.

ratio = 2·LCS / (|a| + |b|) ≤ 2·min / (min + max), so a pair can only reach the cutoff when
min/max ≥ cutoff / (200 − cutoff). The texts are sorted by length once; queries, taken in
order of length and in chunks, are scored (rapidfuzz's ``cdist``, the very figures
``fuzz.ratio`` gives) only against the window of lengths they can pair with. Exact — every
pair that reaches the cutoff is found — and a few times fewer pairs than all of them, but
still queries × texts in the window: see docs/performance.md for the exponent.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from rapidfuzz import fuzz, process

ROW_CHUNK = 64  # queries scored at once against their window (memory: chunk × window)


def length_window(cutoff: float) -> float:
    """The least length ratio (shorter / longer) of two texts that can reach ``cutoff``."""
    return max(cutoff, 0.0) / (200 - cutoff) if cutoff < 100 else 1.0


def window_scores(
    by_len: list[str],
    lengths: np.ndarray,
    queries: list[str],
    cutoff: float,
    step: int = ROW_CHUNK,
    dtype=np.float64,
    workers: int = 1,
) -> Iterator[tuple[int, int, np.ndarray]]:
    """For ``queries`` sorted by length, chunk by chunk: (first query of the chunk, first
    text of its window in ``by_len``, the chunk's scores against the window — 0 below the
    cutoff). ``by_len`` is sorted by length, ``lengths`` its lengths."""
    keep = length_window(cutoff)
    for start in range(0, len(queries), step):
        rows = queries[start : start + step]
        lo = int(np.searchsorted(lengths, len(rows[0]) * keep - 1e-9, side="left"))
        hi = (
            int(np.searchsorted(lengths, len(rows[-1]) / keep + 1e-9, side="right"))
            if keep > 0
            else len(by_len)
        )
        if hi - lo < 1:
            continue
        scores = process.cdist(
            rows,
            by_len[lo:hi],
            scorer=fuzz.ratio,
            score_cutoff=cutoff,
            dtype=dtype,
            workers=workers,
        )
        yield start, lo, scores


class NearIndex:
    """Every text of ``texts`` each query reaches ``cutoff`` with (``fuzz.ratio``)."""

    def __init__(self, texts: list[str], cutoff: float):
        self.texts = texts
        self.cutoff = cutoff
        self.order = sorted(range(len(texts)), key=lambda i: (len(texts[i]), i))
        self.by_len = [texts[i] for i in self.order]
        self.lengths = np.fromiter(map(len, self.by_len), dtype=np.int64, count=len(texts))

    def matches(self, queries: list[str]) -> list[list[tuple[float, int]]]:
        """For each query, (score, text index) of every text at ≥ cutoff, best first, ties in
        text order."""
        out: list[list[tuple[float, int]]] = [[] for _ in queries]
        if not self.texts:
            return out
        qs = sorted(range(len(queries)), key=lambda i: (len(queries[i]), i))
        rows = [queries[i] for i in qs]
        order = np.array(self.order, dtype=np.int64)
        for start, lo, scores in window_scores(self.by_len, self.lengths, rows, self.cutoff):
            r_at, c_at = np.nonzero(scores >= self.cutoff)
            found = scores[r_at, c_at].tolist()
            texts = order[lo + c_at].tolist()
            for r, s, j in zip(r_at.tolist(), found, texts, strict=True):
                out[qs[start + r]].append((s, j))
        for hits in out:
            hits.sort(key=lambda sj: (-sj[0], sj[1]))
        return out
