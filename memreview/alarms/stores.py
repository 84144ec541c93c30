"""Recall store alarms: the legacy file (ignored by current OpenClaw, near its read limit),
OpenClaw's SQLite store at its cap, and promotion starved on the store OpenClaw reads."""

from __future__ import annotations

from datetime import date

from memreview.alarms.base import Alarm, file_size, state_db
from memreview.i18n import _, ngettext
from memreview.workspace import jsondoc
from memreview.workspace.model import Workspace
from memreview.workspace.openclaw_state import store_values
from memreview.workspace.paths import safe_read_bytes


def check_stores(ws: Workspace, today: date) -> list[Alarm]:
    """The recall stores: the legacy file and OpenClaw's SQLite store. Promotion is judged
    starved on the store current OpenClaw reads: the database when it holds rows for this
    workspace, else the legacy file."""
    db = state_db(ws)
    values = store_values(db, ws.root) if db is not None else []
    out = _legacy_store(ws, starved=not values)
    if db is not None:
        out.extend(_state_store(ws, db, values))
    return out


def _legacy_store(ws: Workspace, starved: bool) -> list[Alarm]:
    rel = ws.config.short_term_recall
    size = file_size(ws, rel)
    if size is None:
        return []
    out = [
        Alarm(
            "recall-store-legacy",
            _("{file} is the legacy recall store: current OpenClaw ignores it").format(file=rel),
            (_("{file}: {size} bytes").format(file=rel, size=f"{size:,}"),),
            _(
                "run `openclaw doctor --fix` once to migrate it into the state database "
                "(until then `openclaw memory status` says 'Recall store: 0 entries')"
            ),
        )
    ]
    limit = ws.config.alarms_legacy_store_mib << 20
    if size >= limit * 0.9:
        out.append(
            Alarm(
                "recall-store-full",
                _("{file} is near OpenClaw's {mib} MiB read limit").format(
                    file=rel, mib=ws.config.alarms_legacy_store_mib
                ),
                (_("{size} of {limit} bytes").format(size=f"{size:,}", limit=f"{limit:,}"),),
                _(
                    "past the limit promotion stops for good ('file exceeds limit of {limit} "
                    "bytes'): migrate it or prune old entries"
                ).format(limit=limit),
            )
        )
        return out
    if starved:
        out.extend(_starved(ws.config, rel, _store_entries(ws, rel)))
    return out


def _state_store(ws: Workspace, db, values: list[dict]) -> list[Alarm]:
    """OpenClaw's SQLite store: entries at its cap (the oldest are evicted and may be
    promoted again) and starved promotion, as for the legacy file."""
    out: list[Alarm] = []
    cap = ws.config.alarms_store_cap
    if len(values) >= cap:
        out.append(
            Alarm(
                "recall-store-over-cap",
                _("OpenClaw's recall store holds {count} entries: its cap is {cap}").format(
                    count=f"{len(values):,}", cap=f"{cap:,}"
                ),
                (
                    _("{db}: {count} short-term-recall rows for this workspace").format(
                        db=db, count=f"{len(values):,}"
                    ),
                    _(
                        "past the cap OpenClaw evicts the least recently recalled entries, and "
                        "an evicted entry loses promotedAt: it can be promoted again"
                    ),
                ),
                _(
                    "review the promotions queue (archive or keep what was promoted) and check "
                    "that dreaming runs, so the store drains into MEMORY.md"
                ),
            )
        )
    out.extend(_starved(ws.config, str(db), values))
    return out


def _store_entries(ws: Workspace, rel: str) -> list[dict]:
    try:
        doc = jsondoc.loads(safe_read_bytes(ws.root, rel))
    except (OSError, ValueError):
        return []
    entries = doc.get("entries") if isinstance(doc, dict) else None
    if isinstance(entries, dict):
        return [e for e in entries.values() if isinstance(e, dict)]
    return []


def _queries(e: dict) -> int:
    """Unique queries as OpenClaw counts them: ``userQueryHashes`` when present, else
    ``queryHashes``."""
    hashes = e.get("userQueryHashes")
    if not isinstance(hashes, list):
        hashes = e.get("queryHashes")
    return len(hashes) if isinstance(hashes, list) else 0


def _num(v) -> float:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else 0.0


def _starved(cfg, rel: str, entries: list[dict]) -> list[Alarm]:
    if not entries:
        return []
    open_ = [e for e in entries if not e.get("promotedAt")]
    if not open_:
        return []

    def passes(e: dict) -> bool:
        count = _num(e.get("recallCount"))
        avg = _num(e.get("totalScore")) / count if count else 0.0
        queries = _queries(e)
        return (
            avg >= cfg.alarms_gate_score
            and count >= cfg.alarms_gate_recalls
            and queries >= cfg.alarms_gate_queries
        )

    if any(passes(e) for e in open_):
        return []
    zero = sum(1 for e in open_ if _num(e.get("recallCount")) == 0)
    single = sum(1 for e in open_ if _queries(e) <= 1)
    return [
        Alarm(
            "promotion-starved",
            _("promotion starved: none of {count} short-term entries reaches the gates").format(
                count=len(open_)
            ),
            (
                _("gates: score {score}, {recalls} recalls, {queries} unique queries").format(
                    score=cfg.alarms_gate_score,
                    recalls=cfg.alarms_gate_recalls,
                    queries=cfg.alarms_gate_queries,
                ),
                ngettext(
                    "{count} entry never recalled, {single} with one query or none",
                    "{count} entries never recalled, {single} with one query or none",
                    zero,
                ).format(count=zero, single=single),
                _("store: {file}").format(file=rel),
            ),
            _(
                "recalls come from memory searches during sessions: check that the agent "
                "searches memory (recallCount stays 0 from daily ingestion alone)"
            ),
        )
    ]
