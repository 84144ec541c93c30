"""Putting an archived entry back where it came from (``memreview restore``).

What can be restored:
- an anchor block in the superseded or demoted archive, and a promoted entry (with its
  marker) in the demoted or rejected-promotions archive: the block leaves the archive;
- an entry a batch deleted without archiving it (an archived fragment ``remove``, the other
  copies of a duplicate ``keep``): found in the batch's backups, it has no archive block.

Where it goes back: archive blocks written since memreview records it have a ``From: <file> §
<heading>`` line (an anchor's metadata; after a promoted entry's ``Rejected:``/``Demoted:``
line). For older blocks the origin is looked up in the journal: the batch whose archive copy
gained the block, and the file of that batch that lost its first line. Else the owner says
(``to``). The block goes back at the end of its heading's section (the end of the file when
the heading is gone), without the archive's own lines (``Superseded-By:``, ``Demoted:``,
``Rejected:``, ``From:``); a promoted entry's marker leaves the ``Removed promotions``
section it was kept in.

A restore is a batch like an apply, through the one writer: journaled (kind ``restore``),
backed up, undoable. The file that receives the entry is written before the archive that
loses it, so a kill leaves the entry in both, never in none; ``verdicts.jsonl`` gets a
``restored`` line.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from memreview import store
from memreview.decisions.plan.builder import ANCHOR_TEXT_RE
from memreview.decisions.state import config_of
from memreview.i18n import _
from memreview.workspace.markdown import parse_memory_file
from memreview.workspace.textfile import Line, TextFile, decode_bytes

REJECTED_FILE = "memory/archive/rejected-promotions.md"
TOMBSTONE_HEADING = "## Removed promotions"
MARKER_RE = re.compile(r"<!--\s*openclaw-memory-promotion:([^\n]*?)\s*-->")
_HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(.*?)\s*$")
# lines only an archive holds: dropped when the entry goes back
_ARCHIVE_META = re.compile(r"^(superseded-by|demoted|rejected|from)\s*:", re.I)
_FROM_RE = re.compile(r"(?:^|·\s*)From:\s*(.+?)\s*$", re.I)
_REMOVING_QUEUES = ("archived", "duplicates")


@dataclass
class Archived:
    """An entry that can be put back."""

    id: str
    kind: str  # superseded | demoted | rejected-promotion | removed
    archive: str | None  # the archive file holding it; None for an entry only in backups
    lines: list[str]  # its lines as the archive (or the backup) holds them
    origin: str | None = None  # the file it came from
    heading: str | None = None  # the heading it sat under
    found_by: str = ""  # recorded | journal | "" (unknown)
    after: str | None = None  # a removed entry: the line that preceded it
    batch: str | None = None  # the batch that archived or removed it, when known
    marker: str | None = None  # a promoted entry's marker line
    after_anchor: str | None = None  # an anchor: the id of the anchor it followed

    @property
    def restored_lines(self) -> list[str]:
        """The lines that go back: without the archive's own lines, trailing blanks."""
        out = [t for t in self.lines if not _ARCHIVE_META.match(t)]
        while out and not out[-1].strip():
            out.pop()
        while out and not out[0].strip():
            out.pop(0)
        return out

    @property
    def title(self) -> str:
        """The line that names it (an anchor's header, an entry's first line)."""
        body = [t for t in self.restored_lines if not MARKER_RE.search(t)]
        return body[0] if body else (self.lines[0] if self.lines else "")

    def to_json(self) -> dict:
        """As ``restore --list --json`` prints it."""
        return {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "archive": self.archive,
            "origin": self.origin,
            "heading": self.heading,
            "after": self.after_anchor,
            "found_by": self.found_by or None,
            "batch": self.batch,
            "text": "\n".join(self.restored_lines),
        }


def _id(*parts: str) -> str:
    return "ar-" + hashlib.sha256("\x00".join(parts).encode("utf-8", "replace")).hexdigest()[:10]


def _read(root: Path, rel: str | None) -> TextFile | None:
    if rel is None:
        return None
    try:
        return decode_bytes(rel, store.safe_read_bytes(root, rel))
    except FileNotFoundError:
        return None
    except (OSError, store.PathEscape):
        return None


_AFTER_RE = re.compile(r"\s+after \[\[([^\]\s]+)\]\]\s*$")


def _split_origin(text: str) -> tuple[str, str | None, str | None]:
    """``file § heading after [[id]]`` -> (file, heading, id); the last two optional."""
    after = _AFTER_RE.search(text)
    anchor = after.group(1) if after else None
    if after:
        text = text[: after.start()]
    file, sep, heading = text.partition(" § ")
    return file.strip(), (heading.strip() or None) if sep else None, anchor


def _archive_blocks(rel: str, tf: TextFile, kind: str) -> list[Archived]:
    """The anchor blocks and promoted entries of one archive file."""
    mf, _problems = parse_memory_file(tf, archived=True)
    texts = tf.texts
    out: list[Archived] = []
    for a in mf.anchors:
        start, end = a.line - 1, a.end_line
        lines = texts[start:end]
        item = Archived(_id(rel, lines[0]), kind, rel, lines)
        frm = next((t for t in lines[1:] if re.match(r"^from\s*:", t, re.I)), None)
        if frm:
            item.origin, item.heading, item.after_anchor = _split_origin(frm.split(":", 1)[1])
            item.found_by = "recorded"
        out.append(item)
    for e in mf.entries:
        if e.kind not in ("bullet", "promoted") or e.in_anchor:
            continue
        start = e.line - 1
        while start > 0 and (
            MARKER_RE.search(texts[start - 1]) or _ARCHIVE_META.match(texts[start - 1])
        ):
            start -= 1
        lines = texts[start : e.end_line]
        body = texts[e.line - 1]
        item = Archived(
            _id(rel, body),
            "rejected-promotion" if rel == REJECTED_FILE else kind,
            rel,
            lines,
        )
        item.marker = next((t for t in lines if MARKER_RE.search(t)), None)
        for t in lines:
            m = _FROM_RE.search(t) if _ARCHIVE_META.match(t) else None
            if m:
                item.origin, item.heading, item.after_anchor = _split_origin(m.group(1))
                item.found_by = "recorded"
        out.append(item)
    return out


def _section_heading(text: str) -> re.Match | None:
    """The heading match of a line that opens a section (not an anchor's header)."""
    m = _HEADING_RE.match(text)
    return m if m and not ANCHOR_TEXT_RE.match(m.group(2)) else None


def _heading_above(texts: list[str], index: int) -> str | None:
    """The text of the nearest section heading above line ``index``."""
    for i in range(index - 1, -1, -1):
        m = _section_heading(texts[i])
        if m:
            return m.group(2)
    return None


def _anchor_above(tf: TextFile, index: int) -> str | None:
    """The id of the anchor that ends right above line ``index`` of ``tf`` in the same
    section, or None."""
    mf, _problems = parse_memory_file(tf)
    heading = max((i for i in range(index) if _section_heading(tf.texts[i])), default=-1)
    before = [a for a in mf.anchors if heading < a.line - 1 < index]
    return before[-1].id if before else None


def _origin_from_journal(root: Path, item: Archived, records) -> None:
    """The origin of an archive block without a ``From:`` line: the batch whose copy of the
    archive gained the block, and its file that lost the block's first line."""
    body = item.title
    for b in reversed(records):
        if b.undone_by or b.kind != "apply":
            continue
        jf = next((f for f in b.files if f.file == item.archive and f.written), None)
        if jf is None:
            continue
        after = _read(root, jf.after_copy)
        before = _read(root, jf.backup) if not jf.created else None
        if after is None or body not in after.texts or (before and body in before.texts):
            continue
        for other in b.files:
            if other.file == item.archive or not other.written or other.created:
                continue
            was, now = _read(root, other.backup), _read(root, other.after_copy)
            if was is None or body not in was.texts or (now is not None and body in now.texts):
                continue
            index = was.texts.index(body)
            item.origin, item.heading = other.file, _heading_above(was.texts, index)
            item.after_anchor = _anchor_above(was, index)
            item.found_by, item.batch = "journal", b.batch_id
            return


def _removed_entries(root: Path, records, archive_dir: str, verdicts: str) -> list[Archived]:
    """Entries a batch of the archived or duplicates queue deleted (no archive block): the
    runs of lines its backup has and its copy of the new version lacks."""
    out: list[Archived] = []
    for b in records:
        if b.undone_by or b.kind != "apply" or not b.committed:
            continue
        queues = {d.get("queue") for d in b.decisions if isinstance(d, dict)}
        if not queues & set(_REMOVING_QUEUES):
            continue
        for jf in b.files:
            if not jf.written or jf.created or jf.file == verdicts:
                continue
            if jf.file.startswith(archive_dir.rstrip("/") + "/"):
                continue
            was, now = _read(root, jf.backup), _read(root, jf.after_copy)
            if was is None or now is None:
                continue
            a, c = was.texts, now.texts
            matcher = difflib.SequenceMatcher(None, a, c, autojunk=False)
            for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
                if tag != "delete":
                    continue
                lines = [t for t in a[i1:i2] if not MARKER_RE.search(t)]
                while lines and not lines[-1].strip():
                    lines.pop()
                if not any(t.strip() for t in lines):
                    continue
                item = Archived(_id(b.batch_id, jf.file, *lines), "removed", None, lines)
                item.origin, item.heading = jf.file, _heading_above(a, i1)
                item.after = a[i1 - 1] if i1 > 0 else None
                item.found_by, item.batch = "journal", b.batch_id
                out.append(item)
    return out


def archived_entries(root: Path | str) -> list[Archived]:
    """Every entry that can be put back: archive blocks first (file order), then entries
    deleted by a batch that are in no memory file now."""
    root = Path(root).resolve()
    cfg = config_of(root)
    records = store.batches(root)
    out: list[Archived] = []
    for rel, kind in (
        (cfg.superseded_file, "superseded"),
        (cfg.demoted_file, "demoted"),
        (REJECTED_FILE, "rejected-promotion"),
    ):
        tf = _read(root, rel)
        if tf is None:
            continue
        for item in _archive_blocks(rel, tf, kind):
            if item.origin is None:
                _origin_from_journal(root, item, records)
            out.append(item)
    for item in _removed_entries(root, records, cfg.archive_dir, cfg.verdicts):
        current = _read(root, item.origin)
        if current is not None and _find_run(current.texts, item.lines) is not None:
            continue  # it is there again
        out.append(item)
    return out


def find_archived(items: list[Archived], query: str) -> list[Archived]:
    """The items ``query`` names: an id exactly, else every item whose text contains it
    (case-insensitive)."""
    exact = [it for it in items if it.id == query]
    if exact:
        return exact
    low = query.casefold()
    return [it for it in items if low in "\n".join(it.lines).casefold()]


def _find_run(texts: list[str], run: list[str]) -> int | None:
    n = len(run)
    for i in range(len(texts) - n + 1):
        if texts[i : i + n] == run:
            return i
    return None


def _section_end(texts: list[str], heading: str | None) -> tuple[int, bool]:
    """Where the entry goes: after the last non-blank line of the heading's section (the
    file's end when there is no such heading); and whether the heading was found."""
    start, level = None, 0
    if heading is not None:
        for i, t in enumerate(texts):
            m = _section_heading(t)
            if m and m.group(2) == heading:
                start, level = i, len(m.group(1))
                break
    if start is None:
        end = len(texts)
    else:  # anchors under the heading are part of its section
        end = start + 1
        while end < len(texts):
            m = _section_heading(texts[end])
            if m and len(m.group(1)) <= level:
                break
            end += 1
    while end > 0 and not texts[end - 1].strip():
        end -= 1
    return end, start is not None


def _with_lines(current: TextFile | None, rel: str, at: int, new: list[str]) -> bytes:
    """``current`` (an empty file when None) with the lines ``new`` inserted before line
    ``at`` (0-based), in the file's encoding and usual line ending."""
    base = current if current is not None else decode_bytes(rel, b"")
    lines = list(base.lines)
    if at >= len(lines) and lines and lines[-1].ending == "":
        last = lines[-1]  # the file ended without a newline: the old last line gets one
        end = base.default_ending
        lines[-1] = Line(last.text, end, last.raw + base.encode_text(end))
    lines[at:at] = [base.make_line(t) for t in new]
    return base.render(lines)


def _without_tombstone(item: Archived, rel: str, current: TextFile) -> TextFile:
    """``current`` without the promoted entry's marker in its ``Removed promotions``
    section (the marker goes back with its entry)."""
    texts = current.texts
    tomb = next((i for i, t in enumerate(texts) if t.strip() == TOMBSTONE_HEADING), None)
    if tomb is None or item.marker is None:
        return current
    marker = item.marker.strip()
    hit = next((i for i in range(tomb, len(texts)) if texts[i].strip() == marker), None)
    if hit is None:
        return current
    lines = list(current.lines)
    del lines[hit]
    return decode_bytes(rel, current.render(lines))


def _insert(item: Archived, rel: str, current: TextFile | None) -> bytes:
    """The origin file with the entry back: after the line that preceded it (a deleted
    entry), else at the end of its heading's section, else at the end of the file."""
    if current is not None:
        current = _without_tombstone(item, rel, current)
    texts = current.texts if current is not None else []
    block = item.restored_lines
    if item.after is not None and texts.count(item.after) == 1:
        return _with_lines(current, rel, texts.index(item.after) + 1, block)
    if current is not None and item.after_anchor:
        mf, _problems = parse_memory_file(current)
        prev = [a for a in mf.anchors if a.id == item.after_anchor]
        if len(prev) == 1:  # right after the anchor it followed, one blank line between
            at = prev[0].end_line
            tail = [""] if at < len(texts) and texts[at].strip() else []
            return _with_lines(current, rel, at, ["", *block, *tail])
    at, found = _section_end(texts, item.heading)
    if item.marker and item.heading and not found:
        # its promotion section is gone: it comes back, before "Removed promotions"
        tomb = next((i for i, t in enumerate(texts) if t.strip() == TOMBSTONE_HEADING), None)
        if tomb is not None:
            at = tomb
            while at > 0 and not texts[at - 1].strip():
                at -= 1
        block = [f"## {item.heading}", "", *block]
    if item.kind == "removed" and not block[0].startswith("#"):
        return _with_lines(current, rel, at, block)  # a bullet or a row: no blank lines
    lead = [""] if at > 0 else []
    tail = [""] if at < len(texts) and texts[at].strip() else []
    return _with_lines(current, rel, at, [*lead, *block, *tail])


def _remove_block(item: Archived, rel: str, current: TextFile | None) -> bytes | None:
    """The archive file without the block (and one blank line that separated it)."""
    if current is None:
        return None
    texts = current.texts
    at = _find_run(texts, item.lines)
    if at is None:
        return None
    end = at + len(item.lines)
    start = at
    if end < len(texts) and not texts[end].strip():
        end += 1
    elif start > 0 and not texts[start - 1].strip():
        start -= 1
    lines = list(current.lines)
    del lines[start:end]
    return current.render(lines)


@dataclass
class RestoreOutcome:
    """What a restore did, or why it did nothing."""

    ok: bool
    message: str
    item: Archived | None = None
    batch: str | None = None
    files: list = field(default_factory=list)
    candidates: list[Archived] = field(default_factory=list)  # when the query names several

    @property
    def diff(self) -> str:
        """The unified diff of what was written (or would be, for a dry run)."""
        return "".join(f.diff for f in self.files)

    @property
    def exit_code(self) -> int:
        """0 when restored; 1 when nothing matched or the write was refused."""
        return 0 if self.ok else 1


def _verdict(item: Archived, now: datetime) -> str:
    relation = "promotion" if item.marker else "archive"
    proposal = item.id
    if item.marker:
        m = MARKER_RE.search(item.marker)
        proposal = m.group(1) if m else item.id
    obj = {
        "ts": now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "proposal": proposal,
        "relation": relation,
        "verdict": "restored",
        "by": "human",
        "title": item.title,
        "file": item.origin,
        "archive": item.archive,
    }
    return json.dumps(obj, ensure_ascii=False)


def _append(rel: str, current: TextFile | None, text: str) -> bytes:
    return _with_lines(current, rel, len(current.lines) if current is not None else 0, [text])


class _Job:
    def __init__(self, rel: str, fn, key: str, loses_text: bool = False) -> None:
        self.rel = rel
        self.fn = fn
        self.decisions = [key]
        self.loses_text = loses_text

    def compute(self, current: TextFile | None) -> store.FileOutcome:
        new = self.fn(current)
        if new is None:
            return store.FileOutcome(
                None,
                conflicts=[
                    store.Conflict(
                        self.decisions[0], self.rel, _("the block is no longer in the archive")
                    )
                ],
            )
        return store.FileOutcome(new, applied=list(self.decisions))


def restore(
    root: Path | str,
    query: str,
    *,
    to: str | None = None,
    now: datetime | None = None,
    lock_wait: float = 2.0,
    dry_run: bool = False,
) -> RestoreOutcome:
    """Put the archived entry ``query`` names (an id, or text it contains) back where it
    came from (``to``: into that file instead, or when its origin is unknown).

    Raises store.LockHeld when a lock stays held.
    """
    root = Path(root).resolve()
    found = find_archived(archived_entries(root), query)
    if not found:
        return RestoreOutcome(False, _("nothing archived matches '{query}'").format(query=query))
    if len(found) > 1:
        return RestoreOutcome(
            False,
            _("{count} archived entries match '{query}'; give one id").format(
                count=len(found), query=query
            ),
            candidates=found,
        )
    item = found[0]
    if to is not None:
        if to != item.origin:
            item.heading = item.after_anchor = None
        item.origin = to
    if item.origin is None:
        return RestoreOutcome(
            False,
            _(
                "where {id} came from is not recorded and not in the journal; "
                "name the file it goes back to with --to FILE"
            ).format(id=item.id),
            item=item,
        )
    now = now or datetime.now().astimezone()
    cfg = config_of(root)
    key = f"restore:{item.id}"
    origin = item.origin
    jobs = [_Job(origin, lambda cur: _insert(item, origin, cur), key)]
    if item.archive is not None:
        archive = item.archive
        jobs.append(_Job(archive, lambda cur: _remove_block(item, archive, cur), key, True))
    line = _verdict(item, now)
    jobs.append(_Job(cfg.verdicts, lambda cur: _append(cfg.verdicts, cur, line), key))
    record = {
        "key": key,
        "queue": "archive",
        "action": "restore",
        "title": item.title,
        "item": item.id,
        "origin": origin,
        "archive": item.archive,
    }
    result = store.apply_batch(
        root,
        jobs,
        [record],
        lock_files=tuple(cfg.lock_files),
        now=now,
        dry_run=dry_run,
        lock_wait=lock_wait,
        kind="restore",
    )
    out = RestoreOutcome(result.ok, "", item, result.batch_id if result.journaled else None)
    out.files = list(result.files)
    if not result.ok:
        reasons = "; ".join(c.reason for c in (*result.conflicts, *result.failures))
        out.message = _("nothing restored: {reasons}").format(reasons=reasons)
    else:
        verb = _("would restore") if dry_run else _("restored")
        out.message = _("{verb} {id} to {where} (batch {batch})").format(
            verb=verb,
            id=item.id,
            where=origin
            + (f" § {item.heading}" if item.heading else "")
            + (f" after [[{item.after_anchor}]]" if item.after_anchor else ""),
            batch=out.batch or "-",
        )
    return out
