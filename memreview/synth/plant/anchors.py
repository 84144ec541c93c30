"""Random anchors up to 40 % of the entries, some citing others, and the recall log of the
unplanted anchors: a few hot ones, a long cold tail."""

from __future__ import annotations

from memreview.synth.dates import days_ago, timestamp
from memreview.synth.model import TOP_RECALLS, Builder
from memreview.synth.vocabulary import sentence


def plant_random_anchors(b: Builder) -> None:
    """Add random anchors, then random recalls of them up to the scale's recall count."""
    r = b.rng
    target = round(b.total_entries * 0.40)
    pool = [a.id for a in b.anchors if a.id not in b.protected_ids]
    while len(b.anchors) < target:
        a = b.random_anchor()
        if pool and r.random() < 0.25:
            refs = r.sample(pool, min(len(pool), r.randint(1, 3)))
            for x in refs:
                a.add_ref("SEE-ALSO", x)
        b.add_anchor(a)
        pool.append(a.id)
    n_recalls = max(60, round(TOP_RECALLS * b.scale))
    need = n_recalls - len(b.recalls)
    if need <= 0 or not pool:
        return
    weights = [1.0 / (1 + i) ** 0.8 for i in range(len(pool))]
    order = pool[:]
    r.shuffle(order)
    chosen = r.choices(order, weights=weights, k=need)
    channels = r.choices(["hook", "search", "boot", "manual"], weights=[55, 30, 10, 5], k=need)
    queries = [sentence(r)[:18] for _ in range(min(need, 2000))]
    for aid, ch in zip(chosen, channels, strict=True):
        day = days_ago(min(int(r.expovariate(1 / 45)), 280))
        b.recalls.append((timestamp(r, day), aid, ch, "" if ch == "boot" else r.choice(queries)))
