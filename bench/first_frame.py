"""How soon the app shows something, launched as an owner launches it: in a terminal (tmux).

    python bench/first_frame.py                 # `memreview demo`: the sample, cold
    python bench/first_frame.py WORKSPACE       # `memreview WORKSPACE`, cold (fresh cache dir)
    python bench/first_frame.py WORKSPACE --warm --runs 5 --size 120x36
    python bench/first_frame.py WORKSPACE --cache-from CACHE   # each run from a copy of CACHE

Each run starts the command in a tmux session of its own (a fresh scan-cache directory unless
``--warm``: a cold open) and reads the screen with ``tmux capture-pane -p`` every few
milliseconds, timing from just before the launch:

- first_frame_s: the title bar and the queues' names are on the screen;
- first_items_s: a queue's items are (its header reads "1 of N"), and which queue;
- counts_s: every queue in the left column has its count (none shows "…" any more);
- cpu: the app process's CPU seconds (user + system, /proc) when each was first seen,
  a figure a busy machine inflates less than the wall time;
- flashes: texts that should never show while the app starts ("0 of 0", "computing this
  queue…", "Nothing to review here.") when one was seen before the counts were all in.

Prints one line per run and the median of the runs, and with ``--json`` one JSON object.
Figures, never a pass or fail: the machine may be busy.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TITLE_BAR = re.compile(r"^\s*memreview\s")
ITEMS = re.compile(r"^\s*(?:\S.*?▕)?\s*(\S[^▕]*?)\s{3}1 of [\d,]+")
NAV_PENDING = re.compile(r"^ [0-9] \S[^▕]* …\s*▕")
FLASHES = ("0 of 0", "computing this queue", "Nothing to review here.")
FIRST_QUEUE = "Contradictions"  # the queue named first in the left column


def tmux(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=check)


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (None once it is gone)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def launch_command(workspace: Path | None, cache_dir: Path) -> str:
    env = {"PYTHONPATH": str(ROOT), "MEMREVIEW_CACHE_DIR": str(cache_dir)}
    if os.environ.get("MEMREVIEW_NO_FORK"):  # passed on: the app without its second process
        env["MEMREVIEW_NO_FORK"] = os.environ["MEMREVIEW_NO_FORK"]
    args = [
        sys.executable,
        "-m",
        "memreview",
        *(["demo"] if workspace is None else [str(workspace)]),
    ]
    return (
        "exec env "
        + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        + " "
        + (" ".join(shlex.quote(a) for a in args))
    )


def one_run(
    workspace: Path | None, size: tuple[int, int], cache_dir: Path, timeout: float, name: str
) -> dict:
    """Launch, watch the screen until every count is in (or ``timeout``), quit."""
    out: dict = {"flashes": []}
    t0 = time.perf_counter()
    tmux(
        "new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]),
        "-c", str(cache_dir.parent),  # not a checkout: `-m memreview` imports PYTHONPATH's
        launch_command(workspace, cache_dir),
    )  # fmt: skip
    pid_text = tmux("display-message", "-p", "-t", name, "#{pane_pid}", check=False).stdout
    pid = int(pid_text) if pid_text.strip().isdigit() else None
    try:
        while time.perf_counter() - t0 < timeout:
            shot = tmux("capture-pane", "-p", "-t", name, check=False)
            now = round(time.perf_counter() - t0, 3)
            if shot.returncode:
                out["exited"] = now
                break
            if _look(shot.stdout.splitlines(), now, cpu_seconds(pid), out):
                break
            time.sleep(0.004)
        out["screen"] = tmux("capture-pane", "-p", "-t", name, check=False).stdout
    finally:
        _quit(name)
    return out


def _look(lines: list[str], now: float, cpu: float | None, out: dict) -> bool:
    """Note what this screen shows for the first time; True when every count is in."""
    text = "\n".join(lines)
    if "first_frame_s" not in out and lines and TITLE_BAR.match(lines[0]) and FIRST_QUEUE in text:
        out["first_frame_s"], out["first_frame_cpu_s"] = now, cpu
    if "first_items_s" not in out:
        hit = next((m for line in lines if (m := ITEMS.match(line))), None)
        if hit is not None:
            out["first_items_s"], out["first_items_cpu_s"] = now, cpu
            out["first_queue"] = hit.group(1).strip()
    if "first_frame_s" in out and "counts_s" not in out:
        for flash in FLASHES:
            if flash in text and flash not in out["flashes"]:
                out["flashes"].append(flash)
        if not any(NAV_PENDING.match(line) for line in lines):
            out["counts_s"], out["counts_cpu_s"] = now, cpu
    return "counts_s" in out and "first_items_s" in out


def _quit(name: str) -> None:
    tmux("send-keys", "-t", name, "q", check=False)
    for _ in range(200):
        if tmux("has-session", "-t", name, check=False).returncode:
            return
        time.sleep(0.02)
    tmux("kill-session", "-t", name, check=False)


def median(runs: list[dict], key: str) -> float | None:
    values = [r[key] for r in runs if isinstance(r.get(key), int | float)]
    return round(statistics.median(values), 3) if values else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workspace", nargs="?", type=Path, help="default: `memreview demo`")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--size", default="120x36")
    ap.add_argument("--warm", action="store_true", help="keep one scan-cache directory")
    ap.add_argument(
        "--cache-from",
        type=Path,
        help="each run's scan cache a copy of this one (the Monday open: last week's cache)",
    )
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if shutil.which("tmux") is None:
        print("first_frame.py needs tmux", file=sys.stderr)
        return 2
    size = tuple(int(x) for x in args.size.split("x"))
    keep = f"first-frame-{os.getpid()}"
    tmux("new-session", "-d", "-s", keep, "sleep 3600")  # the server runs before the first launch
    tmp = Path(tempfile.mkdtemp(prefix="memreview-first-frame-"))
    runs = []
    try:
        for k in range(args.runs):
            cache = tmp / ("cache" if args.warm else f"cache-{k}")
            if args.cache_from is not None:
                shutil.rmtree(cache, ignore_errors=True)
                shutil.copytree(args.cache_from, cache)
            ws = args.workspace.resolve() if args.workspace else None
            run = one_run(ws, size, cache, args.timeout, f"{keep}-{k}")
            runs.append(run)
            if not args.json:
                print(_line(k + 1, run))
    finally:
        tmux("kill-session", "-t", keep, check=False)
        shutil.rmtree(tmp, ignore_errors=True)
    keys = ("first_frame_s", "first_frame_cpu_s", "first_items_s", "first_items_cpu_s")
    summary = {key: median(runs, key) for key in (*keys, "counts_s", "counts_cpu_s")}
    summary["first_queue"] = sorted({r.get("first_queue") for r in runs} - {None})
    summary["flashes"] = sorted({f for r in runs for f in r["flashes"]})
    summary["runs"] = len(runs)
    if args.json:
        print(json.dumps(summary))
    else:
        print(_line("median", summary))
    return 0


def _line(label, r: dict) -> str:
    def s(key: str) -> str:
        v = r.get(key)
        return f"{v:.3f}s" if isinstance(v, int | float) else "—"

    flashes = ", ".join(r.get("flashes") or []) or "none"
    first = r.get("first_queue")
    first = ", ".join(first) if isinstance(first, list) else first
    return (
        f"{label!s:>6}: first frame {s('first_frame_s')} (cpu {s('first_frame_cpu_s')})  "
        f"first items {s('first_items_s')} (cpu {s('first_items_cpu_s')}, {first})  "
        f"every count {s('counts_s')} (cpu {s('counts_cpu_s')})  flashes: {flashes}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
