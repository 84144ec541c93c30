"""Daily logs (docs/design.md §1.6): timed headings in two styles with bullets, the planted project
mentions, now and then an OpenClaw light-sleep block; one empty log; two reflection-prep
files (dated logs with a slug)."""

from __future__ import annotations

import random
from datetime import date

from memreview.synth.dates import days_ago, iso
from memreview.synth.model import Builder
from memreview.synth.vocabulary import AGENTS, LOG_TITLES, sentence
from memreview.synth.write.files import write, write_data


def write_logs(b: Builder) -> None:
    """Write every planned log and record the log counts in the manifest."""
    r = b.rng
    pool = [sentence(r) for _ in range(min(4000, max(200, b.log_lines * 2)))]
    total_lines = 0
    for day in b.log_dates:
        rel = f"memory/{iso(day)}.md"
        if day == b.empty_log:
            write_data(b, rel, b"")
            continue
        lines = _daily_log(b, day, pool)
        write(b, rel, lines)
        total_lines += len(lines)
    for day in b.log_dates[-3:-1]:
        if day != b.empty_log:
            _reflection_prep(b, day, pool)
    b.manifest["counts"]["daily_logs"] = len(b.log_dates)
    b.manifest["counts"]["daily_log_lines"] = total_lines
    b.manifest["missing_log"] = iso(days_ago(3))
    b.manifest["empty_log"] = iso(b.empty_log)


def _daily_log(b: Builder, day: date, pool: list[str]) -> list[str]:
    """At least ``b.log_lines`` lines, until every mention planted for the day is in."""
    r = b.rng
    lines = [f"# {iso(day)}", ""]
    must = list(b.mentions.get(iso(day), []))
    light = r.random() < 0.3 or day == days_ago(2)
    light_at = b.log_lines // 2 if light else -1
    clock = r.randint(0, 60)
    while len(lines) < b.log_lines or must:
        clock = min(1439, clock + r.randint(0, 7))
        hh, mm = divmod(clock, 60)
        if r.random() < 0.5:
            lines.append(f"### {hh:02d}:{mm:02d} — {r.choice(LOG_TITLES)}")
        else:
            lines.append(f"### {r.choice(AGENTS)} ({hh:02d}:{mm:02d})")
        for _ in range(r.randint(1, 5)):
            lines.append(f"- {r.choice(pool)}")
        if must and r.random() < 0.5:
            lines.append(must.pop())
        lines.append("")
        if light_at >= 0 and len(lines) >= light_at:
            lines += _light_sleep(r, day, pool)
            light_at = -1
    return lines


def _light_sleep(r: random.Random, day: date, pool: list[str]) -> list[str]:
    """An OpenClaw light-sleep block of staged candidates."""
    lines = ["## 浅度睡眠", "", "<!-- openclaw:dreaming:light:start -->"]
    for _ in range(r.randint(1, 3)):
        lines += [
            f"- Candidate: {r.choice(pool)}",
            f"  - confidence: {r.uniform(0.4, 0.9):.2f}",
            f"  - evidence: memory/.dreams/session-corpus/{iso(day)}.txt:"
            f"{r.randint(1, 40)}-{r.randint(41, 80)}",
            f"  - recalls: {r.randint(1, 6)}",
            "  - status: staged",
        ]
    return lines + ["<!-- openclaw:dreaming:light:end -->", ""]


def _reflection_prep(b: Builder, day: date, pool: list[str]) -> None:
    r = b.rng
    write(
        b,
        f"memory/{iso(day)}-reflection-prep.md",
        [
            f"# {iso(day)} 反思预备素材",
            "",
            "## 遗漏补充",
            f"- {r.choice(pool)}",
            f"- {r.choice(pool)}",
            "",
            "## 未完成 / 阻塞",
            f"- {r.choice(pool)}",
        ],
    )
