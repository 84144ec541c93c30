"""Candidates the pipeline is about to drop (docs/design.md §2, seed 003's write gate).

OpenClaw's dreaming keeps candidates in its short-term recall store and promotes only those
that pass its gates (score 0.75, 3 recalls, 3 unique queries, recalled within 30 days); the
rest age out unseen, and a store past 512 entries evicts the least recently recalled. Lingxi
archives a candidate fragment seen once and not for 30 days (seed 002). A lesson rejected
silently is lost for good: this queue shows, most urgent first, the few the owner may still
promote by hand. The store and ``dreams.db`` are only read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from types import SimpleNamespace

from memreview.queues.common import item_id, short
from memreview.secrets import find_secrets, mask_secrets
from memreview.workspace.model import Fragment, Workspace
from memreview.workspace.openclaw import StoreEntry, store_key

MAX_AGE_DAYS = 30  # OpenClaw's maxAgeDays and Lingxi's archive age
NEAR_DAYS = 7  # a candidate this close to the limit is shown
# what OpenClaw promotes from: daily logs (memory/…/YYYY-MM-DD[-slug].md); other rows of the
# store are recalls of memory itself and never candidates
SHORT_TERM_PATH_RE = re.compile(
    r"(?:^|/)memory/(?:[^/]+/)*\d{4}-\d{2}-\d{2}(?:-[^/]+)?\.md$"
)  # lines of the daily log shown around the source lines


@dataclass(frozen=True)
class Gates:
    score: float
    recalls: int
    queries: int


def dropping(ws: Workspace, today: date) -> list[dict]:
    """Every candidate about to be lost, the soonest first, then by score."""
    cfg = ws.config
    gates = Gates(cfg.alarms_gate_score, cfg.alarms_gate_recalls, cfg.alarms_gate_queries)
    items = _openclaw(ws, today, gates) + _light(ws, today) + _lingxi(ws, today)
    items.sort(key=lambda it: (it["days_left"], -(it.get("score") or 0.0), it["id"]))
    return items


def junk_flags(text: str) -> list[dict]:
    """The promotions queue's junk flags on a candidate's text (a command line alone is no
    lesson): the same rules judge what the pipeline promoted and what it is about to drop."""
    from memreview.queues.promotions import flags as rules

    p = SimpleNamespace(body=text, entry=SimpleNamespace(heading_path=()))
    out = []
    for name, rule in (
        ("command", rules.flag_command),
        ("half-sentence", rules.flag_half_sentence),
        ("status-snapshot", rules.flag_snapshot),
        ("scaffolding", rules.flag_scaffolding),
    ):
        reason = rule(p)
        if reason:
            out.append({"flag": name, "reason": reason})
    return out


# -- OpenClaw --------------------------------------------------------------------------------


def _promoted_keys(ws: Workspace) -> set[str]:
    """The marker keys memory holds: OpenClaw treats those candidates as promoted."""
    keys: set[str] = set()
    for mf in ws.files.values():
        for e in mf.entries:
            if e.marker:
                keys.add(e.marker)
                keys.add(store_key(e.marker))
    return keys


def _openclaw(ws: Workspace, today: date, gates: Gates) -> list[dict]:
    store = getattr(ws, "short_term", None) or {}
    if not store:
        return []
    promoted = _promoted_keys(ws)
    rows = [e for e in store.values() if e.promoted_at is None and e.key not in promoted]
    rows = [e for e in rows if store_key(e.key) not in promoted and e.snippet.strip()]
    rows = [e for e in rows if SHORT_TERM_PATH_RE.search(e.path)]
    # eviction keeps the newest lastRecalledAt: past the cap, the oldest go next
    cap = ws.config.alarms_store_cap
    by_age = sorted(store.values(), key=lambda e: (e.last_recalled or date.min, e.key))
    over = max(0, len(store) - cap + 10)
    evicted_next = {e.key for e in by_age[:over]} if len(store) >= cap - 10 else set()
    out = []
    logs = None  # the logs by name, made for the first item (``logs_by_name``)
    for e in rows:
        age = (today - e.last_recalled).days if e.last_recalled else None
        days_left = MAX_AGE_DAYS - age if age is not None else 0
        evicts = e.key in evicted_next
        if not evicts and days_left > NEAR_DAYS:
            continue
        if logs is None:
            from memreview.queues.promotions.detect import logs_by_name

            logs = logs_by_name(ws)
        out.append(_store_item(e, age, 0 if evicts else days_left, evicts, gates, ws, logs))
    return out


def _failing(e: StoreEntry, age: int | None, gates: Gates) -> list[str]:
    fails = []
    if e.avg is None or e.avg < gates.score:
        fails.append("score")
    if e.signals < gates.recalls:
        fails.append("recalls")
    if e.queries < gates.queries:
        fails.append("queries")
    if age is None or age > MAX_AGE_DAYS:
        fails.append("age")
    return fails


def _store_item(
    e: StoreEntry, age, days_left: int, evicts: bool, gates: Gates, ws, logs: dict
) -> dict:
    from memreview.queues.promotions.detect import context_lines, source_lines

    lines = source_lines(ws, e.path, logs)  # each log split once per scan, as promotions do
    gone = lines is None or e.end > len(lines)
    shown = [] if gone else [[n, mask_secrets(t)] for n, t in context_lines(lines, e.start, e.end)]
    secret = bool(find_secrets(e.snippet))
    text = mask_secrets(" ".join(e.snippet.split()))
    return {
        "id": item_id("dp", "openclaw", e.key),
        "title": f"{_when(days_left, evicts)}  {short(text, 70)}",
        "origin": "openclaw",
        "key": e.key,
        "text": text,
        "days_left": days_left,
        "age_days": age,
        "evicted_next": evicts,
        "score": round(e.avg, 3) if e.avg is not None else None,
        "recalls": e.signals,
        "queries": e.queries,
        "last_recalled": e.last_recalled.isoformat() if e.last_recalled else None,
        "fails": _failing(e, age, gates),
        "source": {"file": e.path, "start": e.start, "end": e.end, "missing": gone, "lines": shown},
        "secret": secret,
        "flags": junk_flags(text),
    }


def _when(days_left: int, evicts: bool) -> str:
    if evicts:
        return "⌛ evict"
    return "⌛ gone" if days_left <= 0 else f"⌛ {days_left}d"


# -- light sleep -------------------------------------------------------------------------------

LIGHT_START = re.compile(r"<!--\s*openclaw:dreaming:light:start\s*-->")
LIGHT_END = re.compile(r"<!--\s*openclaw:dreaming:light:end\s*-->")
CANDIDATE_RE = re.compile(r"^\s*[-*]\s+Candidate:\s*(?P<text>.+?)\s*$")
FIELD_RE = re.compile(
    r"^\s+[-*]\s+(?P<key>confidence|evidence|recalls|status):\s*(?P<value>.*?)\s*$"
)


def _light(ws: Workspace, today: date) -> list[dict]:
    """Light sleep's ``Candidate:`` lines still ``staged`` in a daily log's managed block: the
    deep phase has not taken them, and the log ages out of its lookback."""
    promoted = _promoted_keys(ws)
    known = {" ".join(e.snippet.split()) for e in (getattr(ws, "short_term", None) or {}).values()}
    out = []
    logs = None  # the logs by name, made for the first log with a managed block
    for log in ws.daily_logs:
        if "openclaw:dreaming:light" not in log.text:
            continue
        age = (today - log.date).days
        days_left = MAX_AGE_DAYS - age
        if days_left > NEAR_DAYS:
            continue
        from memreview.queues.promotions.detect import logs_by_name, source_lines

        logs = logs_by_name(ws) if logs is None else logs
        for line, text, fields in _staged(source_lines(ws, log.rel, logs) or []):
            key = f"memory:{log.rel}:{line}:{line}"
            if key in promoted or " ".join(text.split()) in known:
                continue
            out.append(_light_item(log.rel, line, text, fields, age, days_left))
    return out


def _staged(lines: list[str]):
    inside, k = False, 0
    while k < len(lines):
        ln = lines[k]
        if LIGHT_START.search(ln):
            inside = True
        elif LIGHT_END.search(ln):
            inside = False
        elif inside and (m := CANDIDATE_RE.match(ln)):
            fields: dict[str, str] = {}
            j = k + 1
            while j < len(lines) and (f := FIELD_RE.match(lines[j])):
                fields[f["key"]] = f["value"]
                j += 1
            if fields.get("status", "").lower() == "staged":
                yield k + 1, m["text"], fields
            k = j
            continue
        k += 1


def _light_item(rel: str, line: int, text: str, fields: dict, age: int, days_left: int) -> dict:
    masked = mask_secrets(" ".join(text.split()))
    try:
        confidence = float(fields.get("confidence", ""))
    except ValueError:
        confidence = None
    try:
        recalls = int(fields.get("recalls", ""))
    except ValueError:
        recalls = 0
    key = f"memory:{rel}:{line}:{line}"
    return {
        "id": item_id("dp", "light", key),
        "title": f"{_when(days_left, False)}  {short(masked, 70)}",
        "origin": "light",
        "key": key,
        "text": masked,
        "days_left": days_left,
        "age_days": age,
        "evicted_next": False,
        "score": confidence,
        "recalls": recalls,
        "queries": None,
        "last_recalled": None,
        "fails": ["staged"],
        "evidence": fields.get("evidence"),
        "source": {
            "file": rel,
            "start": line,
            "end": line,
            "missing": False,
            "lines": [[line, masked]],
        },
        "secret": bool(find_secrets(text)),
        "flags": junk_flags(masked),
    }


# -- Lingxi ----------------------------------------------------------------------------------


def _lingxi(ws: Workspace, today: date) -> list[dict]:
    out = []
    for f in ws.fragments or []:
        if f.status != "candidate" or (f.mention_count or 0) > 1:
            continue
        seen = f.last_seen_date()
        if seen is None:
            continue
        age = (today - seen).days
        days_left = MAX_AGE_DAYS - age
        if days_left > NEAR_DAYS or not f.content.strip():
            continue
        out.append(_fragment_item(f, age, days_left))
    return out


def _fragment_item(f: Fragment, age: int, days_left: int) -> dict:
    text = mask_secrets(" ".join(f.content.split()))
    return {
        "id": item_id("dp", "lingxi", f.id),
        "title": f"{_when(days_left, False)}  {short(text, 70)}",
        "origin": "lingxi",
        "key": f.id,
        "text": text,
        "days_left": days_left,
        "age_days": age,
        "evicted_next": False,
        "score": None,
        "recalls": f.mention_count or 0,
        "queries": None,
        "last_recalled": f.last_seen,
        "fails": ["mentions"],
        "category": f.category or f.theme,
        "source": None,
        "secret": bool(find_secrets(f.content)),
        "flags": junk_flags(text),
    }
