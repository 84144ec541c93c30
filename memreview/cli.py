"""The command line (DESIGN §6).

Each command imports what it uses when it runs: ``--help`` and ``--version`` load neither
the scan (numpy, rapidfuzz) nor the app (Textual).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from datetime import date
from pathlib import Path

from memreview import __version__
from memreview.workspace.dates import parse_date_arg


class UsageError(Exception):
    """Bad arguments: one line on stderr, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, no usage dump
        print(f"memreview: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="memreview", description="Review what your agents propose to change in their memory."
    )
    sub = p.add_subparsers(dest="command")

    s = sub.add_parser("scan", help="print the review queues and health")
    s.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="a workspace, several, or a directory with one workspace per agent "
        "(default: every agent's workspace, found as OpenClaw finds them)",
    )
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--today", type=parse_date_arg, help="review date (YYYY-MM-DD)")
    s.add_argument("--all-dormant", action="store_true", help="list every dormant project")
    s.add_argument(
        "--all-promotions",
        action="store_true",
        help="list every promotion, the ones reviewed before too",
    )
    from memreview.report import add_report_parser

    add_report_parser(sub)
    d = sub.add_parser("demo", help="open the app on a copy of the sample workspace")
    d.add_argument("--theme", help="theme name")
    d.add_argument("--keep", action="store_true", help="keep the copy and print where it is")
    a = sub.add_parser("apply", help="apply a file of decisions without the app")
    a.add_argument("path", type=Path)
    a.add_argument("--decisions", type=Path, required=True, metavar="FILE.yaml")
    a.add_argument("--dry-run", action="store_true", help="print the diff and write nothing at all")
    a.add_argument("--commit", action="store_true", help="commit the batch (a git workspace)")
    a.add_argument("--today", type=parse_date_arg, help="review date (YYYY-MM-DD)")
    u = sub.add_parser("undo", help="undo the last applied batch")
    u.add_argument("path", type=Path)
    r = sub.add_parser("recover", help="list, finish or roll back a batch cut short by a crash")
    r.add_argument("path", type=Path)
    how = r.add_mutually_exclusive_group()
    how.add_argument("--finish", action="store_true", help="write what the batch did not")
    how.add_argument("--rollback", action="store_true", help="take the batch back (an undo)")
    doc = sub.add_parser("doctor", help="alarms and secrets, for cron: exit 1 when one fires")
    doc.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    doc.add_argument("--json", action="store_true", help="print one JSON object")
    doc.add_argument("--today", type=parse_date_arg, help="review date (YYYY-MM-DD)")
    return p


def cmd_doctor(args) -> int:
    from memreview.doctor import cmd_doctor as run

    return run(args)


def app_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="memreview", description="Review what your agents propose to change in their memory."
    )
    p.add_argument(
        "path",
        nargs="?",
        type=Path,
        help=(
            "the workspace (default: as OpenClaw finds it: $OPENCLAW_WORKSPACE_DIR, "
            "$OPENCLAW_STATE_DIR/workspace, ~/.openclaw-<profile>/workspace, "
            "~/.openclaw/workspace; asks which agent when there are several; else .)"
        ),
    )
    p.add_argument("--today", type=parse_date_arg, help="review date (YYYY-MM-DD)")
    p.add_argument("--theme", help="theme name")
    p.add_argument("--version", action="version", version=f"memreview {__version__}")
    return p


def default_workspaces() -> tuple[list[tuple[str, Path]], str]:
    """The workspaces to use with no path, found as OpenClaw finds its own
    (memreview.workspace.locate), and where they were found."""
    from memreview.workspace.locate import find_workspaces

    return find_workspaces(os.environ, Path.cwd())


def default_workspace() -> Path:
    """The one workspace to open with no path (the default agent's when there are several)."""
    return default_workspaces()[0][0][1]


def default_paths(paths: list[Path]) -> list[Path]:
    """``paths``, or every workspace found as OpenClaw does when none is given (all agents)."""
    from memreview.workspace.locate import default_roots

    return paths or default_roots(os.environ, Path.cwd())


def sample_workspace() -> Path:
    return Path(__file__).resolve().parent.parent / "sample_workspace"


def pick_agent(agents: list[tuple[str, Path]], where: str) -> Path | None:
    """Ask which agent's workspace to open (None: the owner quit)."""
    from memreview.app import make_picker

    return make_picker(agents, where).run()


def run_app(root: Path, today: date | None, theme: str | None, throwaway: bool = False) -> int:
    from memreview.app import make_app
    from memreview.workspace.loader import check_workspace

    root = check_workspace(root)
    app = make_app(root, today=today, theme=theme, throwaway=throwaway)
    app.run()
    return int(app.return_code or 0)


def cmd_demo(args) -> int:
    src = sample_workspace()
    if not src.is_dir():
        raise UsageError(f"the sample workspace is missing ({src})")
    tmp = Path(tempfile.mkdtemp(prefix="memreview-demo-"))
    dest = tmp / "workspace"
    shutil.copytree(src, dest, symlinks=True)
    try:
        return run_app(dest, None, args.theme, throwaway=not args.keep)
    finally:
        if args.keep:
            print(f"the demo workspace is kept at {dest}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def cmd_scan(args) -> int:
    from memreview.fleet import expand_fleet, fleet_scan_json, is_fleet
    from memreview.scan import scan_workspace

    args.paths = default_paths(args.paths)
    if is_fleet(args.paths):
        if args.json:
            doc = fleet_scan_json(args.paths, today=args.today, all_dormant=args.all_dormant)
            _print_json(doc)
            return 0
        from memreview.display import one_line

        for name, root in expand_fleet(args.paths):
            sys.stdout.write(f"== {one_line(name)} ==\n")  # a directory name is text too
            result = scan_workspace(
                root,
                today=args.today,
                all_dormant=args.all_dormant,
                all_promotions=args.all_promotions,
            )
            _print_scan(result)
            sys.stdout.write("\n")
        return 0
    agents = expand_fleet(args.paths)
    _report_interrupted(agents[0][1], quiet=True)
    result = scan_workspace(
        agents[0][1],
        today=args.today,
        all_dormant=args.all_dormant,
        all_promotions=args.all_promotions,
    )
    if args.json:
        _print_json(result.to_json())
        return 0
    _print_scan(result)
    return 0


# Written as \uXXXX escapes in JSON output: lone surrogates (bytes of a file that is not valid
# UTF-8: raw they are not UTF-8 at all), DEL, the C1 controls and the bidi controls (JSON
# allows them raw, and a terminal that is shown the output obeys them; DESIGN §5).
_JSON_ESCAPE_RE = re.compile("[\ud800-\udfff\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _print_json(doc: dict) -> None:
    """``doc`` as UTF-8 JSON on stdout, whatever the locale says, with the characters of
    ``_JSON_ESCAPE_RE`` escaped (Python's json reads them back as the same string) and every
    credential masked (the secrets queue's items already are; any other queue's text too)."""
    from memreview.secrets import mask_in

    # one line: the C encoder (indent would take the pure-Python one, ten times slower)
    text = json.dumps(mask_in(doc), ensure_ascii=False) + "\n"
    text = _JSON_ESCAPE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    data = text.encode("utf-8")
    buf = getattr(sys.stdout, "buffer", None)
    if buf is None:
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    buf.write(data)
    buf.flush()


def _print_scan(result) -> None:
    from memreview.display import visible

    out = sys.stdout
    out.write(f"workspace  {visible(str(result.root))}\nreview     {result.today.isoformat()}\n\n")
    for name, items in result.queues.items():
        note = result.missing.get(name)
        hidden = result.hidden.get(name)
        extra = f"  ({hidden} hidden)" if hidden else ""
        out.write(
            f"{name:<16}{len(items):>5}{extra}{('  — ' + note) if note and not items else ''}\n"
        )
        for it in items[:5]:
            out.write(f"    {visible(it['title'])[:100]}\n")
        if len(items) > 5:
            out.write(f"    … {len(items) - 5} more\n")
    if result.warnings:
        out.write(f"\n{len(result.warnings)} warning(s):\n")
        for w in result.warnings:
            where = visible(w["file"] or "")
            if w["line"]:
                where += f":{w['line']}"
            out.write(f"  {where}: {visible(w['message'])}\n")


def _report_interrupted(root: Path, *, quiet: bool = False) -> int:
    """Remove the temp files of batches cut short, and name those batches (DESIGN §4).

    Returns how many interrupted batches there are. ``quiet``: say nothing when the journal
    can't be read (a scan reads, it doesn't need the journal)."""
    from memreview.display import one_line, visible
    from memreview.store import (
        PathEscape,
        clean_temp_files,
        interrupted_batches,
        journal_problems,
    )

    try:
        cleaned = clean_temp_files(root)
        damaged = [] if quiet else journal_problems(root)
        found_batches = interrupted_batches(root)
    except (OSError, PathEscape) as exc:  # what follows says why it can't write, if it can't
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if not quiet:
            print(f"memreview: warning: journal not read: {one_line(reason)}", file=sys.stderr)
        return 0
    for rel in cleaned:
        print(
            f"memreview: removed {visible(rel)}, a temp file of a batch cut short", file=sys.stderr
        )
    for problem in damaged:  # a damaged journal line: named with its number, skipped
        print(f"memreview: warning: {one_line(problem.describe())}", file=sys.stderr)
    for found in found_batches:
        print(f"memreview: warning: {visible(found.describe())}", file=sys.stderr)
    return len(found_batches)


def cmd_recover(args) -> int:
    from memreview.decisions import finish, undo
    from memreview.display import one_line
    from memreview.store import LockHeld, PathEscape, interrupted_batches, last_batch
    from memreview.workspace.loader import check_workspace

    root = check_workspace(args.path)
    count = _report_interrupted(root)
    if not count:
        print("memreview: no batch was cut short; nothing to recover", file=sys.stderr)
        return 0
    if not (args.finish or args.rollback):
        return 1
    try:
        if args.finish:
            outcome = finish(root)
        else:
            last = last_batch(root, undoable=True)
            cut = {i.batch.batch_id for i in interrupted_batches(root)}
            if last is None or last.batch_id not in cut:
                print(
                    "memreview: the batch cut short is not the last one; undo the later "
                    "batches first (`memreview undo`)",
                    file=sys.stderr,
                )
                return 1
            outcome = undo(root)
    except LockHeld as exc:
        print(f"memreview: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except (OSError, PathEscape) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"memreview: nothing recovered: {one_line(reason)}", file=sys.stderr)
        return 1
    print(f"memreview: {one_line(outcome.message)}", file=sys.stderr)
    return 0 if outcome.ok else 1


def _refuse_bad_decisions(name: str, problems: list[str]) -> None:
    from memreview.display import one_line

    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UsageError(f"{name}: {one_line(problems[0])}{more}; nothing written")


def cmd_apply(args) -> int:
    from memreview.decisions import (
        DecisionsFileError,
        apply,
        check_decisions,
        parse_decisions_file,
    )
    from memreview.display import one_line, visible
    from memreview.scan import scan_workspace
    from memreview.store import PathEscape
    from memreview.workspace.loader import check_workspace
    from memreview.workspace.yamlcap import DECISIONS_LIMIT, YAMLRefused, read_capped

    root = check_workspace(args.path)
    name = one_line(str(args.decisions))
    try:
        data = read_capped(args.decisions, DECISIONS_LIMIT)
    except YAMLRefused as exc:
        raise UsageError(f"{name}: refused: {exc}") from None
    except OSError as exc:
        raise UsageError(f"{name}: cannot read ({exc.strerror or exc})") from None
    try:
        entries = parse_decisions_file(data)
    except DecisionsFileError as exc:
        raise UsageError(f"{name}: {one_line(str(exc))}") from None
    # the whole file is checked before anything is written: one bad item, nothing written
    _refuse_bad_decisions(name, check_decisions(entries, {}))
    _report_interrupted(root)
    result = scan_workspace(root, today=args.today)
    items = {it["id"]: (q, it) for q, its in result.all_queues.items() for it in its}
    _refuse_bad_decisions(name, check_decisions(entries, items))
    try:
        outcome = apply(result, entries, dry_run=args.dry_run, commit=args.commit or None)
    except OSError as exc:  # e.g. a read-only workspace: .memreview/ can't be created
        print(f"memreview: nothing applied: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except PathEscape as exc:  # e.g. .memreview/ is a symlink that leads out of the workspace
        print(f"memreview: nothing applied: {one_line(str(exc))}", file=sys.stderr)
        return 1
    out, err = sys.stdout, sys.stderr
    if outcome.refused:
        for why in outcome.refused:
            err.write(f"refused: {one_line(why)}\n")
        err.write(
            f"memreview: nothing applied: {args.decisions} decides the same anchor or entry "
            "two ways; keep one of each pair and apply again\n"
        )
        return outcome.exit_code
    if args.dry_run:
        out.write(visible(outcome.diff))
    for p in outcome.conflicts:
        err.write(f"conflict: {one_line(p.decision.key)}: {one_line(p.reason)}\n")
    for p in outcome.failures:
        err.write(f"failed: {one_line(p.decision.key)}: {one_line(p.reason)}\n")
    for message in outcome.messages:
        err.write(f"{one_line(message)}\n")
    verb = "would apply" if args.dry_run else "applied"
    files = [f.rel for f in outcome.files if args.dry_run or f.written]
    summary = f"{verb} {len(outcome.applied)} of {len(entries)} decision(s)"
    summary += f", {len(files)} file(s)" + (f" (batch {outcome.batch})" if outcome.batch else "")
    if outcome.skipped:
        summary += f"; {len(outcome.skipped)} already applied, skipped"
    if outcome.pending and not args.dry_run:
        summary += f"; {len(outcome.pending)} left pending in .memreview/pending.yaml"
    err.write(summary + "\n")
    return outcome.exit_code


def cmd_undo(args) -> int:
    from memreview.decisions import undo
    from memreview.display import one_line, visible
    from memreview.store import LockHeld, PathEscape
    from memreview.workspace.loader import check_workspace

    root = check_workspace(args.path)
    _report_interrupted(root)
    try:
        outcome = undo(root)
    except LockHeld as exc:
        print(f"memreview: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"memreview: nothing undone: {one_line(exc.strerror or str(exc))}", file=sys.stderr)
        return 1
    except PathEscape as exc:
        print(f"memreview: nothing undone: {one_line(str(exc))}", file=sys.stderr)
        return 1
    if not outcome.ok and outcome.diff:
        sys.stdout.write(visible(outcome.diff))
    print(f"memreview: {one_line(outcome.message)}", file=sys.stderr)
    return outcome.exit_code


def cmd_report(args) -> int:
    from memreview.report import cmd_report as report

    return report(args)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    commands = {
        "scan": cmd_scan,
        "demo": cmd_demo,
        "report": cmd_report,
        "apply": cmd_apply,
        "undo": cmd_undo,
        "recover": cmd_recover,
        "doctor": cmd_doctor,
    }
    if argv and argv[0] in commands:
        args = build_parser().parse_args(argv)
        from memreview.workspace.loader import NotAWorkspace

        try:
            return commands[args.command](args)
        except NotAWorkspace as exc:
            print(f"memreview: {exc}", file=sys.stderr)
            return 2
        except UsageError as exc:
            print(f"memreview: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            return 130
        except BrokenPipeError:  # `memreview scan … | head`: the reader left, nothing to say
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        except Exception as exc:  # last resort: one line, never a traceback
            if os.environ.get("MEMREVIEW_DEBUG"):
                raise
            print(f"memreview: unexpected error: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 2
    args = app_parser().parse_args(argv)
    from memreview.workspace.loader import NotAWorkspace

    try:
        root = args.path
        if root is None:
            agents, where = default_workspaces()
            root = agents[0][1] if len(agents) == 1 else pick_agent(agents, where)
            if root is None:
                return 0
        return run_app(root, args.today, args.theme)
    except NotAWorkspace as exc:
        print(f"memreview: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
