"""Time ``memreview apply`` on a journal padded with junk lines (issue: journal work is linear).

    python bench/journal_junk.py [N ...] [--kind batches|garbage|damaged] [--json]

For each N (default 20000 and 120000) a fresh copy of the sample workspace gets N junk lines
in ``.memreview/journal.jsonl`` — ``batches``: committed apply batches from 2020 with no
files (an intent and a commit line each, what a loop in an agent could write), ``garbage``:
lines that are not JSON, ``damaged``: JSON lines naming a batch with a wrong field — then one
decision is applied with the command line (``memreview apply``, its own process) and the
CPU and wall seconds of that process are printed. Then the same apply again (the second one
finds the junk batches pruned already).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_workspace"
TODAY = "2026-11-29"


def junk_lines(n: int, kind: str) -> bytes:
    out = []
    if kind == "batches":
        for k in range(n // 2):
            bid = f"20200101-000000-j{k:07d}"
            ts = "2020-01-01T00:00:00+00:00"
            out.append(json.dumps({"type": "intent", "batch": bid, "kind": "apply", "ts": ts}))
            out.append(json.dumps({"type": "commit", "batch": bid, "kind": "apply", "ts": ts}))
    elif kind == "garbage":
        out = [f"junk line {k} {{not json" for k in range(n)]
    else:  # damaged: a batch named, a field of the wrong type
        out = [json.dumps({"type": "file", "batch": f"d{k}", "file": 7}) for k in range(n)]
    return ("\n".join(out) + "\n").encode()


def cli(*argv: str) -> tuple[subprocess.CompletedProcess, float, float]:
    """Run memreview ARGV; (process, CPU seconds, wall seconds) of that run."""
    env = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(
        [sys.executable, "-m", "memreview", *argv], env=env, capture_output=True, check=False
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p, cpu, wall


def one_decision(ws: Path) -> list[dict]:
    p, _cpu, _wall = cli("scan", str(ws), "--json", "--today", TODAY)
    queues = json.loads(p.stdout)["queues"]
    for item in queues.get("dormant") or []:
        return [{"item": item["id"], "action": "snooze"}]
    for item in queues.get("supersede") or []:
        return [{"item": item["id"], "action": "reject"}]
    raise SystemExit("the sample has no item to decide")


def measure(n: int, kind: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="mr-junk-") as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(SAMPLE, ws, symlinks=True)
        decisions = one_decision(ws)
        (ws / ".memreview").mkdir(exist_ok=True)
        (ws / ".memreview/journal.jsonl").write_bytes(junk_lines(n, kind))
        dfile = Path(tmp) / "decisions.yaml"
        dfile.write_text("".join(f"- {json.dumps(d)}\n" for d in decisions))
        runs = []
        for _ in range(2):
            p, cpu, wall = cli("apply", str(ws), "--decisions", str(dfile), "--today", TODAY)
            if p.returncode not in (0, 1):
                raise SystemExit(p.stderr.decode(errors="replace"))
            runs.append({"cpu_s": round(cpu, 2), "wall_s": round(wall, 2), "code": p.returncode})
        return {"junk_lines": n, "kind": kind, "first_apply": runs[0], "second_apply": runs[1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="*", type=int, default=[20000, 120000])
    ap.add_argument("--kind", choices=("batches", "garbage", "damaged"), default="batches")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [measure(n, args.kind) for n in args.n]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        a, b = r["first_apply"], r["second_apply"]
        print(
            f"{r['junk_lines']:>7} {r['kind']} lines: apply {a['cpu_s']:.2f} CPU s "
            f"({a['wall_s']:.2f} s wall), again {b['cpu_s']:.2f} CPU s ({b['wall_s']:.2f} s)"
        )


if __name__ == "__main__":
    main()
