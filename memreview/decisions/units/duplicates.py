"""The duplicates queue: entries that say the same thing; keep one, or merge them into one."""

from __future__ import annotations

from typing import Any

from memreview.decisions.model import Decision, DecisionError, check_merge_text, merge_lines
from memreview.decisions.plan import DeleteEntry, PlanBuilder, PlannedDecision, ReplaceEntry
from memreview.decisions.unit import (
    DEFER,
    IMPORTING,
    Act,
    Block,
    Differs,
    Facts,
    ImportedOnUse,
    Passage,
    QueueUnit,
    RefBlock,
)
from memreview.i18n import N_, _, ngettext
from memreview.workspace.normalize import normalize


def check(item: dict[str, Any], d: Decision) -> None:
    """keep needs which member stays, within the group; a merge needs an entry-shaped text."""
    if d.action not in ("keep", "merge"):
        return
    refs = item.get("refs") or []
    if d.action == "keep" and d.keep is None:
        raise DecisionError(
            _("{item}: keep needs 'keep: N', which entry stays (1-{count})").format(
                item=d.item, count=len(refs)
            )
        )
    keep = d.keep if d.keep is not None else 1
    if not 1 <= keep <= len(refs):
        raise DecisionError(
            _(
                "{item}: keep {keep} is out of range; this group has {count} entries (1-{count})"
            ).format(item=d.item, keep=keep, count=len(refs))
        )
    if d.action == "merge":
        text = d.text if d.text is not None else item.get("merged")
        if text is None:
            raise DecisionError(
                _("{item}: merge needs 'text', the whole entry as it should read").format(
                    item=d.item
                )
            )
        check_merge_text(d.item, text, refs[keep - 1])


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict[str, Any]) -> None:
    """keep deletes the other members (every entry of a copied block); merge also rewrites
    the kept one."""
    if d.action == "defer":
        return
    refs = item.get("refs") or []
    keep = (d.keep or 1) - 1
    if d.action == "not-duplicate":
        for ref in refs:
            for ln in ref.get("lines") or [ref.get("line")]:
                try:
                    b.keep(pd, b.entry({**ref, "line": ln}))
                except DecisionError:
                    continue  # a line nested in a longer item: nothing of its own to keep
        b.hide(pd, "not-duplicate")
        return
    # a copied block or record is one ref naming each of its entries' lines (and the
    # heading lines a copied block takes with it); a line nested in a longer item is no
    # entry of its own, so keep and merge refuse it (edit by hand)
    runs = [
        [b.entry({**ref, "line": ln}) for ln in ref.get("lines") or [ref.get("line")]]
        for ref in refs
    ]
    headings = [
        [b.heading(str(ref.get("file")), ln) for ln in ref.get("headings") or ()] for ref in refs
    ]
    for k, run in enumerate(runs):
        if k == keep and d.action == "keep":
            for target in run:
                b.keep(pd, target)
        if k == keep:
            if d.action == "merge":
                text = d.text if d.text is not None else str(item.get("merged") or "")
                lines = tuple(merge_lines(text))
                b.plan.add(run[0].file, ReplaceEntry(pd.key, run[0], lines), pd)
                for target in run[1:]:
                    b.plan.add(target.file, DeleteEntry(pd.key, target), pd)
            continue
        for target in [*run, *headings[k]]:
            b.plan.add(target.file, DeleteEntry(pd.key, target), pd)


# what each kind of item is, in the owner's words (the JSON keeps the kind's name)
KIND_WORDS = {
    "exact": N_("the same text"),
    "near": N_("the same text but for filler"),
    "restructured": N_("the same fact in another shape"),
    "block": N_("a block of lines copied"),
    "paraphrase": N_("the same fact in other words"),
    "fingerprint": N_("the same fingerprint"),
    "chronicle": N_("one day in the chronicle"),
}


def kind_words(kind: object) -> str:
    """A kind in the owner's words; a kind memreview has no words for, as it is named."""
    words = KIND_WORDS.get(str(kind))
    return _(words) if words else str(kind or "")


MAX_MARKS = 24  # shared words highlighted in each member
MAX_SHOWN = 8  # shared words listed by name


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def shared_and_differs(
    item: dict[str, Any],
) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The item's evidence: the substance its members share (rarest first) and the pairs of
    texts that differ; a near pair without it: where its first two members' words differ."""
    ev = item.get("evidence")
    ev = ev if isinstance(ev, dict) else {}
    shared = tuple(str(t) for t in _listed(ev.get("shared")) if str(t).strip())[:MAX_MARKS]
    differs = tuple(
        (str(p[0]), str(p[1])) for p in map(_listed, _listed(ev.get("differs"))) if len(p) == 2
    )
    refs = item.get("refs") or []
    if "differs" not in ev and item.get("kind") == "near" and len(refs) >= 2:
        # rapidfuzz, only when shown: imported under the detectors' lock (the app may be
        # importing them in another thread, and two threads importing it at once can fail)
        with IMPORTING:
            from memreview.queues.sameness import differing_words

        first, other = (str(r.get("text") or "") for r in refs[:2])
        differs = tuple(differing_words(_norm(first), _norm(other)))
    return shared, differs


def _norm(text: str) -> str:
    return normalize(text, "row" if text.lstrip().startswith("|") else "bullet")


def evidence(item: dict[str, Any]) -> list[Block]:
    """Kind, size, lowest similarity and the shared substance; each member with that
    substance highlighted; what differs; and the proposed merge."""
    score = item.get("score")
    refs = item.get("refs") or []
    shared, differs = shared_and_differs(item)
    blocks: list[Block] = [
        Facts(
            (
                (_("kind"), kind_words(item.get("kind"))),
                (_("members"), len(refs)),
                (_("lowest similarity"), f"{score:g}" if isinstance(score, float) else score),
                (_("shared"), ", ".join(shared[:MAX_SHOWN])),
            )
        ),
        *(RefBlock(ref, f"#{k}", marks=shared) for k, ref in enumerate(refs, 1)),
    ]
    if differs:
        blocks.append(Differs(_("differs"), differs))
    if item.get("merged"):
        blocks.append(
            Passage(_("proposed merge (m to edit)"), str(item["merged"]), style="edit", tabs=True)
        )
    return blocks


def note(item: dict[str, Any]) -> str:
    """How many entries, of which kind."""
    count = len(item.get("refs") or [])
    return ngettext(" — {count} entry ({kind})", " — {count} entries ({kind})", count).format(
        count=count, kind=kind_words(item.get("kind"))
    )


KEPT = "keep #{keep}"

UNIT = QueueUnit(
    name="duplicates",
    title=N_("Duplicates"),
    detect=ImportedOnUse("memreview.queues.duplicates.detect", "duplicates"),
    acts=(
        Act(
            "approve",
            "keep",
            N_("keep #1"),
            "approve",
            N_("the other entries are deleted"),
            keep=1,
            takes=("keep",),
            staged=KEPT,
        ),
        Act(
            "member",
            "keep",
            N_("keep #N"),
            "approve",
            N_("the other entries are deleted"),
            takes=("keep",),
            staged=KEPT,
        ),
        Act(
            "merge",
            "merge",
            N_("merge"),
            "edit",
            N_("the kept entry is rewritten, the others are deleted"),
            takes=("keep", "text"),
        ),
        Act(
            "reject",
            "not-duplicate",
            N_("not-duplicate"),
            "reject",
            N_("no memory file is written; hidden"),
        ),
        DEFER,
    ),
    plan=plan,
    evidence=evidence,
    note=note,
    check=check,
    deletes=True,
    apart=True,
)
