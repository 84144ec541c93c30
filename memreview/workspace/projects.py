"""The workspace's projects: a file or a folder under the projects directory (not an index,
a list or a template), a ``PROJECT`` anchor, or a project marker on an entry."""

from __future__ import annotations

import re
from typing import Any

from memreview.workspace.config import Config
from memreview.workspace.dates import parse_date
from memreview.workspace.markdown import find_status_line, status_value
from memreview.workspace.memo import kept_with_file
from memreview.workspace.model import MemoryFile, Project, Workspace
from memreview.workspace.project_lists import (
    Listed,
    file_projects,
    front_matter,
    is_reference,
    slug,
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
DATED_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
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


def _sub_documents(found: dict[str, str], keys: set[str], prefix: str) -> set[str]:
    """Files named after another project's key plus a suffix (``weather-station-wiring`` of
    ``weather-station``): documents of that project, not projects of their own."""
    lowered = {k.lower() for k in keys}
    out = set()
    for key, rel in found.items():
        if "/" in rel[len(prefix) :]:
            continue
        low = key.lower()
        # another key, then "-": a shorter key, so never ``key`` itself
        if any(c == "-" and low[:i] in lowered for i, c in enumerate(low)):
            out.add(key)
    return out


def _title(mf: MemoryFile, key: str) -> str:
    for _line_no, level, text in mf.headings:
        if level == 1:
            return TITLE_PREFIX_RE.sub("", text.strip()) or key
    return key


def collect_projects(ws: Workspace, cfg: Config) -> None:
    prefix = cfg.projects_dir.rstrip("/") + "/"
    projects: dict[str, Project] = {}
    found = _project_files(sorted(r for r in ws.files if r.startswith(prefix)), prefix)
    typed = {}  # front matter type: project, anywhere in memory
    for rel, mf in ws.files.items():
        fm = front_matter(mf.source.texts)
        if fm.get("type", "").lower() == "project" and rel not in found.values():
            typed[rel.rsplit("/", 1)[-1][:-3]] = rel
    listed = _listed(ws)
    keys = set(found) | set(typed) | set(listed)
    for key in _sub_documents(found, keys, prefix):
        del found[key]
    for key, rel in sorted(found.items()):
        mf = ws.files[rel]
        title = _title(mf, key)
        if "/" not in rel[len(prefix) :] and find_status_line(mf.source.texts) is None:
            if is_reference(rel, f"{key} {title}"):
                continue  # a reference note beside the projects
        _add_file_project(projects, key, rel, mf, title, "file")
    for key, rel in sorted(typed.items()):
        mf = ws.files[rel]
        fm = front_matter(mf.source.texts)
        title = fm.get("title") or fm.get("name") or _title(mf, key)
        if key not in projects:
            _add_file_project(projects, key, rel, mf, title, "front-matter", fm)
    for key, p in sorted(listed.items()):
        projects.setdefault(key, p)
    _add_anchors_and_markers(ws, projects)
    ws.projects = dict(sorted(projects.items()))


@kept_with_file  # a Monday open reads the lists of the files it left alone from the cache
def _kept_projects(mf: MemoryFile, whole: bool) -> tuple[tuple[Any, ...], ...]:
    return tuple(
        (it.name, it.status, it.kind, it.line, it.end_line, it.status_cell)
        for it in file_projects(mf, whole)
    )


def _file_projects(mf: MemoryFile, whole: bool) -> list[Listed]:
    """``file_projects``, kept with the parsed file."""
    return [Listed(*fields) for fields in _kept_projects(mf, whole)]


def _listed(ws: Workspace) -> dict[str, Project]:
    """Projects kept as list items, table rows and headings of memory files."""
    out: dict[str, Project] = {}
    for rel in sorted(ws.files):
        mf = ws.files[rel]
        whole = rel.lower() in ("memory/projects.md", "memory/projects/projects.md")
        if not whole and (is_reference(rel, _title(mf, rel)) or DATED_RE.search(rel)):
            continue  # a reference note, or a dated report (a digest, a snapshot of a day)
        for it in _file_projects(mf, whole):
            key = slug(it.name)
            if not key or key in out:
                continue
            lines = mf.source.lines
            ref = {
                "file": rel,
                "line": it.line,
                "end_line": it.end_line,
                "text": lines[it.line - 1].text if it.line <= len(lines) else "",
                "anchor": None,
            }
            out[key] = Project(
                key, it.name, it.kind, ref, it.status, None, file=rel, status_cell=it.status_cell
            )
    return out


def _add_file_project(
    projects: dict[str, Project],
    key: str,
    rel: str,
    mf: MemoryFile,
    title: str,
    source: str,
    fm: dict[str, str] | None = None,
) -> None:
    status: str | None = None
    added = None
    aliases: list[str] = []
    texts = mf.source.texts
    if fm:
        added = parse_date((fm.get("created") or fm.get("added") or fm.get("date") or "")[:10])
    at = find_status_line(texts)
    if at is not None:
        status = status_value(texts[at])
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
        key, title, source, ref, status, added, file=rel, aliases=tuple(a for a in aliases if a)
    )


def _add_anchors_and_markers(ws: Workspace, projects: dict[str, Project]) -> None:
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
