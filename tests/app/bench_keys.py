"""Time the app's own key handling on a 10,000-item queue (not a test: run it directly).

    python tests/app/bench_keys.py [N]       a fake result with N items in two queues
    python tests/app/bench_keys.py PATH      a real workspace (e.g. one from memreview.synth)

Prints the median, 95th percentile and worst of ``app.key_latencies`` (key arrival to the
next screen refresh, measured inside the app) for moving, paging, deciding and switching,
and of ``app.key_cpu_times`` (the app thread's CPU time for the same span, which a busy
machine does not inflate). Exit status 1 when a median exceeds 50 ms.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from fake_result import big_scan  # noqa: E402

from memreview.app import make_app  # noqa: E402
from memreview.app.backend import Preview  # noqa: E402


class MemoryBackend:
    def load_pending(self):
        return [], []

    def save_pending(self, decisions):
        return True

    def check(self, queue, item, decision):
        return None

    def interrupted(self) -> str | None:
        return None

    def clash(self, result, staged, decision) -> str | None:
        return None

    def seen(self, result, decision) -> str | None:
        return None

    def nothing_to_undo(self) -> str | None:
        return None

    def last_batch_said(self) -> str | None:
        return "Batch fake-1: 1 decision, 1 file." if self.nothing_to_undo() is None else None

    def preview(self, result, decisions):
        return Preview()


def summary(name: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values) or [0.0]
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return (
        f"{name:<10} n={len(ms):<4} median {statistics.median(ms):6.1f} ms"
        f"   p95 {p95:6.1f} ms   max {ms[-1]:6.1f} ms"
    )


async def main(arg: str) -> int:
    config = Path(tempfile.mkdtemp()) / "config.yaml"
    if arg.isdigit():
        app = make_app(
            config.parent, scan=big_scan(int(arg)), backend=MemoryBackend(), config_path=config
        )
    else:
        app = make_app(Path(arg), backend=MemoryBackend(), config_path=config)
    t0 = time.perf_counter()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = None
        while screen is None or screen.scanning:
            await pilot.pause(0.05)
            screen = next((s for s in app.screen_stack if hasattr(s, "scanning")), None)
            if app._notifications and screen is not None and screen.result is None:
                if any(n.severity == "error" for n in app._notifications):
                    print("\n".join(n.message for n in app._notifications))
                    return 2
        await pilot.pause()
        print(f"first screen with counts after {time.perf_counter() - t0:.2f} s")
        results = {}
        for name, keys in [
            ("down", ["down"] * 200),
            ("pagedown", ["pagedown"] * 50),
            ("up", ["up"] * 100),
            ("decide", ["a", "d", "b", "k"] * 25),
            ("queue", ["5", "right_square_bracket", "left_square_bracket", "1"] * 10),
            ("demotion", ["7", *["down"] * 50]),
        ]:
            app.key_latencies.clear()
            app.key_cpu_times.clear()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            results[name] = (list(app.key_latencies), list(app.key_cpu_times))
        worst = 0.0
        print("wall time (key arrival to the next refresh):")
        for name, (wall, _cpu) in results.items():
            print("  " + summary(name, wall))
            worst = max(worst, statistics.median(wall))
        print("CPU time of the app's thread for the same keys:")
        for name, (_wall, cpu) in results.items():
            print("  " + summary(name, cpu))
    return 0 if worst <= 0.05 else 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "10000")))
