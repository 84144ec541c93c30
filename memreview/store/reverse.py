"""Reverse-patching: taking a batch's changes back out of a file that changed since.

Each region the batch changed is looked up in the current lines and put back as it was, so
lines written since survive — but only if every such region is still intact and can be
found in exactly one place; otherwise ``Refuse`` is raised, with the reason (and the caller
adds a diff of what changed since, ``explain``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from memreview.i18n import _
from memreview.secrets import redact_secrets
from memreview.workspace.textfile import Line, TextFile, decode_bytes

# how two lines are compared: ``redaction_blind`` for copies a redaction scrubbed
Canon = Callable[[str], str]

_MAX_CONTEXT = 20


class Refuse(Exception):
    """A file can't be taken back: why (``reason``) and, when known, a diff of what changed."""

    def __init__(self, reason: str, diff: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.diff = diff


def explain(rel: str, batch_id: str, after: bytes | None, now: bytes | None) -> str:
    """A diff from what the batch wrote to what the file holds now."""
    a = decode_bytes(rel, after).texts if after is not None else []
    b = decode_bytes(rel, now).texts if now is not None else []
    lines = difflib.unified_diff(
        a,
        b,
        _("a/{file} (as batch {batch} wrote it)").format(file=rel, batch=batch_id),
        _("b/{file} (now)").format(file=rel),
        lineterm="",
    )
    text = "\n".join(lines)
    return text + "\n" if text else ""


def _find(pattern: list[str], lines: list[str], limit: int = 2) -> list[int]:
    """Start indexes where ``pattern`` occurs in ``lines`` (at most ``limit`` of them)."""
    hits: list[int] = []
    if not pattern:
        return hits
    first, n = pattern[0], len(pattern)
    for i in range(len(lines) - n + 1):
        if lines[i] == first and lines[i : i + n] == pattern:
            hits.append(i)
            if len(hits) >= limit:
                break
    return hits


def _locate(after: list[str], j1: int, j2: int, current: list[str]) -> tuple[int, int]:
    """Where the batch's lines ``after[j1:j2]`` sit in ``current``: (start, end).

    The lines themselves must be found exactly once; when they occur several times (or are
    empty, for lines the batch deleted) the surrounding lines of the batch's version are
    added, one more on each side at a time, until the match is unique.
    """
    for k in range(_MAX_CONTEXT + 1):
        lo, hi = max(0, j1 - k), min(len(after), j2 + k)
        if hi - lo == 0:
            continue
        hits = _find(after[lo:hi], current)
        if len(hits) == 1:
            start = hits[0] + (j1 - lo)
            return start, start + (j2 - j1)
        if not hits:
            if j1 == j2:
                raise Refuse(
                    _(
                        "the lines around line {line}, where the batch removed lines, were "
                        "changed since"
                    ).format(line=j1 + 1)
                )
            if j2 - j1 > 1:
                raise Refuse(
                    _("lines {first}-{last} as the batch wrote them were changed since").format(
                        first=j1 + 1, last=j2
                    )
                )
            raise Refuse(
                _("line {line} as the batch wrote it was changed since").format(line=j1 + 1)
            )
        if lo == 0 and hi == len(after):
            break
    raise Refuse(
        _("the lines the batch changed near line {line} occur more than once now").format(
            line=j1 + 1
        )
    )


_MARK_RE = re.compile(r"\[redacted [^\]\n]*\]")


def redaction_blind(text: str) -> str:
    """``text`` with every credential value and every ``[redacted …]`` mark made one and
    the same: a line compares equal to its copy in a backup a redaction scrubbed since."""
    return _MARK_RE.sub("\x00", redact_secrets(text, "-"))


def reverse_patch(
    before: TextFile | None, after: TextFile, current: TextFile, canon: Canon | None = None
) -> bytes:
    """``current`` with every change of before → after taken back; raises Refuse.

    Lines are compared by their decoded text (passed through ``canon`` when given: for
    copies a redaction scrubbed, ``redaction_blind``); the restored lines are the before
    version's exact bytes.
    """
    before_lines = before.lines if before is not None else []
    if before is not None and before_lines and before.encoding != current.encoding:
        raise Refuse(
            _("the file's encoding changed since ({before} → {now})").format(
                before=before.encoding, now=current.encoding
            )
        )
    a = [ln.text for ln in before_lines]
    b = after.texts
    c = current.texts
    if canon is not None:
        a, b, c = ([canon(t) for t in texts] for texts in (a, b, c))
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    edits: list[tuple[int, int, list[Line]]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start, end = _locate(b, j1, j2, c)
        edits.append((start, end, list(before_lines[i1:i2])))
    edits.sort(key=lambda e: (e[0], e[1]))
    for (s1, e1, _lines), (s2, _e2, _lines2) in zip(edits, edits[1:], strict=False):
        if s2 < e1 or (s2 == s1 and e1 == s1):
            raise Refuse(_("the batch's changes overlap in the current file"))
    lines = list(current.lines)
    for start, end, replacement in reversed(edits):
        lines[start:end] = replacement
    ending = current.default_ending
    for i, line in enumerate(lines[:-1]):
        if line.ending == "":
            # A line that ended the file in one version is followed by others now.
            lines[i] = Line(line.text, ending, line.raw + current.encode_text(ending))
    return current.render(lines)


def version_in(
    rel: str,
    base: bytes | None,
    version: bytes | None,
    current: TextFile,
    canon: Canon | None = None,
) -> bool:
    """Are the lines ``version`` changed from ``base`` all found, intact, in ``current``?"""
    if version is None:
        return False
    try:
        reverse_patch(
            decode_bytes(rel, base) if base is not None else None,
            decode_bytes(rel, version),
            current,
            canon,
        )
    except Refuse:
        return False
    return True
