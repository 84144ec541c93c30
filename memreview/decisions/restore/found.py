"""Finding what can be put back: the blocks of the archive files (with the origin their
``From:`` line records, else the one the journal shows) and the entries a batch deleted
without archiving them (in the batch's backups)."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from memreview import store
from memreview.decisions import registry
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
        item = Archived(item_id(rel, lines[0]), kind, rel, lines, anchor=a.id)
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
                item.origin, item.heading, item.after_anchor = _split_origin(m.group(1))
                item.found_by = "recorded"
        out.append(item)
    return out


def _anchor_above(tf: TextFile, index: int) -> str | None:
    """The id of the anchor that ends right above line ``index`` of ``tf`` in the same
    section, or None."""
    mf, _problems = parse_memory_file(tf)
    heading = max((i for i in range(index) if section_heading(tf.texts[i])), default=-1)
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
        after = read_text(root, jf.after_copy)
        before = read_text(root, jf.backup) if not jf.created else None
        if after is None or body not in after.texts or (before and body in before.texts):
            continue
        for other in b.files:
            if other.file == item.archive or not other.written or other.created:
                continue
            was, now = read_text(root, other.backup), read_text(root, other.after_copy)
            if was is None or body not in was.texts or (now is not None and body in now.texts):
                continue
            index = was.texts.index(body)
            item.origin, item.heading = other.file, heading_above(was.texts, index)
            item.after_anchor = _anchor_above(was, index)
            item.found_by, item.batch = "journal", b.batch_id
            return


def _removed_entries(root: Path, records, archive_dir: str, verdicts: str) -> list[Archived]:
    """Entries a batch deleted with no archive block (a queue whose unit ``deletes``:
    archived, duplicates): the runs of lines its backup has and its copy of the new version
    lacks."""
    out: list[Archived] = []
    for b in records:
        if b.undone_by or b.kind != "apply" or not b.committed:
            continue
        queues = {d.get("queue") for d in b.decisions if isinstance(d, dict)}
        if not queues & {u.name for u in registry.units() if u.deletes}:
            continue
        for jf in b.files:
            if not jf.written or jf.created or jf.file == verdicts:
                continue
            if jf.file.startswith(archive_dir.rstrip("/") + "/"):
                continue
            was, now = read_text(root, jf.backup), read_text(root, jf.after_copy)
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
                item = Archived(item_id(b.batch_id, jf.file, *lines), "removed", None, lines)
                item.origin, item.heading = jf.file, heading_above(a, i1)
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
        tf = read_text(root, rel)
        if tf is None:
            continue
        for item in _archive_blocks(rel, tf, kind):
            if item.origin is None:
                _origin_from_journal(root, item, records)
            out.append(item)
    for item in _removed_entries(root, records, cfg.archive_dir, cfg.verdicts):
        current = read_text(root, item.origin)
        if current is not None and find_run(current.texts, item.lines) is not None:
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
