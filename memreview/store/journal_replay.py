"""The journal replayed for the weekly report: the decisions applied in the last days, the
batches undone and the ones cut short (``recent_decisions``)."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

from memreview.i18n import _
from memreview.store.journal import build_batches, failed_keys
from memreview.store.journal_lines import JOURNAL, check_lines
from memreview.store.paths import PathEscape
from memreview.store.private import PRIVATE_DIR, read_private
from memreview.workspace.dates import parse_date_prefix
from memreview.workspace.jsonl import problem_lines

RECENT_DAYS = 7


def recent_decisions(root: Path | str, today: date, days: int = RECENT_DAYS) -> dict[str, Any]:
    """The decisions applied in the ``days`` days up to ``today``, replayed from the batches.

    An apply batch counts when it committed in the window and no committed undo took it
    back; its decisions are its intent line's, less those that conflicted or failed. An apply
    batch with an intent but no commit was cut short and is listed. Damaged lines and an
    unreadable journal become warnings (JSON-able dicts), never errors.
    """
    rel = f"{PRIVATE_DIR}/{JOURNAL}"
    warnings: list[dict[str, Any]] = []
    try:
        data = read_private(root, JOURNAL)
    except PathEscape:
        data = None
        warnings.append(
            {"file": rel, "line": None, "message": _("skipped: leads outside the workspace")}
        )
    except OSError as exc:
        data = None
        warnings.append(
            {
                "file": rel,
                "line": None,
                "message": _("cannot read: {error}").format(error=exc.strerror or exc),
            }
        )
    rows, damaged = check_lines(data)
    problems = [(p.line, p.reason) for p in damaged]
    warnings += [{"file": rel, "line": no, "message": msg} for no, msg in problem_lines(problems)]
    start = today - timedelta(days=days - 1)
    decisions: list[dict[str, Any]] = []
    undone: list[str] = []
    interrupted: list[dict[str, Any]] = []
    done = []
    for batch in build_batches(rows, damaged):
        if batch.kind != "apply":
            continue
        if not batch.committed:
            day = parse_date_prefix(batch.ts)
            if day is not None and start <= day <= today:
                interrupted.append({"date": day.isoformat(), "batch": batch.batch_id})
            continue
        day = parse_date_prefix(batch.committed_ts) or parse_date_prefix(batch.ts)
        if day is not None and start <= day <= today:
            done.append((day, batch))
    for day, batch in sorted(done, key=lambda t: (t[0], t[1].batch_id)):
        if batch.undone_by:
            undone.append(batch.batch_id)
            continue
        failed = failed_keys(batch)
        seen: set[tuple[Any, ...]] = set()
        for d in batch.decisions:
            if not isinstance(d, dict) or not isinstance(d.get("item"), str) or not d["item"]:
                continue
            if failed & {d.get(k) for k in ("item", "key", "id")}:
                continue
            key = (d["item"], str(d.get("action")))
            if key not in seen:
                seen.add(key)
                decisions.append({"date": day.isoformat(), "batch": batch.batch_id, **d})
    return {
        "has_journal": data is not None,
        "decisions": decisions,
        "undone_batches": undone,
        "interrupted": interrupted,
        "warnings": warnings,
    }
