"""The dropping queue: candidates the pipeline is about to lose; promote anyway, or let go."""

from __future__ import annotations

from typing import Any

from memreview.decisions.model import Decision, DecisionError
from memreview.decisions.plan import AppendSection, InsertRule, PlanBuilder, PlannedDecision
from memreview.decisions.unit import (
    DEFER,
    MERGE,
    Act,
    Caption,
    Facts,
    ImportedOnUse,
    Passage,
    QueueUnit,
    in_words,
    source_block,
)
from memreview.i18n import N_, _, ngettext
from memreview.secrets import find_secrets
from memreview.workspace.config import Config
from memreview.workspace.model import Workspace

LIMIT = 10  # seed 003: showing 126 equals showing none
OWNER_MARK = "<!-- promoted-by: owner {day} -->"
SECTION = "## Promoted From Short-Term Memory ({day})"

GATES = {
    "score": N_("score under the gate"),
    "recalls": N_("too few recalls"),
    "queries": N_("too few unique queries"),
    "age": N_("not recalled for 30 days"),
    "mentions": N_("seen only once"),
    "staged": N_("staged by light sleep, never taken by the deep phase"),
}
ORIGINS = {
    "openclaw": N_("OpenClaw's short-term recall store"),
    "lingxi": N_("a Lingxi candidate fragment (dreams.db)"),
    "light": N_("a light-sleep candidate in a daily log's managed block"),
}


def _text(item: dict[str, Any], d: Decision) -> str:
    text = " ".join((d.text if d.text is not None else str(item.get("text") or "")).split())
    if not text:
        raise DecisionError(_("{item}: there is no text to promote").format(item=d.item))
    return text


def check(item: dict[str, Any], d: Decision) -> None:
    """A candidate holding a credential is promoted only as the owner rewrote it, without it."""
    if d.action != "promote":
        return
    if d.text is None and item.get("secret"):
        raise DecisionError(
            _(
                "{item}: the candidate holds a credential; edit it first (m) and promote the "
                "text without it"
            ).format(item=d.item)
        )
    if d.text is not None and find_secrets(d.text):
        raise DecisionError(
            _("{item}: the edited text still holds a credential").format(item=d.item)
        )


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict[str, Any]) -> None:
    """promote writes the entry as the pipeline would, marked as the owner's; let-go hides it
    for good. The store and dreams.db are never written."""
    if d.action == "defer":
        return
    if d.action == "let-go":
        b.hide(pd, "let go")
        return
    text = _text(item, d)
    if item.get("origin") == "lingxi":
        main = b.ws.main_memory()
        if main is None:
            raise DecisionError(_("there is no MEMORY.md to promote the fragment into"))
        headings = _module_headings(b, main, str(item.get("category") or ""))
        line = f"- {text}（{b.day} 人工沉淀）"
        b.plan.add(main, InsertRule(pd.key, line, (*headings, *b.cfg.rules_headings)), pd)
    else:
        key = str(item.get("key") or "")
        src = item.get("source") or {}
        tail = (
            f" [score={item.get('score') or 0:.3f} recalls={item.get('recalls') or 0} "
            f"avg={item.get('score') or 0:.3f} source={src.get('file')}:{src.get('start')}-"
            f"{src.get('end')}] " + OWNER_MARK.format(day=b.day)
        )
        marker = f"<!-- openclaw-memory-promotion:{key} -->"
        lines = (SECTION.format(day=b.day), "", marker, f"- {text}{tail}")
        # OpenClaw reads its markers in the workspace's root MEMORY.md
        b.plan.add("MEMORY.md", AppendSection(pd.key, lines, marker), pd)
    b.hide(pd, "promoted")


def _module_headings(b: PlanBuilder, main: str, category: str) -> tuple[str, ...]:
    """The headings of ``main`` that name the fragment's category (Lingxi's modules)."""
    mf = b.memory_file(main)
    if mf is None or not category.strip():
        return ()
    return tuple(t for _line, _lvl, t in mf.headings if category.strip() in t)


def evidence(item: dict[str, Any]) -> list[Any]:
    """How soon it is lost and why, its text, its source lines."""
    fails = ", ".join(str(in_words(GATES, f)) for f in item.get("fails") or ())
    days = item.get("days_left")
    # each reads on from the label "lost": "lost in 5 days", "lost next: the store is full"
    if item.get("evicted_next"):
        when = _("next: the store is full")
    elif isinstance(days, int) and days <= 0:
        when = _("now: past the 30-day limit, no longer promoted")
    elif isinstance(days, int):
        when = ngettext("in {n} day", "in {n} days", days).format(n=days)
    else:
        when = None
    blocks: list[Any] = [
        Facts(
            (
                (_("from"), in_words(ORIGINS, item.get("origin"))),
                # TRANSLATORS: a label followed by "in 5 days", "next: the store is full"…
                (_("lost"), when),
                (_("fails"), fails),
                (_("score"), item.get("score")),
                (_("recalls"), item.get("recalls")),
                (_("unique queries"), item.get("queries")),
                (_("last recalled"), item.get("last_recalled")),
            )
        ),
        Passage(_("candidate"), str(item.get("text") or "")),
    ]
    for flag in item.get("flags") or ():
        blocks.append(Caption(_("⚑ {reason}").format(reason=flag.get("reason")), "reject"))
    if item.get("secret"):
        blocks.append(
            Caption(_("holds a credential (masked): edit it (m) before promoting"), "reject")
        )
    block = source_block(item.get("source"))
    if block is not None:
        blocks.append(block)
    return blocks


def note(item: dict[str, Any]) -> str:
    """How soon it is lost."""
    days = item.get("days_left")
    if item.get("evicted_next"):
        return _(" — evicted next")
    if isinstance(days, int) and days > 0:
        return ngettext(" — {n} day left", " — {n} days left", days).format(n=days)
    return _(" — past the limit")


def missing(ws: Workspace) -> str | None:
    """No store and no fragments: nothing can be about to drop."""
    if not getattr(ws, "short_term", None) and not ws.fragments:
        return _("no short-term recall store and no dreaming fragments")
    return None


def limit(_cfg: Config) -> int:
    return LIMIT


UNIT = QueueUnit(
    name="dropping",
    title=N_("Dropping"),
    detect=ImportedOnUse("memreview.queues.dropping", "dropping"),
    acts=(
        Act(
            "approve",
            "promote",
            N_("promote"),
            "approve",
            N_("written into MEMORY.md as the pipeline would, marked as yours"),
            takes=("text",),
        ),
        Act(
            MERGE,
            "promote",
            N_("edit, then promote"),
            "edit",
            N_("promote the text as you rewrite it"),
            takes=("text",),
        ),
        Act(
            "reject",
            "let-go",
            N_("let-go"),
            "reject",
            N_("hidden for good; no memory file is written"),
        ),
        DEFER,
    ),
    plan=plan,
    check=check,
    evidence=evidence,
    note=note,
    missing=missing,
    limit=limit,
    unlimit="all_dormant",
)
