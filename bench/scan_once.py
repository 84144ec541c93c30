"""Measure one scan in a fresh process: wall time, floor, per-stage and per-queue times, memory.

Run by bench.py as ``python bench/scan_once.py WORKSPACE``; prints one JSON object. The
per-queue times come from another fresh process (``--queues WORKSPACE``): each queue as a
cold scan computes it, not after a scan has filled the detectors' caches.
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys
import time
from pathlib import Path


def floor(root: Path) -> float:
    """Only reading, decoding and splitting the files a scan reads (and the fragment rows)."""
    t0 = time.perf_counter()
    for dirpath, _dirs, files in os.walk(root):
        if ".memreview" in dirpath or ".git" in dirpath:
            continue
        for name in files:
            p = Path(dirpath, name)
            if name.endswith((".md", ".jsonl", ".json", ".yaml")):
                data = p.read_bytes()
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    text = data.decode("gb18030", errors="replace")
                text.split("\n")
    db = root / "memory/knowledge/dreams.db"
    if db.exists():
        con = sqlite3.connect(db.as_uri() + "?mode=ro", uri=True)
        con.execute("SELECT * FROM dreams").fetchall()
        con.close()
    return time.perf_counter() - t0


def per_queue_cold(root: Path) -> dict[str, float]:
    """Each queue's seconds in a cold scan: in a fresh process (``--queues``), on one load
    of the workspace, in the registry's order, each after the ones before it as a scan
    computes them (numpy and rapidfuzz imported before; what a queue loads itself on first
    use, such as pypinyin's dictionary or detect-secrets' patterns, is its own)."""
    proc = subprocess.run(
        [sys.executable, __file__, "--queues", str(root)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "MEMREVIEW_NO_CACHE": "1"},
    )
    return json.loads(proc.stdout)


def queues_main(root: Path) -> None:
    from memreview.decisions import registry
    from memreview.scan import ready_detectors
    from memreview.workspace.loader import check_workspace, load_workspace, review_date

    ws = load_workspace(check_workspace(root))
    today = review_date(ws, None)
    ready_detectors()
    per_queue = {}
    for unit in registry.units():
        t0 = time.perf_counter()
        unit.detect(ws, today)
        per_queue[unit.name] = time.perf_counter() - t0
    print(json.dumps(per_queue))


def main() -> None:
    if sys.argv[1] == "--queues":
        queues_main(Path(sys.argv[2]).resolve())
        return
    root = Path(sys.argv[1]).resolve()
    t_start = time.perf_counter()
    from memreview.decisions.state import load_state
    from memreview.scan import compute, scan_workspace
    from memreview.workspace.loader import check_workspace, load_workspace, review_date

    t_import = time.perf_counter()
    c_import = time.process_time()
    # the scan as the command runs it (the archived queue starts while loading goes on)
    result = scan_workspace(root, cache=False)  # cold: the scan cache neither read nor written
    out = json.dumps(result.to_json(), ensure_ascii=False)
    t_end = time.perf_counter()
    c_end = time.process_time()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # the scan's own peak
    counts, json_bytes = result.counts, len(out.encode())
    del result, out
    # then each stage on its own: loading, and the queues one after another
    t_load0 = time.perf_counter()
    ws = load_workspace(check_workspace(root))
    t_load = time.perf_counter()
    today = review_date(ws, None)
    state = load_state(root, ws)
    compute(ws, today, state)
    t_queues = time.perf_counter()
    f1 = floor(root)
    f2 = floor(root)
    c0 = time.process_time()
    floor(root)
    floor_cpu = time.process_time() - c0
    print(
        json.dumps(
            {
                "import_s": t_import - t_start,
                "load_s": t_load - t_load0,
                "queues_health_s": t_queues - t_load,
                "scan_s": t_end - t_import,
                "scan_cpu_s": c_end - c_import,
                "floor_s": min(f1, f2),
                "floor_cpu_s": floor_cpu,
                "per_queue_s": per_queue_cold(root),
                "json_bytes": json_bytes,
                "counts": counts,
                "entries": sum(len(mf.entries) for mf in ws.files.values()),
                "peak_rss_mb": peak_mb,
            }
        )
    )


if __name__ == "__main__":
    main()
