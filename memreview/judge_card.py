"""The judge's report card: was the small-model judge confidently wrong? (seed 003)

The human's own verdicts (``verdicts.jsonl``, docs/design.md §1.3, read by the loader) are joined
with the judge's proposals by proposal id, and counted per relation and confidence band:
how often the human approved, and whether higher confidence meant more approvals.
Pure figures, on the floor of :mod:`memreview.health`; the report renders them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from memreview.display import sparkline
from memreview.health import SCHEMA
from memreview.i18n import _
from memreview.workspace.loader import check_workspace, load_workspace
from memreview.workspace.model import VERDICTS, Workspace

CONFIDENCE_BUCKETS = ("<0.5", "0.5–0.7", "0.7–0.9", "0.9–1.0", "n/a")
NUMERIC_BUCKETS = CONFIDENCE_BUCKETS[:4]
RELATION_ORDER = ("supersedes", "contradicts", "duplicate", "complements")


def confidence_bucket(conf: object) -> str:
    """The report card's band for a judge confidence (``n/a`` when unknown or not in 0–1)."""
    if isinstance(conf, bool) or not isinstance(conf, int | float):
        return "n/a"
    c = float(conf)
    if not 0.0 <= c <= 1.0:  # also NaN
        return "n/a"
    if c < 0.5:
        return "<0.5"
    if c < 0.7:
        return "0.5–0.7"
    if c < 0.9:
        return "0.7–0.9"
    return "0.9–1.0"


def _cell() -> dict:
    return {"approved": 0, "rejected": 0, "kept-both": 0, "decided": 0, "approval_rate": None}


def _add(cell: dict, verdict: str) -> None:
    cell[verdict] += 1
    cell["decided"] += 1
    cell["approval_rate"] = round(cell["approved"] / cell["decided"], 4)


def _ordered(relations: dict[str, dict[str, dict]]) -> dict[str, dict[str, dict]]:
    """Known relations first in their usual order, then the others by name; bands in order."""

    def key(r: str) -> tuple:
        return (RELATION_ORDER.index(r) if r in RELATION_ORDER else len(RELATION_ORDER), r)

    return {
        r: {b: relations[r][b] for b in CONFIDENCE_BUCKETS if b in relations[r]}
        for r in sorted(relations, key=key)
    }


def report_card(source: Path | str | Workspace) -> dict:
    """How often the human approved the judge, per relation and confidence band (JSON-able).

    ``source`` is a loaded Workspace or a workspace root. The confidence comes from the
    proposal. Per proposal the latest verdict counts, and an ``undone`` line takes back the
    verdict before it. A ``restored`` line (``memreview restore`` put back the anchor an
    approval archived) counts as a rejection: the owner found the approval wrong; the card's
    ``restored`` says how many.
    """
    ws = source if isinstance(source, Workspace) else load_workspace(check_workspace(Path(source)))
    props = {p.id: p for p in ws.proposals or []}
    stacks: dict[str, list[tuple[str, str | None]]] = {}
    undone = restored = 0
    for v in ws.verdicts or []:
        if v.relation == "promotion":
            continue  # the owner's verdicts on promotions: see promotion_card
        stack = stacks.setdefault(v.proposal, [])
        if v.verdict == "undone":
            undone += 1
            if stack:
                stack.pop()
            continue
        # restored: the owner put back what an approval archived, so the approval was wrong
        stack.append(("rejected" if v.verdict == "restored" else v.verdict, v.relation))
        restored += v.verdict == "restored"

    relations: dict[str, dict[str, dict]] = {}
    by_bucket = {b: _cell() for b in CONFIDENCE_BUCKETS}
    total = _cell()
    unmatched = 0
    for pid, stack in stacks.items():
        if not stack:
            continue
        verdict, relation = stack[-1]
        prop = props.get(pid)
        if prop is None:
            unmatched += 1
        relation = (prop.relation if prop else None) or relation or "unknown"
        bucket = confidence_bucket(prop.confidence if prop else None)
        cell = relations.setdefault(relation, {}).setdefault(bucket, _cell())
        for c in (cell, by_bucket[bucket], total):
            _add(c, verdict)
    return _card(
        relations,
        by_bucket,
        total,
        verdict_lines=len(ws.verdicts or []),
        undone=undone,
        restored=restored,
        unmatched=unmatched,
        has_verdicts=ws.verdicts is not None,
    )


def promotion_card(ws: Workspace) -> dict:
    """Per junk flag, how often the owner archived what it flagged: the flags' precision,
    measured by the owner's hand (the latest verdict per promotion counts; ``undone`` takes
    back the one before)."""
    stacks: dict[str, list] = {}
    for v in ws.verdicts or []:
        if v.relation != "promotion" and not (v.verdict == "undone" and v.proposal in stacks):
            continue
        stack = stacks.setdefault(v.proposal, [])
        if v.verdict in ("undone", "restored"):  # restored: the owner took the archive back
            if stack:
                stack.pop()
            continue
        stack.append(v)
    flags: dict[str, dict] = {}
    decided = 0
    for stack in stacks.values():
        if not stack:
            continue
        v = stack[-1]
        decided += 1
        for f in v.flags or ("(no flag)",):
            cell = flags.setdefault(f, {"decided": 0, "archived": 0, "archive_rate": None})
            cell["decided"] += 1
            cell["archived"] += v.verdict == "archived"
            cell["archive_rate"] = round(cell["archived"] / cell["decided"], 4)
    return {"decided": decided, "flags": dict(sorted(flags.items()))}


def promotion_lines(promo: dict) -> list[str]:
    """The promotions' health in a few lines (the report and the app's health view): count
    and flagged share, promotions per night over 14 nights, top flags, and per flag how often
    the owner archived what it flagged."""
    share = promo.get("flagged_share")
    nights = promo.get("nights") or []
    per = [n["promoted"] for n in nights]
    if isinstance(share, float):
        waiting = _("Promotions waiting: {count}, flagged {flagged} ({share})")
    else:
        waiting = _("Promotions waiting: {count}, flagged {flagged}")
    lines = [
        waiting.format(
            count=promo["count"],
            flagged=promo["flagged"],
            share=f"{share:.0%}" if isinstance(share, float) else "",
        )
    ]
    if nights:
        flagged = sum(n["flagged"] for n in nights)
        lines.append(
            _(
                "Promotions per night since {date}: {sparkline} {count} in all, {flagged} flagged"
            ).format(
                date=nights[0]["date"], sparkline=sparkline(per), count=sum(per), flagged=flagged
            )
        )
    top = promo.get("top_flags") or []
    if top:
        lines.append(
            _("Top flags: {flags}").format(flags=", ".join(f"{name} {n}" for name, n in top))
        )
    card = (promo.get("card") or {}).get("flags") or {}
    for flag, cell in card.items():
        rate = cell.get("archive_rate")
        if isinstance(rate, float):
            text = _("Flag {flag}: the owner archived {archived} of {decided} ({rate})")
        else:
            text = _("Flag {flag}: the owner archived {archived} of {decided}")
        lines.append(
            text.format(
                flag=flag,
                archived=cell["archived"],
                decided=cell["decided"],
                rate=f"{rate:.0%}" if isinstance(rate, float) else "",
            )
        )
    return lines


def merge_cards(cards: Iterable[dict]) -> dict:
    """Report cards of several agents added up into one."""
    cards = list(cards)
    relations: dict[str, dict[str, dict]] = {}
    by_bucket = {b: _cell() for b in CONFIDENCE_BUCKETS}
    total = _cell()
    for card in cards:
        for r, buckets in card["relations"].items():
            for b, cell in buckets.items():
                target = relations.setdefault(r, {}).setdefault(b, _cell())
                for c in (target, by_bucket[b], total):
                    for v in VERDICTS:
                        c[v] += cell[v]
                        c["decided"] += cell[v]
    for c in [total, *by_bucket.values(), *(x for r in relations.values() for x in r.values())]:
        c["approval_rate"] = round(c["approved"] / c["decided"], 4) if c["decided"] else None
    return _card(
        relations,
        by_bucket,
        total,
        verdict_lines=sum(c["verdict_lines"] for c in cards),
        undone=sum(c["undone"] for c in cards),
        restored=sum(c.get("restored", 0) for c in cards),
        unmatched=sum(c["unmatched"] for c in cards),
        has_verdicts=any(c["has_verdicts"] for c in cards),
    )


def _card(relations: dict, by_bucket: dict, total: dict, **counts) -> dict:
    trend, summary = _trend(by_bucket)
    return {
        "schema": SCHEMA,
        "buckets": list(CONFIDENCE_BUCKETS),
        "relations": _ordered(relations),
        "by_bucket": by_bucket,
        "total": total,
        **counts,
        "trend": trend,
        "summary": summary,
    }


def pct(rate: float | None) -> str:
    """An approval rate as a whole percentage (``–`` when nothing was decided)."""
    return "–" if rate is None else f"{rate:.0%}"


def _trend(by_bucket: dict[str, dict]) -> tuple[str, str]:
    """Did higher confidence mean more approvals? (trend word, one sentence)."""
    seen = [(b, by_bucket[b]["approval_rate"]) for b in NUMERIC_BUCKETS if by_bucket[b]["decided"]]
    if not seen:
        return "unknown", _("No verdicts on proposals with a known confidence yet.")
    if len(seen) == 1:
        b, r = seen[0]
        return (
            "unknown",
            _(
                "All verdicts fall in one confidence band ({band}, {rate} approved), so it "
                "can't yet tell whether higher confidence meant more approvals."
            ).format(band=b, rate=pct(r)),
        )
    rates = [r for _band, r in seen]
    (b0, r0), (b1, r1) = seen[0], seen[-1]
    steps = list(zip(rates, rates[1:], strict=False))
    if all(a == b for a, b in steps):
        return "same", _(
            "Higher confidence did not mean more approvals: {rate} in every band."
        ).format(rate=pct(r0))
    ends = {"low": pct(r0), "low_band": b0, "high": pct(r1), "high_band": b1}
    if all(a <= b for a, b in steps):
        return (
            "more",
            _(
                "Higher confidence meant more approvals: {low} at {low_band}, rising to {high} "
                "at {high_band}."
            ).format(**ends),
        )
    if all(a >= b for a, b in steps):
        return (
            "fewer",
            _(
                "Higher confidence did not mean more approvals — it meant fewer: {low} at "
                "{low_band}, falling to {high} at {high_band}."
            ).format(**ends),
        )
    listing = _(", ").join(_("{rate} at {band}").format(rate=pct(r), band=b) for b, r in seen)
    return "mixed", _("Higher confidence did not steadily mean more approvals: {listing}.").format(
        listing=listing
    )
