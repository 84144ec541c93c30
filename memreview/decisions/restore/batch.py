"""A restore as a batch through the one writer: the file that gets the entry back, the
archive that loses it and a ``restored`` verdict, journaled (kind ``restore``) and undoable."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memreview import store
from memreview.decisions.restore.destination import destination_problem
from memreview.decisions.restore.found import archived_entries, find_archived
from memreview.decisions.restore.item import MARKER_RE, Archived, read_text
from memreview.decisions.restore.place import insert_entry, remove_block, with_lines
from memreview.decisions.state import config_of
from memreview.i18n import _
from memreview.workspace import jsondoc
from memreview.workspace.markdown import SETTLED_STAMP_RE
from memreview.workspace.normalize import normalize
from memreview.workspace.textfile import TextFile


@dataclass
class RestoreOutcome:
    """What a restore did, or why it did nothing."""

    ok: bool
    message: str
    item: Archived | None = None
    batch: str | None = None
    files: list[store.FileResult] = field(default_factory=list)
    candidates: list[Archived] = field(default_factory=list)  # when the query names several

    @property
    def diff(self) -> str:
        """The unified diff of what was written (or would be, for a dry run)."""
        return "".join(f.diff for f in self.files)

    @property
    def exit_code(self) -> int:
        """0 when restored; 1 when nothing matched or the write was refused."""
        return 0 if self.ok else 1


def approval(root: Path, verdicts: str, anchor: str | None) -> dict[str, Any] | None:
    """The verdict line that approved archiving the anchor ``anchor`` (a supersede approved,
    or a contradiction resolved against it) and still stands, the latest; None when the
    anchor left its file without a judge proposal (a demotion) or the line was taken back."""
    if anchor is None:
        return None
    tf = read_text(root, verdicts)
    stacks: dict[str, list[dict[str, Any]]] = {}  # verdict lines: JSON objects
    for text in tf.texts if tf is not None else []:
        try:
            obj = jsondoc.loads(text)
        except ValueError:
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("proposal"), str):
            continue
        stack = stacks.setdefault(obj["proposal"], [])
        if obj.get("verdict") == "undone":
            if stack:
                stack.pop()
            continue
        stack.append(obj)
    found: dict[str, Any] | None = None
    for stack in stacks.values():
        top = stack[-1] if stack else {}
        if top.get("verdict") != "approved" or top.get("relation") == "promotion":
            continue
        kept, new, old = top.get("kept"), top.get("new"), top.get("old")
        loser = old if kept in (None, new) else new if kept == old else None
        if loser == anchor and (found is None or str(top.get("ts")) >= str(found.get("ts"))):
            found = top
    return found


def _settled_key(item: Archived) -> str | None:
    """The promotion key of an archived entry Lingxi settled (its ``自动沉淀`` stamp), as the
    promotions queue names it: the ``restored`` line takes back its ``archived`` verdict."""
    text = "\n".join(item.restored_lines)
    found = SETTLED_STAMP_RE.search(text)
    if found is None or not item.origin:
        return None
    return f"lingxi:{item.origin}:{found.group(1)}:{normalize(text, 'bullet')}"


def _verdict(item: Archived, now: datetime, approved: dict[str, Any] | None = None) -> str:
    """The ``restored`` line: on the judge proposal whose approval archived the entry
    (``approved``, so the judge's report card counts that approval as wrong), else on the
    promotion's marker, else on the archived entry's own id (relation ``archive``)."""
    relation = "promotion" if item.marker else "archive"
    proposal = item.id
    if item.marker:
        m = MARKER_RE.search(item.marker)
        proposal = m.group(1) if m else item.id
    elif item.kind == "rejected-promotion" and (settled := _settled_key(item)):
        relation, proposal = "promotion", settled
    obj: dict[str, str | None] = {
        "ts": now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "proposal": proposal,
        "relation": relation,
    }
    if approved is not None:
        obj = {**obj, "proposal": approved["proposal"], "relation": approved.get("relation")}
        obj |= {k: approved[k] for k in ("new", "old") if k in approved}
    obj |= {
        "verdict": "restored",
        "by": "human",
        "title": item.title,
        "file": item.origin,
        "archive": item.archive,
    }
    return json.dumps(obj, ensure_ascii=False)


def _append(rel: str, current: TextFile | None, text: str) -> bytes:
    return with_lines(current, rel, len(current.lines) if current is not None else 0, [text])


class _Job:
    def __init__(
        self,
        rel: str,
        fn: Callable[[TextFile | None], bytes | None],
        key: str,
        loses_text: bool = False,
    ) -> None:
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


def _record(item: Archived, key: str) -> dict[str, str | None]:
    """The restore as the journal keeps it."""
    record: dict[str, str | None] = {
        "key": key,
        "queue": "archive",
        "action": "restore",
        "title": item.title,
        "item": item.id,
        "origin": item.origin,
        "archive": item.archive,
    }
    if item.archive is None and item.batch:  # found in that batch's backup: its undo waits
        record["from_batch"] = item.batch
    return record


def _redaction(root: Path, query: str) -> str | None:
    """Why a redaction ``query`` names (its item id, its batch, text of its title) can't be
    restored, or None when it names none. memreview holds no copy of a redacted value (the
    backups were scrubbed when it was written), and bringing a credential back is only right
    when the detection was wrong: the owner puts it back by hand, and ``undo --batch`` takes
    back the rest of the batch."""
    low = query.casefold()
    for b in reversed(store.batches(root)):
        if b.kind != "apply" or b.undone_by:
            continue
        redacts = [
            d
            for d in b.decisions
            if isinstance(d, dict) and (d.get("queue"), d.get("action")) == ("secrets", "redact")
        ]
        # the lines the batch wrote with a [redacted …] marker: the owner may quote one
        marked = [
            t.casefold()
            for jf in b.files
            if redacts and jf.written
            for t in (getattr(read_text(root, jf.after_copy), "texts", None) or ())
            if "[redacted " in t
        ]
        in_marked = any(low in t for t in marked)
        for d in redacts:
            title = str(d.get("title") or "")
            named = query in (d.get("item"), b.batch_id) or low in title.casefold()
            if not (named or in_marked):
                continue
            return _(
                "{id} was redacted by batch {batch}: memreview keeps no copy of a redacted "
                "value (it left the backups too), so restore can't bring it back. If the "
                "detection was wrong, put the value back by hand from where you keep it; "
                "`memreview undo --batch {batch}` takes back the rest of that batch (the "
                "[redacted …] marker stays)"
            ).format(id=d.get("item") or title, batch=b.batch_id)
    return None


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
        redacted = _redaction(root, query)
        if redacted is not None:
            return RestoreOutcome(False, redacted)
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
            item.heading = item.after_anchor = item.before_anchor = None
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
    refused = destination_problem(root, item.origin, cfg.archive_dir)
    if refused is not None:  # checked before anything is touched: all or nothing
        return RestoreOutcome(
            False,
            _("nothing restored: refused: {reason}; the archive was left as it was").format(
                reason=refused
            ),
            item=item,
        )
    key = f"restore:{item.id}"
    origin = item.origin
    jobs = [_Job(origin, lambda cur: insert_entry(item, origin, cur), key)]
    if item.archive is not None:
        archive = item.archive
        jobs.append(_Job(archive, lambda cur: remove_block(item, archive, cur), key, True))
    line = _verdict(item, now, approval(root, cfg.verdicts, item.anchor))
    jobs.append(_Job(cfg.verdicts, lambda cur: _append(cfg.verdicts, cur, line), key))
    result = store.apply_batch(
        root,
        jobs,
        [_record(item, key)],
        lock_files=tuple(cfg.lock_files),
        now=now,
        dry_run=dry_run,
        lock_wait=lock_wait,
        kind="restore",
        all_or_nothing=True,  # a refusal on one file leaves the archive and verdicts alone
    )
    out = RestoreOutcome(result.ok, "", item, result.batch_id if result.journaled else None)
    out.files = list(result.files)
    if not result.ok:
        refusals: list[store.Conflict | store.Failure] = [*result.conflicts, *result.failures]
        reasons = "; ".join(c.reason for c in refusals)
        out.message = _("nothing restored: {reasons}").format(reasons=reasons)
    else:
        verb = _("would restore") if dry_run else _("restored")
        live = _anchors_in(root, origin)  # name only the anchor the entry really goes beside
        where = (
            origin
            + (f" § {item.heading}" if item.heading else "")
            + (f" after [[{item.after_anchor}]]" if item.after_anchor in live else "")
            + (f" before [[{item.before_anchor}]]" if item.before_anchor in live else "")
        )
        if out.batch:
            out.message = _("{verb} {id} to {where} (batch {batch})").format(
                verb=verb, id=item.id, where=where, batch=out.batch
            )
        else:  # a dry run has no batch
            out.message = _("{verb} {id} to {where}").format(verb=verb, id=item.id, where=where)
    return out


_ANCHOR_HEADER = re.compile(r"^#{2,3}[ \t]+\[[A-Z][A-Z0-9_-]*:([^\]\s]+)\]", re.M)


def _anchors_in(root: Path, rel: str) -> set[str]:
    """The ids of the anchors ``rel`` holds now (none when it can't be read)."""
    try:
        text = store.safe_read_bytes(root, rel).decode("utf-8", "replace")
    except (OSError, store.PathEscape):
        return set()
    return set(_ANCHOR_HEADER.findall(text))
