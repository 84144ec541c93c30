"""Whether two checkouts of memreview give the same ``scan --json`` on the same workspaces.

    python bench/same_scan.py BEFORE_CHECKOUT [WORKSPACE ...]

Runs ``python -m memreview scan WS --json --no-cache`` with this checkout and with
BEFORE_CHECKOUT on each workspace (the sample and every tests/realistic case when none is
named) and prints, per workspace, ``same`` or where the outputs first differ, and the CPU
seconds of each run. Exit 1 when any differs: a speed change must not change a finding.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def scan(checkout: Path, ws: Path) -> tuple[bytes, float]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "MEMREVIEW_NO_CACHE": "1"}
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [sys.executable, "-m", "memreview", "scan", str(ws), "--json", "--no-cache"],
        capture_output=True,
        env=env,
        cwd=str(checkout),
    )
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    return proc.stdout + b"\nrc=%d\n" % proc.returncode + proc.stderr, cpu


def workspaces(args: list[str]) -> list[Path]:
    if args:
        return [Path(a).resolve() for a in args]
    cases = sorted(p for p in (ROOT / "tests/realistic/cases").iterdir() if p.is_dir())
    return [ROOT / "sample_workspace", *cases]


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    before = Path(argv[0]).resolve()
    differ = 0
    for ws in workspaces(argv[1:]):
        a, cpu_a = scan(before, ws)
        b, cpu_b = scan(ROOT, ws)
        if a == b:
            verdict = "same"
        else:
            differ += 1
            at = next(k for k in range(min(len(a), len(b)) + 1) if a[k : k + 1] != b[k : k + 1])
            verdict = f"DIFFER at byte {at}: {a[at - 60 : at + 60]!r} / {b[at - 60 : at + 60]!r}"
        print(f"{ws.name}: {verdict} (CPU {cpu_a:.2f} s before, {cpu_b:.2f} s now)", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
