"""Shared helpers for the queue functions."""

from __future__ import annotations

import hashlib


def item_id(prefix: str, *parts: object) -> str:
    """A stable id derived from content, never from line numbers."""
    h = hashlib.sha1("\x1f".join(str(p) for p in parts).encode("utf-8", "surrogatepass"))
    return f"{prefix}-{h.hexdigest()[:12]}"


def short(text: str, width: int = 60) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
