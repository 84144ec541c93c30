"""Time and peak memory of a scan on a clique of anchors that all conflict.

    python bench/clique.py [N ...]          (default: 500 1000 2000)

For each N, a workspace of N anchors (100 to a file under ``memory/``), each with a ``CONFLICTS-WITH:`` line
naming every other anchor (N × (N − 1) references), scanned by ``memreview scan --json`` in a
fresh process. Prints the file's size, the wall and CPU seconds, the peak RSS of the scan
and what the contradictions queue listed (pair items, group items, the largest group). The
CPU seconds are the figure to compare on a busy machine. ``MEMREVIEW_BENCH_ROOT=DIR`` runs
the memreview checked out in DIR instead of this one (a before/after comparison).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(os.environ.get("MEMREVIEW_BENCH_ROOT") or Path(__file__).resolve().parent.parent)


PER_FILE = 100  # anchors per file: a file stays under the 32 MiB Markdown cap


def clique(n: int) -> dict[str, str]:
    """N anchors, each in conflict with every other one, 100 to a file under memory/."""
    ids = [f"claim-{k:05d}" for k in range(n)]
    files: dict[str, list[str]] = {"MEMORY.md": ["# Memory", "", "- the claims are under memory/"]}
    for k, aid in enumerate(ids):
        out = files.setdefault(f"memory/claims-{k // PER_FILE:03d}.md", ["# Claims", ""])
        others = ", ".join(f"[[{o}]]" for o in ids if o != aid)
        out += [
            f"## [FACT:{aid}]",
            f"Added: 2026-{1 + k % 12:02d}-{1 + k % 28:02d}",
            f"Summary: claim number {k}",
            f"CONFLICTS-WITH: {others}",
            f"Claim {k} says the opposite of every other claim.",
            "---",
            "",
        ]
    return {rel: "\n".join(lines) for rel, lines in files.items()}


def run(n: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        files = clique(n)
        for rel, text in files.items():
            path = Path(tmp) / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        t0 = time.perf_counter()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        before = usage.ru_maxrss
        proc = subprocess.run(
            [sys.executable, "-m", "memreview", "scan", tmp, "--json", "--today", "2026-11-29"],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
        )
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        peak = after.ru_maxrss
        cpu = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime
        size = sum(len(t.encode()) for t in files.values())
        out = {"kb": size / 1024, "seconds": wall, "cpu": cpu, "peak_mb": peak / 1024}
        if peak <= before:
            out["peak_mb"] = None  # an earlier, larger child holds the maximum
        if proc.returncode not in (0, 1):
            out["error"] = (proc.stderr.strip().splitlines() or ["?"])[-1]
            return out
        items = json.loads(proc.stdout)["queues"]["contradictions"]
        groups = [it for it in items if it.get("kind") == "group"]
        out["pairs"] = len(items) - len(groups)
        out["groups"] = len(groups)
        out["largest"] = max((len(g["refs"]) for g in groups), default=0)
        return out


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or [500, 1000, 2000]
    print(
        f"{'anchors':>8} {'references':>11} {'MB':>6} {'seconds':>8} {'CPU s':>7} {'peak MB':>8}"
        "  items"
    )
    for n in sizes:
        r = run(n)
        peak = "?" if r["peak_mb"] is None else f"{r['peak_mb']:.0f}"
        head = (
            f"{n:>8} {n * (n - 1):>11} {r['kb'] / 1024:>6.1f} {r['seconds']:>8.1f}"
            f" {r['cpu']:>7.1f} {peak:>8}"
        )
        if "error" in r:
            print(f"{head}  {r['error']}")
            continue
        print(f"{head}  {r['pairs']} pair(s), {r['groups']} group(s), largest {r['largest']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
