"""What rewriting a file gives: its new bytes, the decisions carried out, and why the others
can't be written (``Problem``). ``Conflict`` is raised inside a rewrite when a decision's target
is gone, ambiguous or changed by another decision."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    """Why a decision can't be written: a ``conflict`` (its target is gone or ambiguous, or
    another decision changed it) or a ``failure`` (e.g. a character the encoding can't hold)."""

    kind: str
    file: str
    reason: str


@dataclass
class FileRewrite:
    """One file rewritten: its new bytes (None when it stays as it is), the decisions carried
    out in it, the ``Problem`` of each one that wasn't, and the blocks its moves hand on."""

    rel: str
    new_bytes: bytes | None  # None: the file stays as it is
    applied: list[str] = field(default_factory=list)
    problems: dict[str, Problem] = field(default_factory=dict)
    exports: dict[int, list[str] | None] = field(default_factory=dict)  # moved blocks


class Conflict(Exception):
    """A decision's target is gone, ambiguous or already changed by another decision."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
