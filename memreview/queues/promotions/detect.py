"""The promotions queue itself: each promoted entry judged in the order it was made (the
later copy is the duplicate), with its source lines and OpenClaw's store row as evidence."""

from __future__ import annotations

import json
import re
import weakref
from bisect import bisect_left
from dataclasses import dataclass, field
from datetime import date
from types import SimpleNamespace

from memreview.i18n import _, current_language, ngettext
from memreview.queues.common import item_id, short
from memreview.queues.promotions.flags import (
    FLAGS,
    flag_command,
    flag_flattened,
    flag_half_sentence,
    flag_scaffolding,
    flag_snapshot,
)
from memreview.queues.promotions.found import (
    REJECTED_FILE,
    Promoted,
    find_promoted,
    split_tail,
    strip_bullet,
)
from memreview.queues.promotions.shapes import (
    flag_dream,
    flag_metadata,
    flag_moment,
    flag_transcript,
)
from memreview.queues.promotions.standing import standing
from memreview.queues.recall_index import recall_index
from memreview.queues.sameness import comparison_form
from memreview.workspace.dates import parse_date
from memreview.workspace.markdown import MARKER_KEY_RE
from memreview.workspace.memo import kept_with_file, per_file
from memreview.workspace.model import DailyLog, Entry, MemoryFile, Workspace
from memreview.workspace.normalize import normalize


@dataclass
class _Context:
    ws: Workspace
    today: date
    archived_keys: set[str]
    archived_forms: dict[str, list[date | None]]  # each archive of a text: when (None: unknown)
    # comparison form -> the curated entry (outside promotion sections) where it stands
    standing: dict[str, Entry | None] = field(default_factory=dict)
    logs: dict[str, DailyLog] | None = None  # ``logs_by_name`` (None: made at each ask)


def logs_by_name(ws: Workspace) -> dict[str, DailyLog]:
    """The daily logs by their path (the first of a name, as a walk through them finds it):
    a caller asking ``source_lines`` once per promotion or store entry makes it once."""
    out: dict[str, DailyLog] = {}
    for log in ws.daily_logs:
        out.setdefault(log.rel, log)
    return out


def source_lines(
    ws: Workspace, path: str, logs: dict[str, DailyLog] | None = None
) -> list[str] | None:
    """The lines of a workspace file that a promotion names as its source (None: missing);
    ``logs``: ``logs_by_name(ws)``, when the caller asks for many (a year of dreaming is
    thousands of promotions, a year of logs hundreds: without it, each walks the logs)."""
    mf = ws.files.get(path) or ws.archive_files.get(path)
    if mf is not None:
        return _file_lines(mf)
    log = (logs_by_name(ws) if logs is None else logs).get(path)
    if log is not None:
        return _log_lines(log)
    tf = ws.other_files.get(path)
    if tf is not None:
        return [ln.text for ln in tf.lines]
    return None


_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
_DATE_HEADING = re.compile(r"^#{1,6}\s+(\d{4}-\d{2}-\d{2})")
# the line an archived promotion is filed under (``decisions.units.promotions.archive_note``)
_REJECTED_ON = re.compile(r"^Rejected:\s*(\d{4}-\d{2}-\d{2})\b")


class _Lines(list):
    """A source file's lines, and where its headings are (found once per file, when first
    asked, and kept with the parsed file: the next open has them too)."""

    heads: list[int] | None = None
    titles: list[tuple[str, bool]] | None = None  # each heading's text, level 1 or 2
    # the parsed file, weakly: the lines are kept per file while it lives (``per_file``)
    owner: weakref.ref[MemoryFile | DailyLog] | None = None


@per_file  # asked for once per promotion: split once per file (and kept for a rescan)
def _file_lines(mf: MemoryFile) -> _Lines:
    lines = _Lines(ln.text for ln in mf.source.lines)
    lines.owner = weakref.ref(mf)
    return lines


@per_file
def _log_lines(log: DailyLog) -> _Lines:
    lines = _Lines(log.text.split("\n") if log.text else [""] * log.lines)
    lines.owner = weakref.ref(log)
    return lines


def _headings(lines: list[str]) -> tuple[tuple[int, str, bool], ...]:
    """Each heading of ``lines``: its index, its text, whether it is of level 1 or 2."""
    out = []
    for k, text in enumerate(lines):
        m = _HEADING.match(text)
        if m:
            out.append((k, m.group(1), text.startswith(("## ", "# "))))
    return tuple(out)


@kept_with_file
def _file_headings(mf: MemoryFile) -> tuple[tuple[int, str, bool], ...]:
    return _headings(_file_lines(mf))


@kept_with_file
def _log_headings(log: DailyLog) -> tuple[tuple[int, str, bool], ...]:
    return _headings(_log_lines(log))


def _source_headings(lines: list[str] | None, line: int) -> tuple[str, ...]:
    """The headings above ``line``, nearest first, up to the first of level 1 or 2."""
    if not lines:
        return ()
    top = min(line, len(lines))
    if isinstance(lines, _Lines):
        return _chain(lines, top)
    heads = [k for k in range(top) if _HEADING.match(lines[k])]
    out = []
    for k in reversed(heads):
        out.append(_HEADING.match(lines[k]).group(1))
        if lines[k].startswith("## ") or lines[k].startswith("# "):
            break
    return tuple(out)


def _chain(lines: _Lines, top: int) -> tuple[str, ...]:
    """``_source_headings`` from the headings found once per file."""
    if lines.heads is None:
        owner = lines.owner() if lines.owner is not None else None
        if isinstance(owner, DailyLog):
            found = _log_headings(owner)
        elif owner is not None:
            found = _file_headings(owner)
        else:
            found = _headings(lines)
        lines.heads = [k for k, _t, _l in found]
        lines.titles = [(t, level) for _k, t, level in found]
    titles = lines.titles or []
    out = []
    for i in range(bisect_left(lines.heads, top) - 1, -1, -1):
        title, top_level = titles[i]
        out.append(title)
        if top_level:
            break
    return tuple(out)


def _recalled_since(ws: Workspace, p: Promoted) -> int | None:
    """Recalls of its source or its own lines in OpenClaw's usage since promotion (None: no
    usage data)."""
    usage = getattr(ws, "openclaw", None)
    if usage is None:
        return None
    spans = [(p.entry.file, p.entry.line, p.entry.end_line)]
    if p.source:
        spans.append(p.source)
    ix = recall_index(usage)
    hits = {k for path, a, b in spans for k in ix.overlapping(path, a, b)}
    if p.day is None:
        return len(hits)
    return sum(1 for k in hits if usage.recalls[k].day >= p.day)


def _archived(ws: Workspace) -> tuple[set[str], dict[str, list[date | None]]]:
    """Marker keys of the entries archived in earlier reviews, and their comparison forms
    with the day each was archived: the ``Rejected:`` line it is filed under, else the
    date heading above it (None when neither says)."""
    keys: set[str] = set()
    forms: dict[str, list[date | None]] = {}
    for v in ws.verdicts or []:  # in file order: a restore takes an archive back
        if v.relation == "promotion" and v.verdict == "archived":
            keys.add(v.proposal)
        elif v.relation == "promotion" and v.verdict == "restored":
            keys.discard(v.proposal)
    mf = ws.archive_files.get(REJECTED_FILE)
    if mf is None:
        return keys, forms
    day_at: list[date | None] = []  # by line: the day in effect there
    day = None
    for text in mf.source.texts:
        m = MARKER_KEY_RE.search(text)
        if m:
            keys.add(m.group(1))
        dm = _REJECTED_ON.match(text) or _DATE_HEADING.match(text)
        if dm:
            day = parse_date(dm.group(1))
        day_at.append(day)
    for e in mf.entries:
        if e.kind in ("bullet", "promoted"):
            text, _tail = split_tail(e.first_line)
            on = day_at[e.line - 1] if 0 < e.line <= len(day_at) else None
            forms.setdefault(comparison_form(_norm(strip_bullet(text))), []).append(on)
    return keys, forms


def _came_back(p: Promoted, archived: list[date | None]) -> date | None | bool:
    """Whether ``p`` came back after an archive of its text: promoted after the day one of
    them was archived (or either day unknown). A copy that stood in memory before the
    archive did not come back: the owner archived another copy of it and kept this one.
    The earliest such day (None: unknown), or False."""
    after = [on for on in archived if on is None or p.day is None or p.day > on]
    if not after:
        return False
    known = [on for on in after if on is not None]
    return min(known) if known else None


def _norm(text: str) -> str:
    return normalize("- " + text, "bullet")


def _duplicate(ctx: _Context, p: Promoted, form: str, seen: dict[str, Promoted]) -> str | None:
    earlier = seen.get(form)
    if earlier is not None:
        return _("the same text was promoted before, at {file}:{line}").format(
            file=earlier.entry.file, line=earlier.entry.line
        )
    other = ctx.standing.get(form)
    if other is None:
        return None
    return _("the same fact already stands at {file}:{line}").format(
        file=other.file, line=other.line
    )


def _standing(ws: Workspace, forms: set[str], promoted: frozenset[int]):
    return standing(ws, forms, promoted)  # (a seam: tests compare it with all pairs)


def _text_flags(body: str) -> list[tuple[str, str]]:
    """The flags a promotion's text alone raises (one reason a flag)."""
    flags: list[tuple[str, str]] = []
    p = SimpleNamespace(body=body)  # what those of a promotion read of it
    for name, fn in (
        ("half-sentence", lambda: flag_half_sentence(p)),
        ("flattened", lambda: flag_flattened(p)),
        ("status-snapshot", lambda: flag_snapshot(p)),
        ("scaffolding", lambda: flag_scaffolding(p)),
        ("status-snapshot", lambda: flag_moment(body)),
        ("metadata", lambda: flag_metadata(body)),
        ("transcript", lambda: flag_transcript(body)),
        ("dream", lambda: flag_dream(body)),
    ):
        why = fn()
        if why and all(f != name for f, _r in flags):
            flags.append((name, why))
    return flags


def _body_flags(ctx: _Context, body: str) -> list[tuple[str, str]]:
    """``_text_flags``, kept by text across scans (a year of dreaming is thousands of
    promotions, and a week adds a few dozen)."""
    memo = ctx.ws.per_file.memo("promotion-flags") if ctx.ws.per_file is not None else None
    if memo is None:
        return _text_flags(body)
    key = f"{current_language()}\0{body}"
    kept = memo.get(key, lambda _k: json.dumps(_text_flags(body), ensure_ascii=False), _flag_list)
    return [(name, why) for name, why in json.loads(kept)]


def _flag_list(value: str) -> bool:
    """A kept value of ``_body_flags`` as it makes them: ``[[flag, reason], …]``."""
    try:
        found = json.loads(value)
    except ValueError:
        return False
    return isinstance(found, list) and all(
        isinstance(f, list)
        and len(f) == 2
        and f[0] in FLAGS
        and f[0] != "command"
        and isinstance(f[1], str)
        for f in found
    )


def _flags(ctx: _Context, p: Promoted, form: str, seen_forms, seen_keys) -> list[dict]:
    ws = ctx.ws
    flags: list[tuple[str, str]] = []
    lines = source_lines(ws, p.source[0], ctx.logs) if p.source else None
    why = flag_command(p, _source_headings(lines, p.source[1]) if p.source else ())
    if why:
        flags.append(("command", why))
    flags.extend(_body_flags(ctx, p.body))
    if p.key in seen_keys:
        why = _("the same key was promoted before, at {where}").format(where=seen_keys[p.key])
        flags.append(("duplicate", why))
    else:
        why = _duplicate(ctx, p, form, seen_forms)
        if why:
            flags.append(("duplicate", why))
    if p.key in ctx.archived_keys:
        flags.append(("came-back", _("its key was archived in an earlier review")))
    elif form in ctx.archived_forms:
        when = _came_back(p, ctx.archived_forms[form])
        if when is not False:
            flags.append(
                (
                    "came-back",
                    _("the same text was archived in an earlier review on {day}").format(
                        day=when.isoformat()
                    )
                    if isinstance(when, date)
                    else _("the same text was archived in an earlier review"),
                )
            )
    # a workspace without a single daily log (MEMORY.md copied alone) can't tell a deleted
    # source from one that was never copied: its sources are not judged
    if p.source and ws.daily_logs:
        path, a, b = p.source
        if lines is None:
            why = _("its source {file} no longer exists").format(file=path)
            flags.append(("dangling-source", why))
        elif b > len(lines):
            flags.append(
                (
                    "dangling-source",
                    ngettext(
                        "lines {first}-{last} of {file} no longer exist (it has {count} line)",
                        "lines {first}-{last} of {file} no longer exist (it has {count} lines)",
                        len(lines),
                    ).format(first=a, last=b, file=path, count=len(lines)),
                )
            )
        elif lines and not any(x.strip() for x in lines[a - 1 : b]):
            why = _("lines {first}-{last} of {file} are blank now").format(
                first=a, last=b, file=path
            )
            flags.append(("dangling-source", why))
    return [{"flag": f, "label": FLAGS[f], "reason": r} for f, r in flags]


def context_lines(lines: list[str] | None, a: int, b: int) -> list[list]:
    if lines is None:
        return []
    lo, hi = max(1, a - 2), min(len(lines), b + 2)
    return [[k, lines[k - 1]] for k in range(lo, hi + 1)]


def _item(p: Promoted, flags: list[dict], ws: Workspace, logs: dict[str, DailyLog] | None) -> dict:
    e = p.entry
    source = None
    if p.source:
        path, a, b = p.source
        lines = source_lines(ws, path, logs)
        source = {
            "file": path,
            "start": a,
            "end": b,
            "missing": lines is None or b > len(lines),
            "lines": context_lines(lines, a, b),
        }
    store = None
    usage = getattr(ws, "openclaw", None)
    if usage is not None and p.origin == "openclaw":
        from memreview.workspace.openclaw import store_key  # type: ignore[import-not-found]

        row = usage.store.get(store_key(p.key))
        if row is not None:
            store = {
                "recall_days": len(row.recall_days),
                "last_recalled": row.last_recalled.isoformat() if row.last_recalled else None,
                "promoted_at": row.promoted_at.isoformat() if row.promoted_at else None,
            }
    return {
        "id": item_id("pm", e.file, p.key),
        "title": f"{'⚑ ' if flags else ''}{p.day.isoformat() if p.day else '?'}  {short(p.body, 70)}",
        "origin": p.origin,
        "key": p.key,
        "ref": e.ref(),
        "marker_line": p.marker_line,
        "promoted": p.day.isoformat() if p.day else None,
        "group": p.group,
        "text": p.body,
        "tail": p.tail,
        "score": p.score,
        "signals": p.signals,
        "recalls": p.recalls,
        "avg": p.avg,
        "importance": p.importance,
        "trigger": p.trigger,
        "source": source,
        "store": store,
        # evidence, never a flag: real tails carry recalls=0 on good entries too
        "recalled_since": _recalled_since(ws, p),
        "flags": flags,
    }


def promotions(ws: Workspace, today: date) -> list[dict]:
    """Every promoted entry with its junk flags: flagged first, then newest first."""
    found = find_promoted(ws)
    if not found:
        return []
    keys, forms = _archived(ws)
    ctx = _Context(ws, today, keys, forms, logs=logs_by_name(ws))
    promo_forms = [comparison_form(p.entry.norm) for p in found]
    ctx.standing = _standing(ws, set(promo_forms), frozenset(id(p.entry) for p in found))
    form_of = {id(p): f for p, f in zip(found, promo_forms, strict=True)}
    # promotions are judged in the order they were made: the later copy is the duplicate
    order = sorted(found, key=lambda p: (p.day or date.min, p.entry.file, p.entry.line))
    seen_forms: dict[str, Promoted] = {}
    seen_keys: dict[str, str] = {}
    items = []
    for p in order:
        form = form_of[id(p)]
        flags = _flags(ctx, p, form, seen_forms, seen_keys)
        seen_forms.setdefault(form, p)
        seen_keys.setdefault(p.key, f"{p.entry.file}:{p.entry.line}")
        items.append(_item(p, flags, ws, ctx.logs))
    items.sort(
        key=lambda it: (
            not it["flags"],
            -(parse_date(it["promoted"] or "") or date.min).toordinal(),
            it["ref"]["file"],
            it["ref"]["line"],
        )
    )
    return items
