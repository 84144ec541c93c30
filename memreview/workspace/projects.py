"""The workspace's projects: a file or a folder under the projects directory (not an index,
a list or a template), a ``PROJECT`` anchor, or a project marker on an entry."""

from __future__ import annotations

import re

from memreview.workspace.config import Config
from memreview.workspace.dates import parse_date
from memreview.workspace.markdown import STATUS_LINE_RE, find_status_line
from memreview.workspace.model import Project, Workspace

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


def collect_projects(ws: Workspace, cfg: Config) -> None:
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
