"""Batches that were cut short: an ``intent`` line and no ``commit`` line in the journal,
with where each of their files stands now (as before, as the batch wrote it, or neither)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from memreview.i18n import _, ngettext
from memreview.store.journal import BatchRecord, JournalFile, batches
from memreview.store.paths import PathEscape, safe_read_bytes


@dataclass(frozen=True)
class InterruptedFile:
    """A file of an interrupted batch and where it stands now."""

    file: str
    state: str  # "old" (as before the batch), "new" (as the batch wrote it) or "neither"
    sha_now: str | None
    before: str | None
    after: str | None
    backup: str | None


@dataclass
class InterruptedBatch:
    """A batch with an intent line and no commit line: the apply was cut short."""

    batch: BatchRecord
    files: list[InterruptedFile]

    @property
    def done(self) -> int:
        """How many of its files hold what the batch meant to write."""
        return sum(1 for f in self.files if f.state == "new")

    def headline(self) -> str:
        """``batch B stopped after 3 of 9 files``, with what can be done about it."""
        b = self.batch
        fields = {"batch": b.batch_id, "when": b.ts, "done": self.done, "count": len(self.files)}
        if b.kind == "undo":
            return ngettext(
                "batch {batch} (an undo of batch {undone}, {when}) stopped after {done} of "
                "{count} file; run `memreview undo` again to finish it",
                "batch {batch} (an undo of batch {undone}, {when}) stopped after {done} of "
                "{count} files; run `memreview undo` again to finish it",
                len(self.files),
            ).format(undone=b.undoes, **fields)
        return ngettext(
            "batch {batch} ({kind}, {when}) stopped after {done} of {count} file; finish it "
            "(`memreview recover --finish`) or roll it back (`memreview recover --rollback`)",
            "batch {batch} ({kind}, {when}) stopped after {done} of {count} files; finish it "
            "(`memreview recover --finish`) or roll it back (`memreview recover --rollback`)",
            len(self.files),
        ).format(kind=b.kind, **fields)

    def describe(self) -> str:
        """The headline, then one line per file, for the user."""
        words = {
            "old": _("left as it was"),
            "new": _("fully written"),
            "neither": _("changed by someone else since (neither old nor new)"),
        }
        lines = [self.headline()]
        for f in self.files:
            if f.backup:
                line = _("{file}: {state}; backup at {backup}")
            else:
                line = _("{file}: {state}")
            lines.append("  " + line.format(file=f.file, state=words[f.state], backup=f.backup))
        return "\n".join(lines)


def _sha_now(root: Path | str, rel: str) -> str | None:
    try:
        return hashlib.sha256(safe_read_bytes(root, rel)).hexdigest()
    except FileNotFoundError:
        return None
    except (OSError, PathEscape):
        return "unreadable"


def file_state(root: Path | str, jf: JournalFile) -> tuple[str, str | None]:
    """("old" | "new" | "neither", current sha256) of one file of a batch."""
    now = _sha_now(root, jf.file)
    if now == jf.after:
        return "new", now
    if now == jf.before:
        return "old", now
    return "neither", now


def interrupted_batches(root: Path | str) -> list[InterruptedBatch]:
    """Batches that wrote an intent line but no commit line, with each file's state now.

    For each file: "old" when its sha256 equals the one before the batch (or it is still
    missing, for a file the batch was creating), "new" when it equals the batch's after-hash,
    "neither" when it has changed since. Batches later taken back by a committed undo are
    left out.
    """
    found = []
    for batch in batches(root):
        if batch.committed or batch.undone_by or batch.finished_by:
            continue
        files = []
        for jf in batch.files:
            state, now = file_state(root, jf)
            files.append(InterruptedFile(jf.file, state, now, jf.before, jf.after, jf.backup))
        found.append(InterruptedBatch(batch, files))
    return found
