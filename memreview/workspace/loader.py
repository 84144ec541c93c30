"""Discover and read a workspace. Every problem becomes a warning; nothing here raises for a
broken input file, and nothing here writes."""

from __future__ import annotations

import errno
import json
import os
import re
import sqlite3
import stat
import tempfile
from collections.abc import Callable
from datetime import date
from pathlib import Path

from memreview.workspace.config import Config, load_config
from memreview.workspace.dates import parse_date, parse_date_prefix
from memreview.workspace.markdown import REF_RE, parse_memory_file
from memreview.workspace.model import (
    DailyLog,
    Fragment,
    Project,
    Proposal,
    Recall,
    SkillCandidate,
    Workspace,
)
from memreview.workspace.textfile import TextFile, decode_bytes, decode_whole, is_binary

DAILY_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:-.+)?\.md$", re.S)
SKIP_UNDER_MEMORY = {"dreaming", ".dreams", "review"}
ROOT_MEMORY_FILES = ("MEMORY.md", "memory.md")
OTHER_ROOT_FILES = ("NOW.md", "HEARTBEAT.md", "INDEX.md", "DREAMS.md")
MAX_WARNINGS_PER_FILE = 20

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
        p.resolve().relative_to(root)
        return True
    except (ValueError, OSError, RuntimeError):
        return False


class _Reader:
    def __init__(self, root: Path, ws: Workspace):
        self.root = root
        self.ws = ws

    def rel(self, p: Path) -> str:
        return p.relative_to(self.root).as_posix()

    def locate(self, rel: str) -> Path | None:
        """The real path of workspace file ``rel``, or None when it must not be read.

        The whole path is resolved first, so a symlink anywhere on the way (a linked
        ``memory/review/`` directory, say) and a configured path with ``..`` or an absolute
        one are refused, with a warning, when they end outside the workspace.
        """
        p = self.root / rel
        try:
            real = p.resolve()
        except (OSError, RuntimeError):  # RuntimeError: a symlink loop
            self.ws.warn(rel, None, "skipped: symlink loop")
            return None
        if real != self.root and not real.is_relative_to(self.root):
            via = "path" if os.path.normpath(p) == str(real) else "symlink"
            self.ws.warn(rel, None, f"skipped: {via} leads outside the workspace")
            return None
        return real

    def read(self, rel: str) -> bytes | None:
        """Bytes of a workspace file (None, silently, when it isn't there).

        Opened without following a symlink swapped in after the check and without blocking
        on a named pipe; anything but a regular file is skipped with a warning.
        """
        real = self.locate(rel)
        if real is None:
            return None
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        try:
            fd = os.open(real, flags | getattr(os, "O_CLOEXEC", 0))
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                self.ws.warn(rel, None, "skipped: symlink loop")
            else:
                self.ws.warn(rel, None, f"cannot read: {exc.strerror or exc}")
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                self.ws.warn(rel, None, "skipped: not a regular file")
                return None
            chunks = []
            while chunk := os.read(fd, max(st.st_size + 1, 1 << 16)):
                chunks.append(chunk)
            return b"".join(chunks)
        except OSError as exc:
            self.ws.warn(rel, None, f"cannot read: {exc.strerror or exc}")
            return None
        finally:
            os.close(fd)

    def text(self, rel: str) -> TextFile | None:
        data = self.read(rel)
        if data is None:
            return None
        if is_binary(data):
            self.ws.warn(rel, None, "skipped: binary file, not text")
            return None
        tf = decode_bytes(rel, data)
        for w in tf.warnings:
            line = None
            m = re.match(r"line (\d+): (.*)", w)
            if m:
                line, w = int(m[1]), m[2]
            self.ws.warn(rel, line, w)
        return tf


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
                    "symlink leads outside the workspace"
                    if not _inside(root, sub)
                    else "symlinked directory not followed"
                )
                ws.warn(rel, None, f"skipped: {reason}")
                dirnames.remove(name)
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".md"):
                out.append(d / name)
    return out


def load_workspace(
    root: Path, *, progress: Progress | None = None, config: Config | None = None
) -> Workspace:
    """Read everything memreview needs from the workspace at ``root`` (already checked)."""
    root = root.resolve()
    report = progress or (lambda stage, frac: None)
    ws = Workspace(root=root, config=Config())
    rd = _Reader(root, ws)

    if config is None:
        raw = rd.read("memreview.yaml")
        config, problems = load_config(raw)
        for line, msg in problems:
            ws.warn("memreview.yaml", line, msg)
    ws.config = cfg = config

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
            _read_daily(rd, ws, rel, dm.group(1))
            continue
        tf = rd.text(rel)
        if tf is None:
            continue
        _stat(root, rel, ws)
        mf, problems = parse_memory_file(
            tf, archived=archived, chronicle_words=tuple(cfg.chronicle_words)
        )
        for line, msg in problems[:MAX_WARNINGS_PER_FILE]:
            ws.warn(rel, line, msg)
        if len(problems) > MAX_WARNINGS_PER_FILE:
            ws.warn(rel, None, f"{len(problems) - MAX_WARNINGS_PER_FILE} more problems not shown")
        (ws.archive_files if archived else ws.files)[rel] = mf

    report("reading fragments", 0.62)
    _read_dreams(rd, ws, cfg.dreams_db)
    report("reading recall log", 0.72)
    _read_recalls(rd, ws, cfg.recall_log)
    report("reading proposals", 0.82)
    _read_proposals(rd, ws, cfg.proposals)
    _read_skills(rd, ws, cfg.skill_candidates)
    _check_json(rd, ws, cfg.short_term_recall)
    report("finding projects", 0.88)
    _check_anchors(ws)
    _collect_projects(ws, cfg)
    ws.daily_logs.sort(key=lambda d: (d.date, d.rel))
    report("loaded", 0.9)
    return ws


def _stat(root: Path, rel: str, ws: Workspace) -> None:
    try:
        ws.mtimes[rel] = (root / rel).stat().st_mtime
    except OSError:
        pass


def _read_daily(rd: _Reader, ws: Workspace, rel: str, day_text: str) -> None:
    day = parse_date(day_text)
    if day is None:
        ws.warn(rel, None, f"daily log name has an impossible date ({day_text}); skipped")
        return
    data = rd.read(rel)
    if data is None:
        return
    if is_binary(data):
        ws.warn(rel, None, "skipped: binary file, not text")
        return
    # Daily logs are only searched for mentions, never edited: decode the whole text at once.
    text = decode_whole(data)
    ws.daily_logs.append(
        DailyLog(
            rel,
            day,
            text.lower(),
            not text.strip(),
            text.count("\n") + (not text.endswith("\n") and bool(text)),
        )
    )
    _stat(rd.root, rel, ws)


def _read_dreams(rd: _Reader, ws: Workspace, rel: str) -> None:
    p = rd.root / rel
    if not (p.exists() or p.is_symlink()):
        return
    real = rd.locate(rel)
    if real is None:
        return
    if not real.is_file():
        ws.warn(rel, None, "skipped: not a regular file")
        return
    with tempfile.TemporaryDirectory(prefix="memreview-db-") as tmp:
        src = _wal_copy(rd, rel, real, Path(tmp)) or real
        try:
            con = sqlite3.connect(src.as_uri() + "?mode=ro", uri=True)
        except (sqlite3.Error, OSError, RuntimeError) as exc:
            ws.warn(rel, None, f"cannot open SQLite database: {exc}")
            return
        _read_fragments(con, ws, rel)


def _wal_copy(rd: _Reader, rel: str, real: Path, tmp: Path) -> Path | None:
    """A copy (in ``tmp``) of a database in WAL mode, with its ``-wal`` file; else None.

    Even read-only, SQLite creates ``-wal`` and ``-shm`` files next to a WAL database; the
    agent's workspace must not gain files from a read, so such a database is read from a
    copy of its bytes.
    """
    try:
        with open(real, "rb") as f:
            head = f.read(100)
    except OSError:
        return None
    if not head.startswith(b"SQLite format 3\x00") or 2 not in head[18:20]:
        return None
    data = rd.read(rel)
    if data is None:
        return None
    copy = tmp / "dreams.db"
    copy.write_bytes(data)
    wal_rel = rel + "-wal"
    if (rd.root / wal_rel).exists():
        wal = rd.read(wal_rel)
        if wal is not None:
            (tmp / "dreams.db-wal").write_bytes(wal)
    return copy


def _read_fragments(con: sqlite3.Connection, ws: Workspace, rel: str) -> None:
    try:
        cols = {row[1] for row in con.execute("PRAGMA table_info(dreams)")}
        need = {"id", "content", "status", "last_seen"}
        if not cols:
            ws.warn(rel, None, "no 'dreams' table; fragments not read")
            return
        if not need <= cols:
            missing = ", ".join(sorted(need - cols))
            ws.warn(rel, None, f"unexpected schema: table 'dreams' lacks {missing}")
            return
        extra = [c for c in ("theme", "category", "date") if c in cols]
        sql = "SELECT id, content, status, last_seen" + "".join(f", {c}" for c in extra)
        frags: list[Fragment] = []
        for row in con.execute(sql + " FROM dreams"):
            ext = dict(zip(extra, row[4:], strict=True))
            frags.append(
                Fragment(
                    id=str(row[0]),
                    content=row[1]
                    if isinstance(row[1], str)
                    else ("" if row[1] is None else str(row[1])),
                    status=str(row[2] or ""),
                    last_seen=row[3]
                    if isinstance(row[3], str)
                    else (None if row[3] is None else str(row[3])),
                    theme=_str_or_none(ext.get("theme")),
                    category=_str_or_none(ext.get("category")),
                    date=_str_or_none(ext.get("date")),
                )
            )
        ws.fragments = frags
        undated = [f.id for f in frags if f.status == "archived" and f.last_seen_date() is None]
        if undated:
            more = f" and {len(undated) - 5} more" if len(undated) > 5 else ""
            ws.warn(
                rel,
                None,
                f"archived fragment(s) {', '.join(undated[:5])}{more} have no valid last_seen "
                "date; left out of the archived queue",
            )
    except sqlite3.Error as exc:
        ws.warn(rel, None, f"cannot read SQLite database: {exc}")
    finally:
        con.close()


def _str_or_none(v) -> str | None:
    return None if v is None else str(v)


def _jsonl(rd: _Reader, ws: Workspace, rel: str):
    """Yield (line number, object) for each good line; warn about the others."""
    data = rd.read(rel)
    if data is None:
        return None
    lines = data.split(b"\n")
    fast = _jsonl_fast(lines)
    if fast is not None:
        return fast
    bad = 0
    out = []
    for no, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            bad += 1
            if bad <= MAX_WARNINGS_PER_FILE:
                ws.warn(rel, no, "not valid JSON; line skipped")
            continue
        if not isinstance(obj, dict):
            bad += 1
            if bad <= MAX_WARNINGS_PER_FILE:
                ws.warn(rel, no, "not a JSON object; line skipped")
            continue
        out.append((no, obj))
    if bad > MAX_WARNINGS_PER_FILE:
        ws.warn(rel, None, f"{bad - MAX_WARNINGS_PER_FILE} more bad lines not shown")
    return out


def _jsonl_fast(lines: list[bytes]):
    """Every line decoded in one call when the whole file is clean (the usual case)."""
    numbered = [(no, raw) for no, raw in enumerate(lines, 1) if raw.strip()]
    try:
        objs = json.loads(b"[" + b",".join(raw for _no, raw in numbered) + b"]")
    except (ValueError, UnicodeDecodeError):
        return None
    if len(objs) != len(numbered) or not all(isinstance(o, dict) for o in objs):
        return None  # a line held two values, or a non-object: the slow path says which
    return [(no, obj) for (no, _raw), obj in zip(numbered, objs, strict=True)]


def _read_recalls(rd: _Reader, ws: Workspace, rel: str) -> None:
    rows = _jsonl(rd, ws, rel)
    if rows is None:
        return
    recalls: list[Recall] = []
    bad = 0
    days: dict[str, date | None] = {}  # timestamps share few distinct dates
    for no, obj in rows:
        ts = obj.get("ts")
        if isinstance(ts, str):
            key = ts[:10]
            day = days[key] if key in days else days.setdefault(key, parse_date_prefix(key))
        else:
            day = None
        rid = obj.get("id")
        if day is None or not isinstance(rid, str):
            bad += 1
            if bad <= 5:
                ws.warn(rel, no, "recall without a valid 'ts' date and 'id'; skipped")
            continue
        channel = obj.get("channel")
        query = obj.get("query")
        recalls.append(
            Recall(
                day,
                rid,
                channel if isinstance(channel, str) else "",
                query if isinstance(query, str) else "",
            )
        )
    ws.recalls = recalls


def _read_proposals(rd: _Reader, ws: Workspace, rel: str) -> None:
    rows = _jsonl(rd, ws, rel)
    if rows is None:
        return
    by_id: dict[str, Proposal] = {}
    for no, obj in rows:
        pid, relation, new, old = (obj.get(k) for k in ("id", "relation", "new", "old"))
        if not all(isinstance(v, str) and v for v in (pid, relation, new, old)):
            ws.warn(rel, no, "proposal lacks id, relation, new or old; skipped")
            continue
        conf = obj.get("confidence")
        if isinstance(conf, bool) or not isinstance(conf, int | float):
            conf = None
        reason = obj.get("reason")
        ts = obj.get("ts")
        by_id.pop(pid, None)  # a later line with the same id replaces (and reorders) it
        by_id[pid] = Proposal(
            pid,
            ts if isinstance(ts, str) else None,
            relation,
            new,
            old,
            float(conf) if conf is not None else None,
            reason if isinstance(reason, str) else None,
            no,
        )
    ws.proposals = list(by_id.values())


def _read_skills(rd: _Reader, ws: Workspace, rel: str) -> None:
    data = rd.read(rel)
    if data is None:
        return
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        line = getattr(exc, "lineno", None)
        ws.warn(rel, line, "not valid JSON; skill candidates not read")
        return
    if not isinstance(doc, dict) or not isinstance(doc.get("candidates"), list):
        ws.warn(rel, None, 'expected an object with a "candidates" list; skill candidates not read')
        return
    out: list[SkillCandidate] = []
    for k, c in enumerate(doc["candidates"]):
        if not isinstance(c, dict) or not isinstance(c.get("theme"), str):
            ws.warn(rel, None, f"candidate {k + 1} has no theme; skipped")
            continue
        content = c.get("content")
        count = c.get("count")
        reason = c.get("reason")
        out.append(
            SkillCandidate(
                k,
                c["theme"],
                content if isinstance(content, str) else "",
                count if isinstance(count, int) and not isinstance(count, bool) else None,
                reason if isinstance(reason, str) else None,
            )
        )
    ws.skills = out


def _check_json(rd: _Reader, ws: Workspace, rel: str) -> None:
    data = rd.read(rel)
    if data is None:
        return
    try:
        json.loads(data)
    except (ValueError, UnicodeDecodeError):
        ws.warn(rel, None, "not valid JSON")


def _check_anchors(ws: Workspace) -> None:
    """Warn about bad dates and references to anchors that don't exist."""
    index = ws.anchor_index()
    for a in ws.all_anchors():
        first = index[a.id]
        if first is not a and first.file != a.file:  # the parser warns within one file
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


def _collect_projects(ws: Workspace, cfg: Config) -> None:
    prefix = cfg.projects_dir.rstrip("/") + "/"
    projects: dict[str, Project] = {}
    for rel, mf in ws.files.items():
        if not rel.startswith(prefix):
            continue
        key = Path(rel).stem
        title, status, added = key, None, None
        for _line_no, level, text in mf.headings:
            if level == 1:
                title = text.strip() or key
                break
        for text in mf.source.texts:
            low = text.lower()
            if status is None and low.startswith("status:"):
                status = text.split(":", 1)[1].strip()
            elif added is None and low.startswith("added:"):
                added = parse_date(text.split(":", 1)[1])
        ref = {
            "file": rel,
            "line": 1,
            "end_line": len(mf.source.lines) or 1,
            "text": mf.source.lines[0].text if mf.source.lines else "",
            "anchor": None,
        }
        projects[key] = Project(key, title, "file", ref, status, added, file=rel)
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
