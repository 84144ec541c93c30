"""The promotion keys the owner has seen: ``.memreview/promotions-seen.json`` (issue 14,
"promotions deleted by the budget").

OpenClaw's promoter deletes the oldest promotion sections of MEMORY.md once the file passes
its promotion budget, without saying which. memreview remembers every promotion marker key it
found when the owner reviewed (a write from the app, ``apply``) — never on ``scan`` or
``doctor`` — as key, a hash of the bullet and a short excerpt (credentials masked). A key
remembered here that no memory file holds any more (not even under "Removed promotions",
where memreview's own decisions move markers) was deleted outside memreview: the alarm lists
it with its excerpt, or the bullet as memreview's newest backup of that file holds it.

At the next review the vanished keys move to ``gone`` (the owner has been shown them), so the
alarm names each deletion once between two reviews. A key memreview's own write took out of
the memory files (an undo taking back a promotion, a batch removing a marker) is forgotten,
not ``gone``: nothing outside memreview deleted it (``forget_promotions``).
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import date
from pathlib import Path
from typing import Any

from memreview.secrets import mask_secrets
from memreview.store.locks import own_lock
from memreview.store.paths import resolve_inside, safe_read_bytes
from memreview.store.private import read_private, write_private
from memreview.workspace import jsondoc

SEEN_FILE = "promotions-seen.json"
EXCERPT_CHARS = 160
BACKUPS_REL = ".memreview/backups"


def bullet_hash(text: str) -> str:
    """A short hash of a promoted bullet, as remembered."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def excerpt(text: str) -> str:
    """The bullet as remembered: credentials masked, cut to ``EXCERPT_CHARS``."""
    text = mask_secrets(text.strip())
    return text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 1] + "…"


def read_seen(root: Path | str) -> dict[str, Any]:
    """``{"reviewed": date|None, "keys": {key: {file, hash, text, seen}}, "gone": {…}}``;
    empty when the file is missing or unreadable (the alarm then stays silent)."""
    out: dict[str, Any] = {"reviewed": None, "keys": {}, "gone": {}}
    try:
        data = read_private(root, SEEN_FILE)
        doc = jsondoc.loads(data) if data else None
    except (OSError, ValueError):
        return out
    if not isinstance(doc, dict):
        return out
    for part in ("keys", "gone"):
        value = doc.get(part)
        if isinstance(value, dict):
            out[part] = {str(k): v for k, v in value.items() if isinstance(v, dict)}
    if isinstance(doc.get("reviewed"), str):
        out["reviewed"] = doc["reviewed"]
    return out


def remember_promotions(
    root: Path | str,
    present: dict[str, tuple[str, str]],
    today: date,
    keep_files: frozenset[str] | set[str] = frozenset(),
    *,
    forget: frozenset[str] | set[str] = frozenset(),
    lock_wait: float = 2.0,
) -> list[str]:
    """Record the promotion keys present now (``key → (file, bullet text)``) as the owner
    reviews; keys remembered before and absent now move to ``gone`` — except those of
    ``keep_files`` (files that exist but were not read: their records stay) and those of
    ``forget`` (taken out by memreview's own write: dropped, not gone). Returns the keys
    moved to ``gone``. The file is read and written again under memreview's lock (taken
    again for free by an apply that holds it); LockHeld when it stays held."""
    with own_lock(root, lock_wait):
        return _remember(root, present, today, keep_files, forget)


def _record(rel: str, text: str, old: dict[str, Any], today: date) -> dict[str, Any]:
    return {
        "file": rel,
        "hash": bullet_hash(text),
        "text": excerpt(text),
        "seen": old.get("seen") or today.isoformat(),
    }


def _remember(
    root: Path | str,
    present: dict[str, tuple[str, str]],
    today: date,
    keep_files: frozenset[str] | set[str],
    forget: frozenset[str] | set[str],
) -> list[str]:
    seen = read_seen(root)
    kept = {k: r for k, r in seen["keys"].items() if r.get("file") in keep_files}
    if not present and not seen["keys"] and not seen["gone"]:
        return []  # no promotions, none remembered: nothing to write
    keys: dict[str, Any] = {}
    for key, (rel, text) in sorted(present.items()):
        keys[key] = _record(rel, text, seen["keys"].get(key) or {}, today)
    for key, rec in kept.items():
        keys.setdefault(key, rec)
    vanished = sorted(
        k for k in seen["keys"] if k not in present and k not in kept and k not in forget
    )
    gone = dict(seen["gone"])
    for key in vanished:
        gone[key] = {**seen["keys"][key], "gone": today.isoformat()}
    for key in present:
        gone.pop(key, None)  # came back (restored by the owner, or re-promoted)
    doc = {"schema": 1, "reviewed": today.isoformat(), "keys": keys, "gone": gone}
    _write(root, doc)
    return vanished


def forget_promotions(
    root: Path | str,
    removed: set[str],
    put_back: dict[str, tuple[str, str]],
    today: date,
    *,
    lock_wait: float = 2.0,
) -> None:
    """After memreview's own write that is not a review (an undo): forget the remembered
    keys of ``removed`` (it took them out; no alarm, not ``gone``) and remember again those
    of ``put_back`` (``key → (file, bullet text)``: it put them back as they were when the
    owner reviewed) — only when the owner has reviewed at all. Under memreview's lock, like
    ``remember_promotions``."""
    with own_lock(root, lock_wait):
        seen = read_seen(root)
        if seen["reviewed"] is None:
            return  # never reviewed: nothing remembered, nothing to put back
        keys = {k: r for k, r in seen["keys"].items() if k not in removed or k in put_back}
        gone = dict(seen["gone"])
        for key, (rel, text) in sorted(put_back.items()):
            old = seen["keys"].get(key) or gone.pop(key, None) or {}
            keys[key] = _record(rel, text, old, today)
        if keys == seen["keys"] and gone == seen["gone"]:
            return
        _write(root, {"schema": 1, "reviewed": seen["reviewed"], "keys": keys, "gone": gone})


def _write(root: Path | str, doc: dict[str, Any]) -> None:
    data = json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    write_private(root, SEEN_FILE, data.encode("utf-8", "surrogatepass"))


def bullet_in_backups(root: Path | str, rel: str, key: str) -> str | None:
    """The bullet under ``key``'s marker in memreview's newest backup of ``rel`` that holds
    it (before- and after-copies of every batch), credentials masked; None when none does."""
    root = Path(root)
    try:
        top = resolve_inside(root, BACKUPS_REL)
        batches = sorted((p.name for p in top.iterdir() if p.is_dir()), reverse=True)
    except (OSError, ValueError):
        return None
    needle = f"openclaw-memory-promotion:{key}"
    for name in batches:
        copy = f"{BACKUPS_REL}/{name}/{rel}"
        if not os.path.isfile(root / copy) or os.path.islink(root / copy):
            continue
        try:
            text = safe_read_bytes(root, copy).decode("utf-8", "replace")
        except (OSError, ValueError):
            continue
        if needle not in text:
            continue
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if needle in line:
                after = next((ln for ln in lines[i + 1 :] if ln.strip()), "")
                return mask_secrets(after.strip()) or None
    return None
