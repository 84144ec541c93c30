"""Time the keys that open and close screens in the app on a copy of the sample workspace
(not a test: run it directly; it prints figures).

    python bench/ui_keys.py [ROUNDS] [--size WxH]

Each key is timed inside the app (``app.key_latencies``: key arrival to the next refresh of
the screen it leads to): `?` opens the help and escape closes it, ctrl+p opens the command
palette, Enter closes the filter, `w` opens the diff and escape leaves the result screen
after a write. The first round is the cold one (modules and styles loaded on first use).
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


async def settle(app, pilot) -> None:
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def timed(app, pilot, *keys: str) -> float:
    app.key_latencies.clear()
    app.key_cpu_times.clear()
    for key in keys:
        await pilot.press(key)
    await settle(app, pilot)
    if not app.key_latencies:
        return float("nan"), float("nan")
    return app.key_latencies[-1], app.key_cpu_times[-1]


async def main(rounds: int, size: tuple[int, int]) -> int:
    tmp = Path(tempfile.mkdtemp())
    ws = tmp / "ws"
    shutil.copytree(
        ROOT / "memreview" / "sample_workspace"
        if (ROOT / "memreview" / "sample_workspace").is_dir()
        else ROOT / "sample_workspace",
        ws,
    )
    app = make_app(ws, today=date(2026, 11, 29), config_path=tmp / "config.yaml")
    times: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    async with app.run_test(size=size) as pilot:
        while getattr(app.screen, "scanning", True):
            await pilot.pause(0.05)
        print(f"first screen after {time.perf_counter() - t0:.2f} s")
        for _ in range(rounds):
            for name, keys, undo in [
                ("help ?", ["question_mark"], ["escape"]),
                ("help close", None, None),
                ("palette ctrl+p", ["ctrl+p"], ["escape"]),
                ("filter enter", ["slash", "w", "i", "n", "enter"], ["escape"]),
            ]:
                if keys is None:
                    continue
                times.setdefault(name, []).append(await timed(app, pilot, *keys))
                if name == "help ?":
                    times.setdefault("help close", []).append(await timed(app, pilot, *undo))
                else:
                    await pilot.press(*undo)
                    await settle(app, pilot)
            await pilot.press("1", "d")  # one decision staged, then the diff and the write
            await settle(app, pilot)
            times.setdefault("w diff", []).append(await timed(app, pilot, "w"))
            await pilot.press("y")
            await settle(app, pilot)
            times.setdefault("escape result", []).append(await timed(app, pilot, "escape"))
            await settle(app, pilot)
    print("wall time (key arrival to the next refresh) / CPU time of the app's thread:")
    for name, values in times.items():
        for k, what in ((0, "wall"), (1, "cpu ")):
            ms = [v[k] * 1000 for v in values]
            print(
                f"  {name:<15} {what} cold {ms[0]:7.1f} ms   warm median "
                f"{statistics.median(ms[1:] or ms):7.1f} ms   max {max(ms):7.1f} ms"
            )
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--size")]
    size = (120, 36)
    for a in sys.argv[1:]:
        if a.startswith("--size="):
            w, h = a.split("=", 1)[1].split("x")
            size = (int(w), int(h))
    raise SystemExit(asyncio.run(main(int(args[0]) if args else 5, size)))
