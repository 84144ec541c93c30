"""A human's decision on one queue item, and what makes a decision valid (DESIGN §2, §6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# The actions of each queue, in the order the app offers them (DESIGN §2).
ACTIONS: dict[str, tuple[str, ...]] = {
    "contradictions": ("keep-a", "keep-b", "keep-both", "defer"),
    "supersede": ("approve", "reject", "defer"),
    "skills": ("solidify", "create-skill", "skip", "defer"),
    "archived": ("remove", "keep", "defer"),
    "duplicates": ("keep", "merge", "not-duplicate", "defer"),
    "dormant": ("revive", "snooze", "archive", "done", "defer"),
    "demotion": ("approve", "reject", "pin", "defer"),
}

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

    @property
    def key(self) -> str:
        """The name of this decision in a batch, the journal and conflicts."""
        return f"{self.item}:{self.action}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"item": self.item, "action": self.action}
        if self.keep is not None:
            out["keep"] = self.keep
        if self.text is not None:
            out["text"] = self.text
        if self.queue is not None:
            out["queue"] = self.queue
        return out

    @classmethod
    def from_dict(cls, data: object) -> Decision:
        """A Decision from one entry of a decisions file; DecisionError when malformed."""
        if isinstance(data, Decision):
            return data
        if not isinstance(data, dict):
            raise DecisionError(
                f"a decision must be a mapping with 'item' and 'action', not {_kind(data)}"
            )
        item, action = data.get("item"), data.get("action")
        if not isinstance(item, str) or not item.strip():
            raise DecisionError("a decision needs 'item': the id of a queue item")
        if not isinstance(action, str) or not action.strip():
            raise DecisionError(f"decision on {item}: needs 'action'")
        unknown = sorted(str(k) for k in data if k not in ("item", "action", "keep", "text"))
        unknown = [k for k in unknown if k not in _INFORMATIONAL]
        if unknown:
            raise DecisionError(f"decision on {item}: unknown key {unknown[0]!r}")
        keep = data.get("keep")
        if keep is not None:
            if isinstance(keep, str) and keep.strip().isdigit():
                keep = int(keep)
            if not isinstance(keep, int) or isinstance(keep, bool):
                raise DecisionError(f"decision on {item}: 'keep' must be a whole number (1, 2…)")
        text = data.get("text")
        if text is not None and not isinstance(text, str):
            raise DecisionError(f"decision on {item}: 'text' must be a string")
        queue = data.get("queue")
        return cls(
            item=item.strip(),
            action=action.strip(),
            keep=keep,
            text=text,
            queue=queue if isinstance(queue, str) else None,
        )


def _kind(value: object) -> str:
    if value is None:
        return "an empty entry"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value[:30]!r}"
    return f"a {type(value).__name__}"


def check_decision(queue: str, item: dict, d: Decision) -> None:
    """Raise DecisionError when ``d`` is not valid for ``item`` of ``queue``."""
    valid = ACTIONS.get(queue, ())
    if d.queue is not None and d.queue != queue:
        raise DecisionError(f"item {d.item} is in the {queue} queue, not {d.queue}")
    if d.action not in valid:
        raise DecisionError(
            f"action {d.action!r} is not valid for a {queue} item; valid: {', '.join(valid)}"
        )
    uses_keep = queue == "duplicates" and d.action in ("keep", "merge")
    if d.keep is not None and not uses_keep:
        raise DecisionError(f"{d.item}: 'keep' only goes with duplicates keep or merge")
    if d.text is not None and not (queue == "duplicates" and d.action == "merge"):
        raise DecisionError(f"{d.item}: 'text' only goes with duplicates merge")
    if not uses_keep:
        return
    refs = item.get("refs") or []
    if d.action == "keep" and d.keep is None:
        raise DecisionError(f"{d.item}: keep needs 'keep: N', which entry stays (1-{len(refs)})")
    keep = d.keep if d.keep is not None else 1
    if not 1 <= keep <= len(refs):
        raise DecisionError(
            f"{d.item}: keep {keep} is out of range; this group has {len(refs)} entries "
            f"(1-{len(refs)})"
        )
    if d.action == "merge":
        text = d.text if d.text is not None else item.get("merged")
        if text is None:
            raise DecisionError(f"{d.item}: merge needs 'text', the whole entry as it should read")
        check_merge_text(d.item, text, refs[keep - 1])


def merge_lines(text: str) -> list[str]:
    """The lines of a merge text (LF or CRLF), without a trailing empty line."""
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def check_merge_text(item_id: str, text: str, kept_ref: dict) -> None:
    """A merge text must read like the entry it replaces: a bullet or a table row."""
    lines = merge_lines(text)
    if any("\ud800" <= c <= "\udfff" for c in text):
        raise DecisionError(f"{item_id}: the merge text holds a character that is not text")
    if not lines or not lines[0].strip():
        raise DecisionError(f"{item_id}: the merge text is empty")
    first = lines[0]
    kept = str(kept_ref.get("text") or "")
    if kept.lstrip().startswith("|"):
        if len(lines) > 1:
            raise DecisionError(f"{item_id}: a merged table row must be one line")
        if not (first.lstrip().startswith("|") and first.rstrip().endswith("|")):
            raise DecisionError(
                f"{item_id}: the merge text must be a table row that starts and ends with '|'"
            )
        return
    if not first.startswith(("- ", "* ")):
        raise DecisionError(
            f"{item_id}: the merge text must be the whole bullet, starting with '- ' or '* '"
        )
    for extra in lines[1:]:
        if not extra.strip() or extra[:1] not in (" ", "\t"):
            raise DecisionError(
                f"{item_id}: the lines after a merged bullet's first must be indented and not blank"
            )
