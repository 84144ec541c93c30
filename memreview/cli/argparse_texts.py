"""argparse's own texts in the interface's language.

argparse looks up what it says (``usage:``, ``invalid choice: …``, ``the following arguments
are required: …``) with the ``_`` and ``ngettext`` it imported from gettext, by those names
in its module. `speak_our_language` points them at memreview's (`memreview.i18n`), and the
texts below put argparse's messages in our catalogue (Babel extracts them from here), so
``--lang zh`` gives them in Chinese. They keep argparse's own ``%`` fields.
"""

from __future__ import annotations

import argparse

from memreview.i18n import N_, Nn_, _, ngettext

# what argparse (Python 3.11 to 3.13) can say to someone typing a command
TEXTS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)
PLURALS = (Nn_("expected %s argument", "expected %s arguments"),)


def speak_our_language() -> None:
    """argparse's messages through memreview's catalogue, in the language chosen now."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
