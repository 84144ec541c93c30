"""The command line's arguments: the parser of the commands and the app's own parser.

Only argparse and the date-argument parser are imported here, so ``--help`` and
``--version`` answer without the scan's or the app's libraries. The parsers are built after
the language is chosen (``memreview.cli.language``): their help is in it.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from memreview import __version__
from memreview.cli.argparse_texts import speak_our_language
from memreview.i18n import LANGUAGES, N_, _
from memreview.workspace.cells import width
from memreview.workspace.dates import parse_date_arg

DESCRIPTION = N_("Review what your agents propose to change in their memory.")


_WS_HELP = N_("the workspace (default: as OpenClaw finds it)")
_FLEET_HELP = N_(
    "a workspace, several, or a directory with one workspace per agent "
    "(default: every agent's workspace, found as OpenClaw finds them)"
)


# The commands and what each does, for ``memreview --help`` (their own parsers below use the
# same words).
COMMAND_HELP = (
    ("scan", N_("print the review queues and health")),
    (
        "report",
        N_("the weekly report as Markdown (queues, health, growth, the judge's report card)"),
    ),
    ("demo", N_("open the app on a copy of the sample workspace")),
    ("apply", N_("apply a file of decisions without the app")),
    ("undo", N_("undo the last applied batch, or any batch with --batch")),
    ("log", N_("every batch written, newest first, and what can be undone")),
    ("restore", N_("put an archived entry back where it came from (without ID: list them)")),
    ("hidden", N_("the items decisions hide, why and since when")),
    ("unhide", N_("put a hidden item back in its queue")),
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


speak_our_language()


class UsageError(Exception):
    """Bad arguments: one line on stderr, exit 2."""


class _Formatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)

    def _split_lines(self, text, width):
        return wrap_cells(text, width)


class _EpilogFormatter(_Formatter):
    """The app's help: its epilog (the commands, the settings file) kept as written."""

    def _fill_text(self, text, width, indent):
        return "".join(indent + line for line in text.splitlines(keepends=True))


# a run of non-space Latin text, or one wide (CJK) character, or the spaces after either:
# lines break between them, never inside a word or a character
_PIECE = re.compile(r"\s+|[\u1100-\U0003fffd]|[^\s\u1100-\U0003fffd]+")


_OPENING = "（「『《“‘"
_CLOSING = "）」』》”’、，。；：！？"


def wrap_cells(text: str, columns: int) -> list[str]:
    """``text`` in lines at most ``columns`` terminal cells wide (a CJK character is two),
    broken at spaces or between wide characters; a longer word keeps a line of its own."""
    lines: list[str] = []
    line, used = "", 0
    pieces: list[str] = []
    for piece in _PIECE.findall(" ".join(text.split())):
        # CJK line breaking: no line ends with an opening bracket or starts with a closing
        # mark, so those stay with their neighbour
        if pieces and (pieces[-1][-1] in _OPENING or piece[0] in _CLOSING):
            pieces[-1] += piece
        else:
            pieces.append(piece)
    for piece in pieces:
        if piece.isspace():
            piece = " "
        cells = width(piece)
        if line and used + cells > columns and not piece.isspace():
            lines.append(line.rstrip())
            line, used = "", 0
        if not line and piece.isspace():
            continue
        line += piece
        used += cells
    if line.strip():
        lines.append(line.rstrip())
    return lines


class _Parser(argparse.ArgumentParser):
    """argparse in the interface's language: its headings, ``-h`` and ``--lang`` on every
    parser, errors in one line."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, add_help=False, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        self.add_argument("-h", "--help", action="help", help=_("show this help message and exit"))
        self.add_argument(
            "--lang",
            choices=sorted(LANGUAGES),
            help=_("the interface language (default: memreview.yaml, your config, the locale)"),
        )

    def error(self, message: str):  # one line, exit 2, no usage dump
        print(_("memreview: {message}").format(message=message), file=sys.stderr)
        raise SystemExit(2)


def no_cache(p: argparse.ArgumentParser) -> None:
    """``--no-cache``: read the workspace whole, neither using nor updating the scan cache."""
    p.add_argument(
        "--no-cache",
        action="store_true",
        help=_("read every file again; neither use nor update the scan cache"),
    )


def add_paths(p: argparse.ArgumentParser, text: str) -> None:
    """``PATH…``: the workspaces a command reads (none: found as OpenClaw finds them)."""
    p.add_argument("paths", nargs="*", type=Path, metavar="PATH", help=text)


def _run_report(args) -> int:
    from memreview.report import cmd_report  # the scan and the report, when they are run

    return cmd_report(args)


def add_report_parser(subparsers) -> argparse.ArgumentParser:
    """Add ``report PATH… [--today D] [--out FILE] [--no-cache]`` to an argparse subparsers
    object."""
    p = subparsers.add_parser("report", help=command_help("report"))
    add_paths(
        p,
        _(
            "a workspace, or a directory with one workspace per agent "
            "(default: every agent's workspace, found as OpenClaw finds them)"
        ),
    )
    p.add_argument("--today", type=parse_date_arg, help=_("review date (YYYY-MM-DD)"))
    p.add_argument("--out", type=Path, metavar="FILE", help=_("write the report to FILE"))
    no_cache(p)
    p.set_defaults(func=_run_report)
    return p


def build_parser() -> argparse.ArgumentParser:
    """The parser of the commands (``memreview scan|report|demo|apply|undo|recover|doctor``)."""
    p = _Parser(prog="memreview", description=_(DESCRIPTION))
    sub = p.add_subparsers(dest="command", parser_class=_Parser, title=_("commands"))
    review_date = _("review date (YYYY-MM-DD)")
    one_json = _("print one JSON object")

    s = sub.add_parser("scan", help=command_help("scan"))
    add_paths(s, _(_FLEET_HELP))
    s.add_argument("--json", action="store_true", help=one_json)
    s.add_argument("--today", type=parse_date_arg, help=review_date)
    s.add_argument(
        "--all-dormant",
        "--all",
        dest="all_dormant",
        action="store_true",
        help=_("list every item of the queues that show only the first ten (dormant, dropping)"),
    )
    s.add_argument(
        "--all-promotions",
        action="store_true",
        help=_("list every promotion, the ones reviewed before too"),
    )
    no_cache(s)
    add_report_parser(sub)
    d = sub.add_parser("demo", help=command_help("demo"))
    d.add_argument("--theme", help=_("theme name"))
    d.add_argument("--keep", action="store_true", help=_("keep the copy and print where it is"))
    a = sub.add_parser("apply", help=command_help("apply"))
    a.add_argument("path", type=Path)
    a.add_argument("--decisions", type=Path, required=True, metavar="FILE.yaml")
    a.add_argument(
        "--dry-run", action="store_true", help=_("print the diff and write nothing at all")
    )
    a.add_argument("--commit", action="store_true", help=_("commit the batch (a git workspace)"))
    a.add_argument("--today", type=parse_date_arg, help=review_date)
    u = sub.add_parser("undo", help=command_help("undo"))
    u.add_argument("path", type=Path, nargs="?", help=_(_WS_HELP))
    u.add_argument(
        "--batch",
        metavar="ID",
        help=_("the batch to undo (ids from `memreview log`), even with later batches on top"),
    )
    rs = sub.add_parser(
        "restore",
        help=command_help("restore"),
        epilog=_(
            "What can be restored: superseded and demoted anchors, demoted and rejected "
            "promotions, entries an archived-fragment removal or a duplicates keep or merge "
            "deleted. Not a redaction: memreview keeps no copy of a redacted value (it leaves "
            "the backups too), and a credential belongs back only when the detection was "
            "wrong, so restore refuses and names `memreview undo --batch ID`, which takes "
            "back the rest of that batch; put the value back by hand."
        ),
    )
    rs.add_argument(
        "words",
        nargs="*",
        metavar="[PATH] ID|TEXT",
        help=_(
            "the workspace (default: as OpenClaw finds it), then the entry's id (from the "
            "list) or a piece of its text"
        ),
    )
    rs.add_argument("--to", metavar="FILE", help=_("the file it goes back to (when not recorded)"))
    rs.add_argument("--list", action="store_true", help=_("list what can be restored"))
    rs.add_argument("--json", action="store_true", help=_("the list as one JSON object"))
    rs.add_argument("--dry-run", action="store_true", help=_("print the diff and write nothing"))
    hd = sub.add_parser("hidden", help=command_help("hidden"))
    add_paths(hd, _(_FLEET_HELP))
    hd.add_argument("--json", action="store_true", help=one_json)
    hd.add_argument("--today", type=parse_date_arg, help=review_date)
    uh = sub.add_parser("unhide", help=command_help("unhide"))
    uh.add_argument(
        "words",
        nargs="*",
        metavar="[PATH] ID",
        help=_("the workspace (default: as OpenClaw finds it), then the item's id"),
    )
    uh.add_argument("--today", type=parse_date_arg, help=review_date)
    uh.add_argument("--dry-run", action="store_true", help=_("print the diff and write nothing"))
    lg = sub.add_parser("log", help=command_help("log"))
    add_paths(lg, _(_FLEET_HELP))
    lg.add_argument("--json", action="store_true", help=one_json)
    r = sub.add_parser("recover", help=command_help("recover"))
    r.add_argument("path", type=Path)
    how = r.add_mutually_exclusive_group()
    how.add_argument("--finish", action="store_true", help=_("write what the batch did not"))
    how.add_argument("--rollback", action="store_true", help=_("take the batch back (an undo)"))
    doc = sub.add_parser("doctor", help=command_help("doctor"))
    doc.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    doc.add_argument("--json", action="store_true", help=one_json)
    doc.add_argument("--today", type=parse_date_arg, help=review_date)
    return p


def app_parser() -> argparse.ArgumentParser:
    """The parser of ``memreview [PATH]``: open the app."""
    p = _Parser(
        prog="memreview",
        usage=(
            "memreview [PATH] [--today DATE] [--theme NAME] [--lang {en,zh}] [--no-cache]"
            " | memreview COMMAND ..."
        ),
        description=_(DESCRIPTION),
        epilog=app_epilog(),
        formatter_class=_EpilogFormatter,
    )
    p.add_argument(
        "path",
        nargs="?",
        type=Path,
        help=_(
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
    p.add_argument(
        "--version",
        action="version",
        version=f"memreview {__version__}",
        help=_("show the version and exit"),
    )
    return p
