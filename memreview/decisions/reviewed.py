"""What the owner has reviewed: the promotion keys in memory files after a write from the app
or ``apply`` (``store.remember_promotions``), so that a promotion deleted later outside
memreview — OpenClaw's budget compaction — is an alarm (``alarms.promotions-deleted``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from memreview import store
from memreview.alarms import Alarm, alarms, present_promotions, promotion_bullets, unread_files
from memreview.i18n import ngettext
from memreview.workspace.dates import parse_date
from memreview.workspace.model import Workspace
from memreview.workspace.textfile import decode_bytes


def remember_reviewed(
    root: Path, ws: Workspace, written: set[str], today: date, forget: frozenset[str] = frozenset()
) -> list[str]:
    """Record the promotion keys the memory files hold now — the files in ``written`` read
    again, the others as scanned. Returns the message for the owner naming the remembered
    keys that vanished before this review (the alarm named them; from now on they are
    ``gone``), or []. The keys of ``forget`` (the batch's own write took them out,
    ``removed_by``) are dropped, not vanished. A failure to record is not the batch's
    failure: it returns []."""
    present = present_promotions(ws)
    for rel in sorted(written & set(ws.files)):
        present = {k: v for k, v in present.items() if v[0] != rel}
        try:
            data = store.safe_read_bytes(root, rel)
        except (OSError, store.PathEscape):
            continue  # removed by the batch: its keys are gone with it
        for key, bullet in promotion_bullets(decode_bytes(rel, data).texts).items():
            present.setdefault(key, (rel, bullet))
    record = store.read_seen(root)
    seen = record["keys"]
    unread = unread_files(ws, {str(r.get("file") or "") for r in seen.values()} - {""})
    missing = {k: r for k, r in seen.items() if k not in present}
    forget = forget | taken_out_by_memreview(root, missing, record["reviewed"])
    try:
        vanished = store.remember_promotions(root, present, today, keep_files=unread, forget=forget)
    except (OSError, store.PathEscape):
        return []
    if not vanished:
        return []
    keys = ", ".join(vanished[:5]) + ("…" if len(vanished) > 5 else "")
    return [
        ngettext(
            "{count} promotion you reviewed before was deleted outside memreview (the "
            "promotions-deleted alarm named it): {keys}",
            "{count} promotions you reviewed before were deleted outside memreview (the "
            "promotions-deleted alarm named them): {keys}",
            len(vanished),
        ).format(count=len(vanished), keys=keys)
    ]


def _keys(root: Path, rel: str, copy: str | None) -> dict[str, tuple[str, str]]:
    """The promotion keys of ``rel`` as the copy ``copy`` holds them (none without one)."""
    if copy is None:
        return {}
    try:
        data = store.safe_read_bytes(root, copy)
    except (OSError, store.PathEscape):
        return {}
    return {k: (rel, b) for k, b in promotion_bullets(decode_bytes(rel, data).texts).items()}


def written_keys(
    root: Path, files: Sequence[store.FileResult]
) -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, str]]]:
    """The promotion keys (``key → (file, bullet)``) of a batch's written files before it
    wrote them (their backups) and after (the copies of what it wrote, or the files)."""
    before: dict[str, tuple[str, str]] = {}
    after: dict[str, tuple[str, str]] = {}
    for f in files:
        if not (f.written or f.removed):
            continue
        for key, where in _keys(root, f.rel, f.backup).items():
            before.setdefault(key, where)
        now = None if f.sha_after is None else (f.after_copy or f.rel)
        for key, where in _keys(root, f.rel, now).items():
            after.setdefault(key, where)
    return before, after


def removed_by(root: Path, files: Sequence[store.FileResult]) -> frozenset[str]:
    """The promotion keys a batch's own write took out of the files it wrote."""
    before, after = written_keys(root, files)
    return frozenset(before.keys() - after.keys())


def forget_undone(root: Path, files: Sequence[store.FileResult], today: date) -> None:
    """After an undo (its files ``files``): the reviewed keys it took out are forgotten (not
    deleted outside memreview: no alarm), the ones it put back remembered again. A failure
    to record is not the undo's failure."""
    before, after = written_keys(root, files)
    removed = set(before.keys() - after.keys())
    put_back = {k: v for k, v in after.items() if k not in before}
    if not removed and not put_back:
        return
    try:
        store.forget_promotions(root, removed, put_back, today)
    except (OSError, store.PathEscape, store.LockHeld):
        return


def taken_out_by_memreview(
    root: Path, missing: dict[str, dict[str, Any]], reviewed: str | None
) -> frozenset[str]:
    """The remembered keys of ``missing`` (``key → record``) that memreview's own batches
    since the last review (``reviewed``) took out of their file last — the last batch that
    changed the key has it in its copy of the file before, not in its copy after: an apply
    or an undo killed before it updated the record of what the owner reviewed. Nothing
    outside memreview deleted those. Only the journal's copies are read (an after-copy
    missing explains nothing)."""
    if not missing or not reviewed:
        return frozenset()
    try:
        records = store.batches(root)
    except (OSError, ValueError, store.PathEscape):
        return frozenset()
    files = {str(r.get("file") or "") for r in missing.values()}
    # the review day is the owner's, a batch's time UTC: a day earlier, not to miss one
    day = parse_date(reviewed)
    since = (day - timedelta(days=1)).isoformat() if day is not None else reviewed
    last: dict[str, bool] = {}  # key → whether memreview's last change to it took it out
    for batch in records:
        if batch.ts[:10] < since:
            continue  # before the record was made: the record already knew
        for f in batch.files:
            if f.file not in files or f.backup is None:
                continue
            if f.after is not None and f.after_copy is None:
                continue
            before = _keys(root, f.file, f.backup)
            after = {} if f.after is None else _keys(root, f.file, f.after_copy)
            for key in before.keys() ^ after.keys():
                if key in missing and missing[key].get("file") == f.file:
                    last[key] = key in before
    return frozenset(k for k, out in last.items() if out)


def workspace_alarms(ws: Workspace, today: date) -> list[Alarm]:
    """Every alarm of ``ws``, with what the owner reviewed (deleted promotions) and
    memreview's backups (their text) — what ``doctor``, ``scan`` and the app show. A key
    memreview's own batch took out (``taken_out_by_memreview``) is no deletion."""
    root = ws.root
    seen = store.read_seen(root)
    return alarms(
        ws,
        today,
        seen,
        lambda rel, key: store.bullet_in_backups(root, rel, key),
        lambda missing: taken_out_by_memreview(root, missing, seen["reviewed"]),
    )
