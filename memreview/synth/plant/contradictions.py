"""Contradictions: a CONFLICTS-WITH marker on one side, markers on both sides, a judge
proposal only, or a marker and a proposal."""

from __future__ import annotations

from memreview.synth.model import Builder
from memreview.synth.plant.judge import pair, propose
from memreview.synth.vocabulary import sentence


def plant_contradictions(b: Builder) -> None:
    """Add the contradicting pairs and record each with its source."""
    r = b.rng
    kinds = (
        ["marker-one"] * b.k(40)
        + ["marker-both"] * b.k(40)
        + ["judge"] * b.k(60)
        + ["both"] * b.k(60)
    )
    for kind in kinds:
        a, c = pair(b, "contradiction")
        if kind in ("marker-one", "marker-both", "both"):
            c.meta.append(("CONFLICTS-WITH", f"[[{a.id}]]"))
            if kind != "marker-one":
                a.meta.append(("CONFLICTS-WITH", f"[[{c.id}]]"))
        p = None
        if kind in ("judge", "both"):
            p = propose(
                b,
                "contradicts",
                c.id,
                a.id,
                round(r.uniform(0.7, 0.97), 2),
                f"两条说法不一致：{sentence(r)[:24]}",
            )
        b.add_anchor(a)
        b.add_anchor(c)
        b.manifest["contradictions"].append(
            {
                "a": a.id,
                "b": c.id,
                "source": {"marker-one": "marker", "marker-both": "marker"}.get(kind, kind),
                "proposal": p["id"] if p else None,
            }
        )
