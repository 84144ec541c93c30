"""The week between two reviews, on a copy of a workspace (run by bench.py before the
"monday" open): seven new daily logs, 40 new promotions in MEMORY.md and 20 edited entries.

    python bench/monday.py WORKSPACE [--seed N]

The new logs take the lines of the last week's logs, reworded (a new day's log in the same
voice); the promotions point at lines of the new logs, under a dated promotion heading as
OpenClaw writes them; the edited entries are bullets of the memory files (not MEMORY.md)
with a few words added. Every file written an hour ago (its change time can't be set back:
bench.py waits out the cache's racy window before it opens, as on a Monday morning). Prints
one JSON object: what was written.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import time
from datetime import date, timedelta
from pathlib import Path

DAILY = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")
BULLET = re.compile(r"^- \S")


def new_logs(root: Path, rng: random.Random, days: int = 7) -> list[Path]:
    logs = sorted(p for p in (root / "memory").iterdir() if DAILY.match(p.name))
    last = date.fromisoformat(DAILY.match(logs[-1].name).group(1))
    out = []
    for k in range(days):
        day = last + timedelta(days=k + 1)
        lines = logs[k - days].read_text(encoding="utf-8").splitlines()[1:]
        body = [f"# {day.isoformat()}"]
        for line in lines:
            if BULLET.match(line) and rng.random() < 0.3:
                line = f"{line}（{day.month} 月 {day.day} 日又确认了一次）"
            body.append(line)
        p = root / "memory" / f"{day.isoformat()}.md"
        p.write_text("\n".join(body) + "\n", encoding="utf-8")
        out.append(p)
    return out


def new_promotions(root: Path, logs: list[Path], rng: random.Random, count: int = 40) -> int:
    blocks = []
    texts = {p: p.read_text(encoding="utf-8").splitlines() for p in logs}
    with_bullets = [p for p in logs if any(BULLET.match(t) for t in texts[p])]
    for _ in range(count):
        log = rng.choice(with_bullets)
        lines = texts[log]
        at = rng.choice([k for k, t in enumerate(lines) if BULLET.match(t)])
        rel = log.relative_to(root).as_posix()
        text = lines[at][2:]
        score = round(rng.uniform(0.6, 0.95), 3)
        blocks.append(
            f"<!-- openclaw-memory-promotion:memory:{rel}:{at + 1}:{at + 1} -->\n"
            f"- {text} [score={score} recalls={rng.randint(3, 9)} avg={score - 0.1:.3f} "
            f"source={rel}:{at + 1}-{at + 1}]\n"
        )
    stamp = DAILY.match(logs[-1].name).group(1)
    with open(root / "MEMORY.md", "a", encoding="utf-8") as f:
        f.write(f"\n## Promoted From Short-Term Memory ({stamp})\n\n" + "\n".join(blocks))
    return count


def utf8(path: Path) -> bool:
    try:
        path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def edit_entries(root: Path, rng: random.Random, count: int = 20) -> list[str]:
    files = sorted(
        p
        for p in (root / "memory").rglob("*.md")
        if not DAILY.match(p.name) and "archive" not in p.parts and p.name != "MEMORY.md"
    )
    files = [p for p in files if utf8(p)]  # a GBK file is left as it is
    edited = []
    for p in rng.sample(files, min(count, len(files))):
        lines = p.read_text(encoding="utf-8").split("\n")
        bullets = [k for k, t in enumerate(lines) if BULLET.match(t)]
        if not bullets:
            continue
        k = rng.choice(bullets)
        lines[k] += "，这周又核对过一次"
        p.write_text("\n".join(lines), encoding="utf-8")
        edited.append(f"{p.relative_to(root).as_posix()}:{k + 1}")
    return edited


def monday(root: Path, seed: int = 0) -> dict:
    rng = random.Random(seed)
    logs = new_logs(root, rng)
    promotions = new_promotions(root, logs, rng)
    edited = edit_entries(root, rng)
    then = time.time() - 3600
    for p in [*logs, root / "MEMORY.md", *(root / e.rsplit(":", 1)[0] for e in edited)]:
        os.utime(p, (then, then))
    return {"logs": len(logs), "promotions": promotions, "edited": edited}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("workspace", type=Path)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(json.dumps(monday(args.workspace, args.seed), ensure_ascii=False))


if __name__ == "__main__":
    main()
