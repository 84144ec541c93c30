"""The command line's arguments: the parser of the commands and the app's own parser.

Only argparse and the date-argument parser are imported here, so ``--help`` and
``--version`` answer without the scan's or the app's libraries.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from memreview import __version__
from memreview.i18n import N_, _
from memreview.workspace.dates import parse_date_arg

DESCRIPTION = "Review what your agents propose to change in their memory."


# The commands and what each does, for ``memreview --help`` (their own parsers below use the
# same words).
COMMAND_HELP = (
    ("scan", N_("print the review queues and health")),
    ("report", N_("the weekly report as Markdown (queues, health, growth, the judge's report card)")),
    ("demo", N_("open the app on a copy of the sample workspace")),
    ("apply", N_("apply a file of decisions without the app")),
    ("undo", N_("undo the last applied batch")),
    ("recover", N_("list, finish or roll back a batch cut short by a crash")),
    ("doctor", N_("alarms and secrets, for cron: exit 1 when one fires")),
)


def command_help(name: str) -> str:
    """The one-line help of command ``name``."""
    return _(dict(COMMAND_HELP)[name])


def app_epilog() -> str:
    """The end of ``memreview --help``: the commands, and where the settings are."""
    from memreview.shipped import user_config_file

    width = max(len(name) for name, _h in COMMAND_HELP)
    lines = [_("commands (memreview COMMAND --help tells more):")]
    lines += [f"  {name:<{width}}  {_(text)}" for name, text in COMMAND_HELP]
    lines += [
        "",
        _("settings (theme, keys, editor): {path}").format(path=user_config_file()),
        _("  (another file: set MEMREVIEW_CONFIG)"),
    ]
    return "\n".join(lines)


class UsageError(Exception):
    """Bad arguments: one line on stderr, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, no usage dump
        print(f"memreview: {message}", file=sys.stderr)
        raise SystemExit(2)


def no_cache(p: argparse.ArgumentParser) -> None:
    """``--no-cache``: read the workspace whole, neither using nor updating the scan cache."""
    p.add_argument(
        "--no-cache",
        action="store_true",
        help=_("read every file again; neither use nor update the scan cache"),
    )


def build_parser() -> argparse.ArgumentParser:
    """The parser of the commands (``memreview scan|report|demo|apply|undo|recover|doctor``)."""
    p = _Parser(prog="memreview", description=DESCRIPTION)
    sub = p.add_subparsers(dest="command")

    s = sub.add_parser("scan", help=command_help("scan"))
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
    no_cache(s)
    from memreview.report import add_report_parser

    add_report_parser(sub)
    d = sub.add_parser("demo", help=command_help("demo"))
    d.add_argument("--theme", help="theme name")
    d.add_argument("--keep", action="store_true", help="keep the copy and print where it is")
    a = sub.add_parser("apply", help=command_help("apply"))
    a.add_argument("path", type=Path)
    a.add_argument("--decisions", type=Path, required=True, metavar="FILE.yaml")
    a.add_argument("--dry-run", action="store_true", help="print the diff and write nothing at all")
    a.add_argument("--commit", action="store_true", help="commit the batch (a git workspace)")
    a.add_argument("--today", type=parse_date_arg, help="review date (YYYY-MM-DD)")
    u = sub.add_parser("undo", help=command_help("undo"))
    u.add_argument("path", type=Path)
    r = sub.add_parser("recover", help=command_help("recover"))
    r.add_argument("path", type=Path)
    how = r.add_mutually_exclusive_group()
    how.add_argument("--finish", action="store_true", help="write what the batch did not")
    how.add_argument("--rollback", action="store_true", help="take the batch back (an undo)")
    doc = sub.add_parser("doctor", help=command_help("doctor"))
    doc.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    doc.add_argument("--json", action="store_true", help="print one JSON object")
    doc.add_argument("--today", type=parse_date_arg, help="review date (YYYY-MM-DD)")
    return p


def app_parser() -> argparse.ArgumentParser:
    """The parser of ``memreview [PATH]``: open the app."""
    p = _Parser(
        prog="memreview",
        usage="memreview [PATH] [--today DATE] [--theme NAME] | memreview COMMAND ...",
        description=DESCRIPTION,
        epilog=app_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
    p.add_argument(
        "--today", type=parse_date_arg, metavar="DATE", help=_("review date (YYYY-MM-DD)")
    )
    p.add_argument("--theme", metavar="NAME", help=_("theme name"))
    no_cache(p)
    p.add_argument("--version", action="version", version=f"memreview {__version__}")
    return p
