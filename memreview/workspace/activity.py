"""What OpenClaw did, as the loader reads it: its recall events and short-term store (where
there is no recall log), the files its dreaming runs leave, and its line recalls as recalls
of the anchors and projects the lines hold."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memreview.i18n import N_, Message, Nn_
from memreview.workspace import jsondoc
from memreview.workspace.config import Config
from memreview.workspace.dates import parse_date
from memreview.workspace.model import Recall, Workspace
from memreview.workspace.openclaw import (
    LineRecall,
    Usage,
    find_state_db,
    parse_events,
    parse_store_json,
)
from memreview.workspace.openclaw_state import read_state_db
from memreview.workspace.reader import Reader


def read_openclaw_usage(
    rd: Reader,
    ws: Workspace,
    cfg: Config,
    environ: Mapping[str, str],
    recall_log: bool | None = None,
) -> None:
    """OpenClaw's recall events and short-term store, read only where there is no recall
    log (with one, the recall log is the usage data; ``recall_log``: whether there is one,
    when the workspace's recalls are not read yet)."""
    usage = Usage()
    store_rel = cfg.short_term_recall
    data = rd.read(store_rel)
    store_doc = None
    if data is not None:
        try:
            store_doc = jsondoc.loads(data)
        except (ValueError, UnicodeDecodeError):
            ws.warn(store_rel, None, N_("not valid JSON"))
    # the store itself, whatever usage data the workspace has: the dropping queue reads it
    stores: list[tuple[str, list[Any]]] = []
    if store_doc is not None:
        entries = parse_store_json(store_doc, rd.root)
        if entries is None:
            ws.warn(store_rel, None, N_('expected an object with "entries"; recall store not read'))
        else:
            stores.append((store_rel, entries))
    db = find_state_db(rd.root, cfg.openclaw_state_db, environ)  # the first found is OpenClaw's
    if db is not None:
        entries, problem = read_state_db(db, rd.root)
        if problem:
            ws.warn(str(db), None, problem)
        elif entries:
            stores.append((str(db), entries))
    if stores:
        ws.short_term = {e.key: e for _src, entries in stores for e in entries}
    if ws.given("recalls") if recall_log is None else recall_log:
        return
    rows = rd.jsonl(cfg.recall_events)
    if rows is not None:
        recalls, bad = parse_events(rows, rd.root)
        usage.recalls.extend(recalls)
        usage.sources.append(cfg.recall_events)
        if bad:
            ws.warn(
                cfg.recall_events,
                None,
                Message(
                    Nn_(
                        "{count} recall event without a date or results",
                        "{count} recall events without a date or results",
                    ),
                    count=bad,
                ),
            )
    for src, entries in stores:
        usage.add_store(entries)
        usage.sources.append(src)
    if usage.sources:
        ws.openclaw = usage


DREAMING_DIRS = ("dream-diary", "memory/dream-diary", "memory/dreaming")
DATED_NAME_RE = re.compile(r"(\d{4}-\d{2}-\d{2})")


def find_dreaming_runs(root: Path, ws: Workspace) -> None:
    """Files a dreaming run leaves, dated by their names: ``dream-diary/…``,
    ``memory/dreaming/<phase>/YYYY-MM-DD.md`` (their content is not read)."""
    for top in DREAMING_DIRS:
        d = root / top
        if d.is_symlink() or not d.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(d, followlinks=False):
            dirnames[:] = sorted(n for n in dirnames if not (Path(dirpath) / n).is_symlink())
            for name in sorted(filenames):
                m = DATED_NAME_RE.search(name)
                day = parse_date(m.group(1)) if m else None
                if day is not None:
                    ws.dreaming_runs.append(
                        (day, (Path(dirpath) / name).relative_to(root).as_posix())
                    )


def recalls_of_entries(ws: Workspace, line_recalls: list[LineRecall]) -> list[Recall]:
    """OpenClaw's line recalls as recalls of what the lines hold: an anchor whose block they
    overlap (by its id), a project whose file they are in (by its key)."""
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for a in ws.all_anchors():
        if not a.archived:
            spans.setdefault(a.file, []).append((a.line, a.end_line, a.id))
    project_of: dict[str, str] = {}
    prefix = ws.config.projects_dir.rstrip("/") + "/"
    for p in ws.projects.values():
        if p.file:
            project_of[p.file] = p.key
            folder = p.file.rsplit("/", 1)[0] + "/"
            if folder != prefix:
                for rel in ws.files:
                    if rel.startswith(folder):
                        project_of.setdefault(rel, p.key)
    out: list[Recall] = []
    for r in line_recalls:
        for start, end, aid in spans.get(r.path, ()):
            if start <= r.end and r.start <= end:
                out.append(Recall(r.day, aid, "openclaw", r.query))
        key = project_of.get(r.path)
        if key is not None:
            out.append(Recall(r.day, key, "openclaw", r.query))
    return out
