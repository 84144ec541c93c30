"""The secrets queue: a credential sitting in a memory file; redact it, or keep it.

``redact`` replaces each value on the item's lines with ``[redacted <kind> DATE]`` (plus the
owner's note of where the secret lives now, given as the decision's ``text``). The lines are
found again from the loaded file — items carry only masked text, so the value never enters an
item, a decisions file, the journal or the screen. After the batch is written, the store
replaces the value in every backup memreview holds of that file (:func:`memreview.store.scrub_backups`),
so undo cannot bring it back: undo restores everything else and keeps the redaction.
"""

from __future__ import annotations

from memreview.decisions.model import Decision, DecisionError
from memreview.decisions.plan import PlanBuilder, PlannedDecision, RedactLines, Target
from memreview.decisions.unit import DEFER, Act, Caption, Facts, Passage, QueueUnit, RefBlock
from memreview.i18n import N_, _
from memreview.queues.secrets import secrets
from memreview.secrets import find_secrets, kinds_shown, redact_secrets


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict) -> None:
    """redact rewrites the item's lines with the values replaced; keep hides the item."""
    if d.action == "defer":
        return
    ref = item.get("ref") or {}
    rel = str(ref.get("file"))
    mf = b.memory_file(rel)
    first, last = ref.get("line"), ref.get("end_line")
    if mf is None or not isinstance(first, int) or not isinstance(last, int):
        raise DecisionError(_("{file} is not in the loaded workspace").format(file=rel))
    old = tuple(mf.source.texts[first - 1 : last])
    # the lines themselves, for the claims: no other decision may delete, move or rewrite
    # what this one keeps or redacts
    lines = Target(rel, "lines", "\n".join(old), first)
    if d.action == "keep":
        b.keep(pd, lines)
        b.hide(pd, "kept")
        return
    pd.edited.append(lines)
    if not old or not find_secrets("\n".join(old)):
        raise DecisionError(
            _("{file}:{line} no longer holds the credential").format(file=rel, line=first)
        )
    new = tuple(redact_secrets("\n".join(old), b.day, d.text).split("\n"))
    b.plan.add(rel, RedactLines(pd.key, first, old, new), pd)


def check(item: dict, d: Decision) -> None:
    """A redaction note is one short line."""
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


def evidence(item: dict) -> list:
    """What kind of credential, masked, then the line in its file (masked on screen)."""
    return [
        Facts(
            (
                (_("kind"), kinds_shown(item.get("kinds") or ())),
                (_("masked"), ", ".join(item.get("masked") or ())),
            )
        ),
        Passage(_("the line, masked"), str(item.get("text", ""))),
        RefBlock(item.get("ref") or {}, _("in"), before=2),
        Caption(
            _(
                "redact replaces the value in the file and in every backup memreview holds of it: "
                "it can't be undone"
            )
        ),
    ]


def note(item: dict) -> str:
    """The kind of credential."""
    return f" — {kinds_shown(item.get('kinds') or ())}"


def secret_files(items: list[dict]) -> set[str]:
    """The memory files holding the credentials found."""
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
            N_("nothing is written; hidden (a test key, a public value)"),
        ),
        DEFER,
    ),
    plan=plan,
    evidence=evidence,
    note=note,
    check=check,
    secret_files=secret_files,
)
