"""memreview's speed benchmark (DESIGN §8). Prints a table and writes the figures as JSON.

    python bench/bench.py [--scales 0.01,0.1,0.25,0.5,1.0] [--out bench/results.json]

For each scale it generates a workspace with ``memreview.synth`` (cached under bench/out/),
then, each in a fresh process:
- ``memreview scan --json`` wall time (the whole command, interpreter start included);
- in-process: load, queues, time per queue, peak memory, and the floor — merely reading,
  decoding and splitting the same files — with the ratio scan / floor;
- the app (Pilot): time to the first screen with counts, and the app's own per-key latency
  (timed inside the app, key arrival to refresh) on a 10,000-item queue and a 100-item one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"


def ensure_workspace(scale: float, seed: int = 0) -> Path:
    dest = OUT / f"scale-{scale:g}"
    marker = dest / ".bench-done"
    if not marker.exists():
        if dest.exists():
            import shutil

            shutil.rmtree(dest)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "memreview.synth",
                str(dest),
                "--scale",
                str(scale),
                "--seed",
                str(seed),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        marker.write_text("ok\n")
    return dest


def run_json(args: list[str]) -> dict:
    proc = subprocess.run(args, check=True, capture_output=True, text=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def scan_command_seconds(ws: Path, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "memreview", "scan", str(ws), "--json"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        best = min(best, time.perf_counter() - t0)
    return best


def ms(values: list[float]) -> dict:
    v = sorted(x * 1000 for x in values)
    return {
        "median_ms": round(statistics.median(v), 2),
        "p95_ms": round(v[min(len(v) - 1, int(len(v) * 0.95))], 2),
        "max_ms": round(v[-1], 2),
        "n": len(v),
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scales", default="0.01,0.1,0.25,0.5,1.0")
    ap.add_argument("--out", type=Path, default=HERE / "results.json")
    ap.add_argument("--no-app", action="store_true")
    args = ap.parse_args()
    scales = [float(s) for s in args.scales.split(",")]
    OUT.mkdir(exist_ok=True)
    rows = []
    for scale in scales:
        ws = ensure_workspace(scale)
        inproc = run_json([sys.executable, str(HERE / "scan_once.py"), str(ws)])
        row = {
            "scale": scale,
            "entries": inproc["entries"],
            "scan_cmd_s": round(scan_command_seconds(ws), 3),
            **{k: inproc[k] for k in ("load_s", "scan_s", "floor_s", "peak_rss_mb")},
            "ratio": round(inproc["scan_s"] / inproc["floor_s"], 1),
            "per_queue_s": {k: round(v, 3) for k, v in inproc["per_queue_s"].items()},
            "counts": inproc["counts"],
        }
        if not args.no_app:
            row["app"] = run_json([sys.executable, str(HERE / "app_once.py"), str(ws)])
        rows.append(row)
        print(f"scale {scale:g} done", file=sys.stderr)
    args.out.write_text(
        json.dumps(
            {"machine": os.uname().machine, "cpus": os.cpu_count(), "rows": rows},
            indent=1,
            ensure_ascii=False,
        )
        + "\n"
    )
    print_table(rows)
    return 0


def print_table(rows: list[dict]) -> None:
    head = (
        f"{'scale':>6} {'entries':>8} {'scan cmd':>9} {'in-proc':>8} {'floor':>7} "
        f"{'ratio':>6} {'peak MB':>8} {'1st screen':>10} {'key 10k':>8} {'key 100':>8}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        app = r.get("app") or {}
        print(
            f"{r['scale']:>6g} {r['entries']:>8} {r['scan_cmd_s']:>8.2f}s {r['scan_s']:>7.2f}s "
            f"{r['floor_s']:>6.2f}s {r['ratio']:>5.1f}x {r['peak_rss_mb']:>8.0f} "
            f"{app.get('first_screen_s', float('nan')):>9.2f}s "
            f"{app.get('key_10k', {}).get('median_ms', float('nan')):>6.1f}ms "
            f"{app.get('key_100', {}).get('median_ms', float('nan')):>6.1f}ms"
        )
    print()
    queues = list(rows[0]["per_queue_s"]) if rows else []
    print(f"{'scale':>6} " + " ".join(f"{q[:11]:>11}" for q in queues))
    for r in rows:
        print(f"{r['scale']:>6g} " + " ".join(f"{r['per_queue_s'][q]:>10.3f}s" for q in queues))


if __name__ == "__main__":
    raise SystemExit(main())
