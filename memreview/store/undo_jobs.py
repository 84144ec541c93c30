"""The jobs of an undo: one per file of the batch taken back, computed by the safe writer
on the file as it is now (restore from the backup, nothing to do, or reverse-patch), and
``verdicts.jsonl`` answered with ``"verdict": "undone"`` lines rather than restored.
``UndoJobBase`` is shared with the jobs that finish a batch cut short (``recover``)."""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memreview.i18n import _
from memreview.store.journal import JournalFile
from memreview.store.paths import PathEscape, safe_read_bytes
from memreview.store.reverse import Refuse, explain, redaction_blind, reverse_patch, version_in
from memreview.store.safewrite import Conflict, FileOutcome
from memreview.store.scrub import accepted_hash
from memreview.workspace import jsondoc
from memreview.workspace.textfile import Line, TextFile, decode_bytes


def _sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


@dataclass
class UndoJobBase:
    """One file of a journaled batch, to be taken back or finished."""

    root: Path
    batch_id: str
    jf: JournalFile
    is_verdicts: bool
    now: datetime

    verb = "undo"
    scrubbed = False  # a stored copy read was scrubbed by a redaction since the batch

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
            raise Refuse(
                _("the journal has no {what} of {file}").format(what=what, file=self.jf.file)
            )
        try:
            data = safe_read_bytes(self.root, rel)
        except (OSError, PathEscape) as exc:
            raise Refuse(
                _("the {what} {file} can't be read: {error}").format(what=what, file=rel, error=exc)
            ) from None
        if _sha(data) != sha:
            self.scrubbed = True  # accepted below only as a copy a redaction scrubbed
        if _sha(data) != sha and _sha(data) not in accepted_hash(self.root, rel, sha):
            raise Refuse(
                _("the {what} {file} doesn't match the journal (changed or damaged)").format(
                    what=what, file=rel
                )
            )
        return data

    def _before(self) -> bytes | None:
        if self.jf.created:
            return None
        return self._stored(self.jf.backup, self.jf.before, _("backup"))

    def _after(self, current: TextFile | None) -> bytes:
        if current is not None and current.sha256 == self.jf.after:
            return current.data
        return self._stored(self.jf.after_copy, self.jf.after, _("copy of the batch's version"))


@dataclass
class UndoJob(UndoJobBase):
    partly: bool = True  # the batch, or an undo of it, was cut short: it may not be in a file

    def compute(self, current: TextFile | None) -> FileOutcome:
        try:
            if self.is_verdicts:
                return self._undo_verdicts(current)
            return self._undo_file(current)
        except Refuse as refusal:
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
            raise Refuse(
                _("{file} was removed after the batch; nothing to reverse-patch").format(
                    file=self.rel
                )
            )
        after = self._after(current)
        before = self._before()
        # a copy scrubbed since holds [redacted …] where the file may still hold the value
        canon = redaction_blind if self.scrubbed else None
        try:
            new = reverse_patch(
                decode_bytes(self.rel, before) if before is not None else None,
                decode_bytes(self.rel, after),
                current,
                canon,
            )
        except Refuse as refusal:
            # the batch's changes are not there (a batch cut short never reached the file, or
            # an undo cut short already restored it) and its old lines all are: nothing to do
            if self.partly and version_in(self.rel, after, before, current, canon):
                return FileOutcome(None, applied=[self.key])
            reason = _("{file} was changed after the batch and {reason}").format(
                file=self.rel, reason=refusal.reason
            )
            raise Refuse(reason, explain(self.rel, self.batch_id, after, current.data)) from None
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
        appended: list[tuple[dict[str, Any], str]] = []
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


def _json_object(text: str) -> dict[str, Any] | None:
    try:
        value = jsondoc.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _utc_stamp(moment: datetime) -> str:
    """``2026-11-29T21:04:05Z``, the form the verdicts and proposals use."""

    return str(moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
