"""memreview's speed benchmark (docs/design.md §8). Prints a table and writes the figures as JSON.

    python bench/bench.py [--scales 0.01,0.1,0.25,0.5,1.0] [--out bench/results.json]

For each scale it generates a workspace with ``memreview.synth`` (cached under bench/out/),
then, each in a fresh process:
- start-up: ``memreview --version`` wall time;
- ``memreview scan --json --no-cache`` wall time (the whole command, interpreter start
  included: a cold scan; it may compute some queues in a forked second process,
  memreview.scan.apart), and the most memory its processes held at once (``cmd MB``);
- in-process: load, queues, time per queue, peak memory, and the floor — merely reading,
  decoding and splitting the same files — with the ratio scan / floor;
- the app launched in a terminal (bench/first_frame.py, tmux), cold: time to its first frame
  (title bar and queue names), median of three;
- the app (Pilot), cold: time to the first queue's items and to every count, and the app's
  own per-key latency (timed inside the app, key arrival to refresh) on a 10,000-item queue
  and a 100-item one;
- on a throwaway copy, the scan cache on (in a cache directory of the bench's own): the first
  open (which writes the cache), a warm open of the unchanged copy (time to the counts and
  to the end), an open after appending to two daily logs, and the rescan after a batch of
  7 decisions (bench/rescan_once.py).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"


def ensure_workspace(scale: float, seed: int = 0, promotions: int = 0) -> Path:
    """The generated workspace of ``scale`` (``promotions``: that many more OpenClaw
    promotions, the promotions-heavy profile), made once under bench/out/."""
    dest = OUT / (f"scale-{scale:g}" + (f"-p{promotions}" if promotions else ""))
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
                "--promotions",
                str(promotions),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        marker.write_text("ok\n")
    return dest


def run_json(args: list[str], env: dict | None = None) -> dict:
    proc = subprocess.run(args, check=True, capture_output=True, text=True, env=env)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def scan_command_seconds(ws: Path, runs: int = 3) -> tuple[float, float]:
    """The cold ``scan --json`` command (no scan cache), best of ``runs``: wall, CPU."""
    args = [sys.executable, "-m", "memreview", "scan", str(ws), "--json", "--no-cache"]
    return best_run(args, runs)


def command_memory_mb(ws: Path) -> float | None:
    """The cold ``scan --json`` command's memory: the most its processes held at once (it
    may fork a second one, memreview.scan.apart), as the sum of their proportional set
    sizes (a page two processes share counts half in each), sampled every 20 ms from /proc;
    None where /proc doesn't tell."""
    if not Path("/proc/self/smaps_rollup").exists():
        return None
    args = [sys.executable, "-m", "memreview", "scan", str(ws), "--json", "--no-cache"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    most = 0
    while proc.poll() is None:
        pids = [proc.pid, *_children(proc.pid)]
        most = max(most, sum(_pss_kb(pid) for pid in pids))
        time.sleep(0.02)
    return round(most / 1024, 1)


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        return []


def _pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def best_wall(args: list[str], runs: int = 3, env: dict | None = None) -> float:
    return best_run(args, runs, env)[0]


def best_run(args: list[str], runs: int = 3, env: dict | None = None) -> tuple[float, float]:
    """The best wall time of ``runs`` runs of the command, and the least CPU time (user +
    system) one of them used: about the wall time of an idle machine, whatever the load."""
    wall = cpu = float("inf")
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=env)
        wall = min(wall, time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return wall, cpu


def open_once(ws: Path, env: dict) -> dict:
    """One open in a fresh process (bench/open_once.py), timed from before its start."""
    args = [sys.executable, str(HERE / "open_once.py"), str(ws)]
    proc = subprocess.run(
        [*args, repr(time.time())], check=True, capture_output=True, text=True, env=env
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


# what bench/first_frame.py reads off the terminal, under the names a row keeps: the Pilot's
# figures (app_once.py) wait for the app to be idle after the items are listed, which a scan
# still posting queues delays; the terminal shows the items when they are drawn
SCREEN_KEYS = {
    "first_frame_s": "first_frame_s",
    "first_frame_cpu_s": "first_frame_cpu_s",
    "first_items_s": "screen_items_s",
    "first_items_cpu_s": "screen_items_cpu_s",
    "counts_s": "screen_counts_s",
    "counts_cpu_s": "screen_counts_cpu_s",
}


def first_frame(ws: Path | None) -> dict:
    """The app launched in a terminal, cold (bench/first_frame.py; nothing without tmux):
    its first frame, first items and every count, median of three (``ws`` None: `memreview
    demo`, the sample)."""
    if shutil.which("tmux") is None:
        return {}
    where = [] if ws is None else [str(ws)]
    args = [sys.executable, str(HERE / "first_frame.py"), *where, "--runs", "3", "--json"]
    got = run_json(args)
    return {new: got[k] for k, new in SCREEN_KEYS.items() if got.get(k) is not None}


def compile_bytecode() -> None:
    """memreview's modules compiled to bytecode, as any install leaves them (pip compiles
    at install; a checkout run with PYTHONDONTWRITEBYTECODE would compile every module at
    every launch, which no owner's copy does)."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(HERE.parent / "memreview")],
        check=True,
        stdout=subprocess.DEVNULL,
    )


# a file changed less than the scan cache's racy window ago (2 s, by its modification or
# its change time, which no one can set back) is hashed as it is read: the bench's edits
# wait it out, as the week's edits before a Monday open are hours old
PAST_RACY = 2.1


def warm_figures(ws: Path) -> dict:
    """First open, warm open, open after two appended daily logs, rescan after a batch, the
    Monday open (bench/monday.py's week of edits): on a copy of ``ws`` (mtimes kept) with a
    cache directory of its own; then the second open of a fresh copy (every file written
    just now, as an agent's append leaves it)."""
    tmp = Path(tempfile.mkdtemp(prefix="memreview-bench-"))
    try:
        copy = tmp / "ws"
        shutil.copytree(ws, copy, copy_function=shutil.copy2)
        env = {**os.environ, "MEMREVIEW_CACHE_DIR": str(tmp / "cache")}
        env.pop("MEMREVIEW_NO_CACHE", None)
        out = {"first_open": open_once(copy, env)}
        out["warm"] = min((open_once(copy, env) for _ in range(3)), key=lambda r: r["all_s"])
        out["workspace_mb"] = round(_size(copy) / 2**20, 1)
        out["rss_per_mb"] = round(out["warm"]["rss_mb"] / out["workspace_mb"], 1)
        logs = sorted((copy / "memory").glob("[0-9][0-9][0-9][0-9]-*.md"))[-2:]
        then = time.time() - 60  # an agent wrote them a minute ago
        for p in logs:
            with open(p, "a", encoding="utf-8") as f:
                f.write("- 14:02 the agent appended one more line\n")
            os.utime(p, (then, then))
        time.sleep(PAST_RACY)  # their change time can't be set back: past the racy window
        out["two_logs"] = open_once(copy, env)
        out["rescan"] = run_json([sys.executable, str(HERE / "rescan_once.py"), str(copy)], env=env)
        open_once(copy, env)  # last week's review: the cache as the rescan left it
        subprocess.run(
            [sys.executable, str(HERE / "monday.py"), str(copy)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        time.sleep(PAST_RACY)  # a Monday morning: the week's edits are hours old
        out["monday"] = open_once(copy, env)
        shutil.rmtree(copy)
        shutil.copytree(ws, copy, copy_function=shutil.copy)  # every file written just now
        fresh = {**env, "MEMREVIEW_CACHE_DIR": str(tmp / "cache-fresh")}
        open_once(copy, fresh)
        out["second_open"] = open_once(copy, fresh)
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())


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
    ap.add_argument(
        "--promotions",
        type=int,
        default=3000,
        help="also scale 1 with this many more OpenClaw promotions (0: not run)",
    )
    ap.add_argument(
        "--cache-only",
        action="store_true",
        help="only the scan cache's phases, merged into the rows --out holds already",
    )
    args = ap.parse_args()
    if args.cache_only:
        return cache_only(args.out, [float(s) for s in args.scales.split(",")])
    compile_bytecode()
    load = os.getloadavg()
    scales = [float(s) for s in args.scales.split(",")]
    OUT.mkdir(exist_ok=True)
    sample = None if args.no_app else first_frame(None)  # `memreview demo`, cold
    rows = [measure_row(ensure_workspace(scale), scale, args.no_app) for scale in scales]
    heavy = None
    if args.promotions:  # a year of OpenClaw dreaming at scale 1
        heavy = measure_row(ensure_workspace(1.0, promotions=args.promotions), 1.0, args.no_app)
        heavy["promotions"] = args.promotions
    # other scripts' keys (queue_exponents) are kept
    doc = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    doc.pop("promotions_heavy", None)
    doc.pop("notes", None)  # about the figures of an earlier run
    doc.pop("sample", None)
    doc.update(
        {
            "machine": os.uname().machine,
            "cpus": os.cpu_count(),
            "load_before": [round(x, 2) for x in load],
            "load_after": [round(x, 2) for x in os.getloadavg()],
            "rows": rows,
            **({"promotions_heavy": heavy} if heavy else {}),
            **({"sample": sample} if sample else {}),
        }
    )
    args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    print_table(rows + ([heavy] if heavy else []))
    if heavy:
        print(f"(the last row: scale 1 with {args.promotions:,} more OpenClaw promotions)")
    if sample:
        print(
            "\n`memreview demo` (the sample) in a terminal, cold: first frame "
            f"{_s(sample.get('first_frame_s'))}, first items {_s(sample.get('screen_items_s'))}, "
            f"every count {_s(sample.get('screen_counts_s'))}"
        )
    print(
        f"\nload average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f} ({os.cpu_count()} cpus)"
    )
    if args.out == HERE / "results.json":
        # docs/performance.md's figures are this run's, never typed by hand
        import perf_doc

        perf_doc.main([])
    return 0


def measure_row(ws: Path, scale: float, no_app: bool) -> dict:
    """Every figure of one workspace (see the module docstring)."""
    inproc = run_json([sys.executable, str(HERE / "scan_once.py"), str(ws)])
    row = {
        "scale": scale,
        "entries": inproc["entries"],
        **dict(
            zip(("scan_cmd_s", "scan_cmd_cpu_s"), map(_r, scan_command_seconds(ws)), strict=True)
        ),
        **{
            k: inproc[k]
            for k in ("load_s", "scan_s", "scan_cpu_s", "floor_s", "floor_cpu_s", "peak_rss_mb")
        },
        "ratio_cpu": round(inproc["scan_cpu_s"] / inproc["floor_cpu_s"], 1),
        "ratio": round(inproc["scan_s"] / inproc["floor_s"], 1),
        "per_queue_s": {k: round(v, 3) for k, v in inproc["per_queue_s"].items()},
        "counts": inproc["counts"],
    }
    row["scan_cmd_mb"] = command_memory_mb(ws)
    version = best_run([sys.executable, "-m", "memreview", "--version"])
    row["startup_s"], row["startup_cpu_s"] = map(_r, version)
    if not no_app:
        cold = {**os.environ, "MEMREVIEW_NO_CACHE": "1"}
        row["app"] = run_json([sys.executable, str(HERE / "app_once.py"), str(ws)], env=cold)
        row["app"].update(first_frame(ws))
    row.update(warm_figures(ws))
    print(f"scale {scale:g} done", file=sys.stderr)
    return row


def cache_only(out: Path, scales: list[float]) -> int:
    """The scan cache's phases at ``scales``, written into the rows of ``out`` (the other
    figures of those rows kept), then the page made again."""
    results = json.loads(out.read_text())
    load = os.getloadavg()
    for row in results["rows"]:
        if row["scale"] in scales:
            row.update(warm_figures(ensure_workspace(row["scale"])))
            print(f"scale {row['scale']:g} done", file=sys.stderr)
    results["load_cache_phases"] = [round(load[0], 2), round(os.getloadavg()[0], 2)]
    out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    print_table(results["rows"])
    if out == HERE / "results.json":
        import perf_doc

        perf_doc.main([])
    return 0


def _r(value: float) -> float:
    return round(value, 3)


def _s(value) -> str:
    return f"{value:.2f}s" if isinstance(value, int | float) else "—"


def print_table(rows: list[dict]) -> None:
    nan = float("nan")
    head = (
        f"{'scale':>6} {'entries':>8} {'scan cmd':>9} {'in-proc':>8} {'floor':>7} "
        f"{'ratio':>6} {'peak MB':>8} {'cmd MB':>7} {'frame':>6} {'items':>6} {'counts':>6} "
        f"{'P items':>8} {'P counts':>8} {'key 10k':>8} {'key 100':>8}"
    )
    print("cold (no scan cache; the app in a terminal: first frame, first items, every count;")
    print(" P: the same two through Textual's Pilot, which waits for the app to be idle)")
    print(head)
    print("-" * len(head))
    for r in rows:
        app = r.get("app") or {}
        print(
            f"{r['scale']:>6g} {r['entries']:>8} {r['scan_cmd_s']:>8.2f}s {r['scan_s']:>7.2f}s "
            f"{r['floor_s']:>6.2f}s {r['ratio']:>5.1f}x {r['peak_rss_mb']:>8.0f} "
            f"{r.get('scan_cmd_mb') or nan:>7.0f} "
            f"{_s(app.get('first_frame_s')):>6} {_s(app.get('screen_items_s')):>6} "
            f"{_s(app.get('screen_counts_s')):>6} "
            f"{_s(app.get('first_items_s')):>8} {_s(app.get('first_screen_s')):>8} "
            f"{app.get('key_10k', {}).get('median_ms', nan):>6.1f}ms "
            f"{app.get('key_100', {}).get('median_ms', nan):>6.1f}ms"
        )
    head = (
        f"{'scale':>6} {'start-up':>9} {'1st open':>9} {'warm cnt':>9} {'warm all':>9} "
        f"{'2 logs cnt':>10} {'2 logs all':>10} {'rescan 1st':>10} {'rescan cnt':>10} "
        f"{'rescan all':>10}"
    )
    print()
    print("scan cache on (counts: time to every queue's count; 1st: the first queue computed)")
    print(head)
    print("-" * len(head))
    for r in rows:
        first, warm, two, re_ = (
            r.get(k) or {} for k in ("first_open", "warm", "two_logs", "rescan")
        )
        print(
            f"{r['scale']:>6g} {_s(r.get('startup_s')):>9} {_s(first.get('all_s')):>9} "
            f"{_s(warm.get('counts_s')):>9} {_s(warm.get('all_s')):>9} "
            f"{_s(two.get('counts_s')):>10} {_s(two.get('all_s')):>10} "
            f"{_s(re_.get('first_queue_s')):>10} {_s(re_.get('counts_s')):>10} "
            f"{_s(re_.get('all_s')):>10}"
        )
    head = (
        f"{'scale':>6} {'start-up':>9} {'scan cmd':>9} {'in-proc':>8} {'floor':>7} {'ratio':>6} "
        f"{'warm cnt':>9} {'warm all':>9} {'2 logs cnt':>10} {'rescan 1st':>10} "
        f"{'rescan cnt':>10}"
    )
    print()
    print("CPU seconds (user + system; about an idle machine's wall time, whatever the load)")
    print(head)
    print("-" * len(head))
    for r in rows:
        warm, two, re_ = (r.get(k) or {} for k in ("warm", "two_logs", "rescan"))
        print(
            f"{r['scale']:>6g} {_s(r.get('startup_cpu_s')):>9} {_s(r.get('scan_cmd_cpu_s')):>9} "
            f"{_s(r.get('scan_cpu_s')):>8} {_s(r.get('floor_cpu_s')):>7} "
            f"{r.get('ratio_cpu', nan):>5.1f}x "
            f"{_s(warm.get('counts_cpu_s')):>9} {_s(warm.get('all_cpu_s')):>9} "
            f"{_s(two.get('counts_cpu_s')):>10} {_s(re_.get('first_queue_cpu_s')):>10} "
            f"{_s(re_.get('counts_cpu_s')):>10}"
        )
    head = (
        f"{'scale':>6} {'2nd open':>9} {'2nd CPU':>8} {'warm items':>10} {'items CPU':>9} "
        f"{'monday cnt':>10} {'monday CPU':>10} {'monday all':>10} {'rescan cnt':>10} "
        f"{'rescan CPU':>10} {'RSS/MB':>7}"
    )
    print()
    print("the second open, a warm open's items, the Monday open, the rescan (wall and CPU)")
    print(head)
    print("-" * len(head))
    for r in rows:
        second, warm, mon, re_ = (
            r.get(k) or {} for k in ("second_open", "warm", "monday", "rescan")
        )
        print(
            f"{r['scale']:>6g} {_s(second.get('all_s')):>9} {_s(second.get('all_cpu_s')):>8} "
            f"{_s(warm.get('loaded_s')):>10} {_s(warm.get('loaded_cpu_s')):>9} "
            f"{_s(mon.get('counts_s')):>10} {_s(mon.get('counts_cpu_s')):>10} "
            f"{_s(mon.get('all_s')):>10} {_s(re_.get('counts_s')):>10} "
            f"{_s(re_.get('counts_cpu_s')):>10} {r.get('rss_per_mb', nan):>7}"
        )
    print()
    queues = list(rows[0]["per_queue_s"]) if rows else []
    print("time per queue, in a cold scan (in its order, numpy imported before)")
    print(f"{'scale':>6} " + " ".join(f"{q[:11]:>11}" for q in queues))
    for r in rows:
        print(f"{r['scale']:>6g} " + " ".join(f"{r['per_queue_s'][q]:>10.3f}s" for q in queues))


if __name__ == "__main__":
    raise SystemExit(main())
