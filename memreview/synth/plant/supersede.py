"""Supersede proposals: valid ones (some re-judged on a later line, the later wins), and
ones the queue must leave out."""

from __future__ import annotations

from memreview.synth.dates import days_ago, iso, timestamp
from memreview.synth.model import Builder
from memreview.synth.plant.judge import pair, propose
from memreview.synth.vocabulary import sentence


def plant_supersede(b: Builder) -> None:
    """Add the valid supersede pairs, then the excluded ones."""
    r = b.rng
    for i in range(b.k(150)):
        old, new = pair(b, "supersede")
        b.add_anchor(old)
        b.add_anchor(new)
        if i % 5 == 0:
            first = propose(b, "complements", new.id, old.id, 0.55, "都在讲同一件事", days_ago(40))
            p = dict(
                first,
                relation="supersedes",
                confidence=round(r.uniform(0.75, 0.95), 2),
                ts=timestamp(r, days_ago(3)),
                reason="复判：状态已经变了，旧说法过时",
            )
            b.proposals.append(p)
        else:
            p = propose(
                b,
                "supersedes",
                new.id,
                old.id,
                round(r.uniform(0.6, 0.97), 2),
                f"新锚点更新了状态：{sentence(r)[:20]}",
            )
        b.manifest["supersede"].append({"proposal": p["id"], "new": new.id, "old": old.id})
    _plant_excluded(b)


def _plant_excluded(b: Builder) -> None:
    """The old side already superseded (archived), an anchor that does not exist, and a
    supersede re-judged as complements on a later line."""
    r = b.rng
    for i in range(b.k(30)):
        kind = ("archived", "missing", "rejudged")[i % 3]
        old, new = pair(b, "supersede-excluded")
        b.add_anchor(new)
        if kind == "archived":
            old.meta.append(("Superseded-By", f"[[{new.id}]] ({iso(days_ago(30))})"))
            b.archive_anchors.append(old)
            p = propose(b, "supersedes", new.id, old.id, 0.9, "旧锚点已被取代")
        elif kind == "missing":  # the new side was never promoted
            ghost = f"{new.id}-draft"
            b.used_ids.add(ghost)
            p = propose(b, "supersedes", ghost, new.id, 0.7, "草稿锚点从未晋升")
        else:
            b.add_anchor(old)
            first = propose(b, "supersedes", new.id, old.id, 0.8, "看起来过时了", days_ago(50))
            p = dict(
                first,
                relation="complements",
                ts=timestamp(r, days_ago(5)),
                reason="复判：两条互补，不是取代",
            )
            b.proposals.append(p)
        b.manifest["supersede_excluded"].append({"proposal": p["id"], "why": kind})
