"""Precision and recall of the findings on the realistic corpus (tests/realistic/cases).

    python bench/precision.py [--queues] [case ...]

Prints, per case and in total: items shown, expected found, expected missed, unexpected
shown, precision and recall; with --queues, the same per queue under each case.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # shared_helpers: a case's OpenClaw state database
sys.path.insert(0, str(ROOT / "tests" / "realistic"))
sys.path.insert(0, str(ROOT))

from realistic_helpers import (  # noqa: E402
    QueueScore,
    case_names,
    compare,
    flag_counts,
    load_case,
    scan_case,
)


def _pct(x: float | None) -> str:
    return "    -" if x is None else f"{100 * x:5.1f}"


def _row(name: str, sc: QueueScore, width: int) -> str:
    return (
        f"{name:<{width}} {sc.shown:>5} {sc.found:>5} {sc.missed:>6} {sc.unexpected:>10}"
        f" {_pct(sc.precision):>9} {_pct(sc.recall):>6}"
    )


def main(argv: list[str]) -> int:
    per_queue = "--queues" in argv
    names = [a for a in argv if not a.startswith("--")] or case_names()
    width = max([len(n) for n in names] + [24]) + 2
    print(
        f"{'case':<{width}} {'shown':>5} {'found':>5} {'missed':>6} {'unexpected':>10}"
        f" {'precision':>9} {'recall':>6}"
    )
    total = QueueScore()
    by_queue: dict[str, QueueScore] = {}
    flags: dict[str, list[int]] = {}
    for name in names:
        case = load_case(name)
        shown = scan_case(case)
        scores = compare(case, shown)
        for flag, (junk, good) in flag_counts(case, shown).items():
            cell = flags.setdefault(flag, [0, 0])
            cell[0] += junk
            cell[1] += good
        case_total = QueueScore()
        for queue, sc in scores.items():
            case_total.add(sc)
            by_queue.setdefault(queue, QueueScore()).add(sc)
        total.add(case_total)
        print(_row(name + (" (pending)" if case.pending else ""), case_total, width))
        if per_queue:
            for queue, sc in scores.items():
                if sc.shown or sc.found or sc.missed:
                    print(_row("  " + queue, sc, width))
                for k in sc.missing_keys:
                    print(f"{'':<{width}}   missed {k}")
                for k in sc.unexpected_keys:
                    print(f"{'':<{width}}   unexpected {k}")
    print("-" * (width + 46))
    for queue, sc in sorted(by_queue.items()):
        if sc.shown or sc.found or sc.missed:
            print(_row(f"total {queue}", sc, width))
    print(_row("total", total, width))
    if flags:
        print()
        print(
            f"{'promotions flag':<{width}} {'flagged true junk':>17} {'flagged good entries':>20}"
        )
        for flag, (junk, good) in sorted(flags.items()):
            print(f"{flag:<{width}} {junk:>17} {good:>20}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
