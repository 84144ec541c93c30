"""What the safe writer and the code that hands it work speak: a ``FileJob`` per file and its
``FileOutcome``, the ``Conflict``s and ``Failure``s of decisions, and the ``FileResult`` and
``BatchResult`` of a batch, with the unified diff both show (see ``safewrite``)."""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from memreview.i18n import _
from memreview.workspace.textfile import TextFile, decode_bytes, is_binary


@dataclass(frozen=True)
class Conflict:
    """A decision whose target is gone or ambiguous in the current file: skipped, pending."""

    decision: str
    file: str
    reason: str
    diff: str = ""


@dataclass(frozen=True)
class Failure:
    """A decision that could not be written (disk full, permission, encoding…): pending."""

    decision: str
    file: str
    reason: str


@dataclass
class FileOutcome:
    """What a job wants a file to become."""

    new_bytes: bytes | None  # None: leave this file as it is
    applied: list[str] = field(default_factory=list)  # decision keys applied in this file
    conflicts: list[Conflict] = field(default_factory=list)
    remove: bool = False  # delete the file (only undo uses this, for files a batch created)


class FileJob(Protocol):
    """One file's share of a batch.

    ``compute`` gets the file's current content (None when it doesn't exist, so returning
    bytes creates it) and must find its targets in it by content. A job may also have a
    ``decisions`` attribute (a list of decision keys) used to name the failures when
    ``compute`` itself fails, e.g. with an EncodeError, and a ``loses_text`` attribute
    (True for a file that text leaves, e.g. the source of a move): such files are written
    after all the others.
    """

    @property
    def rel(self) -> str: ...

    def compute(self, current: TextFile | None) -> FileOutcome: ...


@dataclass
class FunctionJob:
    """A FileJob made from a function of the current content."""

    rel: str
    fn: Callable[[TextFile | None], FileOutcome]
    decisions: list[str] = field(default_factory=list)

    def compute(self, current: TextFile | None) -> FileOutcome:
        return self.fn(current)


@dataclass
class FileResult:
    """One file of a batch: what it was, what it became, where its old bytes are."""

    rel: str
    sha_before: str | None  # None: the file didn't exist
    sha_after: str | None  # None: the file was removed
    backup: str | None  # workspace-relative path of the copy of the old bytes
    created: bool
    diff: str
    applied: list[str] = field(default_factory=list)
    written: bool = False
    removed: bool = False
    after_copy: str | None = None  # copy of the new bytes, for reverse-patching on undo


@dataclass
class BatchResult:
    """What a batch did (or, for a dry run, would do)."""

    batch_id: str
    kind: str = "apply"
    dry_run: bool = False
    files: list[FileResult] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    journaled: bool = False
    notes: list[str] = field(default_factory=list)  # e.g. appends carried over while writing

    @property
    def ok(self) -> bool:
        return not self.conflicts and not self.failures

    @property
    def diff(self) -> str:
        """The unified diff of every changed file, in job order."""
        return "".join(f.diff for f in self.files)


def sha256(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _escape_surrogates(text: str) -> str:
    return re.sub("[\udc80-\udcff]", lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", text)


def unified_diff(rel: str, old: bytes | None, new: bytes | None) -> str:
    """A unified diff of two versions of a file, on decoded lines, headed ``a/rel b/rel``.

    ``None`` stands for a missing file. Line endings are not shown; invalid bytes are shown
    as ``\\xNN``. Returns "" when nothing differs.
    """
    if old == new:
        return ""
    if (old is not None and is_binary(old)) or (new is not None and is_binary(new)):
        return _("Binary files a/{file} and b/{file} differ").format(file=rel) + "\n"
    a = decode_bytes(rel, old).texts if old is not None else []
    b = decode_bytes(rel, new).texts if new is not None else []
    lines = list(difflib.unified_diff(a, b, f"a/{rel}", f"b/{rel}", lineterm=""))
    if not lines:
        # Only bytes that don't show in decoded text differ (endings, BOM).
        note = _("(line endings or byte order mark differ)")
        return f"--- a/{rel}\n+++ b/{rel}\n{note}\n"
    return _escape_surrogates("\n".join(lines) + "\n")
