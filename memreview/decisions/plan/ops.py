"""The per-file, content-addressed operations of an EditPlan (docs/design.md §3), and ``Op``.

Every operation carries ``key``, the decision it belongs to; a file's operations are kept in
the order of the batch's decisions.
"""

from __future__ import annotations

from dataclasses import dataclass

from memreview.decisions.plan.targets import Target


@dataclass(frozen=True)
class DeleteEntry:
    """Delete an entry or anchor block (a promoted entry's marker goes to the tombstones)."""

    key: str
    target: Target


@dataclass(frozen=True)
class ReplaceEntry:
    """Replace an entry's lines with ``lines`` (a merge, a promotion's edit)."""

    key: str
    target: Target
    lines: tuple[str, ...]


@dataclass(frozen=True)
class SetMeta:
    """Set ``name: value`` in an anchor's metadata (replacing an existing value)."""

    key: str
    target: Target
    name: str
    value: str


@dataclass(frozen=True)
class AddRef:
    """Add ``[[ref]]`` to a reference-list key (``, [[ref]]`` on its line, else a new line)."""

    key: str
    target: Target
    name: str
    ref: str


@dataclass(frozen=True)
class RemoveRef:
    """Remove ``[[ref]]`` and one adjacent separator; drop the line if no reference is left."""

    key: str
    target: Target
    name: str
    ref: str


@dataclass(frozen=True)
class MoveRefs:
    """Move the references ``refs`` from the ``source`` key to the ``dest`` key, adding
    ``extra`` there too (a group's conflicts that become see-also: one operation per anchor,
    however many references it holds)."""

    key: str
    target: Target
    source: str
    dest: str
    refs: frozenset[str]
    extra: frozenset[str] = frozenset()


@dataclass(frozen=True)
class MoveBlock:
    """Take an anchor block (and the blank lines after it) out of its file; ``move`` pairs it
    with the AppendBlock that receives it. A promoted entry moves with its marker, after a
    ``note`` line (``Demoted: DATE (reviewed)``)."""

    key: str
    target: Target
    dest: str
    move: int
    note: str = ""


@dataclass(frozen=True)
class AppendBlock:
    """Append the block of MoveBlock ``move`` (from ``source``) to an archive file."""

    key: str
    source: str
    move: int
    title: str


@dataclass(frozen=True)
class InsertRule:
    """Insert ``line`` after the last entry of the first rules heading's section."""

    key: str
    line: str
    headings: tuple[str, ...]


@dataclass(frozen=True)
class AddTodo:
    """Add a todo to revisit ``title`` (dated ``day``) to NOW.md's todo block (created, with
    NOW.md, when missing), in the file's language: ``- [ ] Revisit <title> (day)`` or
    ``- [ ] 回顾 <title>（day）``."""

    key: str
    title: str
    day: str


@dataclass(frozen=True)
class SetStatus:
    """Replace a project file's first ``Status:`` line, or insert one after its title:
    ``status`` is ``done`` or ``archived``, dated ``day``, written in the file's language.
    A project kept in a list (``kind`` item, row or heading) has its own lines ``old`` (found
    again by their text, nearest to ``line``) rewritten instead; ``cell`` is a row's status
    column."""

    key: str
    status: str
    day: str
    kind: str = "file"
    line: int = 0
    old: tuple[str, ...] = ()
    cell: int | None = None


@dataclass(frozen=True)
class CreateFile:
    """Create a file that must not exist yet."""

    key: str
    content: str


@dataclass(frozen=True)
class RemoveCandidate:
    """Remove one candidate from skill_candidates.json, the rest of the text unchanged."""

    key: str
    theme: str
    content: str
    copy: int = 0
    copies: int = 1


@dataclass(frozen=True)
class AppendSection:
    """Append ``lines`` at the end of a memory file, after a blank line, unless ``marker``
    (a line that says the section is there) already is: a promotion the owner made."""

    key: str
    lines: tuple[str, ...]
    marker: str


@dataclass(frozen=True)
class AppendLine:
    """Append a line (a JSON verdict) to an append-only file."""

    key: str
    line: str


@dataclass(frozen=True)
class RedactLines:
    """Replace the lines ``old`` (found again by their text, nearest to ``line``) with
    ``new``: a credential's value becomes ``[redacted …]``. ``old`` is held in memory only."""

    key: str
    line: int
    old: tuple[str, ...]
    new: tuple[str, ...]


Op = (
    DeleteEntry
    | ReplaceEntry
    | SetMeta
    | AddRef
    | RemoveRef
    | MoveRefs
    | MoveBlock
    | AppendBlock
    | InsertRule
    | AddTodo
    | SetStatus
    | CreateFile
    | RemoveCandidate
    | AppendLine
    | AppendSection
    | RedactLines
)
