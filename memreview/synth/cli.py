"""The command line: ``python -m memreview.synth OUT --scale N [--seed S] [--manifest F]``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from memreview.synth.generator import generate


def main(argv: list[str] | None = None) -> int:
    """Run the command; 0 on success, 2 on a bad scale or a non-empty output directory."""
    ap = argparse.ArgumentParser(
        prog="python -m memreview.synth", description="Write a synthetic memreview workspace."
    )
    ap.add_argument("out", type=Path, help="output directory (created; must be empty)")
    ap.add_argument(
        "--scale",
        type=float,
        default=0.1,
        help="1.0 = 25,000 entries, 90 logs of 2,000 lines (default 0.1)",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--promotions",
        type=int,
        default=0,
        help="that many more OpenClaw promotions in MEMORY.md, eight a night (3,000: a year)",
    )
    ap.add_argument("--manifest", type=Path, help="also write the manifest as JSON here")
    args = ap.parse_args(argv)
    if args.scale <= 0:
        print("synth: --scale must be positive", file=sys.stderr)
        return 2
    if args.promotions < 0:
        print("synth: --promotions must not be negative", file=sys.stderr)
        return 2
    if args.out.exists() and (not args.out.is_dir() or any(args.out.iterdir())):
        print(f"synth: {args.out} exists and is not an empty directory", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    manifest = generate(args.out, args.scale, args.seed, args.promotions)
    took = time.perf_counter() - t0
    if args.manifest:
        args.manifest.write_text(
            json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
    c = manifest["counts"]
    size = sum(manifest["files"].values())
    print(
        f"wrote {args.out} in {took:.2f} s: {c['entries']} entries ({c['anchors']} anchors), "
        f"{c['daily_logs']} daily logs ({c['daily_log_lines']} lines), {c['fragments']} "
        f"fragments, {c['recalls']} recalls, {c['proposals']} proposals, {c['projects']} "
        f"projects, {size / 1e6:.1f} MB"
    )
    return 0
