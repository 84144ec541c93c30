"""Staged decisions: ``.memreview/pending.yaml`` (docs/design.md §4).

Decisions are saved as soon as they are staged, so a crash or a quit loses none of the
human's work. The file has the shape of an ``apply --decisions`` file (a list of
``{item, action, keep?, text?}``), so it can also be applied from the command line. A broken
file is a warning and an empty list, never an exception.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from memreview.decisions.model import Decision, DecisionError
from memreview.i18n import _
from memreview.store import (
    PathEscape,
    TooLarge,
    own_lock,
    read_private_within,
    rename_private,
    write_private,
)
from memreview.workspace.yamlcap import (
    CONFIG_LIMIT,
    DECISIONS_LIMIT,
    YAMLRefused,
    load_yaml,
    size_text,
)

PENDING_FILE = "pending.yaml"
_HEADER = (
    "# memreview: decisions staged for review and not applied yet.\n"
    "# Apply them in the app, or with: memreview apply . --decisions .memreview/pending.yaml\n"
)


class PendingTooLarge(OSError):
    """Staged decisions too long for a pending.yaml memreview can read back."""


class DecisionsFileError(ValueError):
    """A decisions file that can't be read as a list of decisions (one line for the user)."""


def parse_decisions_file(data: bytes, *, limit: int = DECISIONS_LIMIT) -> list[Any]:
    """The raw entries of a decisions file (YAML: a list, or a mapping with ``decisions``).

    Raises DecisionsFileError when the file as a whole is unreadable or refused (over
    ``limit`` bytes, an alias bomb, nested too deep); single entries are checked later
    (``Decision.from_dict``).
    """
    try:
        doc = load_yaml(data, limit=limit)
    except YAMLRefused as exc:
        raise DecisionsFileError(_("refused: {reason}").format(reason=exc)) from None
    except Exception as exc:  # ruamel's error types vary with the damage
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or type(exc).__name__
        problem = " ".join(str(problem).split())  # it may quote a multi-line value
        if mark is not None:
            text = _("broken YAML at line {line} ({problem})")
        else:
            text = _("broken YAML ({problem})")
        line = mark.line + 1 if mark is not None else None
        raise DecisionsFileError(text.format(line=line, problem=problem)) from None
    if doc is None:
        return []
    if isinstance(doc, dict) and "decisions" in doc:
        doc = doc["decisions"] if doc["decisions"] is not None else []
    if not isinstance(doc, list):
        raise DecisionsFileError(
            _(
                "expected a list of decisions ({{item: <id>, action: <action>}}), found a {kind}"
            ).format(kind=type(doc).__name__)
        )
    return doc


def decisions_from(entries: Iterable[Any]) -> tuple[list[Decision], list[str]]:
    """Decisions from raw entries, and a message per entry that is not one."""
    out: list[Decision] = []
    problems: list[str] = []
    for k, raw in enumerate(entries, 1):
        try:
            out.append(Decision.from_dict(raw))
        except DecisionError as exc:
            problems.append(_("entry {n}: {problem}").format(n=k, problem=exc))
    return out, problems


def load_pending(root: Path | str) -> tuple[list[Decision], list[str]]:
    """The staged decisions and warnings; a missing file is an empty list."""
    try:
        data = read_private_within(root, PENDING_FILE, CONFIG_LIMIT)
    except (OSError, PathEscape) as exc:
        message = _("{file}: cannot read ({reason}); no staged decisions")
        return [], [message.format(file=f".memreview/{PENDING_FILE}", reason=exc)]
    if not data:
        return [], []
    try:
        entries = parse_decisions_file(data, limit=CONFIG_LIMIT)
    except DecisionsFileError as exc:
        message = _("{file}: {problem}; no staged decisions loaded")
        return [], [message.format(file=f".memreview/{PENDING_FILE}", problem=exc)]
    decisions, problems = decisions_from(entries)
    skipped = _("{file}: {problem}; skipped")
    return decisions, [
        skipped.format(file=f".memreview/{PENDING_FILE}", problem=p) for p in problems
    ]


def dump_decisions(decisions: Iterable[Decision]) -> bytes:
    """The bytes of a pending.yaml holding ``decisions`` (its header comment first)."""
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.allow_unicode = True
    yaml.width = 4096
    buf = io.StringIO()
    buf.write(_HEADER)
    items = [d.to_dict() for d in decisions]
    if items:
        yaml.dump(items, buf)
    else:
        buf.write("[]\n")
    return buf.getvalue().encode("utf-8")


def save_pending(
    root: Path | str, decisions: Iterable[Decision], *, lock_wait: float = 2.0
) -> str | None:
    """Replace the staged decisions (atomically; creates ``.memreview/.gitignore``), under
    memreview's lock (taken again for free by an apply or an undo that holds it).

    A file there that doesn't parse (a hand edit with a typo), or holds entries that are not
    decisions, is copied to ``pending.yaml.broken-<time>`` first, so none of it is lost;
    returns that copy's name, else None. Raises store.LockHeld when the lock stays held, and
    PendingTooLarge (nothing written) when the file would be larger than it is read back.
    """
    decisions = [Decision.from_dict(d) for d in decisions]
    data = dump_decisions(decisions)
    if len(data) > CONFIG_LIMIT:  # what memreview writes it must be able to read back
        raise PendingTooLarge(
            _(
                "{file} would be {size}, more than memreview reads back ({limit}); it was "
                "left as it was: apply or drop some decisions"
            ).format(
                file=f".memreview/{PENDING_FILE}",
                size=size_text(len(data)),
                limit=size_text(CONFIG_LIMIT),
            )
        )
    with own_lock(root, lock_wait):
        kept = _keep_broken(root)
        real = write_private(root, PENDING_FILE, data)
        _last_saved[str(real)] = (hashlib.sha256(data).digest(), tuple(decisions))
    return kept


def merge_pending(
    root: Path | str, base: Iterable[Decision], mine: Iterable[Decision], *, lock_wait: float = 2.0
) -> str | None:
    """Save what one stager changed — ``mine`` against ``base``, what it last read or wrote:
    the decisions it staged, changed or dropped since — into pending.yaml as the file is
    now, read again under memreview's lock; every other decision there stays (one another
    memreview staged meanwhile, or an undo staged again; one an apply took out stays out).
    Returns a broken file's kept copy (see :func:`save_pending`)."""
    before = {d.item: d for d in base}
    now = {d.item: d for d in mine}
    with own_lock(root, lock_wait):
        out = {d.item: d for d in _current(root)}
        for item in before.keys() - now.keys():
            out.pop(item, None)  # dropped here
        for item, d in now.items():
            if before.get(item) != d:  # staged or changed here: the newest, at the end
                out.pop(item, None)
                out[item] = d
        return save_pending(root, list(out.values()), lock_wait=lock_wait)


# What save_pending last wrote, per file (its digest, its decisions): a file that still holds
# exactly that was not edited since and needs no parsing (the app saves on every key).
_last_saved: dict[str, tuple[bytes, tuple[Decision, ...]]] = {}


def _current(root: Path | str) -> list[Decision]:
    """The decisions pending.yaml holds now (what this process wrote last, when the file
    still holds exactly that)."""
    try:
        data = read_private_within(root, PENDING_FILE, CONFIG_LIMIT)
    except (OSError, PathEscape):
        data = None
    known = _last_saved.get(str(Path(root).resolve() / ".memreview" / PENDING_FILE))
    if data and known is not None and known[0] == hashlib.sha256(data).digest():
        return list(known[1])
    return load_pending(root)[0]


def _keep_broken(root: Path | str) -> str | None:
    """pending.yaml set aside as ``pending.yaml.broken-<time>`` (renamed as it is: none of
    it is lost, and a huge one is neither read whole nor copied) when it doesn't parse or
    holds entries that are not decisions; that name, else None."""
    try:
        before = read_private_within(root, PENDING_FILE, CONFIG_LIMIT)
    except TooLarge:
        before, problems = None, ["too large"]
    except (OSError, PathEscape):
        return None
    else:
        if not before:
            return None
        real = str(Path(root).resolve() / ".memreview" / PENDING_FILE)
        known = _last_saved.get(real)
        if known is not None and known[0] == hashlib.sha256(before).digest():
            return None
        try:
            _decisions, problems = decisions_from(parse_decisions_file(before, limit=CONFIG_LIMIT))
        except DecisionsFileError:
            problems = ["broken"]
    if not problems:
        return None
    name = f"{PENDING_FILE}.broken-{datetime.now():%Y%m%d-%H%M%S}"
    rename_private(root, PENDING_FILE, name)
    return f".memreview/{name}"
