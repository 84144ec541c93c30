"""Taking a redacted secret out of memreview's own copies (docs/design.md §4, secrets).

A redaction replaces a credential in a memory file; every backup memreview made of that file
(``.memreview/backups/``, the before-copies of each batch) still holds it. :func:`scrub_backups`
replaces each value there too, through the one atomic writer, and records every copy it
changed in ``.memreview/scrubbed.jsonl`` (path, sha256 before and after — never the value), so
undo still trusts a scrubbed backup (:func:`scrubbed_hashes`) and restores it: the file comes
back as it was, except that the secret stays redacted.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from memreview.store.paths import resolve_inside, safe_read_bytes
from memreview.store.private import append_line, dir_at, private_rel, read_private, write_at
from memreview.workspace.jsonl import parse_jsonl

SCRUBBED = "scrubbed.jsonl"
BACKUPS_REL = ".memreview/backups"
# the encodings memory files come in (docs/design.md §4): a value is searched in each of them
_ENCODINGS = ("utf-8", "gb18030", "utf-16-le", "utf-16-be")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def scrub_backups(root: Path | str, replacements: list[tuple[str, str]]) -> list[str]:
    """Replace each ``(value, replacement)`` in every file under ``.memreview/backups``;
    return the workspace-relative paths of the copies changed."""
    root = Path(root)
    pairs: list[tuple[bytes, bytes]] = []
    for value, repl in replacements:
        for enc in _ENCODINGS:
            try:
                pairs.append((value.encode(enc), repl.encode(enc, "replace")))
            except UnicodeEncodeError:
                continue
    pairs = [(v, r) for v, r in dict.fromkeys(pairs) if len(v) >= 6]
    if not pairs:
        return []
    try:
        top = resolve_inside(root, BACKUPS_REL)
    except (OSError, ValueError):
        return []
    changed: list[str] = []
    for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if path.is_symlink() or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            data = safe_read_bytes(root, rel)
            new = data
            for found, masked in pairs:
                new = new.replace(found, masked)
            if new == data:
                continue
            folder, _, base = rel.rpartition("/")
            with dir_at(root, folder, create=False) as fd:
                write_at(fd, base, new)
            record = {"path": rel, "from": _sha(data), "to": _sha(new)}
            append_line(root, SCRUBBED, json.dumps(record, sort_keys=True))
            changed.append(rel)
    return changed


def scrubbed_hashes(root: Path | str) -> dict[str, dict[str, str]]:
    """For each scrubbed copy: its hash as journaled → its hash now (chains followed)."""
    data = read_private(root, SCRUBBED)
    out: dict[str, dict[str, str]] = {}
    rows, _bad = parse_jsonl(data or b"")
    for _no, rec in rows:
        path, old, new = rec.get("path"), rec.get("from"), rec.get("to")
        if isinstance(path, str) and isinstance(old, str) and isinstance(new, str):
            out.setdefault(path, {})[old] = new
    return out


def accepted_hash(root: Path | str, rel: str, journaled: str | None) -> set[str]:
    """The hashes a copy at ``rel`` may have: the journaled one, or what scrubbing made of it."""
    ok = {journaled} if journaled else set()
    chain = scrubbed_hashes(root).get(private_rel(rel), {})
    h = journaled
    while h in chain and chain[h] not in ok:
        h = chain[h]
        ok.add(h)
    return ok
