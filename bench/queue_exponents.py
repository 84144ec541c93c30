"""How each queue's time grows with the workspace: CPU time of each queue on its own at three
sizes, and k in time ∝ entries^k (least squares of log time on log entries).

    python bench/queue_exponents.py [--scales 0.108,0.54,2.16] [--promotions 3000]
        [--out bench/results.json]

Each scale is generated (bench/out/, as bench.py does; ``--promotions N``: N OpenClaw
promotions at scale 1, scaled with it) and measured in a fresh process: the workspace is
loaded once, then every queue runs alone, twice: the second run is timed (its imports and
one-time set-up done by the first), with what the queues keep between calls dropped. The figures go into ``--out`` under ``queue_exponents`` (docs/performance.md shows
them; the other keys are left as they are).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(root: Path) -> dict:
    """In this process: entries and each queue's CPU seconds on ``root``."""
    from memreview.decisions import registry
    from memreview.queues.sameness import comparison_form
    from memreview.workspace import memo
    from memreview.workspace.loader import check_workspace, load_workspace, review_date

    ws = load_workspace(check_workspace(root))
    today = review_date(ws, None)
    per = {}
    for unit in registry.units():
        unit.detect(ws, today)  # imports and one-time set-up (secrets' plugins) not counted
        memo.forget()
        comparison_form.cache_clear()
        c0 = time.process_time()
        unit.detect(ws, today)
        per[unit.name] = time.process_time() - c0
    return {"entries": sum(len(mf.entries) for mf in ws.files.values()), "cpu_s": per}


def fit(xs: list[float], ys: list[float]) -> float | None:
    """The slope of log y on log x (None when a time is too small to be measured)."""
    if len(xs) < 2 or min(ys) <= 0.002:
        return None
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    den = sum((a - mx) ** 2 for a in lx)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True)) / den


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scales", default="0.108,0.54,2.16")
    ap.add_argument("--promotions", type=int, default=3000, help="at scale 1 (0: none)")
    ap.add_argument("--out", type=Path, default=HERE / "results.json")
    ap.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return 0
    sys.path.insert(0, str(HERE))
    from bench import ensure_workspace

    runs = []
    for scale in [float(s) for s in args.scales.split(",")]:
        ws = ensure_workspace(scale, promotions=round(args.promotions * scale))
        proc = subprocess.run(
            [sys.executable, __file__, "--measure", str(ws)],
            check=True,
            capture_output=True,
            text=True,
        )
        runs.append({"scale": scale, **json.loads(proc.stdout.strip().splitlines()[-1])})
        print(f"scale {scale:g} done", file=sys.stderr)
    entries = [r["entries"] for r in runs]
    queues = list(runs[0]["cpu_s"])
    k = {q: fit(entries, [r["cpu_s"][q] for r in runs]) for q in queues}
    result = {
        "promotions_at_scale_1": args.promotions,
        "entries": entries,
        "cpu_s": {q: [round(r["cpu_s"][q], 3) for r in runs] for q in queues},
        "k": {q: (round(v, 2) if v is not None else None) for q, v in k.items()},
    }
    print(f"{'queue':<15}" + "".join(f"{n:>10,}" for n in entries) + f"{'k':>7}")
    for q in queues:
        ks = "—" if k[q] is None else f"{k[q]:.2f}"
        print(f"{q:<15}" + "".join(f"{t:>9.3f}s" for t in result["cpu_s"][q]) + f"{ks:>7}")
    doc = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    doc["queue_exponents"] = result
    args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    if args.out == HERE / "results.json":
        import perf_doc

        perf_doc.main([])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
