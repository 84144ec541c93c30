"""Time the app in a fresh process (run by bench.py): prints one JSON object.

- first_items_s: from creating the app to the first queue's items on the screen (the scan
  runs in the app's worker; the other queues still being computed);
- first_screen_s: … to every queue's count and the health view (the scan cache is off: run
  with ``MEMREVIEW_NO_CACHE=1`` by bench.py, a cold open);
- key_real: the app's own per-key latency (key arrival → refresh, timed inside the app)
  moving down the largest queue of that workspace, evidence and preview included;
- key_10k / key_100: the same on a 10,000-item and a 100-item queue.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

# the app tests' helpers (tests/app) and those they share with every folder (tests/)
sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests" / d) for d in ("app", ".")]


def ms(values: list[float]) -> dict:
    v = sorted(x * 1000 for x in values) or [float("nan")]
    return {
        "median_ms": round(statistics.median(v), 2),
        "p95_ms": round(v[min(len(v) - 1, int(len(v) * 0.95))], 2),
        "max_ms": round(v[-1], 2),
        "n": len(v),
    }


async def walk(app, pilot, keys: list[str]) -> dict:
    app.key_latencies.clear()
    for key in keys:
        await pilot.press(key)
    await pilot.pause()
    return ms(list(app.key_latencies))


async def main(ws: Path) -> dict:
    from memreview.app import make_app

    out: dict = {}
    cfg = Path(tempfile.mkdtemp()) / "config.yaml"
    from memreview.app.keys import queue_names

    first = queue_names()[0]
    t0 = time.perf_counter()
    app = make_app(ws, config_path=cfg)
    async with app.run_test(size=(160, 48)) as pilot:
        while True:
            result = getattr(app.screen, "result", None)
            if result is not None and first not in result.pending:
                break
            await asyncio.sleep(0.005)
        await pilot.pause()
        out["first_items_s"] = round(time.perf_counter() - t0, 3)
        while app.screen.result.pending or not app.screen.result.health:
            await asyncio.sleep(0.005)
        await pilot.pause()
        out["first_screen_s"] = round(time.perf_counter() - t0, 3)
        counts = app.screen.result.counts
        biggest = max(counts, key=counts.get)
        order = list(counts)
        await pilot.press(str(order.index(biggest) + 1))
        await pilot.pause()
        out["key_real"] = {
            "queue": biggest,
            "items": counts[biggest],
            **await walk(app, pilot, ["down"] * 60),
        }
    from fake_result import big_scan

    for n, name in ((10_000, "key_10k"), (100, "key_100")):
        root = Path(tempfile.mkdtemp())
        from bench_keys import MemoryBackend

        app = make_app(root, scan=big_scan(n), backend=MemoryBackend(), config_path=cfg)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            out[name] = await walk(app, pilot, ["down"] * 60 + ["pagedown"] * 10 + ["up"] * 30)
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(Path(sys.argv[1]).resolve()))))
