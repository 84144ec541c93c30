"""Reading ``.memreview/journal.jsonl``: what was applied, what was cut short, what to undo.

The journal is append-only. Each batch writes an ``intent`` line (its decisions and, per
file, the sha256 before and after and where the backup goes), then a ``file`` line per file
written (or a ``failed`` line), then a ``commit`` line. Undo batches look the same with
``"kind": "undo"`` and ``"undoes": <batch id>``. :func:`recent_decisions` replays the
batches for the weekly report.

The journal is read tolerantly: a line that doesn't parse (torn by a crash, or edited by
hand) or whose known fields have the wrong type is reported with its line number
(``journal_problems``) and skipped; the batch it names is marked damaged, so undo refuses
that batch and only that one.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from memreview.store.paths import PathEscape, safe_read_bytes
from memreview.store.private import PRIVATE_DIR, read_private
from memreview.workspace.dates import parse_date_prefix
from memreview.workspace.jsonl import parse_jsonl, problem_lines

JOURNAL = "journal.jsonl"


@dataclass(frozen=True)
class JournalFile:
    """One file of a batch as the journal knows it."""

    file: str
    before: str | None  # sha256 before; None: the batch created it
    after: str | None  # sha256 after; None: the batch removed it
    backup: str | None
    after_copy: str | None
    created: bool
    removed: bool = False
    size_after: int | None = None
    written: bool = False  # a ``file`` line confirms it was written
    tmp: str | None = None  # the temp file it is written through


@dataclass
class BatchRecord:
    """A batch from the journal."""

    batch_id: str
    kind: str  # "apply" or "undo"
    ts: str
    decisions: list
    files: list[JournalFile]
    committed: bool = False
    committed_ts: str | None = None
    undoes: str | None = None
    finishes: str | None = None  # a "finish" batch: the interrupted batch it completes
    applied: list[str] = field(default_factory=list)
    conflicts: list[dict] = field(default_factory=list)
    failures: list[dict] = field(default_factory=list)
    failed_files: list[str] = field(default_factory=list)
    undone_by: str | None = None  # the committed undo batch that took it back
    finished_by: str | None = None  # the committed batch that finished it after a kill
    temps: list[str] = field(default_factory=list)  # every temp file name it journaled
    damaged: list[int] = field(default_factory=list)  # journal lines of it that were skipped


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
        what = "an undo of batch " + str(b.undoes) if b.kind == "undo" else b.kind
        head = (
            f"batch {b.batch_id} ({what}, {b.ts}) stopped after {self.done} of "
            f"{len(self.files)} files"
        )
        if b.kind == "undo":
            return head + "; run `memreview undo` again to finish it"
        return (
            head + "; finish it (`memreview recover --finish`) or roll it back "
            "(`memreview recover --rollback`)"
        )

    def describe(self) -> str:
        """The headline, then one line per file, for the user."""
        words = {
            "old": "left as it was",
            "new": "fully written",
            "neither": "changed by someone else since (neither old nor new)",
        }
        lines = [self.headline()]
        for f in self.files:
            backup = f"; backup at {f.backup}" if f.backup else ""
            lines.append(f"  {f.file}: {words[f.state]}{backup}")
        return "\n".join(lines)


@dataclass(frozen=True)
class JournalProblem:
    """A journal line that was skipped, and why (``batch``: the batch it names, if any)."""

    line: int
    reason: str
    batch: str | None = None

    def describe(self) -> str:
        return f".memreview/{JOURNAL} line {self.line}: {self.reason}; skipped"


_OPT_STR = (str, type(None))
_OPT_BOOL = (bool, type(None))
_OPT_LIST = (list, type(None))
# The known fields of each kind of line and the types they may hold; other fields are free.
_FILE_FIELDS: dict[str, tuple[type, ...]] = {
    "file": (str,),
    "before": _OPT_STR,
    "after": _OPT_STR,
    "backup": _OPT_STR,
    "after_copy": _OPT_STR,
    "created": _OPT_BOOL,
    "removed": _OPT_BOOL,
    "size_after": (int, type(None)),
    "tmp": _OPT_STR,
}
_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "intent": {
        "kind": _OPT_STR,
        "ts": _OPT_STR,
        "decisions": _OPT_LIST,
        "files": _OPT_LIST,
        "undoes": _OPT_STR,
        "finishes": _OPT_STR,
    },
    "file": _FILE_FIELDS,
    "replan": _FILE_FIELDS,
    "failed": {"file": (str,)},
    "commit": {
        "kind": _OPT_STR,
        "ts": _OPT_STR,
        "applied": _OPT_LIST,
        "conflicts": _OPT_LIST,
        "failures": _OPT_LIST,
        "undoes": _OPT_STR,
    },
    "undo": {"undoes": _OPT_STR},
}


def _field_problem(record: dict, fields: dict[str, tuple[type, ...]]) -> str | None:
    for name, types in fields.items():
        value = record.get(name)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            return f"'{name}' is {type(value).__name__ if name in record else 'missing'}"
    return None


def _record_problem(record: dict) -> str | None:
    """Why a journal line that is a JSON object can't be used, or None."""
    if not isinstance(record.get("batch"), str) or not record["batch"]:
        return "no batch id"
    kind = record.get("type")
    if not isinstance(kind, str):
        return "no line type"
    problem = _field_problem(record, _FIELDS.get(kind, {}))
    if problem is None and kind == "intent":
        for entry in record.get("files") or []:
            if not isinstance(entry, dict):
                return "a file of the batch is not an object"
            problem = _field_problem(entry, _FILE_FIELDS)
            if problem is not None:
                return f"a file of the batch: {problem}"
    return problem


def _checked(data: bytes | None) -> tuple[list[tuple[int, dict]], list[JournalProblem]]:
    """(line number, record) for each usable journal line, and the lines skipped."""
    data = data or b""
    rows, bad = parse_jsonl(data)
    problems: list[JournalProblem] = []
    if bad:
        lines = data.split(b"\n")
        for no, reason in bad:
            if no == len(lines):  # the last line, without its newline: cut short
                reason = "torn (cut short while it was written)"
            problems.append(JournalProblem(no, reason, _batch_named(lines[no - 1])))
    good = []
    for no, record in rows:
        problem = _record_problem(record)
        if problem is None:
            good.append((no, record))
        else:
            batch = record.get("batch")
            problems.append(JournalProblem(no, problem, batch if isinstance(batch, str) else None))
    problems.sort(key=lambda p: p.line)
    return good, problems


def _batch_named(raw: bytes) -> str | None:
    """The batch id a damaged line names, when it can still be read."""
    found = re.search(rb'"batch"\s*:\s*"([^"\\]{1,200})"', raw)
    return found.group(1).decode("utf-8", "replace") if found else None


def read_journal(root: Path | str) -> list[dict]:
    """Every usable line of the journal, oldest first (damaged lines are skipped)."""
    return [record for _no, record in _checked(read_private(root, JOURNAL))[0]]


def journal_problems(root: Path | str) -> list[JournalProblem]:
    """The journal lines that were skipped, with their line numbers and reasons."""
    return _checked(read_private(root, JOURNAL))[1]


def _journal_file(entry: dict) -> JournalFile | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        return None
    return JournalFile(
        file=entry["file"],
        before=entry.get("before"),
        after=entry.get("after"),
        backup=entry.get("backup"),
        after_copy=entry.get("after_copy"),
        created=bool(entry.get("created")),
        removed=bool(entry.get("removed")),
        size_after=entry.get("size_after"),
        tmp=entry.get("tmp") if isinstance(entry.get("tmp"), str) else None,
    )


def batches(root: Path | str) -> list[BatchRecord]:
    """Every batch in the journal, oldest first; a batch a damaged line names is marked."""
    return _batches(*_checked(read_private(root, JOURNAL)))


def _batches(
    rows: list[tuple[int, dict]], problems: list[JournalProblem] = ()
) -> list[BatchRecord]:
    by_id: dict[str, BatchRecord] = {}
    order: list[BatchRecord] = []
    taken_back: list[tuple[str, object]] = []
    events = sorted([*rows, *((p.line, p) for p in problems)], key=lambda e: e[0])
    for no, record in events:
        if isinstance(record, JournalProblem):
            # the batch a damaged line names is kept (an empty one if its intent line is
            # the damaged one) and marked, so undo refuses it rather than skipping to an
            # older batch
            if record.batch is not None:
                if record.batch not in by_id:
                    by_id[record.batch] = BatchRecord(record.batch, "apply", "", [], [])
                    order.append(by_id[record.batch])
                by_id[record.batch].damaged.append(no)
            continue
        kind = record.get("type")
        bid = record["batch"]
        if kind == "undo":  # a one-line undo record
            taken_back.append((bid, record.get("undoes")))
            continue
        if kind == "intent":
            files = [f for f in map(_journal_file, record.get("files") or []) if f]
            batch = BatchRecord(
                batch_id=bid,
                kind=str(record.get("kind") or "apply"),
                ts=str(record.get("ts") or ""),
                decisions=list(record.get("decisions") or []),
                files=files,
                undoes=record.get("undoes"),
            )
            batch.temps = [f.tmp for f in files if f.tmp]
            batch.finishes = record.get("finishes")
            by_id[bid] = batch
            order.append(batch)
            continue
        batch = by_id.get(bid)
        if batch is None:
            continue
        if kind in ("file", "replan"):  # replan: re-read after a writer without the lock
            confirmed = _journal_file(record)
            if confirmed is None:
                continue
            if confirmed.tmp:
                batch.temps.append(confirmed.tmp)
            confirmed = JournalFile(**{**confirmed.__dict__, "written": kind == "file"})
            if any(f.file == confirmed.file for f in batch.files):  # keep the intent's order
                batch.files = [confirmed if f.file == confirmed.file else f for f in batch.files]
            else:
                batch.files.append(confirmed)
        elif kind == "failed":
            batch.failed_files.append(str(record.get("file")))
        elif kind == "commit":
            batch.committed = True
            batch.committed_ts = str(record.get("ts") or "") or None
            batch.applied = list(record.get("applied") or [])
            batch.conflicts = list(record.get("conflicts") or [])
            batch.failures = list(record.get("failures") or [])
    for batch in order:
        if batch.kind == "undo" and batch.committed and not batch.failures and batch.undoes:
            target = by_id.get(batch.undoes)
            if target is not None:
                target.undone_by = batch.batch_id
        if batch.kind == "finish" and batch.committed and not batch.failures and batch.finishes:
            target = by_id.get(batch.finishes)
            if target is not None:
                target.finished_by = batch.batch_id
    for undo_id, undoes in taken_back:
        target = by_id.get(undoes) if isinstance(undoes, str) else None
        if target is not None and target.undone_by is None:
            target.undone_by = undo_id
    return order


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


# The kinds of batch an undo takes back (an undo batch is not: apply its decisions again).
UNDOABLE_KINDS = ("apply", "restore", "unhide")


def last_batch(root: Path | str, *, undoable: bool = False) -> BatchRecord | None:
    """The last apply, restore or unhide batch in the journal (committed or not).

    With ``undoable``: the last such batch not yet taken back by an undo — the one
    ``undo_last`` would reverse.
    """
    for batch in reversed(batches(root)):
        if batch.kind not in UNDOABLE_KINDS:
            continue
        if undoable and batch.undone_by:
            continue
        return batch
    return None


RECENT_DAYS = 7


def failed_keys(batch: BatchRecord) -> set[str]:
    """The keys of the batch's decisions that were not written (conflicts, failures)."""
    return {
        c["decision"]
        for c in (*batch.conflicts, *batch.failures)
        if isinstance(c, dict) and isinstance(c.get("decision"), str) and c["decision"]
    }


def recent_decisions(root: Path | str, today: date, days: int = RECENT_DAYS) -> dict:
    """The decisions applied in the ``days`` days up to ``today``, replayed from the batches.

    An apply batch counts when it committed in the window and no committed undo took it
    back; its decisions are its intent line's, less those that conflicted or failed. An apply
    batch with an intent but no commit was cut short and is listed. Damaged lines and an
    unreadable journal become warnings (JSON-able dicts), never errors.
    """
    rel = f"{PRIVATE_DIR}/{JOURNAL}"
    warnings: list[dict] = []
    try:
        data = read_private(root, JOURNAL)
    except PathEscape:
        data = None
        warnings.append(
            {"file": rel, "line": None, "message": "skipped: leads outside the workspace"}
        )
    except OSError as exc:
        data = None
        warnings.append(
            {"file": rel, "line": None, "message": f"cannot read: {exc.strerror or exc}"}
        )
    rows, damaged = _checked(data)
    problems = [(p.line, p.reason) for p in damaged]
    warnings += [{"file": rel, "line": no, "message": msg} for no, msg in problem_lines(problems)]
    start = today - timedelta(days=days - 1)
    decisions: list[dict] = []
    undone: list[str] = []
    interrupted: list[dict] = []
    done = []
    for batch in _batches(rows, damaged):
        if batch.kind != "apply":
            continue
        if not batch.committed:
            day = parse_date_prefix(batch.ts)
            if day is not None and start <= day <= today:
                interrupted.append({"date": day.isoformat(), "batch": batch.batch_id})
            continue
        day = parse_date_prefix(batch.committed_ts) or parse_date_prefix(batch.ts)
        if day is not None and start <= day <= today:
            done.append((day, batch))
    for day, batch in sorted(done, key=lambda t: (t[0], t[1].batch_id)):
        if batch.undone_by:
            undone.append(batch.batch_id)
            continue
        failed = failed_keys(batch)
        seen: set[tuple] = set()
        for d in batch.decisions:
            if not isinstance(d, dict) or not isinstance(d.get("item"), str) or not d["item"]:
                continue
            if failed & {d.get(k) for k in ("item", "key", "id")}:
                continue
            key = (d["item"], str(d.get("action")))
            if key not in seen:
                seen.add(key)
                decisions.append({"date": day.isoformat(), "batch": batch.batch_id, **d})
    return {
        "has_journal": data is not None,
        "decisions": decisions,
        "undone_batches": undone,
        "interrupted": interrupted,
        "warnings": warnings,
    }
