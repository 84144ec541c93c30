"""Discover and read a workspace. Every problem becomes a warning; nothing here raises for a
broken input file, and nothing here writes.

Here: finding the workspace and its files, and ``load_workspace``, which reads them in
order. Beside it: ``projects`` (the workspace's projects), ``activity`` (OpenClaw's usage
data and dreaming runs), ``checks`` (warnings across files)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

from memreview.i18n import N_, Message, Nn_, _
from memreview.workspace.activity import find_dreaming_runs, read_openclaw_usage, recalls_of_entries
from memreview.workspace.cache import Later, ScanCache
from memreview.workspace.checks import check_anchors, check_promotion_sources
from memreview.workspace.config import Config, load_config
from memreview.workspace.dates import parse_date
from memreview.workspace.markdown import (
    REF_RE,
    parse_memory_file,
)
from memreview.workspace.model import (
    DailyLog,
    Deferred,
    LoadWarning,
    MemoryFile,
    Project,
    Workspace,
)
from memreview.workspace.paths import PathEscape, real_inside
from memreview.workspace.projects import collect_projects
from memreview.workspace.reader import MAX_WARNINGS_PER_FILE, Reader
from memreview.workspace.records import (
    read_dreams,
    read_proposals,
    read_recalls,
    read_skills,
    read_verdicts,
)
from memreview.workspace.root import NotAWorkspace as NotAWorkspace  # re-exported
from memreview.workspace.root import check_workspace as check_workspace  # re-exported
from memreview.workspace.root import is_workspace as is_workspace  # re-exported
from memreview.workspace.textfile import decode_whole, is_binary
from memreview.workspace.yamlcap import CONFIG_LIMIT

# YYYY-MM-DD.md, YYYY-MM-DD-<slug>.md, YYYY-MM-DD_<slug>.md (``2026-11-28_日报.md``)
DAILY_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[-_].+)?\.md$", re.S)
SKIP_UNDER_MEMORY = {"dreaming", ".dreams", "review"}
ROOT_MEMORY_FILES = ("MEMORY.md", "memory.md")
OTHER_ROOT_FILES = ("NOW.md", "HEARTBEAT.md", "INDEX.md", "DREAMS.md")
BOOT_ROOT_FILES = ("AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md")

Progress = Callable[[str, float], None]


def _inside(root: Path, p: Path) -> bool:
    try:
        real_inside(root, p)
    except PathEscape:
        return False
    return True


def _walk_md(root: Path, top: Path, ws: Workspace) -> list[Path]:
    """Every ``*.md`` under ``top`` (not following symlinked directories)."""
    out: list[Path] = []

    def onerror(exc: OSError) -> None:
        where = Path(exc.filename) if exc.filename else top
        try:
            rel = where.relative_to(root).as_posix()
        except ValueError:
            rel = str(where)
        ws.warn(rel, None, N_("cannot read directory: {error}"), error=str(exc.strerror or exc))

    for dirpath, dirnames, filenames in os.walk(top, onerror=onerror, followlinks=False):
        d = Path(dirpath)
        for name in list(dirnames):
            sub = d / name
            if sub.is_symlink():
                rel = sub.relative_to(root).as_posix()
                if _inside(root, sub):
                    ws.warn(rel, None, N_("skipped: symlinked directory not followed"))
                else:
                    ws.warn(rel, None, N_("skipped: symlink leads outside the workspace"))
                dirnames.remove(name)
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".md"):
                out.append(d / name)
    return out


def load_workspace(  # noqa: C901, PLR0915
    root: Path,
    *,
    progress: Progress | None = None,
    config: Config | None = None,
    environ: Mapping[str, str] | None = None,
    cache: ScanCache | None = None,
    defer: bool = False,
) -> Workspace:
    """Read everything memreview needs from the workspace at ``root`` (already checked).

    ``environ`` (default: the process environment) says where OpenClaw keeps its state;
    ``cache`` gives the files parsed before, unchanged since, without reading them.
    ``defer``: the fragments, the recall log, OpenClaw's usage data and the projects (with
    the checks across files) are read when first used, or when the workspace is settled
    (``Workspace.settle``): a queue that needs none of them is computed first. Their
    warnings take the place they have in a load read at once.
    """
    root = root.resolve()
    report = progress or (lambda stage, frac: None)
    ws = Workspace(root=root, config=Config())
    rd = Reader(root, ws)

    if config is None:
        raw = rd.read("memreview.yaml", CONFIG_LIMIT)
        config, problems = load_config(raw)
        for line, msg in problems:
            ws.warn("memreview.yaml", line, msg)
    ws.config = cfg = config
    rd.markdown_limit = cfg.max_markdown_bytes
    rd.jsonl_limit = cfg.max_jsonl_bytes

    report(_("finding files"), 0.02)
    md_paths: list[Path] = []
    for name in ROOT_MEMORY_FILES + OTHER_ROOT_FILES:
        if (root / name).exists() or (root / name).is_symlink():
            md_paths.append(root / name)
    for p in sorted(root.glob("*.boot.md")):
        md_paths.append(p)
    for name in BOOT_ROOT_FILES:  # only their sizes matter: what the agent sees at boot
        if (root / name).is_file() and not (root / name).is_symlink():
            tf = rd.text(name)
            if tf is not None:
                ws.boot_texts[name] = list(tf.texts)
    if (root / "memory").is_dir() and not (root / "memory").is_symlink():
        md_paths.extend(_walk_md(root, root / "memory", ws))
    elif (root / "memory").is_symlink():
        ws.warn("memory", None, N_("skipped: the memory directory is a symlink"))

    archive_prefix = cfg.archive_dir.rstrip("/") + "/"
    total = max(1, len(md_paths))
    for k, p in enumerate(md_paths):
        if k % 50 == 0:
            report(_("reading memory files"), 0.05 + 0.55 * k / total)
        rel = rd.rel(p)
        name = p.name
        parts = rel.split("/")
        if rel.endswith(".boot.md"):
            tf = rd.text(rel)
            if tf is not None:
                for t in tf.texts:
                    ws.boot_ids.update(REF_RE.findall(t))
            if parts[0] != "memory":
                continue
        if len(parts) == 1 and name in OTHER_ROOT_FILES:
            tf = rd.text(rel)
            if tf is not None:
                ws.other_files[rel] = tf
            continue
        if len(parts) > 1 and parts[0] == "memory" and parts[1] in SKIP_UNDER_MEMORY:
            continue
        archived = rel.startswith(archive_prefix)
        dm = DAILY_RE.match(name)
        if dm and parts[0] == "memory" and not archived:
            day = _cached(
                cache,
                f"daily:{rd.markdown_limit}",
                (rel,),
                ws,
                partial(_read_daily, rd, ws, rel, dm.group(1)),
                lambda d: (d.text,) if d is not None else (),
            )
            if day is not None:
                ws.daily_logs.append(day)
                _stat(rd.root, rel, ws)
            continue
        kind = f"md:{archived}:{cfg.chronicle_words}:{rd.markdown_limit}"
        mf = _cached(cache, kind, (rel,), ws, partial(_parse, rd, ws, rel, archived), _mf_texts)
        if mf is None:
            continue
        _stat(root, rel, ws)
        (ws.archive_files if archived else ws.files)[rel] = mf

    later = _Deferring(ws) if defer else None
    recall_log = _read_dreams_and_recalls(cache, rd, ws, report, later)
    report(_("reading proposals"), 0.82)
    read_proposals(rd, ws, cfg.proposals)
    read_verdicts(rd, ws, cfg.verdicts)
    read_skills(rd, ws, cfg.skill_candidates)
    usage_env = os.environ if environ is None else environ
    if later is None or recall_log is None:
        read_openclaw_usage(rd, ws, cfg, usage_env)
    else:
        _defer_usage(later, recall_log, lambda has_log: _usage(rd, ws, cfg, usage_env, has_log))
    find_dreaming_runs(root, ws)
    report(_("finding projects"), 0.88)
    if later is None:
        ws.projects = _across_files(cache, rd, ws)
    else:
        projects = later.part(lambda: _across_files(cache, rd, ws))
        later.field("projects", lambda: (projects(), False))
    if later is None and ws.openclaw is not None and not ws.given("recalls"):
        ws.recalls = recalls_of_entries(ws, ws.openclaw.recalls)
    ws.daily_logs.sort(key=lambda d: (d.date, d.rel))
    report(_("loaded"), 0.9)
    return ws


def _read_dreams_and_recalls(
    cache: ScanCache | None,
    rd: Reader,
    ws: Workspace,
    report: Progress,
    later: _Deferring | None = None,
) -> Callable[[], Any] | None:
    """The fragments and the recall log: from the cache (unpickled when first used) when
    their files are unchanged. With ``later`` both are read when first used: the recall
    log's read is given back (what it gives: None, a list, or the scan cache's handle)."""
    cfg = ws.config
    report(_("reading fragments"), 0.62)

    def fragments() -> Any:
        return _cached(
            cache,
            "dreams",
            (cfg.dreams_db, cfg.dreams_db + "-wal"),
            ws,
            # read_dreams sets the field (never through a lazy field: this may be its load)
            lambda: _read_then(read_dreams, rd, ws, cfg.dreams_db, "fragments"),
            lambda frags: (
                s
                for f in frags or ()
                for s in (f.id, f.content, f.status, f.last_seen, f.theme, f.category, f.date)
                if s
            ),
            later=True,
        )

    if later is None:
        _later(ws, "fragments", fragments())
    else:
        read = later.part(fragments)
        later.field("fragments", lambda: _handle(read()))
    report(_("reading recall log"), 0.72)

    def recall_log() -> Any:
        return _cached(
            cache,
            f"recalls:{rd.jsonl_limit}",
            (cfg.recall_log,),
            ws,
            lambda: _read_then(read_recalls, rd, ws, cfg.recall_log, "recalls"),
            lambda recalls: (s for r in recalls or () for s in (r.id, r.channel, r.query)),
            later=True,
        )

    if later is None:
        _later(ws, "recalls", recall_log())
        return None
    return later.part(recall_log)


def _defer_usage(
    later: _Deferring,
    recall_log: Callable[[], Any],
    usage: Callable[[bool], tuple[Any, Any]],
) -> None:
    """The recalls and OpenClaw's usage data (its store and line recalls), read when one of
    them is first used: the recall log's recalls, or, where there is none, OpenClaw's line
    recalls as recalls of what the lines hold. OpenClaw's events are read only where there
    is no recall log."""
    read = later.part(lambda: usage(recall_log() is not None))

    def recalls() -> tuple[Any, bool]:
        value = recall_log()
        if isinstance(value, Later):  # never None: the scan cache's handle
            return value, True
        openclaw = read()[0] if value is None else None
        if openclaw is not None:
            value = recalls_of_entries(later.ws, openclaw.recalls)
        return value, False

    later.field("recalls", recalls)
    later.field("openclaw", lambda: (read()[0], False))
    later.field("short_term", lambda: (read()[1], False))


def _across_files(cache: ScanCache | None, rd: Reader, ws: Workspace) -> dict[str, Project]:
    """The projects, and the warnings about anchors and promotion sources, which are made
    of every memory file: from the cache when no memory file, daily log or setting changed
    (a warm open then unpickles no memory file)."""

    def compute() -> tuple[dict[str, Project], list[LoadWarning]]:
        before = len(ws.warnings)
        check_anchors(ws)
        collect_projects(ws, ws.config)  # sets the field (never through a deferred one)
        check_promotion_sources(rd, ws)
        return ws.__dict__["projects"], ws.warnings[before:]

    if cache is None:
        return compute()[0]
    # the memory files by their keys; the daily logs (promotion sources) by their names,
    # which the key covers with every other file's
    key = cache.files_key([*ws.files, *ws.archive_files], repr(ws.config))
    projects: dict[str, Project]
    projects, warnings = cache.derive("projects", key, compute, _well_made, _projects_texts)
    if projects is not ws.__dict__.get("projects"):  # from the cache
        ws.warnings.extend(warnings)
    return projects


def _usage(
    rd: Reader, ws: Workspace, cfg: Config, environ: Mapping[str, str], recall_log: bool
) -> tuple[Any, Any]:
    """OpenClaw's usage data and short-term store (``read_openclaw_usage``), each None
    unless it reads one."""
    read_openclaw_usage(rd, ws, cfg, environ, recall_log)
    return ws.__dict__.get("openclaw"), ws.__dict__.get("short_term")


def _handle(value: Any) -> tuple[Any, bool]:
    """A value read, or the scan cache's handle for it (to be called when it is used)."""
    return (value, True) if isinstance(value, Later) else (value, False)


class _Deferring:
    """The parts of a workspace read when first used (:class:`Deferred`). A part is read
    once (``part``); the warnings it gives go where they would be had it been read in its
    turn: after the warnings given before it was deferred, before those given after,
    whichever part is read first (a part may be read while another is: each places only
    its own). Parts are read under the workspace's lock of fields given later: by one
    thread at a time."""

    def __init__(self, ws: Workspace):
        self.ws = ws
        self.placed: list[tuple[tuple[int, int], int]] = []  # (its slot, how many) each
        self.moved = 0  # warnings placed so far
        self.count = 0  # parts deferred

    def part(self, read: Callable[[], Any]) -> Callable[[], Any]:
        """``read``, run when first called (its value kept for the next calls)."""
        slot = (len(self.ws.warnings), self.count)  # parts deferred at one place: in turn
        self.count += 1
        kept: list[Any] = []
        reading: list[bool] = []

        def once() -> Any:
            if kept:
                return kept[0]
            if reading:  # a part never needs itself: a loop in how the parts are read
                raise RuntimeError("a deferred part of the workspace asked for itself")
            reading.append(True)
            warnings = self.ws.warnings
            before, moved = len(warnings), self.moved
            value = read()
            # its own are the last ones: those of a part read meanwhile were placed already
            own = len(warnings) - before - (self.moved - moved)
            block = warnings[len(warnings) - own :] if own else []
            if own:
                del warnings[len(warnings) - own :]
            at = slot[0] + sum(n for s, n in self.placed if s < slot)
            warnings[at:at] = block
            self.placed.append((slot, len(block)))
            self.moved += len(block)
            kept.append(value)
            return value

        return once

    def field(self, name: str, resolve: Callable[[], tuple[Any, bool]]) -> None:
        """Field ``name`` given by ``resolve()`` (made of parts) when first used."""
        self.ws.set_later(name, Deferred(resolve))


def _read_then(
    read: Callable[[Reader, Workspace, str], None], rd: Reader, ws: Workspace, rel: str, field: str
) -> Any:
    """``read`` sets the workspace's ``field``: its value (never through a lazy field)."""
    read(rd, ws, rel)
    return ws.__dict__.get(field)


def _well_made(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], dict)
        and all(isinstance(k, str) and type(p) is Project for k, p in value[0].items())
        and isinstance(value[1], list)
        and all(type(w) is LoadWarning for w in value[1])
    )


def _projects_texts(value: tuple[Any, Any]) -> list[str]:
    projects, warnings = value
    return [repr(projects), repr(warnings)]


def _cached(
    cache: ScanCache | None,
    kind: str,
    rels: tuple[str, ...],
    ws: Workspace,
    compute: Callable[[], Any],
    texts: Callable[[Any], Iterable[str]],
    later: bool = False,
) -> Any:
    """``compute()``, or what it gave before for the same files (see ScanCache.memo)."""
    if cache is None:
        return compute()
    return cache.memo(kind, rels, ws.warnings, compute, texts, later)


def _later(ws: Workspace, name: str, value: Any) -> None:
    """Field ``name`` of ``ws`` set to ``value``, or to what it gives when first used (a
    value from the cache not unpickled yet)."""
    if isinstance(value, Later):
        ws.set_later(name, value)
    else:
        setattr(ws, name, value)


def _parse(rd: Reader, ws: Workspace, rel: str, archived: bool) -> MemoryFile | None:
    """A memory file read and parsed (None when it can't be read), its problems warned."""
    tf = rd.text(rel)
    if tf is None:
        return None
    mf, problems = parse_memory_file(
        tf, archived=archived, chronicle_words=tuple(ws.config.chronicle_words)
    )
    for line, msg in problems[:MAX_WARNINGS_PER_FILE]:
        ws.warn(rel, line, msg)
    if len(problems) > MAX_WARNINGS_PER_FILE:
        more = len(problems) - MAX_WARNINGS_PER_FILE
        text = Nn_("{count} more problem not shown", "{count} more problems not shown")
        ws.warn(rel, None, Message(text, count=more))
    return mf


def _mf_texts(mf: MemoryFile | None) -> list[str] | tuple[()]:
    return mf.source.texts if mf is not None else ()


def _stat(root: Path, rel: str, ws: Workspace) -> None:
    try:
        ws.mtimes[rel] = (root / rel).stat().st_mtime
    except OSError:
        pass


def _read_daily(rd: Reader, ws: Workspace, rel: str, day_text: str) -> DailyLog | None:
    day = parse_date(day_text)
    if day is None:
        ws.warn(
            rel, None, N_("daily log name has an impossible date ({day}); skipped"), day=day_text
        )
        return None
    data = rd.read(rel, rd.markdown_limit)
    if data is None:
        return None
    if is_binary(data):
        ws.warn(rel, None, N_("skipped: binary file, not text"))
        return None
    # Daily logs are only searched for mentions, never edited: decode the whole text at once.
    text = decode_whole(data)
    return DailyLog(
        rel,
        day,
        text.lower(),
        not text.strip(),
        text.count("\n") + (not text.endswith("\n") and bool(text)),
        text,
    )


def review_date(ws: Workspace, today: date | None) -> date:
    """The review date: ``--today``, else ``review_date:`` in memreview.yaml, else today."""
    if today is not None:
        return today
    if ws.config.review_date is not None:
        return ws.config.review_date
    return date.today()
