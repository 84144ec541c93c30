"""Demotion: anchors that are not important and rarely used (docs/design.md §2, seed 003)."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, timedelta

from memreview.i18n import _
from memreview.queues.common import item_id, short
from memreview.queues.recall_index import recall_index
from memreview.workspace.boot import is_boot, seen_at_boot
from memreview.workspace.dates import parse_date
from memreview.workspace.markdown import PROMOTED_HEADING_RE
from memreview.workspace.model import Anchor, Entry, Workspace, is_closed_status
from memreview.workspace.openclaw import store_key

INCIDENT_RE = re.compile(r"incident|事故|postmortem|复盘", re.I)
IMPORTANCE_COMMENT_RE = re.compile(r"<!--\s*importance:\s*(\d+(?:\.\d+)?)\s*-->", re.I)
HIGH_WORDS = {"high", "高", "critical"}


def is_high_importance(value: str | None) -> bool:
    """An Importance value that means high: a word like ``high``, or a number ≥ 4."""
    if not value:
        return False
    v = value.strip().lower()
    if v in HIGH_WORDS:
        return True
    try:
        return float(v) >= 4
    except ValueError:
        return False


def citations(ws: Workspace) -> Counter:
    """How many other anchors cite each id with ``[[id]]``."""
    count: Counter = Counter()
    for a in ws.all_anchors():
        for ref in set(a.refs):
            if ref != a.id:
                count[ref] += 1
    return count


def important(a: Anchor, cited: Counter, boot_ids: set[str]) -> bool:
    """Whether an anchor is never proposed for demotion: a rule or infra, the owner's,
    cited twice, an incident, high importance, or loaded at boot."""
    if a.type in ("RULE", "INFRA"):
        return True
    if (a.get("Source") or "").strip().lower() in ("owner", "主人"):
        return True
    if cited[a.id] >= 2:
        return True
    if INCIDENT_RE.search(a.text):
        return True
    if is_high_importance(a.get("Importance")):
        return True
    if any(float(n) >= 4 for n in IMPORTANCE_COMMENT_RE.findall(a.text)):
        return True
    if (a.get("Boot") or "").strip().lower() in ("yes", "true") or a.id in boot_ids:
        return True
    return False


def recalls_in_window(ws: Workspace, today: date) -> Counter:
    """Recalls of each anchor in the recall window ending on ``today`` (hooks not counted)."""
    start = today - timedelta(days=ws.config.recall_window_days - 1)  # both ends included
    count: Counter = Counter()
    for r in ws.recalls or []:
        if r.channel != "hook" and start <= r.day <= today:
            count[r.id] += 1
    return count


def demotion(ws: Workspace, today: date) -> list[dict]:
    """Anchors not important and rarely used; then OpenClaw promoted entries never recalled
    since their promotion."""
    return demoted_anchors(ws, today) + promoted_unused(ws, today)


def demoted_anchors(ws: Workspace, today: date) -> list[dict]:
    """Old anchors recalled at most ``demotion_max_recalls`` times in the window and not
    important; none without a recall log (every anchor then counts as important)."""
    cfg = ws.config
    if ws.recalls is None:
        return []
    cited = citations(ws)
    used = recalls_in_window(ws, today)
    index = ws.anchor_index()
    boot = seen_at_boot(ws)
    items = []
    for a in ws.all_anchors():
        if index[a.id] is not a:
            continue  # a repeated id (warned about): only its first definition is used
        if is_boot(boot, a.file, a.line):
            continue  # seen at every session start: never recalled because always there
        if a.archived or a.get("Superseded-By") is not None or a.get("Demoted") is not None:
            continue
        if is_closed_status(a.get("Status")):
            continue
        added = parse_date(a.get("Added") or "")
        if added is None or added > today:
            continue  # a missing fact counts as important
        age = (today - added).days
        if age < cfg.demotion_age_days:
            continue
        n = used[a.id]
        if n > cfg.demotion_max_recalls or important(a, cited, ws.boot_ids):
            continue
        items.append(
            {
                "id": item_id("m", a.id),
                "title": f"[{a.type}:{a.id}]",
                "anchor": a.ref(),
                "recalls_90d": n,
                "age_days": age,
            }
        )
    return items


def promotion_date(ws: Workspace, e: Entry) -> date | None:
    """When an entry was promoted: its section's date, else the store's ``promotedAt``."""
    for h in reversed(e.heading_path):
        m = PROMOTED_HEADING_RE.search(h)
        if m:
            return parse_date(m.group(1))
    usage = ws.openclaw
    if usage is not None and e.marker:
        row = usage.store.get(store_key(e.marker))
        if row is not None:
            return row.promoted_at
    return None


def _source_span(e: Entry) -> tuple[str, int, int] | None:
    """The daily-log lines a promoted entry came from (its marker's key)."""
    parts = (e.marker or "").split(":")
    if len(parts) < 4:
        return None
    try:
        return parts[1], int(parts[2]), int(parts[3])
    except ValueError:
        return None


def _snippet(e: Entry) -> str:
    """A promoted entry's text without its bullet, score tail and comments."""
    text = re.sub(r"<!--.*?-->", "", e.first_line)
    text = re.sub(r"\s*\[score=[^\]]*\]\s*$", "", text.strip())
    return text[2:] if text.startswith(("- ", "* ")) else text


def promoted_unused(ws: Workspace, today: date) -> list[dict]:
    """OpenClaw promoted entries outside what the agent sees at boot, promoted
    ``demotion_age_days`` or more ago and never recalled since: not their lines in the
    memory file, nor their source lines.

    Only with OpenClaw's usage data (recall events or store, read where there is no recall
    log); without it nothing is known about their use and none is listed. The
    ``<!-- importance: N -->`` OpenClaw appends is its own score, not the owner's word: it
    does not make a promoted entry important.
    """
    usage = ws.openclaw
    if usage is None:
        return []
    cfg = ws.config
    start = today - timedelta(days=cfg.recall_window_days - 1)
    ix, events = recall_index(usage), usage.recalls
    boot = seen_at_boot(ws)
    items = []
    for rel, mf in ws.files.items():
        for e in mf.entries:
            if e.kind != "promoted" or is_boot(boot, rel, e.line):
                continue  # what the agent sees at boot is used without being recalled
            promoted = promotion_date(ws, e)
            if promoted is None or promoted > today:
                continue
            age = (today - promoted).days
            if age < cfg.demotion_age_days:
                continue
            spans = [(rel, e.line, e.end_line)]
            source = _source_span(e)
            if source is not None:
                spans.append(source)
            recalled = [
                events[k]
                for path, lo, hi in spans
                for k in ix.overlapping(path, lo, hi)
                if events[k].day <= today
            ]
            if any(r.day >= promoted for r in recalled):
                continue
            items.append(
                {
                    "id": item_id("m", "promoted", e.marker or e.norm),
                    "title": _("promoted {date}: {text}").format(
                        date=promoted.isoformat(), text=short(_snippet(e))
                    ),
                    "anchor": e.ref(),
                    "recalls_90d": sum(1 for r in recalled if start <= r.day),
                    "age_days": age,
                    "promoted": promoted.isoformat(),
                    "marker": e.marker,
                }
            )
    return items
