"""How long the History (L) and Archive (R) views keep the UI thread busy, on a copy of the
sample workspace with many batches (not a test: run it directly; it prints figures).

    python bench/history_views.py [BATCHES]

BATCHES (default 200) batches are written first (a supersede approved and undone in turn: half
applies of three files each, half undos). Then each view is opened twice: the figures are the UI thread's own CPU time from the
key to the rows shown (a worker thread's is not counted), the longest gap between ticks of a
10 ms timer on the UI thread meanwhile (how long a key would wait; on a loaded machine the
worker's share of the GIL shows here too), and the wall time until the view is on screen and
until its rows are.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memreview.app import make_app  # noqa: E402
from memreview.decisions import apply, undo  # noqa: E402
from memreview.scan import scan_workspace  # noqa: E402

TODAY = date(2026, 11, 29)


def write_batches(ws: Path, count: int) -> None:
    result = scan_workspace(ws, today=TODAY)
    item = result.queues["supersede"][0]["id"]  # approve writes three files, undo puts them back
    for k in range(count // 2):
        assert apply(scan_workspace(ws, today=TODAY), [{"item": item, "action": "approve"}]).ok
        assert undo(ws).ok, k


async def open_view(app, pilot, key: str, screen_name: str) -> tuple[float, ...]:
    ticks: list[float] = []
    timer = app.set_interval(0.01, lambda: ticks.append(time.perf_counter()))
    t0, cpu0 = time.perf_counter(), time.thread_time()
    await pilot.press(key)
    while type(app.screen).__name__ != screen_name:
        await pilot.pause(0.005)
    first = time.perf_counter() - t0
    while getattr(app.screen, "loading_rows", False):
        await pilot.pause(0.005)
    done = time.perf_counter() - t0
    cpu = time.thread_time() - cpu0  # the UI thread's own CPU (a worker's is not counted)
    await pilot.pause(0.05)
    timer.stop()
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    await pilot.press("escape")
    await pilot.pause(0.05)
    return max(gaps, default=0.0), first, done, cpu


async def main(count: int) -> int:
    tmp = Path(tempfile.mkdtemp())
    ws = tmp / "ws"
    shutil.copytree(ROOT / "sample_workspace", ws)
    t = time.perf_counter()
    write_batches(ws, count)
    print(f"{count} batches written in {time.perf_counter() - t:.1f} s")
    app = make_app(ws, today=TODAY, config_path=tmp / "config.yaml")
    async with app.run_test(size=(120, 36)) as pilot:
        while getattr(app.screen, "scanning", True):
            await pilot.pause(0.05)
        await app.workers.wait_for_complete()
        for key, name in (("L", "HistoryScreen"), ("R", "ArchiveScreen")) * 2:
            gap, first, done, cpu = await open_view(app, pilot, key, name)
            print(
                f"{name:<14} UI-thread CPU {cpu * 1000:5.0f} ms   longest gap {gap * 1000:5.0f} ms"
                f"   view shown {first * 1000:5.0f} ms   rows shown {done * 1000:5.0f} ms"
            )
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)))
