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


def each_workspace(args, key: str, collect, show) -> int:
    """Run ``collect(root)`` on every workspace ``args.paths`` name and print the items it
    returns: ``show(items)`` per agent (headed by its name on a fleet), or one JSON object
    (``{"schema", "workspace", key: [...]}``; a fleet: ``{"schema", "agents": {name: …}}``)."""
    from memreview.cli.scan import print_json

    found = workspaces(args.paths)
    docs = {}
    for name, root in found:
        items = collect(root)
        docs[name] = {
            "schema": LOG_SCHEMA,
            "workspace": str(root),
            key: [item.to_json() for item in items],
        }
        if args.json:
            continue
        if len(found) > 1:
            sys.stdout.write(f"== {_visible_line(name)} ==\n")
        show(items)
        if len(found) > 1:
            sys.stdout.write("\n")
    if args.json:
        many = len(found) > 1
        print_json({"schema": LOG_SCHEMA, "agents": docs} if many else next(iter(docs.values())))
    return 0


def cmd_log(args) -> int:
    """Print the history of ``args.paths`` (text or ``--json``)."""
    from memreview.decisions import batch_history

    def collect(root: Path):
        if not args.json:
            report_interrupted(root, change=False)  # log only reads
        return batch_history(root)

    return each_workspace(args, "batches", collect, print_log)


def _visible_line(text: str) -> str:
    from memreview.display import one_line

    return one_line(text)


def _cut(text: str, cells: int) -> str:
    """A title cut to ``cells`` terminal cells, with "…" when cut."""
    from memreview.workspace.cells import cut_cells

    return cut_cells(text, cells)


def print_log(entries) -> None:
    """The history as text: a head line per batch, its decisions, its files, whether it can
    be undone."""
    from memreview.store import kind_word

    out = sys.stdout
    if not entries:
        out.write(_("no batch yet: nothing was written by memreview in this workspace") + "\n")
        return
    for e in entries:
        r = e.record
        kind = kind_word(r.kind)
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
            out.write(f"    {d.get('queue', '?')} {d.get('action', '?')}: {_cut(title, 90)}\n")
        files = e.files
        if files:
            names = ", ".join(_visible_line(f) for f in files)
            out.write("    " + _("files: {names}").format(names=names) + "\n")
        if e.pruned:
            day = str(e.pruned.get("ts") or "")[:10]
            out.write("    " + _("backups pruned on {day}").format(day=day) + "\n")
        out.write(f"    {_visible_line(status)}\n")


def _path_and_query(words: list[str]) -> tuple[Path | None, str | None]:
    """``[PATH] [ID|TEXT]``: one word is the path when it is a directory, else the query."""
    if len(words) > 2:
        raise UsageError(_("expected [PATH] [ID|TEXT], got {count} words").format(count=len(words)))
    if len(words) == 2:
        return Path(words[0]), words[1]
    if len(words) == 1 and Path(words[0]).is_dir():
        return Path(words[0]), None
    return None, (words[0] if words else None)


def cmd_restore(args) -> int:
    """List the archived entries, or put the one ``args.words`` names back."""
    from memreview.cli.scan import print_json
    from memreview.decisions.restore import archived_entries, restore
    from memreview.display import visible
    from memreview.workspace.loader import check_workspace

    path, query = _path_and_query(list(args.words))
    root = check_workspace(one_workspace(path))
    if query is None or args.list:
        items = archived_entries(root)
        if query is not None:
            from memreview.decisions.restore import find_archived

            items = find_archived(items, query)
        if args.json:
            print_json(
                {
                    "schema": LOG_SCHEMA,
                    "workspace": str(root),
                    "archived": [i.to_json() for i in items],
                }
            )
        else:
            print_archived(items)
        return 0
    report_interrupted(root)
    outcome = _writing(
        lambda: restore(root, query, to=args.to, dry_run=args.dry_run), _("nothing restored")
    )
    if outcome is None:
        return 1
    if outcome.candidates:
        print_archived(outcome.candidates)
    sys.stdout.write(visible(outcome.diff))
    print(f"memreview: {_visible_line(outcome.message)}", file=sys.stderr)
    return outcome.exit_code


FOUND_BY = {
    "recorded": N_("recorded in the archive"),
    "journal": N_("found in the journal"),
}


def print_archived(items) -> None:
    """The archived entries as text: id, kind, first line, where each goes back."""
    out = sys.stdout
    if not items:
        out.write(_("nothing archived to restore") + "\n")
        return
    for it in items:
        out.write(f"{it.id}  {it.kind:<18}  {_cut(_visible_line(it.title), 80)}\n")
        if it.origin:
            where = it.origin + (f" § {it.heading}" if it.heading else "")
            if it.after_anchor:
                where += f" after [[{it.after_anchor}]]"
            elif it.before_anchor:
                where += f" before [[{it.before_anchor}]]"
            how = _(FOUND_BY[it.found_by]) if it.found_by in FOUND_BY else ""
            line = _("goes back to {where} ({how})").format(where=where, how=how)
        else:
            line = _("origin unknown: restore it with --to FILE")
        out.write(f"    {_visible_line(line)}\n")


def cmd_hidden(args) -> int:
    """Print the hidden items of ``args.paths`` (text or ``--json``)."""
    from memreview.decisions.hidden import hidden_items

    return each_workspace(args, "hidden", lambda root: hidden_items(root, args.today), print_hidden)


def print_hidden(items) -> None:
    """The hidden items as text: id, queue, title, why and since when."""
    out = sys.stdout
    if not items:
        out.write(_("nothing hidden") + "\n")
        return
    for h in items:
        title = _cut(_visible_line(h.title or ""), 80)
        out.write(f"{h.id}  {h.queue or '?':<15} {title}\n")
        since = h.since or "?"
        line = _("{why}; since {since} (batch {batch})").format(
            why=h.why(), since=since, batch=h.batch or "?"
        )
        out.write(f"    {_visible_line(line)}\n")


def cmd_unhide(args) -> int:
    """Put the hidden item ``args.words`` names back in its queue."""
    from memreview.decisions.hidden import unhide
    from memreview.display import visible
    from memreview.workspace.loader import check_workspace

    path, item = _path_and_query(list(args.words))
    if item is None:
        raise UsageError(_("which item? `memreview hidden` lists their ids"))
    root = check_workspace(one_workspace(path))
    report_interrupted(root)
    outcome = _writing(
        lambda: unhide(root, item, today=args.today, dry_run=args.dry_run), _("nothing unhidden")
    )
    if outcome is None:
        return 1
    sys.stdout.write(visible(outcome.diff))  # what it wrote to a file (or would)
    print(f"memreview: {_visible_line(outcome.message)}", file=sys.stderr)
    return outcome.exit_code


def _writing(run, nothing: str):
    """``run()``'s outcome; None after one line on stderr when a lock stays held or the
    workspace can't be written (``nothing``: what the line starts with)."""
    from memreview.store import LockHeld, PathEscape

    try:
        return run()
    except LockHeld as exc:
        print(f"memreview: {_visible_line(str(exc))}", file=sys.stderr)
    except (OSError, PathEscape) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"memreview: {nothing}: {_visible_line(reason)}", file=sys.stderr)
    return None
