"""Taking back the last applied batch (DESIGN §4, "Undo").

Per file of the batch, looking at the file as it is *now*:

- still exactly what the batch wrote: restored from its backup (a file the batch created is
  removed);
- already as it was before the batch: nothing to do;
- changed since (an agent appended, or edited elsewhere): reverse-patched — each region the
  batch changed is looked up in the current lines and put back as it was, so lines written
  since survive — but only if every such region is still intact and can be found in exactly
  one place; otherwise the whole undo is refused, with a diff of what changed since.

Every file is checked before any is written: a refused undo writes nothing. The undo goes
through the same writer as an apply (locks, backups, journal), and ``verdicts.jsonl``, which
is append-only, is never restored: it gets one ``"verdict": "undone"`` line per verdict the
batch appended. State entries (``state.yaml``) belong to the decisions module: the result
carries the undone batch's decisions so the caller can take them back.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from memreview.store.journal import BatchRecord, JournalFile
from memreview.store.locks import DEFAULT_LOCK_FILES
from memreview.store.paths import PathEscape, safe_read_bytes
from memreview.store.safewrite import (
    Conflict,
    Failure,
    FileOutcome,
    FileResult,
    run_batch,
)
from memreview.store.scrub import accepted_hash
from memreview.workspace.textfile import Line, TextFile, decode_bytes

VERDICTS_FILES: tuple[str, ...] = ("memory/review/verdicts.jsonl",)
_MAX_CONTEXT = 20


@dataclass
class UndoResult:
    """What an undo did, or why it did nothing."""

    ok: bool
    message: str
    undone_batch: str | None = None  # the batch taken back
    undo_batch: str | None = None  # the undo's own batch id in the journal
    decisions: list = field(default_factory=list)  # the undone batch's decisions
    applied: list[str] = field(default_factory=list)  # its applied decision keys
    files: list[FileResult] = field(default_factory=list)
    refusals: list[Conflict] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    dry_run: bool = False

    @property
    def diff(self) -> str:
        """The diff the undo wrote (or, when refused, the diffs explaining why)."""
        if self.refusals:
            return "".join(c.diff for c in self.refusals)
        return "".join(f.diff for f in self.files)


def _sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


class _Refuse(Exception):
    def __init__(self, reason: str, diff: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.diff = diff


def _explain(rel: str, batch_id: str, after: bytes | None, now: bytes | None) -> str:
    """A diff from what the batch wrote to what the file holds now."""
    a = decode_bytes(rel, after).texts if after is not None else []
    b = decode_bytes(rel, now).texts if now is not None else []
    lines = difflib.unified_diff(
        a, b, f"a/{rel} (as batch {batch_id} wrote it)", f"b/{rel} (now)", lineterm=""
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
                raise _Refuse(
                    f"the lines around line {j1 + 1}, where the batch removed lines, "
                    "were changed since"
                )
            raise _Refuse(
                f"lines {j1 + 1}-{j2} as the batch wrote them were changed since"
                if j2 - j1 > 1
                else f"line {j1 + 1} as the batch wrote it was changed since"
            )
        if lo == 0 and hi == len(after):
            break
    raise _Refuse(f"the lines the batch changed near line {j1 + 1} occur more than once now")


def reverse_patch(before: TextFile | None, after: TextFile, current: TextFile) -> bytes:
    """``current`` with every change of before → after taken back; raises _Refuse.

    Lines are compared by their decoded text; the restored lines are the before version's
    exact bytes.
    """
    before_lines = before.lines if before is not None else []
    if before is not None and before_lines and before.encoding != current.encoding:
        raise _Refuse(f"the file's encoding changed since ({before.encoding} → {current.encoding})")
    a = [ln.text for ln in before_lines]
    b = after.texts
    c = current.texts
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    edits: list[tuple[int, int, list[Line]]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start, end = _locate(b, j1, j2, c)
        edits.append((start, end, list(before_lines[i1:i2])))
    edits.sort(key=lambda e: (e[0], e[1]))
    for (s1, e1, _), (s2, _e2, _) in zip(edits, edits[1:], strict=False):
        if s2 < e1 or (s2 == s1 and e1 == s1):
            raise _Refuse("the batch's changes overlap in the current file")
    lines = list(current.lines)
    for start, end, replacement in reversed(edits):
        lines[start:end] = replacement
    ending = current.default_ending
    for i, line in enumerate(lines[:-1]):
        if line.ending == "":
            # A line that ended the file in one version is followed by others now.
            lines[i] = Line(line.text, ending, line.raw + current.encode_text(ending))
    return current.render(lines)


def version_in(rel: str, base: bytes | None, version: bytes | None, current: TextFile) -> bool:
    """Are the lines ``version`` changed from ``base`` all found, intact, in ``current``?"""
    if version is None:
        return False
    try:
        reverse_patch(
            decode_bytes(rel, base) if base is not None else None,
            decode_bytes(rel, version),
            current,
        )
    except _Refuse:
        return False
    return True


@dataclass
class UndoJobBase:
    """One file of a journaled batch, to be taken back or finished."""

    root: Path
    batch_id: str
    jf: JournalFile
    is_verdicts: bool
    now: datetime

    verb = "undo"

    @property
    def rel(self) -> str:
        return self.jf.file

    @property
    def decisions(self) -> list[str]:
        return [self.key]

    @property
    def key(self) -> str:
        return f"{self.verb}:{self.jf.file}"

    def _stored(self, rel: str | None, sha: str | None, what: str) -> bytes:
        if rel is None:
            raise _Refuse(f"the journal has no {what} of {self.jf.file}")
        try:
            data = safe_read_bytes(self.root, rel)
        except (OSError, PathEscape) as exc:
            raise _Refuse(f"the {what} {rel} can't be read: {exc}") from None
        if _sha(data) != sha and _sha(data) not in accepted_hash(self.root, rel, sha):
            raise _Refuse(f"the {what} {rel} doesn't match the journal (changed or damaged)")
        return data

    def _before(self) -> bytes | None:
        if self.jf.created:
            return None
        return self._stored(self.jf.backup, self.jf.before, "backup")

    def _after(self, current: TextFile | None) -> bytes:
        if current is not None and current.sha256 == self.jf.after:
            return current.data
        return self._stored(self.jf.after_copy, self.jf.after, "copy of the batch's version")


@dataclass
class _UndoJob(UndoJobBase):
    def compute(self, current: TextFile | None) -> FileOutcome:
        try:
            if self.is_verdicts:
                return self._undo_verdicts(current)
            return self._undo_file(current)
        except _Refuse as refusal:
            return FileOutcome(
                None, conflicts=[Conflict(self.key, self.rel, refusal.reason, refusal.diff)]
            )

    def _undo_file(self, current: TextFile | None) -> FileOutcome:
        now_sha = current.sha256 if current is not None else None
        if now_sha == self.jf.before:
            return FileOutcome(None, applied=[self.key])
        if now_sha == self.jf.after:
            if self.jf.created:
                return FileOutcome(None, applied=[self.key], remove=True)
            return FileOutcome(self._before(), applied=[self.key])
        if current is None:
            raise _Refuse(f"{self.rel} was removed after the batch; nothing to reverse-patch")
        after = self._after(current)
        before = self._before()
        try:
            new = reverse_patch(
                decode_bytes(self.rel, before) if before is not None else None,
                decode_bytes(self.rel, after),
                current,
            )
        except _Refuse as refusal:
            # the batch's changes are not there (a batch cut short never reached the file, or
            # an undo cut short already restored it) and its old lines all are: nothing to do
            if version_in(self.rel, after, before, current):
                return FileOutcome(None, applied=[self.key])
            reason = f"{self.rel} was changed after the batch and {refusal.reason}"
            raise _Refuse(reason, _explain(self.rel, self.batch_id, after, current.data)) from None
        if self.jf.created and not decode_bytes(self.rel, new).lines:
            return FileOutcome(None, applied=[self.key], remove=True)
        return FileOutcome(new, applied=[self.key])

    def _undo_verdicts(self, current: TextFile | None) -> FileOutcome:
        if (current.sha256 if current is not None else None) == self.jf.before:
            return FileOutcome(None, applied=[self.key])  # the batch never wrote it
        before = self._before()
        after = self._after(current)
        a = decode_bytes(self.rel, before).texts if before is not None else []
        b = decode_bytes(self.rel, after).texts
        appended: list[tuple[dict, str]] = []
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
            if tag in ("insert", "replace"):
                for text in b[j1:j2]:
                    v = _json_object(text)
                    if v and "proposal" in v:
                        appended.append((v, text))
        done = set()
        present = set(current.texts if current is not None else [])
        for line in present:
            obj = _json_object(line)
            if obj and obj.get("verdict") == "undone" and obj.get("undoes") == self.batch_id:
                done.add(json.dumps(obj.get("proposal"), sort_keys=True))
        new_lines = []
        for verdict, text in appended:
            if json.dumps(verdict["proposal"], sort_keys=True) in done or text not in present:
                continue  # taken back already, or never written (a batch cut short)
            undone = {"ts": _utc_stamp(self.now), "proposal": verdict["proposal"]}
            for key in ("relation", "new", "old"):
                if key in verdict:
                    undone[key] = verdict[key]
            undone |= {
                "verdict": "undone",
                "was": verdict.get("verdict"),
                "by": "human",
                "undoes": self.batch_id,
            }
            new_lines.append(json.dumps(undone, ensure_ascii=False))
        if not new_lines:
            return FileOutcome(None, applied=[self.key])
        base = current if current is not None else decode_bytes(self.rel, b"")
        lines = list(base.lines)
        if lines and lines[-1].ending == "":
            last = lines[-1]
            end = base.default_ending
            lines[-1] = Line(last.text, end, last.raw + base.encode_text(end))
        lines += [base.make_line(text) for text in new_lines]
        return FileOutcome(base.render(lines), applied=[self.key])


def _json_object(text: str) -> dict | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _files_to_undo(batch: BatchRecord) -> list[JournalFile]:
    if batch.committed:
        files = [f for f in batch.files if f.written]
    else:
        files = [f for f in batch.files if f.file not in batch.failed_files]
    return [f for f in files if f.before != f.after]


def undo_jobs(
    root: Path, batch: BatchRecord, now: datetime, verdicts_files: Sequence[str] = VERDICTS_FILES
) -> list[_UndoJob]:
    """One job per file ``batch`` changed, each taking its change back from what the file
    holds when the job runs."""
    return [
        _UndoJob(root, batch.batch_id, jf, jf.file in verdicts_files, now)
        # the reverse of the order the batch wrote them: the files text left get it back
        # before the files that received it lose it, so a kill leaves it in two places at worst
        for jf in reversed(_files_to_undo(batch))
    ]


def undo_record(
    root: Path | str,
    batch: BatchRecord,
    *,
    now: datetime | None = None,
    fault: Callable[[str], None] | None = None,
    lock_files: Sequence[str] = DEFAULT_LOCK_FILES,
    lock_wait: float = 2.0,
    verdicts_files: Sequence[str] = VERDICTS_FILES,
    dry_run: bool = False,
) -> UndoResult:
    """Take back ``batch``, last or not, by the rules of the module docstring: every file
    is checked against what it holds now, and a refusal writes nothing."""
    real_root = Path(root).resolve()
    now = now or datetime.now().astimezone()
    if batch.damaged:
        lines = ", ".join(map(str, batch.damaged))
        return UndoResult(
            False,
            f"undo of batch {batch.batch_id} refused, nothing was written: its journal "
            f"line(s) {lines} are damaged, so what it wrote is not known for sure",
            undone_batch=batch.batch_id,
        )
    jobs = undo_jobs(real_root, batch, now, verdicts_files)
    result = run_batch(
        real_root,
        jobs,
        [{"undo": batch.batch_id}],
        lock_files=lock_files,
        now=now,
        dry_run=dry_run,
        lock_wait=lock_wait,
        fault=fault,
        kind="undo",
        undoes=batch.batch_id,
        all_or_nothing=True,
    )
    undo = UndoResult(
        ok=result.ok,
        message="",
        undone_batch=batch.batch_id,
        undo_batch=None if dry_run or not result.journaled else result.batch_id,
        decisions=list(batch.decisions),
        applied=list(batch.applied),
        files=result.files,
        refusals=result.conflicts,
        failures=result.failures,
        dry_run=dry_run,
    )
    if result.conflicts:
        reasons = "; ".join(c.reason for c in result.conflicts)
        undo.message = f"undo of batch {batch.batch_id} refused, nothing was written: {reasons}"
    elif result.failures:
        reasons = "; ".join(f"{f.file}: {f.reason}" for f in result.failures)
        undo.message = f"undo of batch {batch.batch_id} incomplete: {reasons}"
    else:
        verb = "would take back" if dry_run else "took back"
        undo.message = f"{verb} batch {batch.batch_id} ({len(result.files)} file(s))"
    for note in result.notes:
        undo.message += f"; {note}"
    return undo


def _utc_stamp(moment) -> str:
    """``2026-11-29T21:04:05Z``, the form the verdicts and proposals use."""

    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
