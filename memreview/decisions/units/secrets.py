"""The secrets queue: a credential sitting in a file memreview reads; redact it, or keep it.

Redact writes memory files and daily logs only (in a log it is the one edit memreview makes,
because the owner decided it); an item elsewhere (the recall store, ``DREAMS.md``, a dreaming
file) is reported, and its redact is refused with the item's reason.

``redact`` replaces each value on the item's lines with ``[redacted <kind> DATE]`` (plus the
owner's note of where the secret lives now, given as the decision's ``text``). The lines are
found again from the loaded file — items carry only masked text, so the value never enters an
item, a decisions file, the journal or the screen. After the batch is written, the store
replaces the value in every backup memreview holds of that file (:func:`memreview.store.scrub_backups`),
so undo cannot bring it back: undo restores everything else and keeps the redaction.
"""

from __future__ import annotations

from typing import Any

from memreview.decisions.model import Decision, DecisionError
from memreview.decisions.plan import PlanBuilder, PlannedDecision, RedactLines, Target
from memreview.decisions.state import SECRET_KEPT
from memreview.decisions.unit import (
    DEFER,
    Act,
    Caption,
    Facts,
    Passage,
    QueueUnit,
    RefBlock,
    in_words,
)
from memreview.i18n import N_, _
from memreview.queues.secrets import NOT_WRITTEN, secrets
from memreview.queues.secrets_sources import LOG, NOTES, daily_log, log_lines
from memreview.secrets import find_secrets, kinds_shown, redact_secrets


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict[str, Any]) -> None:
    """redact rewrites the item's lines with the values replaced; keep hides the item."""
    if d.action == "defer":
        return
    ref = item.get("ref") or {}
    rel = str(ref.get("file"))
    first, last = ref.get("line"), ref.get("end_line")
    texts = _texts(b, rel, item.get("source"))
    if d.action == "keep" and (texts is None or not isinstance(first, int)):
        b.hide(pd, SECRET_KEPT)  # a line memreview never writes (the recall store): hidden alone
        return
    if texts is None or not isinstance(first, int) or not isinstance(last, int):
        raise DecisionError(_("{file} is not in the loaded workspace").format(file=rel))
    old = tuple(texts[first - 1 : last])
    # the lines themselves, for the claims: no other decision may delete, move or rewrite
    # what this one keeps or redacts
    lines = Target(rel, "lines", "\n".join(old), first)
    if d.action == "keep":
        b.keep(pd, lines)
        b.hide(pd, SECRET_KEPT)
        return
    pd.edited.append(lines)
    if not old or not find_secrets("\n".join(old)):
        raise DecisionError(
            _("{file}:{line} no longer holds the credential").format(file=rel, line=first)
        )
    new = tuple(redact_secrets("\n".join(old), b.day, d.text).split("\n"))
    b.plan.add(rel, RedactLines(pd.key, first, old, new), pd)


def _texts(b: PlanBuilder, rel: str, source: object) -> list[str] | None:
    """The loaded lines of the memory file or daily log at ``rel``."""
    if source == LOG:
        log = daily_log(b.ws, rel)
        return None if log is None else log_lines(log)
    mf = b.memory_file(rel)
    return None if mf is None else mf.source.texts


def _not_written(item: dict[str, Any]) -> str:
    """Why memreview does not write the item's file, in the interface's language."""
    source = item.get("source")
    return in_words(NOT_WRITTEN, source if source in NOT_WRITTEN else NOTES) or ""


def check(item: dict[str, Any], d: Decision) -> None:
    """Redact only where memreview may write; a redaction note is one short line."""
    if d.action == "redact" and item.get("writable") is False:
        reason = _not_written(item)
        raise DecisionError(_("{item}: not redacted: {reason}").format(item=d.item, reason=reason))
    if d.text is not None and ("\n" in d.text or "\r" in d.text or len(d.text) > 200):
        raise DecisionError(
            _("{item}: a redaction note is one line of at most {count} characters").format(
                item=d.item, count=200
            )
        )
    if d.text and find_secrets(d.text):
        raise DecisionError(
            _("{item}: the redaction note itself holds a credential").format(item=d.item)
        )


def evidence(item: dict[str, Any]) -> list[Any]:
    """What kind of credential, masked, then the line in its file (masked on screen); for a
    file memreview does not write, why redact is not offered."""
    facts = Facts(
        (
            (_("kind"), kinds_shown(item.get("kinds") or ())),
            (_("masked"), ", ".join(item.get("masked") or ())),
        )
    )
    if item.get("writable") is False:
        ref = item.get("ref") or {}
        blocks: list[Any] = [facts, Passage(_("masked"), str(item.get("text", "")))]
        if isinstance(ref.get("line"), int):
            blocks.append(RefBlock(ref, _("in"), before=2))
        else:
            blocks.append(Caption(_("in {file}").format(file=ref.get("file"))))
        blocks.append(
            Caption(_("redact is not offered: {reason}").format(reason=_not_written(item)))
        )
        return blocks
    return [
        facts,
        Passage(_("the line, masked"), str(item.get("text", ""))),
        RefBlock(item.get("ref") or {}, _("in"), before=2),
        Caption(
            _(
                "redact replaces the value in the file and in every backup memreview holds of it: "
                "it can't be undone"
            )
        ),
    ]


def note(item: dict[str, Any]) -> str:
    """The kind of credential (and, where memreview does not write, that it is reported only)."""
    kinds = kinds_shown(item.get("kinds") or ())
    if item.get("writable") is False:
        return _(" — {kinds}, reported only: memreview does not write this file").format(
            kinds=kinds
        )
    return f" — {kinds}"


def secret_files(items: list[dict[str, Any]]) -> set[str]:
    """The workspace files holding the credentials found (the recall store's too)."""
    return {it["ref"]["file"] for it in items}


UNIT = QueueUnit(
    name="secrets",
    title=N_("Secrets"),
    detect=secrets,
    acts=(
        Act(
            "approve",
            "redact",
            N_("redact"),
            "approve",
            N_(
                "each value becomes a [redacted …] note with its kind and today's date, here "
                "and in memreview's backups"
            ),
            takes=("text",),
            lasting=True,
        ),
        Act(
            "keep",
            "keep",
            N_("keep"),
            "keep",
            N_("no memory file is written; hidden (a test key, a public value)"),
        ),
        DEFER,
    ),
    plan=plan,
    evidence=evidence,
    note=note,
    check=check,
    secret_files=secret_files,
)
