"""The judge's proposals file (docs/design.md §1.3) and the anchor pairs it talks about; also the
judge's other output (complements, duplicate), which no queue shows."""

from __future__ import annotations

from datetime import date

from memreview.synth.dates import days_ago, timestamp
from memreview.synth.model import AnchorSpec, Builder


def propose(
    b: Builder, relation: str, new: str, old: str, conf: float, reason: str, day: date | None = None
) -> dict:
    """Append a proposal line with a new id (on ``day``, or a random one in the last 80)."""
    r = b.rng
    b.proposal_serial += 1
    p = {
        "id": f"p-{b.proposal_serial:05d}",
        "ts": timestamp(r, day or days_ago(r.randint(1, 80))),
        "relation": relation,
        "new": new,
        "old": old,
        "confidence": conf,
        "reason": reason,
    }
    b.proposals.append(p)
    return p


def pair(b: Builder, tag: str) -> tuple[AnchorSpec, AnchorSpec]:
    """An older and a newer anchor of the same type, planted as ``tag``; not added yet."""
    r = b.rng
    t = r.choice(["KNOWLEDGE", "FACT", "PREFERENCE", "LESSON"])
    older = b.random_anchor(t, days_ago(r.randint(60, 280)))
    newer = b.random_anchor(t, days_ago(r.randint(2, 55)))
    older.planted = newer.planted = tag
    return older, newer


def plant_complements(b: Builder) -> None:
    """Pairs the judge found complementary or duplicate; the newer cites the older."""
    r = b.rng
    for _ in range(b.k(120)):
        a, c = pair(b, "complements")
        b.add_anchor(a)
        b.add_anchor(c)
        rel = r.choice(["complements", "duplicate"])
        propose(
            b,
            rel,
            c.id,
            a.id,
            round(r.uniform(0.5, 0.9), 2),
            "内容互补" if rel == "complements" else "几乎同一条",
        )
        c.add_ref("SEE-ALSO", a.id)
