"""The sample week reviewed with the keys a new owner would press (not a test: it prints).

    python bench/sample_week.py [--size WxH]

Runs the app on a copy of sample_workspace/ with the real decisions backend, presses one
key per item in each queue (then `]` to the next queue), writes (`w`, `y`, escape), undoes
(`U`, `y`) and checks that the batch's decisions are staged again. Prints the keys pressed,
the app's wall time for the whole run and the slowest key (from ``app.key_latencies``).
The reader's own time is not in it: add the time to read each item once.
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memreview.app import make_app  # noqa: E402

# one key per item, queue by queue, in the sidebar's order; `]` moves on to the next queue
WEEK = [
    ("contradictions", "b b b"),  # the newer one wins each time
    ("supersede", "a a a"),  # the same supersessions: they agree with keep B
    ("skills", "c c c"),
    ("archived", "a a a"),
    ("duplicates", "a a a a a a"),
    ("dormant", "s x v D"),
    ("demotion", "a a a"),
    ("promotions", "a x a a d a a a d a a a x a a a"),  # the 2nd x is refused: see the output
    ("secrets", "a"),
]


async def settle(app, pilot) -> None:
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def main(size: tuple[int, int]) -> int:
    tmp = Path(tempfile.mkdtemp())
    ws = tmp / "ws"
    shutil.copytree(ROOT / "sample_workspace", ws)
    app = make_app(ws, today=date(2026, 11, 29), config_path=tmp / "config.yaml")
    pressed: list[str] = []
    refused: list[str] = []
    notes: list[str] = []
    t0 = time.perf_counter()
    async with app.run_test(size=size) as pilot:
        while getattr(app.screen, "scanning", True):
            await pilot.pause(0.05)
        loaded = time.perf_counter() - t0
        screen = app.screen
        t1 = time.perf_counter()
        for k, (queue, keys) in enumerate(WEEK):
            if k:
                pressed.append("]")
                await pilot.press("right_square_bracket")
            assert screen.queue == queue, (screen.queue, queue)
            for key in keys.split():
                pressed.append(key)
                before = len(screen.staging)
                await pilot.press(key)
                if len(screen.staging) == before:
                    last = list(app._notifications)[-1] if app._notifications else None
                    refused.append(f"{queue} {key}: {last.message if last else '?'}")
            notes.extend(n.message for n in app._notifications if "done —" in n.message)
        staged = len(screen.staging)
        staged_ids = {d.item: d.action for d in screen.staging.decisions()}
        for key in ("w", "y"):
            pressed.append(key)
            await pilot.press(key)
            await settle(app, pilot)
        result = app.screen.query_one("#apply-diff-text").content.plain.splitlines()[0]
        pressed.append("escape")
        await pilot.press("escape")
        await settle(app, pilot)
        decided = time.perf_counter() - t1
        left = len(screen.staging)
        before_undo = staged_ids
        for key in ("U", "y"):
            pressed.append(key)
            await pilot.press(key)
            await settle(app, pilot)
        while screen.scanning:
            await pilot.pause(0.05)
        restaged = len(screen.staging)
        missing = {i: a for i, a in before_undo.items() if screen.staging.for_item(i) is None}
    items = sum(len(keys.split()) for _q, keys in WEEK) - len(refused)
    lat = sorted(x * 1000 for x in app.key_latencies)
    cpu = sorted(x * 1000 for x in app.key_cpu_times)
    print(f"loaded in {loaded:.2f} s; {items} items in {len(WEEK)} queues")
    print(f"keys pressed: {len(pressed)}  ({' '.join(pressed)})")
    print(f"staged {staged}; {result}; {left} stay pending; after U: {restaged} staged again")
    if missing:
        print(f"not staged again after U: {missing}")
    print(f"app wall time from the first key to the result closed: {decided:.2f} s")
    print(
        f"per key: wall median {statistics.median(lat):.1f} ms, max {lat[-1]:.1f} ms; "
        f"CPU median {statistics.median(cpu):.1f} ms, max {cpu[-1]:.1f} ms (n={len(lat)})"
    )
    print(f"refused while deciding: {len(refused)}")
    for n in refused:
        print("  ", n)
    for n in dict.fromkeys(notes):
        print("  said:", n)
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    size = (120, 36)
    for a in sys.argv[1:]:
        if a.startswith("--size="):
            w, h = a.split("=", 1)[1].split("x")
            size = (int(w), int(h))
    raise SystemExit(asyncio.run(main(size)))
