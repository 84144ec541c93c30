"""Discover and read a workspace. Every problem becomes a warning; nothing here raises for a
broken input file, and nothing here writes."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from datetime import date
from functools import partial
from pathlib import Path

from memreview.workspace.cache import ScanCache
from memreview.workspace.config import Config, load_config
from memreview.workspace.dates import parse_date
from memreview.workspace.markdown import (
    REF_RE,
    STATUS_LINE_RE,
    find_status_line,
    parse_memory_file,
)
from memreview.workspace.model import DailyLog, MemoryFile, Project, Recall, Workspace
from memreview.workspace.openclaw import (
    LineRecall,
    Usage,
    find_state_db,
    parse_events,
    parse_store_json,
    read_state_db,
    relative,
)
from memreview.workspace.paths import PathEscape, real_inside
from memreview.workspace.reader import MAX_WARNINGS_PER_FILE, Reader
from memreview.workspace.records import (
    read_dreams,
    read_proposals,
    read_recalls,
    read_skills,
    read_verdicts,
)
from memreview.workspace.textfile import decode_whole, is_binary
from memreview.workspace.yamlcap import CONFIG_LIMIT

# YYYY-MM-DD.md, YYYY-MM-DD-<slug>.md, YYYY-MM-DD_<slug>.md (``2026-11-28_日报.md``)
DAILY_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[-_].+)?\.md$", re.S)
SKIP_UNDER_MEMORY = {"dreaming", ".dreams", "review"}
ROOT_MEMORY_FILES = ("MEMORY.md", "memory.md")
OTHER_ROOT_FILES = ("NOW.md", "HEARTBEAT.md", "INDEX.md", "DREAMS.md")

Progress = Callable[[str, float], None]


class NotAWorkspace(Exception):
    """The path is not a workspace; the message is one line for the user."""


def is_workspace(root: Path) -> bool:
    return (root / "MEMORY.md").is_file() or (root / "memory" / "MEMORY.md").is_file()


def check_workspace(path: Path) -> Path:
    """The resolved workspace root, or NotAWorkspace with a one-line reason."""
    try:
        root = path.expanduser().resolve()
    except (OSError, RuntimeError) as exc:
        raise NotAWorkspace(f"{path}: cannot resolve path ({exc})") from None
    if not root.exists():
        raise NotAWorkspace(f"{path}: no such directory")
    if not root.is_dir():
        raise NotAWorkspace(f"{path}: not a directory")
    if not os.access(root, os.R_OK | os.X_OK):
        raise NotAWorkspace(f"{path}: permission denied")
    if not is_workspace(root):
        raise NotAWorkspace(
            f"{path}: not a memory workspace (no MEMORY.md at its root or under memory/)"
        )
    return root


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
        ws.warn(rel, None, f"cannot read directory: {exc.strerror or exc}")

    for dirpath, dirnames, filenames in os.walk(top, onerror=onerror, followlinks=False):
        d = Path(dirpath)
        for name in list(dirnames):
            sub = d / name
            if sub.is_symlink():
                rel = sub.relative_to(root).as_posix()
                reason = (
                    "symlinked directory not followed"
                    if _inside(root, sub)
                    else "symlink leads outside the workspace"
                )
                ws.warn(rel, None, f"skipped: {reason}")
                dirnames.remove(name)
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".md"):
                out.append(d / name)
    return out


def load_workspace(
    root: Path,
    *,
    progress: Progress | None = None,
    config: Config | None = None,
    environ: Mapping[str, str] | None = None,
    cache: ScanCache | None = None,
) -> Workspace:
    """Read everything memreview needs from the workspace at ``root`` (already checked).

    ``environ`` (default: the process environment) says where OpenClaw keeps its state;
    ``cache`` gives the files parsed before, unchanged since, without reading them.
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

    report("finding files", 0.02)
    md_paths: list[Path] = []
    for name in ROOT_MEMORY_FILES + OTHER_ROOT_FILES:
        if (root / name).exists() or (root / name).is_symlink():
            md_paths.append(root / name)
    for p in sorted(root.glob("*.boot.md")):
        md_paths.append(p)
    if (root / "memory").is_dir() and not (root / "memory").is_symlink():
        md_paths.extend(_walk_md(root, root / "memory", ws))
    elif (root / "memory").is_symlink():
        ws.warn("memory", None, "skipped: the memory directory is a symlink")

    archive_prefix = cfg.archive_dir.rstrip("/") + "/"
    total = max(1, len(md_paths))
    for k, p in enumerate(md_paths):
        if k % 50 == 0:
            report("reading memory files", 0.05 + 0.55 * k / total)
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

    report("reading fragments", 0.62)
    ws.fragments = _cached(
        cache,
        "dreams",
        (cfg.dreams_db, cfg.dreams_db + "-wal"),
        ws,
        lambda: read_dreams(rd, ws, cfg.dreams_db) or ws.fragments,
        lambda frags: (f.content for f in frags or ()),
    )
    report("reading recall log", 0.72)
    ws.recalls = _cached(
        cache,
        "recalls",
        (cfg.recall_log,),
        ws,
        lambda: read_recalls(rd, ws, cfg.recall_log) or ws.recalls,
        lambda recalls: (r.query for r in recalls or ()),
    )
    report("reading proposals", 0.82)
    read_proposals(rd, ws, cfg.proposals)
    read_verdicts(rd, ws, cfg.verdicts)
    read_skills(rd, ws, cfg.skill_candidates)
    _read_openclaw_usage(rd, ws, cfg, os.environ if environ is None else environ)
    _find_dreaming_runs(root, ws)
    report("finding projects", 0.88)
    _check_anchors(ws)
    _collect_projects(ws, cfg)
    _check_promotion_sources(rd, ws)
    if ws.recalls is None and ws.openclaw is not None:
        ws.recalls = recalls_of_entries(ws, ws.openclaw.recalls)
    ws.daily_logs.sort(key=lambda d: (d.date, d.rel))
    report("loaded", 0.9)
    return ws


def _cached(
    cache: ScanCache | None, kind: str, rels: tuple[str, ...], ws: Workspace, compute, texts
):
    """``compute()``, or what it gave before for the same files (see ScanCache.memo)."""
    if cache is None:
        return compute()
    return cache.memo(kind, rels, ws.warnings, compute, texts)


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
        ws.warn(rel, None, f"{len(problems) - MAX_WARNINGS_PER_FILE} more problems not shown")
    return mf


def _mf_texts(mf: MemoryFile | None):
    return mf.source.texts if mf is not None else ()


def _stat(root: Path, rel: str, ws: Workspace) -> None:
    try:
        ws.mtimes[rel] = (root / rel).stat().st_mtime
    except OSError:
        pass


def _read_daily(rd: Reader, ws: Workspace, rel: str, day_text: str) -> DailyLog | None:
    day = parse_date(day_text)
    if day is None:
        ws.warn(rel, None, f"daily log name has an impossible date ({day_text}); skipped")
        return None
    data = rd.read(rel, rd.markdown_limit)
    if data is None:
        return None
    if is_binary(data):
        ws.warn(rel, None, "skipped: binary file, not text")
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


def _read_openclaw_usage(rd: Reader, ws: Workspace, cfg: Config, environ) -> None:
    """OpenClaw's recall events and short-term store, read only where there is no recall
    log (with one, the recall log is the usage data)."""
    usage = Usage()
    store_rel = cfg.short_term_recall
    data = rd.read(store_rel)
    store_doc = None
    if data is not None:
        try:
            store_doc = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            ws.warn(store_rel, None, "not valid JSON")
    if ws.recalls is not None:
        return
    rows = rd.jsonl(cfg.recall_events)
    if rows is not None:
        recalls, bad = parse_events(rows, rd.root)
        usage.recalls.extend(recalls)
        usage.sources.append(cfg.recall_events)
        if bad:
            ws.warn(cfg.recall_events, None, f"{bad} recall event(s) without a date or results")
    if store_doc is not None:
        entries = parse_store_json(store_doc, rd.root)
        if entries is None:
            ws.warn(store_rel, None, 'expected an object with "entries"; recall store not read')
        else:
            usage.add_store(entries)
            usage.sources.append(store_rel)
    db = find_state_db(rd.root, cfg.openclaw_state_db, environ)  # the first found is OpenClaw's
    if db is not None:
        entries, problem = read_state_db(db, rd.root)
        if problem:
            ws.warn(str(db), None, problem)
        elif entries:
            usage.add_store(entries)
            usage.sources.append(str(db))
    if usage.sources:
        ws.openclaw = usage


DREAMING_DIRS = ("dream-diary", "memory/dream-diary", "memory/dreaming")
DATED_NAME_RE = re.compile(r"(\d{4}-\d{2}-\d{2})")


def _find_dreaming_runs(root: Path, ws: Workspace) -> None:
    """Files a dreaming run leaves, dated by their names: ``dream-diary/…``,
    ``memory/dreaming/<phase>/YYYY-MM-DD.md`` (their content is not read)."""
    for top in DREAMING_DIRS:
        d = root / top
        if d.is_symlink() or not d.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(d, followlinks=False):
            dirnames[:] = sorted(n for n in dirnames if not (Path(dirpath) / n).is_symlink())
            for name in sorted(filenames):
                m = DATED_NAME_RE.search(name)
                day = parse_date(m.group(1)) if m else None
                if day is not None:
                    ws.dreaming_runs.append(
                        (day, (Path(dirpath) / name).relative_to(root).as_posix())
                    )


def recalls_of_entries(ws: Workspace, line_recalls: list[LineRecall]) -> list[Recall]:
    """OpenClaw's line recalls as recalls of what the lines hold: an anchor whose block they
    overlap (by its id), a project whose file they are in (by its key)."""
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for a in ws.all_anchors():
        if not a.archived:
            spans.setdefault(a.file, []).append((a.line, a.end_line, a.id))
    project_of: dict[str, str] = {}
    prefix = ws.config.projects_dir.rstrip("/") + "/"
    for p in ws.projects.values():
        if p.file:
            project_of[p.file] = p.key
            folder = p.file.rsplit("/", 1)[0] + "/"
            if folder != prefix:
                for rel in ws.files:
                    if rel.startswith(folder):
                        project_of.setdefault(rel, p.key)
    out: list[Recall] = []
    for r in line_recalls:
        for start, end, aid in spans.get(r.path, ()):
            if start <= r.end and r.start <= end:
                out.append(Recall(r.day, aid, "openclaw", r.query))
        key = project_of.get(r.path)
        if key is not None:
            out.append(Recall(r.day, key, "openclaw", r.query))
    return out


SOURCE_RE = re.compile(r"\bsource=([^\s\]]+?)(?::\d+(?:-\d+)?)?(?=[\s\]])")


def _check_promotion_sources(rd: Reader, ws: Workspace) -> None:
    """Warn about promoted entries whose ``source=`` file no longer exists."""
    known = {d.rel for d in ws.daily_logs} | set(ws.files) | set(ws.archive_files)
    for rel, mf in ws.files.items():
        for e in mf.entries:
            if e.kind != "promoted" or "source=" not in e.text:
                continue
            m = SOURCE_RE.search(e.text)
            if not m:
                continue
            src = relative(m.group(1), rd.root)
            if src is None or src in known:
                continue
            try:
                exists = (rd.root / src).exists()
            except OSError:
                exists = False
            if not exists:
                ws.warn(rel, e.line, f"promotion source {src} does not exist")


def _check_anchors(ws: Workspace) -> None:
    """Warn about bad dates and references to anchors that don't exist."""
    index = ws.anchor_index()
    for a in ws.all_anchors():
        first = index[a.id]
        if first is not a and first.file != a.file:  # the parser warns within one file
            if a.archived and not first.archived:
                # archive written, source not yet: a move cut short (DESIGN §4)
                ws.warn(
                    a.file,
                    a.line,
                    f"anchor {a.id!r} is archived here and still in {first.file} line "
                    f"{first.line}: a move was cut short; applying the decision again (or "
                    "`memreview recover --finish`) finishes it",
                )
            else:
                ws.warn(
                    a.file,
                    a.line,
                    f"anchor id {a.id!r} also defined in {first.file} line {first.line}; "
                    "that one is used",
                )
        added = a.get("Added")
        if added is not None and parse_date(added) is None:
            ws.warn(a.file, a.line, f"anchor {a.id!r}: Added {added!r} is not a valid date")
        if a.archived:
            continue
        for other in a.ref_list("CONFLICTS-WITH"):
            if other not in index:
                ws.warn(a.file, a.line, f"CONFLICTS-WITH names unknown anchor {other!r}")
    for p in ws.proposals or []:
        for side in (p.new, p.old):
            if side not in index:
                ws.warn(
                    ws.config.proposals, p.line, f"proposal {p.id} names unknown anchor {side!r}"
                )


# Files under the projects directory that describe or list projects, not one project:
# an index, a template, the lists owners keep beside them (active, done, archive, ideas).
NOT_PROJECT_STEMS = {
    "readme",
    "index",
    "_index",
    "overview",
    "projects",
    "template",
    "templates",
    "active",
    "current",
    "done",
    "completed",
    "archive",
    "archived",
    "backlog",
    "ideas",
    "summary",
    "todo",
}
# In a project folder, the file that holds its title and status (first found wins).
PROJECT_MAIN_FILES = ("main.md", "overview.md", "readme.md", "index.md")
# Folders under the projects directory that hold no open project.
NOT_PROJECT_DIRS = {"template", "templates", "_template", "_templates", "archive", "archived"}
_FIELD = (
    r"^[ \t]*(?:[-*+>][ \t]+)?(?:\*\*|__)?(?:{})(?:\*\*|__)?[ \t]*[:：]"
    r"[ \t]*(?:\*\*|__)?(.*?)[ \t]*(?:\*\*|__)?[ \t]*$"
)
ALIASES_RE = re.compile(_FIELD.format("aliases|alias|aka|别名"), re.I)
ADDED_RE = re.compile(_FIELD.format("added|created|started|创建|开始"), re.I)
TITLE_PREFIX_RE = re.compile(r"^(?:project|项目)[ \t]*[:：][ \t]*", re.I)


def _is_template(stem: str) -> bool:
    low = stem.lower()
    return (
        low in NOT_PROJECT_STEMS
        or low.startswith(("template", "_template"))
        or low.endswith(("-template", "_template", ".template"))
    )


def _project_files(rels: list[str], prefix: str) -> dict[str, str]:
    """Project key → the file that describes it, for files under the projects directory.

    A file directly in it is one project (its stem), unless it is a README, an index or a
    template; a folder ``<name>/`` is one project keyed by its name, described by its
    ``main.md``, ``overview.md``, ``README.md`` or ``index.md`` (else its first file).
    """
    out: dict[str, str] = {}
    folders: dict[str, list[str]] = {}
    for rel in rels:
        parts = rel[len(prefix) :].split("/")
        if len(parts) == 1:
            stem = parts[0][:-3] if parts[0].endswith(".md") else parts[0]
            if not _is_template(stem):
                out.setdefault(stem, rel)
        elif parts[0] and not parts[0].startswith(".") and parts[0].lower() not in NOT_PROJECT_DIRS:
            folders.setdefault(parts[0], []).append(rel)
    for name, files in folders.items():
        if _is_template(name):
            continue
        direct = {f[len(prefix) + len(name) + 1 :].lower(): f for f in files}
        main = next((direct[m] for m in PROJECT_MAIN_FILES if m in direct), None)
        out[name] = main or sorted(files)[0]  # a folder wins over a file of the same name
    return out


def _collect_projects(ws: Workspace, cfg: Config) -> None:
    prefix = cfg.projects_dir.rstrip("/") + "/"
    projects: dict[str, Project] = {}
    found = _project_files(sorted(r for r in ws.files if r.startswith(prefix)), prefix)
    for key, rel in sorted(found.items()):
        mf = ws.files[rel]
        title, status, added, aliases = key, None, None, []
        for _line_no, level, text in mf.headings:
            if level == 1:
                title = TITLE_PREFIX_RE.sub("", text.strip()) or key
                break
        texts = mf.source.texts
        at = find_status_line(texts)
        if at is not None:
            status = STATUS_LINE_RE.match(texts[at]).group("value")
        for text in texts:
            if added is None:
                m = ADDED_RE.match(text)
                added = parse_date(m.group(1)[:10]) if m else None
            m = ALIASES_RE.match(text)
            if m:
                aliases.extend(a.strip(" \t`*\"'") for a in re.split(r"[,，、;；|/]", m.group(1)))
        ref = {
            "file": rel,
            "line": 1,
            "end_line": len(mf.source.lines) or 1,
            "text": mf.source.lines[0].text if mf.source.lines else "",
            "anchor": None,
        }
        projects[key] = Project(
            key, title, "file", ref, status, added, file=rel, aliases=tuple(a for a in aliases if a)
        )
    for a in ws.all_anchors():
        if a.type != "PROJECT" or a.archived:
            continue
        added = parse_date(a.get("Added") or "")
        if a.id in projects:
            p = projects[a.id]
            p.anchor = p.anchor or a.id
            p.added = p.added or added
            continue
        projects[a.id] = Project(
            a.id, a.get("Summary") or a.id, "anchor", a.ref(), a.get("Status"), added, anchor=a.id
        )
    for mf in ws.files.values():
        for e in mf.entries:
            for key in e.projects:
                if key not in projects:
                    projects[key] = Project(key, key, "marker", e.ref(), None, None)
    ws.projects = dict(sorted(projects.items()))


def review_date(ws: Workspace, today: date | None) -> date:
    """The review date: ``--today``, else ``review_date:`` in memreview.yaml, else today."""
    if today is not None:
        return today
    if ws.config.review_date is not None:
        return ws.config.review_date
    return date.today()
