"""Shared helpers for the queue functions."""

from __future__ import annotations

import hashlib


def item_id(prefix: str, *parts: object) -> str:
    """A stable id derived from content, never from line numbers."""
    h = hashlib.sha1("\x1f".join(str(p) for p in parts).encode("utf-8", "surrogatepass"))
    return f"{prefix}-{h.hexdigest()[:12]}"


# Queues whose ids changed prefix: (old, new). Secrets items were ``s-…``, the prefix the
# Supersede queue has; an old id still names its item wherever it was kept (state.yaml,
# pending.yaml, the journal, a decisions file): see current_id and former_id.
RENAMED_PREFIXES = {"secrets": ("s-", "cr-")}


def current_id(item_id: str, queue: str | None) -> str:
    """``item_id`` of an item of ``queue`` in today's form (an old secrets id ``s-…`` is
    ``cr-…``); unchanged for the other queues and for an unknown queue (an ``s-`` id alone
    may be a supersede proposal)."""
    old_new = RENAMED_PREFIXES.get(queue or "")
    if old_new is not None and item_id.startswith(old_new[0]):
        return old_new[1] + item_id[len(old_new[0]) :]
    return item_id


def former_id(item_id: str) -> str | None:
    """The id the item of ``item_id`` had before its queue's prefix changed, or None."""
    for old, new in RENAMED_PREFIXES.values():
        if item_id.startswith(new):
            return old + item_id[len(new) :]
    return None


def short(text: str, width: int = 60) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
