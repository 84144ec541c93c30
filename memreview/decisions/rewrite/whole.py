"""The files a decision changes as a whole: a skill file created (``CreateFile``), and
candidates removed from skill_candidates.json (``RemoveCandidate``) with the rest of its text
unchanged, cut out of the JSON text itself where that gives the expected document."""

from __future__ import annotations

import json
import re
from typing import Any

from memreview.decisions.plan import (
    CreateFile,
    Op,
    RemoveCandidate,
)
from memreview.decisions.rewrite.result import FileRewrite, Problem
from memreview.i18n import _
from memreview.queues.common import short
from memreview.workspace import jsondoc
from memreview.workspace.textfile import EncodeError, TextFile


def create_file(rel: str, current: TextFile | None, ops: list[Op]) -> FileRewrite:
    """Create a skill file; a decision that created it before, with the same text, is done."""
    problems: dict[str, Problem] = {}
    chosen: CreateFile | None = None
    for op in ops:
        if not isinstance(op, CreateFile):
            problems[op.key] = Problem(
                "conflict", rel, _("{file} is being created by another decision").format(file=rel)
            )
        elif current is not None and chosen is None and current.data == _utf8(op.content):
            return FileRewrite(rel, None, [op.key], problems)  # created by this decision before
        elif current is not None:
            problems[op.key] = Problem(
                "conflict",
                rel,
                _("{file} already exists; memreview does not overwrite it").format(file=rel),
            )
        elif chosen is not None:
            problems[op.key] = Problem(
                "conflict",
                rel,
                _("{file} is already created by {decision} in this batch").format(
                    file=rel, decision=chosen.key
                ),
            )
        else:
            chosen = op
    if chosen is None:
        return FileRewrite(rel, None, [], problems)
    try:
        data = chosen.content.encode("utf-8")
    except UnicodeEncodeError:
        reason = _("{file}: the skill's text is not valid text").format(file=rel)
        problems[chosen.key] = Problem("failure", rel, reason)
        return FileRewrite(rel, None, [], problems)
    return FileRewrite(rel, data, [chosen.key], problems)


def _utf8(text: str) -> bytes | None:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return None


def remove_candidates(rel: str, current: TextFile | None, ops: list[Op]) -> FileRewrite:
    """Remove candidates from skill_candidates.json, the rest of its text unchanged."""
    problems: dict[str, Problem] = {}

    def fail_all(reason: str) -> FileRewrite:
        return FileRewrite(rel, None, [], {op.key: Problem("conflict", rel, reason) for op in ops})

    if current is None:
        return fail_all(_("{file} no longer exists").format(file=rel))
    text = "".join(ln.text + ln.ending for ln in current.lines)
    try:
        doc = jsondoc.loads(text)
    except ValueError:
        return fail_all(_("{file} is not valid JSON now").format(file=rel))
    cands = doc.get("candidates") if isinstance(doc, dict) else None
    if not isinstance(cands, list):
        return fail_all(_('{file} has no "candidates" list now').format(file=rel))
    chosen: dict[int, str] = {}
    for op in ops:
        if not isinstance(op, RemoveCandidate):
            problems[op.key] = Problem(
                "conflict", rel, _("{file}: unexpected change").format(file=rel)
            )
            continue
        hits = [
            k
            for k, c in enumerate(cands)
            if isinstance(c, dict)
            and c.get("theme") == op.theme
            and (c.get("content") if isinstance(c.get("content"), str) else "") == op.content
        ]
        theme = short(op.theme, 40)
        if not hits:
            reason = _("skill candidate {theme!r} is gone from {file}")
        elif len(hits) != op.copies:
            reason = _("skill candidate {theme!r} is ambiguous in {file}")
        elif hits[op.copy] in chosen:
            reason = _("skill candidate {theme!r} is removed by another decision")
        else:
            reason = None
        if reason is not None:
            problems[op.key] = Problem("conflict", rel, reason.format(theme=theme, file=rel))
        else:
            chosen[hits[op.copy]] = op.key
    if not chosen:
        return FileRewrite(rel, None, [], problems)
    expected = dict(doc)
    expected["candidates"] = [c for k, c in enumerate(cands) if k not in chosen]
    new_text = _remove_elements(text, sorted(chosen, reverse=True), expected)
    if new_text is None:  # the text could not be cut cleanly: write it again, same style
        new_text = _dump_like(text, expected, current.default_ending)
    try:
        data = current.bom + current.encode_text(new_text)
    except EncodeError as exc:
        for key in chosen.values():
            problems[key] = Problem("failure", rel, f"{rel}: {exc}")
        return FileRewrite(rel, None, [], problems)
    return FileRewrite(rel, data, list(chosen.values()), problems)


def _remove_elements(text: str, indexes: list[int], expected: dict[str, Any]) -> str | None:
    """``text`` with those elements of its top-level "candidates" array cut out (each with
    one adjacent comma and the spacing before it); None when that doesn't give ``expected``."""
    try:
        for k in indexes:
            found = _candidate_spans(text)
            if found is None:
                return None
            open_, close, elems = found
            if len(elems) == 1:
                text = text[: open_ + 1] + text[close:]
            elif k > 0:
                text = text[: elems[k - 1][1]] + text[elems[k][1] :]
            else:
                text = text[: elems[0][0]] + text[elems[1][0] :]
        return text if jsondoc.loads(text) == expected else None
    except (ValueError, IndexError):
        return None


def _skip_ws(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t\r\n":
        i += 1
    return i


def _string_end(s: str, i: int) -> int:
    j = i + 1
    while True:
        ch = s[j]
        if ch == "\\":
            j += 2
        elif ch == '"':
            return j + 1
        else:
            j += 1


def _value_end(s: str, i: int) -> int:
    ch = s[i]
    if ch == '"':
        return _string_end(s, i)
    if ch in "[{":
        depth, j = 0, i
        while j < len(s):
            c = s[j]
            if c == '"':
                j = _string_end(s, j)
                continue
            if c in "[{":
                depth += 1
            elif c in "]}":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        raise ValueError("unclosed")
    m = re.compile(r"[^,\]\}\s]+").match(s, i)
    if not m:
        raise ValueError("no value")
    return m.end()


def _candidate_spans(s: str) -> tuple[int, int, list[tuple[int, int]]] | None:
    """(index of '[', index of ']', element spans) of the top-level "candidates" array."""
    i = _skip_ws(s, 0)
    if s[i] != "{":
        return None
    i += 1
    while True:
        i = _skip_ws(s, i)
        if s[i] == "}":
            return None
        key_end = _string_end(s, i)
        key = jsondoc.loads(s[i:key_end])
        i = _skip_ws(s, key_end)
        if s[i] != ":":
            return None
        i = _skip_ws(s, i + 1)
        if key == "candidates" and s[i] == "[":
            elems: list[tuple[int, int]] = []
            j = _skip_ws(s, i + 1)
            if s[j] == "]":
                return i, j, elems
            while True:
                e = _value_end(s, j)
                elems.append((j, e))
                j = _skip_ws(s, e)
                if s[j] == ",":
                    j = _skip_ws(s, j + 1)
                elif s[j] == "]":
                    return i, j, elems
                else:
                    return None
        i = _skip_ws(s, _value_end(s, i))
        if s[i] == ",":
            i += 1
        elif s[i] != "}":
            return None


def _dump_like(original: str, doc: dict[str, Any], ending: str, escaped: bool = False) -> str:
    """``doc`` as JSON in the original's indentation, non-ASCII kept as is (``escaped``:
    as ``\\uXXXX``)."""
    indent: int | str | None = None
    for line in original.split("\n")[1:]:
        stripped = line.lstrip(" \t")
        if stripped and stripped != line:
            lead = line[: len(line) - len(stripped)]
            indent = "\t" if lead.startswith("\t") else len(lead)
            break
    text = json.dumps(doc, ensure_ascii=escaped, indent=indent)
    if original.endswith("\n"):
        text += "\n"
    return text.replace("\n", ending) if ending != "\n" else text


def insert_candidate(
    rel: str, current: TextFile | None, index: int, candidate: dict[str, Any]
) -> bytes:
    """skill_candidates.json with ``candidate`` back at ``index`` of its "candidates" list
    (the end when the list is shorter), the rest of its text unchanged where that gives the
    expected document, else written again in the file's style. A missing file (None)
    becomes a document holding just the candidate. Raises ValueError when the file is not
    a candidates document (it is never written over) and EncodeError when the file's
    encoding can't hold the candidate."""
    if current is None:
        new_text = json.dumps({"candidates": [candidate]}, ensure_ascii=False, indent=2) + "\n"
        return new_text.encode()
    text = "".join(ln.text + ln.ending for ln in current.lines)
    doc = jsondoc.loads(text)  # ValueError: not JSON (or nested past any reason)
    if not isinstance(doc, dict) or not isinstance(doc.get("candidates"), list):
        raise ValueError(_('{file} is not an object with a "candidates" list').format(file=rel))
    cands = doc["candidates"]
    index = max(0, min(index, len(cands)))
    expected = dict(doc)
    expected["candidates"] = [*cands[:index], candidate, *cands[index:]]
    spliced = _insert_element(text, index, candidate, expected)
    if spliced is not None:
        new_text = spliced
    else:
        escaped = text.isascii() and "\\u" in text
        new_text = _dump_like(text, expected, current.default_ending, escaped)
    return current.bom + current.encode_text(new_text)


def _insert_element(
    text: str, index: int, candidate: dict[str, Any], expected: dict[str, Any]
) -> str | None:
    """``text`` with ``candidate`` spliced in as element ``index`` of the top-level
    "candidates" array, indented like its neighbours; None when that doesn't give
    ``expected`` (an empty array, an unusual layout)."""
    try:
        found = _candidate_spans(text)
        if found is None or not found[2]:
            return None
        _open, _close, elems = found
        start = elems[0][0]
        column = text[text.rfind("\n", 0, start) + 1 : start]
        alone = ", " if column.strip() else ",\n" + column  # one element: on its own line?
        sep = text[elems[0][1] : elems[1][0]] if len(elems) > 1 else alone
        one_line = "\n" not in text[elems[0][0] : elems[0][1]]  # the neighbours' style
        escaped = text.isascii() and "\\u" in text  # written with \uXXXX escapes
        inner = (
            json.dumps(candidate, ensure_ascii=escaped)
            if one_line
            else _dump_like(text, candidate, "\n", escaped).rstrip("\n")
        )
        ending = "\r\n" if "\r\n" in text else "\n"
        element = inner.replace("\n", ending + column) if column.strip() == "" else inner
        if index < len(elems):
            at = elems[index][0]
            text = text[:at] + element + sep + text[at:]
        else:
            at = elems[-1][1]
            text = text[:at] + sep + element + text[at:]
        return text if jsondoc.loads(text) == expected else None
    except (ValueError, IndexError):
        return None
