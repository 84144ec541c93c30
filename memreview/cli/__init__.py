"""The command line (DESIGN §6): ``main()`` reads the arguments and runs one command.

One module per command or group, each importing what it uses when it runs, so ``--help`` and
``--version`` load neither the scan (numpy, rapidfuzz) nor the app (Textual):

- ``parser``: the arguments of the commands and of the app (and ``UsageError``);
- ``scan``: ``memreview scan``, text and JSON;
- ``batches``: ``apply``, ``undo`` and ``recover``;
- ``history``: ``log`` (the journal's batches and what can still be undone) and
  ``restore`` (archived entries put back), ``hidden`` and ``unhide``;
- ``interrupted``: the batches cut short, named before a command reads the journal;
- ``launch``: opening the app (``memreview [PATH]``) and ``memreview demo``;
- ``report`` and ``doctor`` live in ``memreview.report`` and ``memreview.doctor``.
"""

from __future__ import annotations

import difflib
import os
import sys

from memreview.cli import launch
from memreview.cli.batches import cmd_apply, cmd_recover, cmd_undo
from memreview.cli.history import cmd_hidden, cmd_log, cmd_restore, cmd_unhide
from memreview.cli.language import (
    choose_before_parsing,
    choose_for_workspace,
    without_lang,
)
from memreview.cli.parser import UsageError, app_parser, build_parser
from memreview.cli.scan import cmd_scan
from memreview.i18n import _


def cmd_doctor(args) -> int:
    """``memreview doctor``: alarms and secrets (memreview.doctor)."""
    from memreview.doctor import cmd_doctor as run

    return run(args)


def cmd_report(args) -> int:
    """``memreview report``: the weekly report (memreview.report)."""
    from memreview.report import cmd_report as report

    return report(args)


COMMANDS = {
    "scan": cmd_scan,
    "demo": launch.cmd_demo,
    "report": cmd_report,
    "apply": cmd_apply,
    "undo": cmd_undo,
    "log": cmd_log,
    "restore": cmd_restore,
    "hidden": cmd_hidden,
    "unhide": cmd_unhide,
    "recover": cmd_recover,
    "doctor": cmd_doctor,
}


def skip_cache(args) -> None:
    """``--no-cache``: every scan of this process reads the workspace whole."""
    if getattr(args, "no_cache", False):
        os.environ["MEMREVIEW_NO_CACHE"] = "1"


def run_command(argv: list[str]) -> int:
    """Run the command ``argv[0]``: every failure one line on stderr, never a traceback."""
    args = build_parser().parse_args(without_lang(argv))
    paths = getattr(args, "paths", None) or [getattr(args, "path", None)]
    choose_for_workspace(argv, paths)
    skip_cache(args)
    from memreview.workspace.loader import NotAWorkspace

    try:
        return COMMANDS[args.command](args)
    except NotAWorkspace as exc:
        print(_("memreview: {message}").format(message=exc), file=sys.stderr)
        return 2
    except UsageError as exc:
        print(_("memreview: {message}").format(message=exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `memreview scan … | head`: the reader left, nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # last resort: one line, never a traceback
        if os.environ.get("MEMREVIEW_DEBUG"):
            raise
        message = _("memreview: unexpected error: {kind}: {error}")
        print(message.format(kind=type(exc).__name__, error=exc), file=sys.stderr)
        return 2


def misspelt_command(word: str) -> str | None:
    """The command ``word`` looks like a typo of (``sacn`` → ``scan``), or None."""
    close = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.6)
    return close[0] if close else None


def main(argv: list[str] | None = None) -> int:
    """The ``memreview`` command: a command of ``COMMANDS``, else the app."""
    argv = sys.argv[1:] if argv is None else argv
    choose_before_parsing(argv)
    if without_lang(argv)[:1] and without_lang(argv)[0] in COMMANDS:
        return run_command(argv)
    if argv and not argv[0].startswith("-") and not os.path.exists(argv[0]):
        guess = misspelt_command(argv[0])
        if guess:
            print(
                _(
                    "memreview: {word!r} is neither a command nor a directory; did you mean "
                    "`memreview {guess}`?"
                ).format(word=argv[0], guess=guess),
                file=sys.stderr,
            )
            return 2
    args = app_parser().parse_args(argv)
    choose_for_workspace(argv, [args.path])
    skip_cache(args)
    from memreview.workspace.loader import NotAWorkspace

    try:
        return launch.open_app(args)
    except NotAWorkspace as exc:
        print(_("memreview: {message}").format(message=exc), file=sys.stderr)
        print(
            _(
                "  open a workspace with `memreview PATH` or set OPENCLAW_WORKSPACE_DIR to it;\n"
                "  `memreview demo` opens a copy of the sample workspace, `memreview --help` "
                "lists the commands"
            ),
            file=sys.stderr,
        )
        return 2
