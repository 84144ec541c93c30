"""The pipeline's own files beside the Markdown: the dreaming database (fragments), the
recall log, the judge's proposals and the human's verdicts, the skill candidates.

Every problem becomes a warning on the workspace; nothing here raises for a broken file.
"""

from __future__ import annotations

import sqlite3
import tempfile
from datetime import date
from pathlib import Path
from sys import intern

from memreview.i18n import N_, Message, Nn_
from memreview.workspace import jsondoc, sqlite_ro
from memreview.workspace.dates import parse_date_prefix
from memreview.workspace.model import (
    PROMOTION_VERDICTS,
    VERDICTS,
    Fragment,
    Proposal,
    Recall,
    SkillCandidate,
    Verdict,
    Workspace,
)
from memreview.workspace.reader import Reader


def read_dreams(rd: Reader, ws: Workspace, rel: str) -> None:
    """The fragments of the dreaming database (SQLite, opened read-only, never changed)."""
    p = rd.root / rel
    if not (p.exists() or p.is_symlink()):
        return
    real = rd.locate(rel)
    if real is None:
        return
    if not real.is_file():
        ws.warn(rel, None, N_("skipped: not a regular file"))
        return
    with tempfile.TemporaryDirectory(prefix="memreview-db-") as tmp:
        src = _wal_copy(rd, rel, real, Path(tmp)) or real
        try:
            con = sqlite_ro.connect_ro(src)
        except (sqlite3.Error, OSError, RuntimeError) as exc:
            ws.warn(rel, None, N_("cannot open SQLite database: {error}"), error=str(exc))
            return
        _read_fragments(con, ws, rel)


def _wal_copy(rd: Reader, rel: str, real: Path, tmp: Path) -> Path | None:
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
        kind = sqlite_ro.table_kind(con, "dreams")
        if kind is None:
            ws.warn(rel, None, N_("no 'dreams' table; fragments not read"))
            return
        if kind != "table":
            ws.warn(
                rel, None, N_("'dreams' is a {kind}, not a table; fragments not read"), kind=kind
            )
            return
        cols = {row[1] for row in con.execute("PRAGMA table_info(dreams)")}
        need = {"id", "content", "status", "last_seen"}
        if not cols:
            ws.warn(rel, None, N_("no 'dreams' table; fragments not read"))
            return
        if not need <= cols:
            missing = ", ".join(sorted(need - cols))
            ws.warn(
                rel, None, N_("unexpected schema: table 'dreams' lacks {columns}"), columns=missing
            )
            return
        extra = [c for c in ("theme", "category", "date", "mention_count") if c in cols]
        sql = "SELECT id, content, status, last_seen" + "".join(f", {c}" for c in extra)
        frags: list[Fragment] = []
        for row in sqlite_ro.rows(con, sql + " FROM dreams"):
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
                    mention_count=_int_or_none(ext.get("mention_count")),
                )
            )
        ws.fragments = frags
        undated = [f.id for f in frags if f.status == "archived" and f.last_seen_date() is None]
        if undated:
            ids = ", ".join(undated[:5])
            if len(undated) > 5:
                ids = Message(N_("{ids} and {count} more"), ids=ids, count=len(undated) - 5)
            ws.warn(
                rel,
                None,
                Message(
                    Nn_(
                        "archived fragment {ids} has no valid last_seen date; left out of the "
                        "archived queue",
                        "archived fragments {ids} have no valid last_seen date; left out of the "
                        "archived queue",
                    ),
                    ids=ids,
                    count=len(undated),
                ),
            )
    except sqlite3.Error as exc:
        ws.warn(rel, None, N_("cannot read SQLite database: {error}"), error=str(exc))
    finally:
        con.close()


def _int_or_none(v: object) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _str_or_none(v: object) -> str | None:
    return None if v is None else str(v)


def read_recalls(rd: Reader, ws: Workspace, rel: str) -> None:
    """The recall log: which anchor was recalled when, over which channel."""
    rows = rd.jsonl(rel)
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
                ws.warn(rel, no, N_("recall without a valid 'ts' date and 'id'; skipped"))
            continue
        channel = obj.get("channel")
        query = obj.get("query")
        recalls.append(
            Recall(
                day,
                intern(rid),  # a few ids and channels, repeated on every line
                intern(channel) if isinstance(channel, str) else "",
                query if isinstance(query, str) else "",
            )
        )
    ws.recalls = recalls


def read_proposals(rd: Reader, ws: Workspace, rel: str) -> None:
    """The judge's proposals; a later line with the same id replaces the earlier one."""
    rows = rd.jsonl(rel)
    if rows is None:
        return
    by_id: dict[str, Proposal] = {}
    for no, obj in rows:
        pid, relation, new, old = (_text(obj.get(k)) for k in ("id", "relation", "new", "old"))
        if pid is None or relation is None or new is None or old is None:
            ws.warn(rel, no, N_("proposal lacks id, relation, new or old; skipped"))
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


def _text(v: object) -> str | None:
    return v if isinstance(v, str) and v else None


def read_verdicts(rd: Reader, ws: Workspace, rel: str) -> None:
    """The human's verdicts on judge proposals (docs/design.md §1.3), in file order."""
    rows = rd.jsonl(rel)
    if rows is None:
        return
    verdicts: list[Verdict] = []
    for no, obj in rows:
        pid, verdict = _text(obj.get("proposal")), obj.get("verdict")
        relation = _text(obj.get("relation"))
        known = PROMOTION_VERDICTS if relation == "promotion" else VERDICTS
        if verdict == "restored" and relation in (None, "archive"):
            continue  # an archived entry put back that no judge proposal had archived
        if (
            pid is None
            or not isinstance(verdict, str)
            or verdict not in (*known, "undone", "restored")
        ):
            ws.warn(rel, no, N_("verdict without a proposal id or a known verdict; skipped"))
            continue
        flags = obj.get("flags")
        flags = flags if isinstance(flags, list) else []
        verdicts.append(
            Verdict(no, pid, verdict, relation, tuple(f for f in flags if isinstance(f, str)))
        )
    ws.verdicts = verdicts


def read_skills(rd: Reader, ws: Workspace, rel: str) -> None:
    """The skill candidates (``{"candidates": [...]}``)."""
    data = rd.read(rel)
    if data is None:
        return
    try:
        doc = jsondoc.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        line = getattr(exc, "lineno", None)
        ws.warn(rel, line, N_("not valid JSON; skill candidates not read"))
        return
    if not isinstance(doc, dict) or not isinstance(doc.get("candidates"), list):
        ws.warn(
            rel, None, N_('expected an object with a "candidates" list; skill candidates not read')
        )
        return
    out: list[SkillCandidate] = []
    for k, c in enumerate(doc["candidates"]):
        if not isinstance(c, dict) or not isinstance(c.get("theme"), str):
            ws.warn(rel, None, N_("candidate {number} has no theme; skipped"), number=k + 1)
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
