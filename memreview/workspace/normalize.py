"""Normalization and fingerprints (docs/design.md §1.5, after seed 002)."""

from __future__ import annotations

import re

_BULLET = re.compile(r"^[-*] (?:\[[ xX]\] )?")
_NUMBER = re.compile(r"^\d{1,9}[.)][ \t]*")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_SCORE_TAIL = re.compile(r"\s*\[score=[^\]]*\]\s*$")
_DATE_NOTE = re.compile(r"[（(]\s*\d{4}-\d{2}-\d{2}(?:\s*自动沉淀)?\s*[）)]")
_PAREN = re.compile(r"[（(][^）)]*[）)]")

FINGERPRINT_CHARS = 40
CONFIRM_CHARS = 30


def normalize(text: str, kind: str = "bullet") -> str:
    """An entry's normalized text: markers, comments, score tails and dates removed."""
    lines = text.split("\n")
    first = lines[0]
    if kind == "row":
        first = first.strip()
        if first.startswith("|"):
            first = first[1:]
        if first.endswith("|"):
            first = first[:-1]
    elif kind == "numbered":
        first = _NUMBER.sub("", first, count=1)
    elif first[:2] in ("- ", "* "):  # (the marker's pattern only where a box may follow)
        first = _BULLET.sub("", first, count=1) if first[2:3] == "[" else first[2:]
    if len(lines) > 1:
        first = " ".join([first, *(ln.strip() for ln in lines[1:])])
    # (each pattern only where its telltale character is: most entries have none of them)
    out = _COMMENT.sub("", first) if "<!--" in first else first
    if "[score=" in out:
        out = _SCORE_TAIL.sub("", out)
    if "(" in out or "（" in out:
        out = _DATE_NOTE.sub("", out)
    return out.strip().lower()


def fingerprint(norm: str) -> str:
    return norm[:FINGERPRINT_CHARS]


def without_parentheticals(norm: str) -> str:
    """Remove every ``(…)``/``（…）`` run (no nesting; an unmatched bracket stays)."""
    return _PAREN.sub("", norm)


def confirmed_key(norm: str) -> str:
    return without_parentheticals(norm)[:CONFIRM_CHARS]
