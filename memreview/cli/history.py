"""``memreview log``: every batch of the journal, newest first, with whether it can still be
undone and, when not, what blocks it. On a fleet, one section (or one JSON object) per agent.
The JSON is a script interface: its keys and values stay English."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

from memreview.cli.interrupted import report_interrupted
from memreview.cli.parser import UsageError
from memreview.i18n import N_, _

LOG_SCHEMA = 1


def workspaces(paths: list[Path]) -> list[tuple[str, Path]]:
    """(agent name, root) of every workspace ``paths`` name (default: as OpenClaw finds
    them); NotAWorkspace when none."""
    from memreview.cli.scan import default_paths
    from memreview.fleet import expand_fleet

    return expand_fleet(default_paths(list(paths or [])))


def one_workspace(path: Path | None) -> Path:
    """The one workspace a writing command works on (default: as OpenClaw finds it)."""
    found = workspaces([path] if path is not None else [])
    if len(found) > 1:
        names = ", ".join(name for name, _root in found[:5])
        raise UsageError(
            _("{count} workspaces found ({names}); name the one to write to").format(
                count=len(found), names=names
            )
        )
    return found[0][1]


def when(ts: str | None) -> str:
    """``2026-12-01 20:24`` in local time, from the journal's ISO stamp."""
    if not ts:
        return "?"
    try:
        moment = datetime.fromisoformat(ts)
    except ValueError:
        return ts
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def cmd_log(args) -> int:
    """Print the history of ``args.paths`` (text or ``--json``)."""
    from memreview.cli.scan import print_json
    from memreview.store import batch_history

    found = workspaces(args.paths)
    docs = {}
    for name, root in found:
        if not args.json:
            report_interrupted(root)
        entries = batch_history(root, verdicts_files=(_verdicts_file(root),))
        docs[name] = {
            "schema": LOG_SCHEMA,
            "workspace": str(root),
            "batches": [e.to_json() for e in entries],
        }
        if args.json:
            continue
        if len(found) > 1:
            sys.stdout.write(f"== {_visible_line(name)} ==\n")
        print_log(entries)
        if len(found) > 1:
            sys.stdout.write("\n")
    if args.json:
        if len(found) > 1:
            print_json({"schema": LOG_SCHEMA, "agents": docs})
        else:
            print_json(next(iter(docs.values())))
    return 0


def _visible_line(text: str) -> str:
    from memreview.display import one_line

    return one_line(text)


def _verdicts_file(root: Path) -> str:
    from memreview.store import PathEscape, safe_read_bytes
    from memreview.workspace.config import load_config

    try:
        data = safe_read_bytes(root, "memreview.yaml")
    except (OSError, PathEscape):
        data = None
    return load_config(data)[0].verdicts


KIND_WORDS = {
    "apply": N_("apply"),
    "undo": N_("undo"),
    "restore": N_("restore"),
    "unhide": N_("unhide"),
    "finish": N_("finish"),
}


def print_log(entries) -> None:
    """The history as text: a head line per batch, its decisions, its files, whether it can
    be undone."""
    out = sys.stdout
    if not entries:
        out.write(_("no batch yet: nothing was written by memreview in this workspace") + "\n")
        return
    for e in entries:
        r = e.record
        kind = _(KIND_WORDS[r.kind]) if r.kind in KIND_WORDS else r.kind
        if r.kind == "undo" and r.undoes:
            kind = _("undo of {batch}").format(batch=r.undoes)
        if e.undoable:
            status = _("can be undone: memreview undo --batch {batch}").format(batch=r.batch_id)
        else:
            status = _("can't be undone: {why}").format(why=e.why_not)
        out.write(f"{r.batch_id}  {when(r.committed_ts or r.ts)}  {kind}\n")
        for d in r.decisions:
            if not isinstance(d, dict) or "undo" in d:
                continue
            title = _visible_line(str(d.get("title") or d.get("item") or ""))
            out.write(f"    {d.get('queue', '?')} {d.get('action', '?')}: {title[:90]}\n")
        files = e.files
        if files:
            names = ", ".join(_visible_line(f) for f in files)
            out.write("    " + _("files: {names}").format(names=names) + "\n")
        out.write(f"    {_visible_line(status)}\n")
