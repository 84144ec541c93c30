"""Masking credentials in a JSON-shaped document (``scan --json``, the journal): every
string value passed through :func:`memreview.secrets.mask_secrets`, with the finder's gates
run once over all the strings together."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from itertools import accumulate
from typing import TypeVar

from memreview.secrets import ACCOUNT_GATES, LABEL_GATE, LABEL_GATE_ZH, TOKEN_GATES, mask_secrets

__all__ = ["mask_in", "strings_in"]


T = TypeVar("T")


def mask_in(obj: T) -> T:
    """``obj`` (JSON-shaped: dicts, lists, strings…) with every string masked; the same
    object back when nothing in it holds a credential.

    The finder's gates run once over all the strings together; only the strings they hit
    are looked at one by one, and the object is copied only when one of them changes."""
    masked = {}
    for text in _gated(list(strings_in(obj))):
        new = mask_secrets(text)
        if new != text:
            masked[text] = new
    return _mask_in(obj, masked) if masked else obj


def _mask_in(obj, masked: dict[str, str]):
    if isinstance(obj, str):
        return masked.get(obj, obj)
    if isinstance(obj, list):
        out = [_mask_in(v, masked) for v in obj]
        return obj if all(a is b for a, b in zip(out, obj, strict=True)) else out
    if isinstance(obj, dict):
        out = {k: _mask_in(v, masked) for k, v in obj.items()}
        return obj if all(out[k] is v for k, v in obj.items()) else out
    return obj


def strings_in(obj) -> Iterator[str]:
    """Every string value inside a JSON-shaped object (dict keys are not values)."""
    stack = [obj]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)


# twelve lower-case words in a row, nothing but the seed finder's separators between them:
# what a run of twelve BIP-39 words needs (the words are 3 to 8 letters)
_SEED_RUN = re.compile(r"(?<![A-Za-z])[a-z]{3,8}(?:[\s0-9.,;:/|()\-]+[a-z]{3,8}){11}(?![A-Za-z])")
# Between two strings: a newline ends a token and a labelled value
_APART = "\n"


def _gated(strings: list[str]) -> set[str]:
    """The strings :func:`find_secrets` could find anything in: those one of its gates hits
    (the token and label gates run once over all the strings, which no match of theirs can
    span), and those with a run of twelve words where it would look for a seed phrase."""
    hit = {s for s in strings if s.count(" ") >= 11 and _SEED_RUN.search(s)}
    whole = _APART.join(strings)
    low = whole.lower()
    if len(low) != len(whole):  # a character that lower-cases to two: look at every one
        return set(strings)
    hits = [
        m.start()
        for rx, text in (*((rx, whole) for rx in TOKEN_GATES), (LABEL_GATE_ZH, whole))
        for m in rx.finditer(text)
    ]
    hits += [m.start() for rx in (LABEL_GATE, *ACCOUNT_GATES) for m in rx.finditer(low)]
    if hits:
        starts = [0, *accumulate(len(t) + len(_APART) for t in strings)]
        hit.update(strings[bisect_right(starts, pos) - 1] for pos in hits)
    return hit
