"""Finding what can be put back: the blocks of the archive files (with the origin their
``From:`` line records, else the one the journal shows) and the entries a batch deleted
without archiving them (in the batch's backups)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memreview import store
from memreview.decisions import registry
from memreview.decisions.plan.targets import entry_digest
from memreview.decisions.restore.item import (
    ARCHIVE_META,
    MARKER_RE,
    REJECTED_FILE,
    Archived,
    find_run,
    heading_above,
    item_id,
    read_text,
    section_heading,
)
from memreview.decisions.state import config_of
from memreview.workspace.markdown import parse_memory_file
from memreview.workspace.textfile import TextFile

_FROM_RE = re.compile(r"(?:^|·\s*)From:\s*(.+?)\s*$", re.I)

_NEXT_TO_RE = re.compile(r"\s+(after|before) \[\[([^\]\s]+)\]\]\s*$")


def _split_origin(text: str) -> tuple[str, str | None, str | None, str | None]:
    """``file § heading after [[id]]`` (or ``before [[id]]``: the first anchor of its
    section) -> (file, heading, the anchor it followed, the anchor it preceded)."""
    near = _NEXT_TO_RE.search(text)
    after = near.group(2) if near and near.group(1) == "after" else None
    before = near.group(2) if near and near.group(1) == "before" else None
    if near:
        text = text[: near.start()]
    file, sep, heading = text.partition(" § ")
    return file.strip(), (heading.strip() or None) if sep else None, after, before


def _archive_blocks(rel: str, tf: TextFile, kind: str) -> list[Archived]:
    """The anchor blocks and promoted entries of one archive file."""
    mf, _problems = parse_memory_file(tf, archived=True)
    texts = tf.texts
    out: list[Archived] = []
    for a in mf.anchors:
        start, end = a.line - 1, a.end_line
        lines = texts[start:end]
        item = Archived(item_id(rel, lines[0]), kind, rel, lines, anchor=a.id)
        frm = next((t for t in lines[1:] if re.match(r"^from\s*:", t, re.I)), None)
        if frm:
            where = _split_origin(frm.split(":", 1)[1])
            item.origin, item.heading, item.after_anchor, item.before_anchor = where
            item.found_by = "recorded"
        out.append(item)
    for e in mf.entries:
        if e.kind not in ("bullet", "promoted") or e.in_anchor:
            continue
        start = e.line - 1
        while start > 0 and (
            MARKER_RE.search(texts[start - 1]) or ARCHIVE_META.match(texts[start - 1])
        ):
            start -= 1
        lines = texts[start : e.end_line]
        body = texts[e.line - 1]
        item = Archived(
            item_id(rel, body),
            "rejected-promotion" if rel == REJECTED_FILE else kind,
            rel,
            lines,
        )
        item.marker = next((t for t in lines if MARKER_RE.search(t)), None)
        for t in lines:
            m = _FROM_RE.search(t) if ARCHIVE_META.match(t) else None
            if m:
                where = _split_origin(m.group(1))
                item.origin, item.heading, item.after_anchor, item.before_anchor = where
                item.found_by = "recorded"
        out.append(item)
    return out


def _anchors_around(tf: TextFile, index: int) -> tuple[str | None, str | None]:
    """The ids of the anchors right above and right below the anchor at line ``index`` of
    ``tf`` in the same section (None where there is none)."""
    mf, _problems = parse_memory_file(tf)
    texts = tf.texts
    heading = max((i for i in range(index) if section_heading(texts[i])), default=-1)
    end = next((i for i in range(index + 1, len(texts)) if section_heading(texts[i])), len(texts))
    before = [a for a in mf.anchors if heading < a.line - 1 < index]
    after = [a for a in mf.anchors if index < a.line - 1 < end]
    return (before[-1].id if before else None), (after[0].id if after else None)


def _origin_from_journal(
    copies: _Copies, item: Archived, records: Sequence[store.BatchRecord]
) -> None:
    """The origin of an archive block without a ``From:`` line: the batch whose copy of the
    archive gained the block, and its file that lost the block's first line."""
    found = _archiving_batch(copies, item, records)
    if found is None:
        return
    batch, rel, was = found
    index = was.texts.index(item.title)
    item.origin, item.heading = rel, heading_above(was.texts, index)
    above, below = _anchors_around(was, index)
    item.after_anchor, item.before_anchor = above, None if above else below
    item.found_by, item.batch = "journal", batch
    _neighbours(item, was)


class _Copies:
    """The journal's copies of files (backups, copies after a batch), each read once for
    one listing, and the set of its lines to look one up."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._read: dict[str, tuple[TextFile, frozenset[str]] | None] = {}

    def get(self, rel: str | None) -> TextFile | None:
        found = self._load(rel)
        return found[0] if found else None

    def has(self, rel: str | None, line: str) -> bool:
        found = self._load(rel)
        return found is not None and line in found[1]

    def _load(self, rel: str | None) -> tuple[TextFile, frozenset[str]] | None:
        if rel is None:
            return None
        if rel not in self._read:
            tf = read_text(self.root, rel)
            self._read[rel] = (tf, frozenset(tf.texts)) if tf is not None else None
        return self._read[rel]


def _archiving_batch(
    copies: _Copies,
    item: Archived,
    records: Sequence[store.BatchRecord],
    origin: str | None = None,
) -> tuple[str, str, TextFile] | None:
    """(batch id, file, that file before the batch) of the batch whose copy of the archive
    gained the block and whose file (``origin`` when given) lost the block's first line;
    None when the journal shows no such batch."""
    body = item.title
    for b in reversed(records):
        if b.undone_by or b.kind != "apply":
            continue
        jf = next((f for f in b.files if f.file == item.archive and f.written), None)
        if jf is None or not copies.has(jf.after_copy, body):
            continue
        if not jf.created and copies.has(jf.backup, body):
            continue
        for other in b.files:
            if other.file == item.archive or not other.written or other.created:
                continue
            if origin is not None and other.file != origin:
                continue
            was = copies.get(other.backup)
            if was is None or not copies.has(other.backup, body):
                continue
            if copies.has(other.after_copy, body):
                continue
            return b.batch_id, other.file, was
    return None


def _neighbours(item: Archived, was: TextFile) -> None:
    """The lines above and below an archived entry (not an anchor) where it sat in ``was``,
    its file before it was archived, and whether blank lines stood between: it goes back
    between them as it was, into its list."""
    if item.anchor is not None:
        return
    lines, texts = item.restored_lines, was.texts
    if item.title not in lines or texts.count(item.title) != 1:
        return
    start = texts.index(item.title) - lines.index(item.title)
    end = start + len(lines)
    if start < 0 or texts[start:end] != lines:
        return
    above = start - 1
    while above >= 0 and not texts[above].strip():
        above -= 1
    below = end
    while below < len(texts) and not texts[below].strip():
        below += 1
    item.after = texts[above] if above >= 0 else None
    item.before = texts[below] if below < len(texts) else None
    item.gap_above, item.gap_below = above < start - 1, below > end


def removed_entries(
    root: Path, records: Sequence[store.BatchRecord], archive_dir: str, verdicts: str
) -> list[Archived]:
    """Entries a batch deleted with no archive block (a queue whose unit ``deletes``:
    archived, duplicates), found in the batch's backups: where the journal records what
    each decision deleted (its file, line count and digest), those entries; for a batch
    journaled before, the runs of lines its backup has and its copy of the new version
    lacks (with a merge, also the lines of a rewritten run the new version lacks)."""
    out: list[Archived] = []
    for b in records:
        if b.undone_by or b.kind != "apply" or not b.committed:
            continue
        decisions = [d for d in b.decisions if isinstance(d, dict)]
        deleting = {u.name for u in registry.units() if u.deletes}
        if not {d.get("queue") for d in decisions} & deleting:
            continue
        # journal decisions are JSON objects: each deletion a decision recorded
        recorded: list[tuple[dict[str, Any], dict[str, Any]]] = [
            (r, d) for d in decisions for r in d.get("removed") or () if isinstance(r, dict)
        ]
        # a batch journaled since decisions record their deletions says so, even of none
        recorded_all = any("removed" in d for d in decisions)
        merged = any(d.get("action") == "merge" for d in decisions)
        for jf in b.files:
            if not jf.written or jf.created or jf.file == verdicts:
                continue
            if jf.file.startswith(archive_dir.rstrip("/") + "/"):
                continue
            was, now = read_text(root, jf.backup), read_text(root, jf.after_copy)
            if was is None or now is None:
                continue
            if recorded or recorded_all:
                mine = [(r, d) for r, d in recorded if r.get("file") == jf.file]
                runs = _recorded_runs(was.texts, mine)
            else:
                runs = [
                    (i1, i2, merged)
                    for run in _deleted_runs(was.texts, now.texts, merged)
                    for i1, i2 in _entries_of(was.texts, *run)
                ]
            for i1, i2, by_merge in runs:
                item = _removed_item(b.batch_id, jf.file, was.texts, i1, i2)
                if item is not None:
                    item.kind = "merged" if by_merge else "removed"
                    out.append(item)
    return out


def _recorded_runs(
    texts: list[str], recorded: list[tuple[dict[str, Any], dict[str, Any]]]
) -> list[tuple[int, int, bool]]:
    """(start, end, deleted by a merge) of each entry the journal says a decision deleted:
    the run of its line count whose text has its digest, the one nearest its line."""
    out = []
    for r, d in recorded:
        n, digest, line = r.get("lines"), r.get("digest"), r.get("line")
        if not isinstance(n, int) or n < 1 or not isinstance(digest, str):
            continue
        hits = [
            i
            for i in range(len(texts) - n + 1)
            if entry_digest("\n".join(texts[i : i + n])) == digest
        ]
        if not hits and isinstance(line, int) and 0 < line <= len(texts) - n + 1:
            # a credential redacted since is replaced in the backups too: the entry at its
            # line, holding the [redacted …] note, is the one deleted
            if any("[redacted " in t for t in texts[line - 1 : line - 1 + n]):
                hits = [line - 1]
        if hits:
            at = min(hits, key=lambda i: abs(i + 1 - (line if isinstance(line, int) else 0)))
            out.append((at, at + n, d.get("action") == "merge"))
    return sorted(set(out))


def _deleted_runs(a: list[str], c: list[str], merged: bool) -> list[tuple[int, int]]:
    """The runs of lines ``a`` has and ``c`` lacks: deleted runs, and with a merge the lines
    of a rewritten run that the new version doesn't hold."""
    out = []
    matcher = difflib.SequenceMatcher(None, a, c, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "delete":
            out.append((i1, i2))
        elif tag == "replace" and merged:
            kept = set(c[j1:j2])
            start = None
            for i in range(i1, i2 + 1):
                gone = i < i2 and a[i] not in kept
                if gone and start is None:
                    start = i
                elif not gone and start is not None:
                    out.append((start, i))
                    start = None
    return out


_ENTRY_START = re.compile(r"^\s{0,3}(?:[-*+]|\d+[.)])\s|^\s*\||^#")


def _entries_of(a: list[str], i1: int, i2: int) -> list[tuple[int, int]]:
    """The run ``i1:i2`` of ``a`` cut where each entry starts (a list item, a table row, a
    heading), so adjacent entries deleted together come back one by one; a run that starts
    with a heading stays whole."""
    if a[i1].lstrip().startswith("#"):
        return [(i1, i2)]  # an anchor block or a section: its bullets are part of it
    starts = [i for i in range(i1 + 1, i2) if _ENTRY_START.match(a[i])]
    bounds = [i1, *starts, i2]
    return list(zip(bounds, bounds[1:], strict=False))


def _removed_item(batch: str, rel: str, a: list[str], i1: int, i2: int) -> Archived | None:
    """The entry that was lines ``i1:i2`` of ``rel`` before batch ``batch`` deleted it, with
    the lines around it and its heading, to put it back where it was."""
    lines = [t for t in a[i1:i2] if not MARKER_RE.search(t)]
    while lines and not lines[-1].strip():
        lines.pop()
    if not any(t.strip() for t in lines):
        return None
    item = Archived(item_id(batch, rel, *lines), "removed", None, lines)
    item.origin, item.heading = rel, heading_above(a, i1)
    item.after = a[i1 - 1] if i1 > 0 else None
    item.before = a[i2] if i2 < len(a) and a[i2].strip() else None
    item.found_by, item.batch = "journal", batch
    return item


def archived_entries(root: Path | str) -> list[Archived]:
    """Every entry that can be put back: archive blocks first (file order), then entries
    deleted by a batch that are in no memory file now."""
    root = Path(root).resolve()
    cfg = config_of(root)
    records = store.batches(root)
    out: list[Archived] = []
    copies = _Copies(root)
    for rel, kind in (
        (cfg.superseded_file, "superseded"),
        (cfg.demoted_file, "demoted"),
        (REJECTED_FILE, "rejected-promotion"),
    ):
        tf = read_text(root, rel)
        if tf is None:
            continue
        for item in _archive_blocks(rel, tf, kind):
            if item.origin is None:
                _origin_from_journal(copies, item, records)
            elif item.anchor is None:  # an entry: where in its section, from the journal
                found = _archiving_batch(copies, item, records, item.origin)
                if found is not None:
                    _neighbours(item, found[2])
            out.append(item)
    # an entry put back once is not offered again when a later batch deletes it again:
    # that batch's own deletion is
    restored = {
        d.get("item")
        for b in records
        if b.kind == "restore" and b.committed and not b.undone_by
        for d in b.decisions
        if isinstance(d, dict)
    }
    removed = [
        it
        for it in removed_entries(root, records, cfg.archive_dir, cfg.verdicts)
        if it.id not in restored
    ]
    # an entry put back (by an undo of another batch, a restore) and deleted again is
    # offered once, as the last batch that deleted it
    latest = {(it.origin, tuple(it.lines)): it for it in removed}
    for item in removed:
        if latest[(item.origin, tuple(item.lines))] is not item:
            continue
        current = read_text(root, item.origin)
        # blind to credentials: a redaction since scrubbed the value from the backup only
        if current is not None and _there(current.texts, item.lines):
            continue  # it is there again
        out.append(item)
    return out


def _there(texts: list[str], lines: list[str]) -> bool:
    """Whether ``lines`` are in ``texts``, a credential and a ``[redacted …]`` mark alike."""
    if find_run(texts, lines) is not None:
        return True
    if not any("[redacted " in t for t in lines):
        return False
    blind = store.redaction_blind
    return find_run([blind(t) for t in texts], [blind(t) for t in lines]) is not None


def find_archived(items: list[Archived], query: str) -> list[Archived]:
    """The items ``query`` names: an id exactly, else every item whose text contains it
    (case-insensitive)."""
    exact = [it for it in items if it.id == query]
    if exact:
        return exact
    low = query.casefold()
    return [it for it in items if low in "\n".join(it.lines).casefold()]
