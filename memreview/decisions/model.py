"""A human's decision on one queue item, and the checks of a merge text (docs/design.md §2, §6).

Which actions a queue offers is declared by its unit (``decisions/units/``); the planner
(``decisions/planner.check_decision``) checks a decision against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memreview.i18n import _
from memreview.queues.common import current_id
from memreview.queues.skills import SLUG_MAX, SLUG_RE

# Keys a decisions file may carry besides the decision itself (shown, never acted on).
_INFORMATIONAL = ("queue", "title", "note")


class DecisionError(ValueError):
    """A decision that can't be carried out as written; the message is one line for the user."""


@dataclass(frozen=True)
class Decision:
    """What the human decided about one item: ``keep`` (1-based, in the item's ``refs``
    order) for duplicates, ``text`` for a merge. ``queue`` is informational."""

    item: str
    action: str
    keep: int | None = None
    text: str | None = None
    queue: str | None = None
    # what its targets read when it was decided (``planner.fingerprint``): a decision whose
    # targets read otherwise now is not written until the human decides again
    seen: str | None = None
    slug: str | None = None  # the folder of a new skill, when the human chose it

    @property
    def key(self) -> str:
        """The name of this decision in a batch, the journal and conflicts."""
        return f"{self.item}:{self.action}"

    def to_dict(self) -> dict[str, Any]:
        """The decision as one entry of a decisions file (only the keys it has)."""
        out: dict[str, Any] = {"item": self.item, "action": self.action}
        if self.keep is not None:
            out["keep"] = self.keep
        if self.text is not None:
            out["text"] = self.text
        if self.queue is not None:
            out["queue"] = self.queue
        if self.seen is not None:
            out["seen"] = self.seen
        if self.slug is not None:
            out["slug"] = self.slug
        return out

    @classmethod
    def from_dict(cls, data: object) -> Decision:
        """A Decision from one entry of a decisions file; DecisionError when malformed."""
        if isinstance(data, Decision):
            return data
        if not isinstance(data, dict):
            raise DecisionError(
                _("a decision must be a mapping with 'item' and 'action', not {kind}").format(
                    kind=_kind(data)
                )
            )
        item, action = data.get("item"), data.get("action")
        if not isinstance(item, str) or not item.strip():
            raise DecisionError(_("a decision needs 'item': the id of a queue item"))
        if not isinstance(action, str) or not action.strip():
            raise DecisionError(_("decision on {item}: needs 'action'").format(item=item))
        unknown = sorted(
            str(k) for k in data if k not in ("item", "action", "keep", "text", "seen", "slug")
        )
        unknown = [k for k in unknown if k not in _INFORMATIONAL]
        if unknown:
            raise DecisionError(
                _("decision on {item}: unknown key {key!r}").format(item=item, key=unknown[0])
            )
        keep = data.get("keep")
        if keep is not None:
            if isinstance(keep, str) and keep.strip().isdigit():
                keep = int(keep)
            if not isinstance(keep, int) or isinstance(keep, bool):
                raise DecisionError(
                    _("decision on {item}: 'keep' must be a whole number (1, 2…)").format(item=item)
                )
        text = data.get("text")
        if text is not None and not isinstance(text, str):
            raise DecisionError(_("decision on {item}: 'text' must be a string").format(item=item))
        slug = data.get("slug")
        if slug is not None:
            check_slug(item, slug)
        queue, seen = data.get("queue"), data.get("seen")
        if queue is not None and not isinstance(queue, str):
            raise DecisionError(
                _("decision on {item}: 'queue' must be a queue's name").format(item=item)
            )
        return cls(
            item=current_id(item.strip(), queue if isinstance(queue, str) else None),
            action=action.strip(),
            keep=keep,
            text=text,
            queue=queue if isinstance(queue, str) else None,
            seen=seen if isinstance(seen, str) else None,
            slug=slug,
        )


def check_slug(item: str, slug: object) -> None:
    """A skill's folder name must be ``[a-z0-9]`` words joined by single ``-`` (no ``/``,
    ``..``, spaces or capitals): it names a folder under the skills directory."""
    if not isinstance(slug, str) or len(slug) > SLUG_MAX or not SLUG_RE.match(slug):
        shown = slug if isinstance(slug, str) else _kind(slug)
        raise DecisionError(
            _(
                "decision on {item}: slug {slug!r} can't name a skill's folder: use a-z, 0-9 "
                "and single '-' between them, at most {limit} characters (e.g. meiri-ribao-tuisong)"
            ).format(item=item, slug=shown, limit=SLUG_MAX)
        )


def _kind(value: object) -> str:
    if value is None:
        return _("an empty entry")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, str):
        return _("the text {text!r}").format(text=value[:30])
    return _("a {kind}").format(kind=type(value).__name__)


def merge_lines(text: str) -> list[str]:
    """The lines of a merge text (LF or CRLF), without a trailing empty line."""
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def check_merge_text(item_id: str, text: str, kept_ref: dict[str, Any]) -> None:
    """A merge text must read like the entry it replaces: a bullet or a table row."""
    lines = merge_lines(text)
    if any("\ud800" <= c <= "\udfff" for c in text):
        raise DecisionError(
            _("{item}: the merge text holds a character that is not text").format(item=item_id)
        )
    if not lines or not lines[0].strip():
        raise DecisionError(_("{item}: the merge text is empty").format(item=item_id))
    first = lines[0]
    kept = str(kept_ref.get("text") or "")
    if kept.lstrip().startswith("|"):
        if len(lines) > 1:
            raise DecisionError(
                _("{item}: a merged table row must be one line").format(item=item_id)
            )
        if not (first.lstrip().startswith("|") and first.rstrip().endswith("|")):
            raise DecisionError(
                _(
                    "{item}: the merge text must be a table row that starts and ends with '|'"
                ).format(item=item_id)
            )
        return
    if not first.startswith(("- ", "* ")):
        raise DecisionError(
            _("{item}: the merge text must be the whole bullet, starting with '- ' or '* '").format(
                item=item_id
            )
        )
    for extra in lines[1:]:
        if not extra.strip() or extra[:1] not in (" ", "\t"):
            raise DecisionError(
                _(
                    "{item}: the lines after a merged bullet's first must be indented and not blank"
                ).format(item=item_id)
            )
