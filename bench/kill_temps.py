"""Kill loop: N runs of ``memreview apply`` on fresh copies of the sample workspace, each
killed with SIGKILL from outside at a random moment of its writing (no failpoint: the kill
can land anywhere, in memreview's own writes under ``.memreview/`` too), then what temp
files (``.<name>.<8 hex>.tmp``) it left, and which of them the next run (a ``scan``)
removed and named.

    python bench/kill_temps.py N [--seed S] [--whole] [--verbose]

The moment is drawn over the writing: from the journal's first line (the batch's intent)
to the end of a clean apply, measured once; with ``--whole``, over the whole run (start-up
and reading included, where a kill leaves nothing). A run that finished before the kill is
counted apart (nothing was cut short).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests" / "reliability")]

from reliability_helpers import REPO, TODAY, sample_copy, temp_files, write_decisions  # noqa: E402
from storm import build_decisions  # noqa: E402


def _memreview(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("MEMREVIEW_FAILPOINT", None)
    return subprocess.run(
        [sys.executable, "-m", "memreview", *args], env=env, capture_output=True, text=True
    )


def _apply(ws: Path, decisions: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("MEMREVIEW_FAILPOINT", None)
    args = [sys.executable, "-m", "memreview", "apply", str(ws), "--decisions", str(decisions)]
    return subprocess.Popen(
        [*args, "--today", TODAY], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def _writing_starts(ws: Path, proc: subprocess.Popen) -> float | None:
    """Wait until the batch's journal is there; the time then (None: the apply ended)."""
    journal = ws / ".memreview" / "journal.jsonl"
    while not journal.exists():
        if proc.poll() is not None:
            return None
        time.sleep(0.0005)
    return time.monotonic()


def _clean_times(ws: Path, decisions: Path) -> tuple[float, float]:
    """(the whole run, its writing) of one apply left alone, in seconds (wall)."""
    start = time.monotonic()
    proc = _apply(ws, decisions)
    writing = _writing_starts(ws, proc)
    proc.wait()
    end = time.monotonic()
    return end - start, end - (writing or start)


def _killed_apply(ws: Path, decisions: Path, delay: float, whole: bool) -> bool:
    """Start an apply, SIGKILL it ``delay`` seconds after its start (or after its writing
    started); True when the kill cut it short."""
    proc = _apply(ws, decisions)
    if not whole and _writing_starts(ws, proc) is None:
        return False
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    return proc.wait() == -signal.SIGKILL


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--whole", action="store_true", help="kill anywhere in the run")
    ap.add_argument("--verbose", action="store_true")
    opts = ap.parse_args()
    rng = random.Random(opts.seed)
    counts: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        base = sample_copy(Path(tmp) / "base")
        scan = _memreview("scan", str(base), "--json", "--today", TODAY)
        decisions = write_decisions(Path(tmp) / "d.yaml", build_decisions(json.loads(scan.stdout)))
        whole, writing = _clean_times(sample_copy(Path(tmp) / "clean"), decisions)
        for k in range(opts.n):
            ws = sample_copy(Path(tmp) / f"ws{k}")
            delay = rng.uniform(0.0, whole if opts.whole else writing)
            if not _killed_apply(ws, decisions, delay, opts.whole):
                counts["finished before the kill"] += 1
                continue
            counts["killed"] += 1
            left = temp_files(ws)
            nxt = _memreview("scan", str(ws), "--today", TODAY)
            after = temp_files(ws)
            named = [rel for rel in left if rel in nxt.stderr]
            counts["runs leaving a temp file"] += bool(left)
            counts["temp files left"] += len(left)
            counts["removed and named by the next run"] += len(named)
            counts["still there after the next run"] += len(after)
            if opts.verbose and left:
                print(f"run {k} (kill at {delay:.2f}s): left {left}; after {after}")
    print(f"one clean apply: {whole:.2f} s wall, {writing:.3f} s of it writing")
    for key, value in counts.items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
