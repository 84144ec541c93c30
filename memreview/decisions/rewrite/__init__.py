"""Carry out one file's operations on its *current* content (docs/design.md §3, §4 steps 1–2).

Pure: bytes in, bytes out. Targets are found again by content in the file as it is now (an
agent may have written it since the scan); a target that is gone or ambiguous makes its
decision a conflict, and the file is recomputed without that decision, so one decision never
lands half-done. Only the lines the decisions touch change: every other line keeps its exact
bytes, and new lines get the file's encoding and its usual line ending.

A removed promoted entry leaves its marker behind, but not in its section. When a decision
deletes or moves an OpenClaw promoted bullet (duplicates ``keep``, archived ``remove``,
demotion ``approve``), its ``<!-- openclaw-memory-promotion:… -->`` line moves to a
``## Removed promotions`` section at the end of the same file. Why both halves:
- the marker must stay in MEMORY.md: OpenClaw skips ("reconciles") a candidate whose marker
  key is already there, even with no bullet under it, while the store's ``promotedAt`` that
  also stops it is lost when the row is evicted, reset or repaired. Without the marker the
  same snippet comes back in a new dated section some night later;
- it must leave the promotion section: budget compaction only recognises a section in which
  every entry is a marker line followed by a ``- `` line, so a stranded marker makes the
  whole section non-compactable and MEMORY.md grows past its budget.
The tombstone section holds markers only (no bullets), so it is never taken for a promotion
section, and it costs a line per removed entry.

The package, by seam:
- ``result``: ``FileRewrite`` and ``Problem`` (what a rewrite gives) and ``Conflict``;
- ``lines``: a line-based file (memory files, NOW.md, archives, verdicts.jsonl) being edited:
  finding targets again by content, claiming regions, and rendering the new bytes;
- ``ops``: the line operations themselves, one handler per kind of ``Op`` (``LineEdit``), with
  the anchors' metadata edits in ``meta`` and rules, todos and status lines in ``notes``;
- ``whole``: the files changed as a whole (a created skill, skill_candidates.json);
- here: ``rewrite`` and its retry loop, which drops the decisions that can't be written.
"""

from __future__ import annotations

from collections.abc import Sequence

from memreview.decisions.plan import CreateFile, Op, RemoveCandidate
from memreview.decisions.rewrite.lines import Imports
from memreview.decisions.rewrite.ops import LineEdit
from memreview.decisions.rewrite.result import Conflict as Conflict
from memreview.decisions.rewrite.result import FileRewrite as FileRewrite
from memreview.decisions.rewrite.result import Problem as Problem
from memreview.decisions.rewrite.whole import create_file, remove_candidates
from memreview.i18n import _
from memreview.workspace.textfile import EncodeError, TextFile


def rewrite(
    rel: str,
    current: TextFile | None,
    ops: list[Op],
    *,
    blocked: set[str] | frozenset[str] = frozenset(),
    imports: dict[int, list[str] | None] | None = None,
    chronicle_words: tuple[str, ...] = ("编年史", "chronicle"),
) -> FileRewrite:
    """The new bytes of ``rel`` after ``ops`` (those of decisions not ``blocked``).

    ``imports`` holds the blocks other files' MoveBlock operations hand to this one.
    """
    blocked = set(blocked)
    problems: dict[str, Problem] = {}
    while True:
        live = [op for op in ops if op.key not in blocked]
        result = _attempt(rel, current, live, imports or {}, chronicle_words)
        fresh = {k: p for k, p in result.problems.items() if k not in problems}
        if not fresh:
            break
        # Recompute without the decisions that can't be written, so none lands half-done.
        problems.update(fresh)
        blocked.update(fresh)
    result.problems = problems
    return result


def _attempt(
    rel: str,
    current: TextFile | None,
    ops: list[Op],
    imports: Imports,
    chronicle_words: Sequence[str],
) -> FileRewrite:
    if current is not None and current.encoding == "binary":
        reason = _("{file} is not valid text in its encoding; memreview only reads it").format(
            file=rel
        )
        return FileRewrite(rel, None, [], {op.key: Problem("failure", rel, reason) for op in ops})
    kinds = {type(op) for op in ops}
    if CreateFile in kinds:
        return create_file(rel, current, ops)
    if RemoveCandidate in kinds:
        return remove_candidates(rel, current, ops)
    edit = LineEdit(rel, current, chronicle_words)
    problems: dict[str, Problem] = {}
    for op in ops:
        if op.key in problems:
            continue
        try:
            edit.apply(op, imports)
        except Conflict as exc:
            problems[op.key] = Problem("conflict", rel, exc.reason)
        except EncodeError as exc:
            problems[op.key] = Problem("failure", rel, f"{rel}: {exc}")
    try:
        new = edit.render()
    except EncodeError as exc:  # an ending the encoding can't hold: blame every decision
        return FileRewrite(rel, None, [], {op.key: Problem("failure", rel, str(exc)) for op in ops})
    applied = list(dict.fromkeys(op.key for op in ops if op.key not in problems))
    return FileRewrite(rel, new, applied, problems, edit.exports())
