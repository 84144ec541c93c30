"""The demotion queue: old, unimportant anchors rarely used in the last 90 days (some only
through the hook), and just as unused anchors that must never be demoted, one per reason."""

from __future__ import annotations

from memreview.synth.dates import days_ago, timestamp
from memreview.synth.model import AnchorSpec, Builder
from memreview.synth.vocabulary import sentence

# Why an unused anchor stays: its type, its source, citations, an incident, its importance
# (a line or a comment), a boot file, a Boot line, or no usable Added date.
REASONS = [
    "type",
    "owner",
    "cited",
    "incident",
    "high",
    "comment",
    "boot",
    "boot-meta",
    "no-added",
    "bad-added",
]


def plant_demotion(b: Builder) -> None:
    """Add the demotion candidates with their few recalls."""
    r = b.rng
    for i in range(b.k(300)):
        a = b.random_anchor(
            r.choice(["KNOWLEDGE", "FACT", "PREFERENCE", "LESSON"]), days_ago(r.randint(31, 280))
        )
        a.meta = [(k, v) for k, v in a.meta if k not in ("Importance", "Source")]
        if i % 3 == 0:
            a.meta.append(("Importance", r.choice(["low", "2", "medium"])))
        a.planted = "demotion"
        b.add_anchor(a)
        b.protected_ids.add(a.id)
        if i % 3 == 1:  # one search recall inside the window
            b.recalls.append(
                (timestamp(r, days_ago(r.randint(0, 89))), a.id, "search", sentence(r)[:16])
            )
        if i % 2 == 0:  # only the hook brings it up
            for _ in range(r.randint(3, 30)):
                b.recalls.append(
                    (timestamp(r, days_ago(r.randint(0, 89))), a.id, "hook", sentence(r)[:12])
                )
        if i % 4 == 3:  # used long ago, outside the window
            b.recalls.append(
                (timestamp(r, days_ago(r.randint(91, 250))), a.id, "search", sentence(r)[:16])
            )
        b.manifest["demotion"].append(a.id)


def plant_not_demoted(b: Builder) -> None:
    """Add the important unused anchors, then make each ``cited`` one cited twice."""
    r = b.rng
    hubs: list[AnchorSpec] = []
    for i in range(b.k(100, minimum=len(REASONS))):
        why = REASONS[i % len(REASONS)]
        t = r.choice(["RULE", "INFRA"]) if why == "type" else r.choice(["KNOWLEDGE", "FACT"])
        a = b.random_anchor(t, days_ago(r.randint(40, 280)))
        a.meta = [(k, v) for k, v in a.meta if k not in ("Importance", "Source")]
        if why == "cited":
            hubs.append(a)
        else:
            _mark_important(b, a, why)
        a.planted = f"important:{why}"
        b.add_anchor(a)
        b.protected_ids.add(a.id)
        b.manifest["not_demoted"].append({"id": a.id, "why": why})
    _cite_hubs(b, hubs)


def _mark_important(b: Builder, a: AnchorSpec, why: str) -> None:
    r = b.rng
    if why == "owner":
        a.meta.append(("Source", r.choice(["owner", "主人"])))
    elif why == "incident":
        a.body.append(
            f"{r.choice(['事故复盘', 'Incident 2026-0', 'postmortem:'])}"
            f"{r.randint(1, 9)} — {sentence(r)}"
        )
    elif why == "high":
        a.meta.append(("Importance", r.choice(["high", "高", "critical", "4", "5"])))
    elif why == "comment":
        a.summary += f" <!-- importance: {r.choice([4, 5])} -->"
    elif why == "boot":
        b.boot_ids.append(a.id)
    elif why == "boot-meta":
        a.meta.append(("Boot", "yes"))
    elif why == "no-added":
        a.added = None
    elif why == "bad-added":
        a.added = r.choice(["2026-02-30", "2026-13-01", "2027-03-01"])


def _cite_hubs(b: Builder, hubs: list[AnchorSpec]) -> None:
    """Each hub cited by two other anchors (complements first, new anchors if needed)."""
    r = b.rng
    for hub in hubs:
        for citer in r.sample(
            [x for x in b.anchors if x.planted in ("complements",)] or b.anchors, 2
        ):
            if citer is hub:
                continue
            citer.add_ref("SEE-ALSO", hub.id)
    for hub in hubs:
        citers = sum(1 for x in b.anchors if f"[[{hub.id}]]" in " ".join(v for _, v in x.meta))
        while citers < 2:
            extra = b.random_anchor()
            extra.add_ref("SEE-ALSO", hub.id)
            b.add_anchor(extra)
            citers += 1
