"""The command line (docs/design.md §6): ``main()`` reads the arguments and runs one command.

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

import importlib
import os
import sys
from typing import NoReturn

from memreview.cli.language import (
    choose_before_parsing,
    choose_for_workspace,
    without_lang,
)
from memreview.i18n import _, use_language

# the parser (argparse, the date parser) is imported once ``--version`` is ruled out

# Each command and the function that runs it, imported when it runs.
COMMANDS: dict[str, tuple[str, str]] = {
    "scan": ("memreview.cli.scan", "cmd_scan"),
    "demo": ("memreview.cli.launch", "cmd_demo"),
    "report": ("memreview.report", "cmd_report"),
    "apply": ("memreview.cli.batches", "cmd_apply"),
    "undo": ("memreview.cli.batches", "cmd_undo"),
    "log": ("memreview.cli.history", "cmd_log"),
    "restore": ("memreview.cli.history", "cmd_restore"),
    "hidden": ("memreview.cli.history", "cmd_hidden"),
    "unhide": ("memreview.cli.history", "cmd_unhide"),
    "recover": ("memreview.cli.batches", "cmd_recover"),
    "doctor": ("memreview.doctor", "cmd_doctor"),
}


def command(name: str):
    """The function that runs command ``name`` (its module imported now)."""
    module, function = COMMANDS[name]
    return getattr(importlib.import_module(module), function)


def skip_cache(args) -> None:
    """``--no-cache``: every scan of this process reads the workspace whole."""
    if getattr(args, "no_cache", False):
        os.environ["MEMREVIEW_NO_CACHE"] = "1"


def run_command(argv: list[str], one_shot: bool = False) -> int:
    """Run the command ``argv[0]``: every failure one line on stderr, never a traceback.
    ``one_shot``: the process ends with the command (``run``; see ``memreview.process``),
    unless the command opens the app (``demo``), which goes on."""
    from memreview.cli.parser import UsageError, build_parser

    args = build_parser().parse_args(without_lang(argv))
    if one_shot and args.command != "demo":
        from memreview.process import ends_with_its_command

        ends_with_its_command()
    paths = getattr(args, "paths", None) or [getattr(args, "path", None)]
    choose_for_workspace(argv, paths)
    if getattr(args, "json", False):  # a script's interface: English, whatever the language
        use_language("en")
    skip_cache(args)
    from memreview.workspace.root import NotAWorkspace

    try:
        return command(args.command)(args)
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
    import difflib

    close = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.6)
    return close[0] if close else None


def run() -> NoReturn:
    """The ``memreview`` program (its console script, ``python -m memreview``): ``main``,
    then out without the interpreter's teardown (``leave``)."""
    from memreview.cli.leave import leave

    leave(main(one_shot=True))


def _streams_present() -> None:
    """A standard stream closed before memreview started (``scan … >&-``) is the null
    device: what it would have printed goes nowhere, as when the reader of a pipe has left,
    instead of failing on the first line printed."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115


def main(argv: list[str] | None = None, one_shot: bool = False) -> int:
    """The ``memreview`` command: a command of ``COMMANDS``, else the app. ``one_shot``:
    the process ends with it (``run``)."""
    argv = sys.argv[1:] if argv is None else argv
    _streams_present()
    if without_lang(argv) == ["--version"]:  # nothing else to read: answered at once
        from memreview import __version__

        print(f"memreview {__version__}")
        return 0
    choose_before_parsing(argv)
    if without_lang(argv)[:1] and without_lang(argv)[0] in COMMANDS:
        return run_command(argv, one_shot)
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
    from memreview.cli.parser import app_parser

    args = app_parser().parse_args(argv)
    choose_for_workspace(argv, [args.path])
    skip_cache(args)
    from memreview.cli import launch
    from memreview.workspace.root import NotAWorkspace

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
