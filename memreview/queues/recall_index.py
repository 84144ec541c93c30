"""OpenClaw's recall events by file and line, so that a promotion's recalls are looked up, not
found by walking every event (promotions × events).

A recall of lines ``start..end`` overlaps ``a..b`` when ``start ≤ b`` and ``a ≤ end``; with a
file's events sorted by ``start`` and its longest event known, only those starting in
``a − longest .. b`` can, and those are found by bisection.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from memreview.workspace.memo import per_file
from memreview.workspace.openclaw import Usage


class RecallIndex:
    """The positions (in ``usage.recalls``) of the recalls of each file, by first line."""

    def __init__(self, recalls: list) -> None:
        by_path: dict[str, list[tuple[int, int]]] = {}
        for k, r in enumerate(recalls):
            by_path.setdefault(r.path, []).append((r.start, k))
        self._starts: dict[str, list[int]] = {}
        self._at: dict[str, list[int]] = {}
        self._longest: dict[str, int] = {}
        for path, rows in by_path.items():
            rows.sort()
            self._starts[path] = [s for s, _k in rows]
            self._at[path] = [k for _s, k in rows]
            self._longest[path] = max(recalls[k].end - recalls[k].start for _s, k in rows)
        self._recalls = recalls

    def overlapping(self, path: str, a: int, b: int) -> list[int]:
        """Positions of the recalls of ``path`` that overlap lines ``a..b``, ascending."""
        starts = self._starts.get(path)
        if not starts:
            return []
        lo = bisect_left(starts, a - self._longest[path])
        hi = bisect_right(starts, b)
        recalls, at = self._recalls, self._at[path]
        return sorted(k for k in at[lo:hi] if a <= recalls[k].end)


def recall_index(usage: Usage) -> RecallIndex:
    """The index of ``usage``'s recall events (built once while they stay the same)."""
    return _kept(usage, len(usage.recalls))


@per_file
def _kept(usage: Usage, _count: int) -> RecallIndex:
    return RecallIndex(usage.recalls)
