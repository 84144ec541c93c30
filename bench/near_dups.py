"""Peak memory and time of the duplicates queue on thousands of near-identical bullets.

    python bench/near_dups.py [N ...]          (default: 5000 10000 50000)

For each N, two MEMORY.md files of N bullets, each scanned in a fresh process:
- ``numbers``: one sentence with a different number in each bullet (every pair reaches the
  ratio; none is the same fact);
- ``filler``: one sentence with a different mix of filler words and punctuation in each
  bullet (all the same fact: one group).
Prints the bullets' size, the seconds for loading plus the queue (wall, and CPU of the whole
child), the peak RSS of the process and what the queue found. ``MEMREVIEW_BENCH_ROOT=DIR``
runs the memreview checked out in DIR instead of this one.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(os.environ.get("MEMREVIEW_BENCH_ROOT") or Path(__file__).resolve().parent.parent)

SENTENCE = "the nightly job writes its summary to the daily log and pings the owner"
FILLER = ["the", "just", "also", "really", "so", "then"]


def bullets(shape: str, n: int) -> str:
    rng = random.Random(n)
    out = ["# Memory", "", "## Notes"]
    words = SENTENCE.split()
    for k in range(n):
        if shape == "numbers":
            out.append(f"- {SENTENCE} at {k % 24:02d}:{k % 60:02d} run {k:05d}")
        else:
            ws = [w for w in words if w != "the" or rng.random() < 0.5]
            for _ in range(rng.randrange(3)):
                ws.insert(rng.randrange(len(ws) + 1), rng.choice(FILLER))
            out.append("- " + " ".join(ws) + rng.choice(["", ".", "!", " ."]))
    return "\n".join(out) + "\n"


CHILD = r"""
import json, resource, sys, time
from datetime import date
t0 = time.perf_counter()
from pathlib import Path
from memreview.workspace.loader import load_workspace
from memreview.queues.duplicates import duplicates
ws = load_workspace(Path(sys.argv[1]))
items = duplicates(ws, date(2026, 11, 30))
secs = time.perf_counter() - t0
kinds = {}
for it in items:
    kinds[it["kind"]] = kinds.get(it["kind"], 0) + 1
print(json.dumps({
    "seconds": secs,
    "cpu": time.process_time(),
    "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "items": kinds,
    "largest": max((len(it["refs"]) for it in items), default=0),
}))
"""


def run(shape: str, n: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        text = bullets(shape, n)
        (Path(tmp) / "MEMORY.md").write_text(text, encoding="utf-8")
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", CHILD, tmp],
            capture_output=True,
            text=True,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            return {"error": proc.stderr.strip().splitlines()[-1:], "wall": wall}
        out = json.loads(proc.stdout)
        out["kb"] = len(text.encode()) / 1024
        return out


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or [5000, 10000, 50000]
    print(
        f"{'shape':<8} {'bullets':>8} {'KB':>7} {'seconds':>8} {'CPU s':>6} {'peak MB':>8}  items"
    )
    for n in sizes:
        for shape in ("numbers", "filler"):
            r = run(shape, n)
            if "error" in r:
                print(f"{shape:<8} {n:>8} {'':>7} {r['wall']:>8.1f} {'':>8}  {r['error']}")
                continue
            print(
                f"{shape:<8} {n:>8} {r['kb']:>7.0f} {r['seconds']:>8.1f} {r['cpu']:>6.1f}"
                f" {r['peak_mb']:>8.0f}"
                f"  {r['items'] or '-'} largest group {r['largest']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
