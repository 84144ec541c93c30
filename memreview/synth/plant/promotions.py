"""A year of OpenClaw dreaming (``--promotions N``): N promotions in the root MEMORY.md, about
eight a night, in the shapes OpenClaw writes (docs/OPENCLAW.md): the marker line, the tail
with or without ``signals=`` (older releases), the trigger and importance comments, the
``### Project:`` / ``### Global`` sub-headings of a night with project keys, snippets cut at
640 characters, the same sentence promoted twice, curated entries promoted again (exactly
and with a word changed), and the short-term store's rows with their recall days.

Its own random stream (seeded from the workspace's seed): a workspace written without
``--promotions`` is the same as before.
"""

from __future__ import annotations

import random
from datetime import timedelta

from memreview.synth.dates import days_ago, iso
from memreview.synth.model import Builder, Bullet
from memreview.synth.vocabulary import ID_TOPICS, sentence

PER_NIGHT = 8
SNIPPET_CUT = 640


def plant_promotions(b: Builder, n: int) -> None:
    """Add ``n`` OpenClaw promotions to the root MEMORY.md, newest night last."""
    if n <= 0:
        return
    r = random.Random(f"promotions:{b.manifest['seed']}:{n}")
    curated = _curated_texts(b)
    nights = -(-n // PER_NIGHT)
    made: list[str] = []
    store: list[dict] = []
    left = n
    for night in range(nights):
        day = days_ago(1 + (nights - 1 - night))
        count = min(left, PER_NIGHT)
        left -= count
        grouped = r.random() < 0.2  # a night with project keys: sub-headings
        sec = b.section("MEMORY.md", f"## Promoted From Short-Term Memory ({iso(day)})")
        lines = []
        for k in range(count):
            text = _snippet(r, curated, made)
            made.append(text)
            line, row = _promotion(r, day, text, new_tail=night > nights // 3)
            group = "" if k % 3 == 0 else r.choice(ID_TOPICS[:4])
            lines.append((group if grouped else "", k, line))
            if row is not None:
                store.append(row)
        last = None
        for group, _k, line in sorted(lines):
            if grouped and group != last:
                sub = f"### Project: {group}" if group else "### Global"
                line = f"{sub}\n\n{line}"
                last = group
            sec.bullets.append(Bullet(line))
    b.promotion_rows = store
    b.manifest["counts"]["openclaw_promotions"] = n


def _curated_texts(b: Builder) -> list[str]:
    """The bullets of both MEMORY.md files outside promotion sections (curated: a promotion
    copied from them already stands in memory), without their comments."""
    out = []
    for rel in ("MEMORY.md", "memory/MEMORY.md"):
        for s in b.bullet_files.get(rel, []):
            if s.heading.startswith("## Promoted"):
                continue
            out.extend(
                bl.text[2:].split(" <!--")[0] for bl in s.bullets if bl.text.startswith("- ")
            )
    return [t for t in out if t]


def _snippet(r: random.Random, curated: list[str], made: list[str]) -> str:
    x = r.random()
    if x < 0.03 and made:  # the same sentence from another daily log
        return r.choice(made)
    if x < 0.06 and curated:  # a curated entry promoted again, word for word
        return r.choice(curated)
    if x < 0.09 and curated:  # … or with one word changed
        words = r.choice(curated).split(" ")
        words[r.randrange(len(words))] = r.choice(["always", "never", "often", "也", "再"])
        return " ".join(words)
    if x < 0.11:  # a long snippet, cut where OpenClaw cuts
        long = " ".join(sentence(r) for _ in range(14))
        return long[: SNIPPET_CUT - 3] + "..." if len(long) > SNIPPET_CUT else long
    return sentence(r)


def _promotion(r: random.Random, day, text: str, new_tail: bool) -> tuple[str, dict | None]:
    """The marker and bullet lines of one promotion, and its store row (or None)."""
    src_day = day - timedelta(days=r.randint(1, 2))
    path = f"memory/{iso(src_day)}.md"
    a = r.randint(3, 1900)
    b_ = a + r.choice((0, 0, 0, 1, 2, 4))
    key = f"memory:{path}:{a}:{b_}"
    if r.random() < 0.15:
        key += f":{r.getrandbits(48):012x}"  # a claim hash
    score = r.uniform(0.75, 0.95)
    recalls = r.randint(3, 12)
    signals = f" signals={r.randint(3, 9)}" if new_tail else ""
    tail = (
        f"[score={score:.3f}{signals} recalls={recalls} avg={score * r.uniform(0.8, 0.98):.3f} "
        f"source={path}:{a}-{b_}]"
    )
    if new_tail:
        tail += f" <!-- trigger: {', '.join(r.sample(ID_TOPICS, 3))} -->"
        tail += f" <!-- importance: {min(10, max(3, round(score * 10)))} -->"
        if r.random() < 0.1:
            tail += f" <!-- project: {r.choice(ID_TOPICS)} -->"
    line = f"<!-- openclaw-memory-promotion:{key} -->\n- {text} {tail}"
    if r.random() >= 0.5:
        return line, None
    days = sorted({src_day + timedelta(days=r.randint(0, 30)) for _ in range(r.randint(1, 6))})
    row = {
        "key": key,
        "path": path,
        "startLine": a,
        "endLine": b_,
        "snippet": text[:200],
        "recallCount": recalls,
        "dailyCount": len(days),
        "totalScore": round(recalls * score, 3),
        "maxScore": round(score, 3),
        "firstRecalledAt": f"{iso(days[0])}T03:00:00Z",
        "lastRecalledAt": f"{iso(days[-1])}T03:00:00Z",
        "recallDays": [iso(d) for d in days],
        "conceptTags": r.sample(ID_TOPICS, 2),
        "promotedAt": f"{iso(day)}T03:04:00Z",
    }
    return line, row
