"""A ScanResult-shaped object with huge queues, for the list's speed (no workspace needed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from memreview.app.keys import queue_names


def _ref(k: int, side: str) -> dict:
    return {
        "file": f"memory/topic-{k % 50}.md",
        "line": 10 + k,
        "end_line": 14 + k,
        "text": f"## [KNOWLEDGE:{side}-{k}]",
        "anchor": f"{side}-{k}",
    }


@dataclass
class BigResult:
    root: Path
    today: date
    n: int = 10_000
    queues: dict = field(default_factory=dict)
    health: dict = field(default_factory=dict)
    missing: dict = field(default_factory=dict)
    hidden: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)

    def __post_init__(self):
        self.queues = {q: [] for q in queue_names()}
        self.queues["contradictions"] = [
            {
                "id": f"c-{k:06d}",
                "title": f"anchor-a-{k} ⟷ anchor-b-{k} about topic {k % 97}",
                "a": _ref(k, "a"),
                "b": _ref(k, "b"),
                "source": "judge",
                "confidence": 0.8,
                "reason": "they disagree",
            }
            for k in range(self.n)
        ]
        self.queues["duplicates"] = [
            {
                "id": f"d-{k:06d}",
                "title": f"- duplicate bullet number {k}",
                "kind": "near",
                "refs": [_ref(k, "x"), _ref(k + 1, "y"), _ref(k + 2, "z")],
                "merged": None,
                "score": 93.0,
            }
            for k in range(self.n)
        ]
        self.health = {"growth": {"weeks": [3] * 14}, "totals": {}}

    def missing_in_order(self) -> dict:
        return dict(self.missing)

    @property
    def counts(self) -> dict:
        return {q: len(v) for q, v in self.queues.items()}

    def item(self, item_id):
        for q, items in self.queues.items():
            for it in items:
                if it["id"] == item_id:
                    return q, it
        return None

    def related(self, item_id):
        return []

    def relates(self, item_id, queue):
        return False

    def context(self, file, line, end_line, before=3, after=3):
        return [
            (n, f"line {n} of {file}: some remembered text")
            for n in range(max(1, line - before), end_line + after + 1)
        ]


def big_scan(n: int = 10_000):
    def scan(root, today=None, progress=None, **kw):
        return BigResult(Path(root), today or date(2026, 11, 29), n=n)

    return scan
