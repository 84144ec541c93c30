"""MEMORY.md alarms: past the bootstrap cap (the lines and sections the agent never sees),
near OpenClaw's promotion budget, and promotions the owner reviewed that were deleted since
(OpenClaw's budget compaction prints nothing)."""

from __future__ import annotations

from datetime import date

from memreview.alarms.base import Alarm, file_size
from memreview.alarms.dreaming import PROMOTED_RE
from memreview.i18n import _
from memreview.workspace.markdown import MARKER_KEY_RE
from memreview.workspace.model import Workspace


def _main_text(ws: Workspace) -> tuple[str, list[str]] | None:
    main = ws.main_memory()
    if main is None:
        return None
    return main, ws.files[main].source.texts


def check_bootstrap(ws: Workspace, today: date) -> list[Alarm]:
    got = _main_text(ws)
    if got is None:
        return []
    rel, texts = got
    total = sum(len(t) + 1 for t in texts)
    cap = ws.config.alarms_bootstrap_chars
    if total <= cap:
        return []
    head, tail = int(cap * 0.75), cap - int(cap * 0.75)
    gap_start, gap_end = head, total - tail
    first = last = None
    pos = 0
    for no, t in enumerate(texts, 1):
        end = pos + len(t) + 1
        if first is None and end > gap_start:
            first = no
        if pos < gap_end:
            last = no
        pos = end
    return [
        Alarm(
            "memory-over-bootstrap",
            _("{file} is {total} characters: the agent never sees lines {first}–{last}").format(
                file=rel, total=f"{total:,}", first=first, last=last
            ),
            (
                _("OpenClaw loads {cap} characters: the first {head} and the last {tail}").format(
                    cap=f"{cap:,}", head=f"{head:,}", tail=f"{tail:,}"
                ),
                _("the gap: lines {first}–{last} ({size} characters)").format(
                    first=first, last=last, size=f"{gap_end - gap_start:,}"
                ),
                *_gap_sections(ws, rel, first, last),
            ),
            _("move what the agent must always see above the cut, and demote or archive the rest"),
        )
    ]


def _gap_sections(ws: Workspace, rel: str, first: int, last: int) -> list[str]:
    """What lies in the gap: the sections (headings) of lines ``first``–``last``, the one the
    gap starts in first."""
    heads = [(ln, text) for ln, _level, text in ws.files[rel].headings]
    inside = [(ln, t) for ln, t in heads if first <= ln <= last]
    before = [(ln, t) for ln, t in heads if ln < first]
    shown = before[-1:] + inside
    if not shown:
        return []
    names = [_("{heading} (line {line})").format(heading=t, line=ln) for ln, t in shown[:6]]
    if len(shown) > 6:
        names.append(_("… and {count} more").format(count=len(shown) - 6))
    return [_("in the gap: {sections}").format(sections="; ".join(names))]


def check_promotion_budget(ws: Workspace, today: date) -> list[Alarm]:
    got = _main_text(ws)
    if got is None:
        return []
    rel, texts = got
    if not any(PROMOTED_RE.match(t) for t in texts):
        return []
    total = sum(len(t) + 1 for t in texts)
    budget = ws.config.alarms_promotion_budget
    if total < budget * (1 - ws.config.alarms_budget_warning_pct / 100):
        return []
    return [
        Alarm(
            "promotion-budget",
            (
                _("{file} is past OpenClaw's {budget}-character promotion budget: {total}")
                if total > budget
                else _("{file} is at {total} of OpenClaw's {budget}-character promotion budget")
            ).format(file=rel, budget=f"{budget:,}", total=f"{total:,}"),
            (_("past it OpenClaw deletes the oldest promotion sections without saying which"),),
            _(
                "review the promotions queue now: archive what you don't want, so nothing you "
                "kept is deleted by the budget"
            ),
        )
    ]


def promotion_bullets(lines: list[str]) -> dict[str, str]:
    """Each promotion marker key in ``lines`` with the bullet under it ("" when none)."""
    out: dict[str, str] = {}
    for i, line in enumerate(lines):
        if "openclaw-memory-promotion:" not in line:
            continue
        m = MARKER_KEY_RE.search(line)
        if not m:
            continue
        after = next((ln for ln in lines[i + 1 : i + 4] if ln.strip()), "")
        out.setdefault(m.group(1), "" if "openclaw-memory-promotion:" in after else after)
    return out


def present_promotions(ws: Workspace) -> dict[str, tuple[str, str]]:
    """Every promotion marker key in the workspace's memory files (archive files too):
    ``key → (file, bullet)``."""
    out: dict[str, tuple[str, str]] = {}
    for files in (ws.files, ws.archive_files):
        for rel in sorted(files):
            for key, bullet in promotion_bullets(files[rel].source.texts).items():
                out.setdefault(key, (rel, bullet))
    return out


def unread_files(ws: Workspace, rels) -> set[str]:
    """The files of ``rels`` that exist but the scan did not read (too large, undecodable):
    their promotion keys are unknown, not deleted."""
    return {
        rel
        for rel in rels
        if rel not in ws.files and rel not in ws.archive_files and file_size(ws, rel) is not None
    }


def check_budget_deleted(ws: Workspace, seen: dict, from_backup, taken_out=None) -> list[Alarm]:
    """Promotion keys the owner reviewed that no memory file holds any more: deleted outside
    memreview, most likely by OpenClaw's budget compaction (it prints nothing). Those
    ``taken_out`` names (memreview's own batch took them out, then was killed before it
    updated the record) are not."""
    present = present_promotions(ws)
    records = seen.get("keys", {})
    unread = unread_files(ws, {str(rec.get("file") or "") for rec in records.values()} - {""})
    missing = {
        key: rec
        for key, rec in records.items()
        if key not in present and rec.get("file") not in unread
    }
    ours = taken_out(missing) if missing and taken_out is not None else frozenset()
    gone = sorted(
        (rec.get("file") or "?", key, rec) for key, rec in missing.items() if key not in ours
    )
    if not gone:
        return []
    evidence = []
    for rel, key, rec in gone[:20]:
        text = str(rec.get("text") or "")
        if (not text or text.endswith("…")) and from_backup is not None:
            text = from_backup(rel, key) or text
        evidence.append(
            _("{file}: {key} — {text}").format(
                file=rel, key=key, text=text or _("(no text remembered)")
            )
        )
    if len(gone) > 20:
        evidence.append(_("… and {count} more").format(count=len(gone) - 20))
    reviewed = seen.get("reviewed") or _("the last review")
    return [
        Alarm(
            "promotions-deleted",
            _("{count} promotion(s) you reviewed on {day} are gone from memory files").format(
                count=len(gone), day=reviewed
            ),
            tuple(evidence),
            _(
                "OpenClaw deletes the oldest promotion sections when MEMORY.md passes its "
                "promotion budget, without saying which: put back what you want to keep (the "
                "text is above), and archive promotions you don't need so the budget holds"
            ),
        )
    ]
