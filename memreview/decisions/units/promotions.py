"""The promotions queue: what the nightly pipeline put into a memory file; keep it, archive
it, edit it, strip the pipeline's leftovers from it (issue 13)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

from memreview.decisions.model import Decision, DecisionError, merge_lines
from memreview.decisions.plan import (
    AppendLine,
    DeleteEntry,
    PlanBuilder,
    PlannedDecision,
    ReplaceEntry,
    Target,
)
from memreview.decisions.unit import (
    DEFER,
    Act,
    Caption,
    Facts,
    ImportedOnUse,
    QueueUnit,
    RefBlock,
    Verb,
    in_words,
    source_block,
)
from memreview.display import dated
from memreview.i18n import N_, _, ngettext
from memreview.queues.promotions.found import REJECTED_FILE, has_promotions
from memreview.workspace.model import Workspace

REJECTED_TITLE = "# Rejected promotions"
VERDICT = {"keep": "kept", "archive": "archived", "edit": "edited", "strip": "stripped"}
STRIP = Verb("strip", "t", N_("strip"), N_("Remove the pipeline's leftovers from a promoted entry"))


def _stripped(text: str) -> str:
    """``flags.stripped_body`` (the detector's module, imported when a decision needs it)."""
    from memreview.queues.promotions.flags import stripped_body

    return stripped_body(text)


def _first_line(item: dict[str, Any], body_first: str) -> str:
    """The bullet line with ``body_first`` as its text, the marker's tail kept."""
    return f"- {body_first}{item.get('tail') or ''}"


def edited_lines(item: dict[str, Any], text: str) -> tuple[str, ...]:
    """The entry's new lines: the owner's text, then the tail it had (marker untouched)."""
    lines = merge_lines(text)
    first = lines[0]
    for lead in ("- ", "* "):
        if first.startswith(lead):
            first = first[len(lead) :]
    rest = [ln if ln[:1] in (" ", "\t") else "  " + ln for ln in lines[1:] if ln.strip()]
    return (_first_line(item, first.rstrip()), *rest)


def check(item: dict[str, Any], d: Decision) -> None:
    """edit needs a text; strip needs something to strip."""
    if d.action == "edit":
        text = d.text if d.text is not None else None
        if text is None or not merge_lines(text) or not merge_lines(text)[0].strip():
            raise DecisionError(
                _("{item}: edit needs 'text', the entry as it should read").format(item=d.item)
            )
        if any("\ud800" <= c <= "\udfff" for c in text):
            raise DecisionError(
                _("{item}: the text holds a character that is not text").format(item=d.item)
            )
    if d.action == "strip" and _stripped(str(item.get("text") or "")) == item.get("text"):
        raise DecisionError(
            _("{item}: nothing of the pipeline's to strip from this entry").format(item=d.item)
        )


def verdict_line(b: PlanBuilder, item: dict[str, Any], verdict: str) -> str:
    """The verdict line of a promotion (docs/design.md §1.3)."""
    obj = {
        "ts": b.ts,
        "proposal": item.get("key"),
        "relation": "promotion",
        "flags": [f["flag"] for f in item.get("flags") or []],
        "verdict": verdict,
        "by": "human",
    }
    return json.dumps(obj, ensure_ascii=False)


def archive_note(b: PlanBuilder, item: dict[str, Any]) -> str:
    """The line the archived entry is filed under: the review date, its source and flags."""
    src = item.get("source") or {}
    where = f"{src['file']}:{src['start']}-{src['end']}" if src else item["ref"]["file"]
    flags = ", ".join(f["label"] for f in item.get("flags") or []) or "none"
    promoted = item.get("promoted") or "?"
    return f"Rejected: {b.day} (promoted {promoted}; source {where}; flags: {flags})"


def archive(b: PlanBuilder, pd: PlannedDecision, item: dict[str, Any], target: Target) -> None:
    """The entry, after its marker and a ``Rejected:`` line, is appended to the rejected
    archive (titled when new); then it leaves its file (the archive is written first)."""
    lines: list[str] = []
    if b.memory_file(REJECTED_FILE) is None and REJECTED_FILE not in b.plan.files:
        lines += [REJECTED_TITLE]
    lines += ["", archive_note(b, item), f"From: {b.origin(target)}"]
    marker = item.get("marker_line")
    if marker:
        mf = b.memory_file(item["ref"]["file"])
        if mf is not None and 0 < marker <= len(mf.source.lines):
            lines.append(mf.source.lines[marker - 1].text.strip())
    lines += target.text.split("\n")
    for line in lines:
        b.plan.add(REJECTED_FILE, AppendLine(pd.key, line), pd)
    b.plan.add(target.file, DeleteEntry(pd.key, target), pd)
    pd.kept_in[target] = REJECTED_FILE


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict[str, Any]) -> None:
    """keep marks it reviewed; archive moves it (with its marker) to the rejected archive;
    edit and strip rewrite it in place, marker and tail kept. Each writes a verdict."""
    if d.action == "defer":
        return
    target = b.entry(item["ref"])
    if d.action == "keep":
        b.keep(pd, target)
    elif d.action == "archive":
        archive(b, pd, item, target)
    elif d.action in ("edit", "strip"):
        text = d.text if d.action == "edit" else _stripped(str(item.get("text") or ""))
        lines = edited_lines(item, str(text))
        b.plan.add(target.file, ReplaceEntry(pd.key, target, lines), pd)
    b.plan.add(b.cfg.verdicts, AppendLine(pd.key, verdict_line(b, item, VERDICT[d.action])), pd)
    b.hide(pd, "reviewed")


# Which pipeline wrote a promotion (the scan's ``origin``), in words.
WRITTEN_BY = {
    "openclaw": N_("OpenClaw's nightly promotion (a Promoted From Short-Term Memory section)"),
    "consolidated": N_("OpenClaw's consolidation (a Consolidated Memory section)"),
    "owner": N_("promoted by you from the candidates about to be dropped"),
    "lingxi": N_("Lingxi's settling of a fragment (自动沉淀)"),
}


def evidence(item: dict[str, Any]) -> list[Any]:
    """The entry, its promotion's figures, its source lines, the store, the flags."""
    blocks: list[Any] = [
        Facts(
            (
                (_("promoted"), dated(item.get("promoted"))),
                (_("written by"), in_words(WRITTEN_BY, item.get("origin"))),
                (_("group"), item.get("group")),
                (_("score"), item.get("score")),
                (_("recalls"), item.get("recalls")),
                (_("recalled since promotion"), item.get("recalled_since")),
                (_("signals"), item.get("signals")),
                (_("importance"), item.get("importance")),
            )
        ),
        RefBlock(item["ref"], _("entry"), before=1),
    ]
    for f in item.get("flags") or []:
        # the flag's name in the interface's language, and its reason (the detector gives it
        # in that language too)
        name = f["label"]
        line = _("{flag}: {reason}").format(flag=_(name), reason=f["reason"])
        blocks.append(Caption("⚑ " + line, style="reject"))
    block = source_block(item.get("source"))
    if block is not None:
        blocks.append(block)
    store = item.get("store")
    if store:
        blocks.append(
            Facts(
                (
                    (_("store: recall days"), store.get("recall_days")),
                    (_("last recalled"), dated(store.get("last_recalled"))),
                    (_("promoted at"), dated(store.get("promoted_at"))),
                )
            )
        )
    return blocks


def note(item: dict[str, Any]) -> str:
    """Its flags (the title already holds the promotion date)."""
    flags = item.get("flags") or []
    if not flags:
        return ""
    return ngettext(" — {count} flag: {flags}", " — {count} flags: {flags}", len(flags)).format(
        count=len(flags), flags=", ".join(_(name) for name in (f["label"] for f in flags))
    )


def missing(ws: Workspace) -> str | None:
    """A workspace no pipeline promoted into has nothing for this queue."""
    if has_promotions(ws):
        return None
    return _("no promotion section or 自动沉淀 stamp in the memory files")


def promotion_health(ws: Workspace, items: list[dict[str, Any]], today: date) -> dict[str, Any]:
    """Promotions per night over the 14 nights up to the review date, the flagged share of
    every promotion, the top flags, and the owner's archive rate per flag."""
    # the judge's cards read the verdicts: imported when a scan's health is computed
    from memreview.judge_card import promotion_card

    nights = [today - timedelta(days=k) for k in range(13, -1, -1)]
    per: dict[str, list[int]] = {d.isoformat(): [0, 0] for d in nights}
    flags: dict[str, int] = {}
    flagged = 0
    for it in items:
        cell = per.get(it.get("promoted") or "")
        if cell is not None:
            cell[0] += 1
            cell[1] += bool(it["flags"])
        flagged += bool(it["flags"])
        for f in it["flags"]:
            flags[f["flag"]] = flags.get(f["flag"], 0) + 1
    return {
        "count": len(items),
        "flagged": flagged,
        "flagged_share": round(flagged / len(items), 4) if items else None,
        "nights": [{"date": d, "promoted": c[0], "flagged": c[1]} for d, c in per.items()],
        "top_flags": sorted(flags.items(), key=lambda kv: (-kv[1], kv[0]))[:5],
        "card": promotion_card(ws),
    }


def health_view(promo: dict[str, Any]) -> tuple[int, list[str]] | None:
    """The flagged promotions, and the figures in a few lines (none when none wait)."""
    from memreview.judge_card import promotion_lines

    if not promo.get("count"):
        return None
    return promo.get("flagged", 0), promotion_lines(promo)


UNIT = QueueUnit(
    name="promotions",
    title=N_("Promotions"),
    detect=ImportedOnUse("memreview.queues.promotions.detect", "promotions"),
    acts=(
        Act(
            "approve",
            "keep",
            N_("keep"),
            "approve",
            N_("no memory file is written; marked reviewed"),
        ),
        Act(
            "archive",
            "archive",
            N_("archive"),
            "reject",
            N_(
                "copied with its marker to memory/archive/rejected-promotions.md, then removed; "
                "its marker stays in MEMORY.md, so OpenClaw does not promote it again"
            ),
        ),
        Act(
            "merge",
            "edit",
            N_("edit"),
            "edit",
            N_("the edited text, marker and tail kept"),
            takes=("text",),
        ),
        Act(
            "strip",
            "strip",
            N_("strip"),
            "edit",
            N_("leaked scaffolding removed; marker and tail kept"),
        ),
        DEFER,
    ),
    plan=plan,
    evidence=evidence,
    note=note,
    check=check,
    missing=missing,
    verbs=(STRIP,),
    health=promotion_health,
    health_view=health_view,
    unhide="all_promotions",
    apart=True,
)
