"""A corpus of broken and hostile workspaces (docs/design.md §9, "a hostile workspace").

Every case is built from code in a temporary directory: no binary blob is committed. A case
writes a small, otherwise ordinary workspace (so the queues have work in them) plus the one
thing that is broken or hostile, and says which warnings a user must see for it.

Next to each workspace lives ``outside/``: files that memreview must never read (a secret that
symlinks point at) nor write. Snapshots of both trees are compared before and after every run.
"""

from __future__ import annotations

import codecs
import json
import os
import random
import re
import sqlite3
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

TODAY = "2026-11-29"
SECRET = "S3CRET-OUTSIDE-7f3a91"  # the content of files outside the workspace

# Text that must reach a terminal only as visible escapes, and markup that must stay text.
MARKUP = "[@click=app.quit]quit[/] [/bold] [red]red[/red]"
ESCAPES = "\x1b]0;owned-title\x07 \x1b[31mred\x1b[0m \x1b[2J"
INVISIBLE = "zero\u200bwidth \u202ereversed\u202c \u2066isolate\u2069"
HOSTILE_LINE = f"- Hostile {MARKUP} {ESCAPES} {INVISIBLE} end"
# A "billion laughs": 9 ** 9 strings from a few hundred bytes of YAML, if it were expanded.
ALIAS_BOMB = (
    "l0: &l0 ["
    + ", ".join(["lol"] * 9)
    + "]\n"
    + "".join(f"l{k}: &l{k} [" + ", ".join([f"*l{k - 1}"] * 9) + "]\n" for k in range(1, 10))
)
# Characters that must never reach a terminal raw (bidi, zero width, C0 but tab/newline, C1).
RAW_CONTROL_RE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]"
)

BASE_MEMORY = """# Memory

## Rules

- Always ask the owner before restarting the gateway

## Notes

- The gateway listens on port 18789 for local clients
- The gateway listens on port 18789 for local clients (2026-10-01)
- Backups run nightly at 03:00 from the pi cron job
"""

ANCHORS = """# Knowledge

## [KNOWLEDGE:win11-gbk]
Added: 2026-06-22
Summary: Windows Python uses the GBK code page by default
CONFLICTS-WITH: [[win11-utf8]]
---

## [KNOWLEDGE:win11-utf8]
Added: 2026-08-01
Summary: Windows Python uses UTF-8 by default
---
"""


def jsonl(*objs) -> str:
    return "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objs)


def put(root: Path, rel: str, content: str | bytes) -> Path:
    """Write ``content`` (str as UTF-8, no newline translation) at ``root/rel``."""
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return p


def link(root: Path, rel: str, target: str | Path) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, p)


def dreams_db(path: Path, rows: list[dict], *, wal: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    if wal:
        con.execute("PRAGMA journal_mode=wal")
    con.execute(
        "CREATE TABLE dreams (id, date, category, theme, content, context, emotion, "
        "source_date, content_hash, created_at, status, mention_count, first_seen, last_seen, "
        "confidence, skill_candidate)"
    )
    for r in rows:
        con.execute(
            "INSERT INTO dreams (id, content, status, last_seen, theme) VALUES (?, ?, ?, ?, ?)",
            (r["id"], r["content"], r["status"], r["last_seen"], r.get("theme")),
        )
    con.commit()
    con.close()


# -- the outside world ---------------------------------------------------------------------


def make_outside(outside: Path) -> None:
    """Files outside the workspace that symlinks and configured paths point at."""
    put(outside, "secret.md", f"# {SECRET}\n\n- {SECRET} in a bullet\n")
    put(outside, "dir/notes.md", f"- {SECRET} in a linked directory\n")
    put(
        outside,
        "dir/proposals.jsonl",
        jsonl(
            {
                "id": "p-out",
                "relation": "supersedes",
                "new": "win11-utf8",
                "old": "win11-gbk",
                "reason": SECRET,
            }
        ),
    )
    put(outside, "recall_log.jsonl", jsonl({"ts": "2026-11-20T00:00:00Z", "id": SECRET}))
    put(outside, "memreview.yaml", f"review_date: 2026-01-01\nnow: {SECRET}.md\n")
    put(outside, "state/state.yaml", f"hidden:\n  {SECRET}: {{until: null, reason: x}}\n")
    put(
        outside,
        "skill_candidates.json",
        json.dumps({"candidates": [{"theme": SECRET, "content": SECRET, "count": 3}]}),
    )
    dreams_db(
        outside / "dreams.db",
        [
            {
                "id": "f-out",
                "content": f"{SECRET} fragment",
                "status": "archived",
                "last_seen": "2026-01-01",
            }
        ],
    )


# -- the cases ----------------------------------------------------------------------------


@dataclass
class Case:
    """One broken or hostile workspace.

    ``warnings`` are (file, line, text) that ``scan --json`` must report: ``line`` None means
    "any line", ``text`` is a substring of the message. ``unusable`` cases are not
    workspaces at all: scan must exit 2 with this one-line reason.
    """

    name: str
    what: str
    build: Callable[[Path, Path], None]
    warnings: list[tuple[str | None, int | None, str]] = field(default_factory=list)
    unusable: str | None = None
    shows: list[str] = field(default_factory=list)  # text the app must show literally


CASES: dict[str, Case] = {}


def case(name: str, what: str, warnings=(), unusable: str | None = None, shows=()):
    def register(fn: Callable[[Path, Path], None]) -> Callable[[Path, Path], None]:
        CASES[name] = Case(name, what, fn, list(warnings), unusable, list(shows))
        return fn

    return register


def base(ws: Path, memory: str | bytes = BASE_MEMORY) -> None:
    put(ws, "MEMORY.md", memory)
    put(ws, "memory/knowledge.md", ANCHORS)


@case(
    "binary-md",
    "binary files named .md (a memory file and a daily log)",
    warnings=[
        ("memory/blob.md", None, "binary file"),
        ("memory/2026-11-20.md", None, "binary file"),
    ],
)
def _binary(ws: Path, out: Path) -> None:
    base(ws)
    rnd = random.Random(7)
    put(ws, "memory/blob.md", rnd.randbytes(3000) + b"\x00\x01\x02" + rnd.randbytes(3000))
    put(ws, "memory/2026-11-20.md", b"\x7fELF\x02\x01\x01\x00" + rnd.randbytes(2000))


@case("zero-length", "zero-length files: a memory file, a daily log, NOW.md, the recall log")
def _empty(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, "memory/empty.md", b"")
    put(ws, "memory/2026-11-27.md", b"")
    put(ws, "NOW.md", b"")
    put(ws, "memory/recall_log.jsonl", b"")
    put(ws, "memory/review/proposals.jsonl", b"")
    put(ws, "memory/skill_candidates.json", b"")


INVALID_UTF8 = (
    BASE_MEMORY.encode()
    + b"- caf\xc3\xa9 is fine but \xff\xfe\xfa is not UTF-8\n"
    + b"- after the broken line\n"
    + b"- twice \xff broken \x1b[2J bytes in a duplicate entry\n"
    + b"- twice \xff broken \x1b[2J bytes in a duplicate entry\n"
)


@case(
    "invalid-utf8",
    "invalid UTF-8 bytes in the middle of MEMORY.md (and in a pair of duplicate entries)",
    warnings=[("MEMORY.md", 12, "invalid UTF-8")],
)
def _invalid_utf8(ws: Path, out: Path) -> None:
    base(ws, INVALID_UTF8)


GBK_MEMORY = (
    "# 记忆\r\n\r\n## 规则\r\n\r\n- 重启网关之前先确认主人在电脑旁边\r\n\r\n## 笔记\r\n\r\n"
    "- 网关固定用 18789 端口，改端口要同步改飞书 webhook\r\n"
    "- 网关固定用 18789 端口，改端口要同步改飞书 webhook（2026-10-01）\r\n"
).encode("gbk")


@case("gbk-crlf", "MEMORY.md in GBK with CRLF line endings")
def _gbk(ws: Path, out: Path) -> None:
    base(ws, GBK_MEMORY)


UTF16_NOTES = codecs.BOM_UTF16_LE + (
    "# Notes\r\n\r\n- The owner prefers short replies in the morning\r\n"
    "- The owner prefers short replies in the morning (2026-09-01)\r\n"
).encode("utf-16-le")
BROKEN_UTF16 = (
    codecs.BOM_UTF16_LE
    + "# Broken\n\n- one\n- one (2026-01-01)\n".encode("utf-16-le")
    + b"\x00\xd8"
)  # a lone high surrogate at the end


@case(
    "utf16-bom",
    "a UTF-16 file with a BOM, and one with a broken surrogate",
    warnings=[("memory/broken16.md", None, "invalid UTF-16")],
)
def _utf16(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, "memory/notes.md", UTF16_NOTES)
    put(ws, "memreview.yaml", "curated: [memory/notes.md]\n")  # so its pair is compared
    put(ws, "memory/broken16.md", BROKEN_UTF16)


LONG_LINE = "- " + "long line of memory " * 1000  # 20,002 characters


@case("long-line", "a 20,000-character single line (and one with no space at all)")
def _long(ws: Path, out: Path) -> None:
    base(ws, BASE_MEMORY + LONG_LINE + "\n" + LONG_LINE + "(2026-01-01)\n" + "x" * 20000)


@case(
    "table-no-closing-pipe",
    "a table row with no closing pipe",
    warnings=[("MEMORY.md", 17, "no closing '|'")],
)
def _table(ws: Path, out: Path) -> None:
    base(
        ws,
        BASE_MEMORY + "\n### Chronicle\n| Date | Events |\n|---|---|\n"
        "| 2026-10-01 | gateway upgraded |\n| 2026-10-01 | gateway upgraded; cron fixed\n",
    )


@case(
    "anchor-unterminated",
    "an anchor with no '---' at the end of the file, one inside a code fence, an open fence",
    warnings=[("memory/more.md", 13, "code fence opened here is never closed")],
)
def _anchors(ws: Path, out: Path) -> None:
    base(ws)
    put(
        ws,
        "memory/more.md",
        "# More\n\n```markdown\n## [FACT:fenced-example]\nAdded: 2020-01-01\n---\n```\n\n"
        "## [FACT:no-end]\nAdded: 2026-01-01\nSummary: runs to the end of the file\n"
        "body without a terminator\n```\n## [FACT:after-open-fence]\n",
    )


@case(
    "duplicate-anchor-ids",
    "the same anchor id defined twice in one file and again in another",
    warnings=[
        ("memory/knowledge.md", 14, "also defined at line 3"),
        ("memory/knowledge.md", 3, "also defined in memory/dup.md line 1"),
    ],
)
def _dup_ids(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, "memory/knowledge.md", ANCHORS + "\n## [FACT:win11-gbk]\nAdded: 2026-01-01\n---\n")
    put(ws, "memory/dup.md", "## [FACT:win11-gbk]\nSummary: a third one\n---\n")


@case(
    "conflicts-cycle",
    "a reference cycle in CONFLICTS-WITH (a→b→c→a), an anchor in conflict with itself, "
    "and one naming an anchor that does not exist",
    warnings=[("memory/cycle.md", None, "unknown anchor 'ghost'")],
)
def _cycle(ws: Path, out: Path) -> None:
    base(ws)
    put(
        ws,
        "memory/cycle.md",
        "# Cycle\n\n"
        "## [FACT:a]\nAdded: 2026-01-01\nCONFLICTS-WITH: [[b]]\n---\n\n"
        "## [FACT:b]\nAdded: 2026-02-01\nCONFLICTS-WITH: [[c]]\n---\n\n"
        "## [FACT:c]\nAdded: 2026-03-01\nCONFLICTS-WITH: [[a]], [[ghost]]\n---\n\n"
        "## [FACT:self]\nAdded: 2026-04-01\nCONFLICTS-WITH: [[self]]\n---\n",
    )


BAD_RECALLS = (
    (
        jsonl({"ts": "2026-11-20T03:12:00Z", "id": "win11-gbk", "channel": "search", "query": "q"})
        + '{"ts": "2026-11-21T03:12:00Z", "id": "win11-gb\n'  # truncated
        + "[1, 2, 3]\n"
        + '"just a string"\n'
        + "null\n"
        + "42\n"
        + '{"ts": 17, "id": ["not", "a", "string"]}\n'
        + '{"ts": "2026-13-45T00:00:00Z", "id": "win11-gbk"}\n'
    ).encode()
    + b"\xff\xfe{not utf-8}\n"
    + b'{"ts": "2026-11-22T00:00:00Z", "id": "win11-utf8"'
)


BAD_PROPOSALS = (
    "\ufeff"
    + jsonl(
        {
            "id": "p-1",
            "ts": "2026-11-20T00:00:00Z",
            "relation": "supersedes",
            "new": "win11-utf8",
            "old": "win11-gbk",
            "confidence": 0.9,
            "reason": "newer",
        }
    )
    + '{"id": "p-2", "relation": "supersedes", "new": "win11-utf8", "ol\n'
    + "[]\n"
    + jsonl({"id": "p-3", "relation": "contradicts", "new": 5, "old": None})
    + jsonl(
        {
            "id": "p-4",
            "relation": "supersedes",
            "new": "win11-utf8",
            "old": "win11-gbk",
            "confidence": "high",
            "reason": ["not", "text"],
        }
    )
    + '{"id": "p-5"'
)


@case(
    "bad-jsonl",
    "truncated and non-object JSON lines in recall_log.jsonl and proposals.jsonl",
    warnings=[
        ("memory/recall_log.jsonl", 2, "not valid JSON"),
        ("memory/recall_log.jsonl", 4, "not a JSON object"),
        ("memory/recall_log.jsonl", 7, "recall without a valid 'ts'"),
        ("memory/recall_log.jsonl", 10, "not valid JSON"),
        ("memory/review/proposals.jsonl", 2, "not valid JSON"),
        ("memory/review/proposals.jsonl", 3, "not a JSON object"),
        ("memory/review/proposals.jsonl", 4, "lacks id, relation, new or old"),
        ("memory/review/proposals.jsonl", 6, "not valid JSON"),
    ],
)
def _bad_jsonl(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, "memory/recall_log.jsonl", BAD_RECALLS)
    put(ws, "memory/review/proposals.jsonl", BAD_PROPOSALS)


@case(
    "proposal-unknown-anchors",
    "judge proposals naming anchors that don't exist",
    warnings=[
        ("memory/review/proposals.jsonl", 1, "names unknown anchor 'ghost-new'"),
        ("memory/review/proposals.jsonl", 1, "names unknown anchor 'ghost-old'"),
        ("memory/review/proposals.jsonl", 2, "names unknown anchor 'nobody'"),
    ],
)
def _ghost_proposals(ws: Path, out: Path) -> None:
    base(ws)
    put(
        ws,
        "memory/review/proposals.jsonl",
        jsonl(
            {"id": "p-1", "relation": "supersedes", "new": "ghost-new", "old": "ghost-old"},
            {"id": "p-2", "relation": "contradicts", "new": "win11-gbk", "old": "nobody"},
        ),
    )


@case(
    "dreams-db-corrupt",
    "dreams.db made of random bytes",
    warnings=[("memory/knowledge/dreams.db", None, "SQLite")],
)
def _db_corrupt(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, "memory/knowledge/dreams.db", random.Random(3).randbytes(8192))


@case(
    "dreams-db-schema",
    "dreams.db with an unexpected schema (no dreams table; then one lacking columns)",
    warnings=[("memory/knowledge/dreams.db", None, "unexpected schema")],
)
def _db_schema(ws: Path, out: Path) -> None:
    base(ws)
    p = ws / "memory/knowledge/dreams.db"
    p.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(p)
    con.execute("CREATE TABLE dreams (id INTEGER, body BLOB, seen REAL)")
    con.execute("INSERT INTO dreams VALUES (1, x'00ff', 1.5)")
    con.commit()
    con.close()


@case(
    "dreams-db-odd-values",
    "dreams.db with the right columns but odd values (blobs, numbers, NULLs) and in WAL mode",
)
def _db_odd(ws: Path, out: Path) -> None:
    base(ws)
    p = ws / "memory/knowledge/dreams.db"
    dreams_db(
        p,
        [
            {"id": 1, "content": b"\x00\xff blob", "status": 5, "last_seen": 20260101.5},
            {"id": None, "content": None, "status": None, "last_seen": None},
            {
                "id": "f-3",
                "content": "The gateway listens on port 18789 for local clients",
                "status": "archived",
                "last_seen": "2026-02-30",
            },
        ],
        wal=True,
    )


@case(
    "skills-list",
    "skill_candidates.json that is a list (and, in memory/, a candidate list of non-objects)",
    warnings=[("memory/skill_candidates.json", None, 'expected an object with a "candidates"')],
)
def _skills_list(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, "memory/skill_candidates.json", json.dumps([{"theme": "x", "content": "y"}]))


@case(
    "skills-bad-entries",
    "skill candidates that are not objects, lack a theme, or have odd types",
    warnings=[("memory/skill_candidates.json", None, "candidate 1 has no theme")],
)
def _skills_bad(ws: Path, out: Path) -> None:
    base(ws)
    put(
        ws,
        "memory/skill_candidates.json",
        json.dumps(
            {
                "candidates": [
                    "not an object",
                    {"theme": None},
                    {"theme": "ok theme", "content": 5, "count": "3"},
                ]
            }
        ),
    )


@case(
    "yaml-config",
    "broken YAML in memreview.yaml",
    warnings=[("memreview.yaml", 3, "broken YAML")],
)
def _yaml_config(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, "memreview.yaml", "review_date: 2026-11-29\nthresholds: {dormant_days: [\n  : :\n")


@case(
    "yaml-config-odd",
    "memreview.yaml that is valid YAML of the wrong shape (a list; wrong value types)",
    warnings=[("memreview.yaml", 1, "expected a mapping")],
)
def _yaml_config_odd(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, "memreview.yaml", "- dormant_days: many\n- !!binary aGVsbG8=\n")


@case(
    "yaml-state",
    "broken YAML in .memreview/state.yaml",
    warnings=[(".memreview/state.yaml", None, "broken YAML")],
)
def _yaml_state(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, ".memreview/state.yaml", "hidden:\n  d-1: {until: [2026-01-01\n\t- :\n")


@case("yaml-pending", "broken YAML in .memreview/pending.yaml")
def _yaml_pending(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, ".memreview/pending.yaml", "- {item: d-1, action: keep\n  - : [\n")


@case(
    "yaml-alias-bombs",
    "alias bombs (a billion laughs) in memreview.yaml, state.yaml and pending.yaml",
    warnings=[
        ("memreview.yaml", 6, "refused: its aliases expand to more than"),
        (".memreview/state.yaml", None, "refused: its aliases expand to more than"),
    ],
)
def _yaml_alias_bombs(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, "memreview.yaml", ALIAS_BOMB)
    put(ws, ".memreview/state.yaml", ALIAS_BOMB)
    put(ws, ".memreview/pending.yaml", ALIAS_BOMB)


@case(
    "config-absurd-values",
    "settings of the right shape but absurd values (10^12 days, NaN, negative, a string)",
    warnings=[
        ("memreview.yaml", 1, "recall_window_days: 1000000000000 is out of range"),
        ("memreview.yaml", 2, "snooze_days: nan is not a whole number"),
        ("memreview.yaml", 3, "memory_max_lines: -5 is out of range"),
        ("memreview.yaml", 4, "dormant_days: 'soon' is not a whole number"),
        ("memreview.yaml", 5, "near_ratio: inf is not a number"),
    ],
)
def _config_absurd(ws: Path, out: Path) -> None:
    base(ws)
    put(
        ws,
        "memreview.yaml",
        "recall_window_days: 1000000000000\nsnooze_days: .nan\nmemory_max_lines: -5\n"
        "dormant_days: soon\nnear_ratio: .inf\n",
    )


@case(
    "markdown-over-cap",
    "a Markdown file larger than the size cap (lowered to 1 MiB in memreview.yaml)",
    warnings=[("memory/huge.md", None, "skipped: 1.1 MiB, more than 1 MiB (max_markdown_mib")],
)
def _markdown_over_cap(ws: Path, out: Path) -> None:
    base(ws)
    put(ws, "memreview.yaml", "max_markdown_mib: 1\n")
    put(ws, "memory/huge.md", "- the same line again, and again\n" * 36_000)


@case(
    "symlinks-out",
    "symlinks to a secret outside the workspace: a memory file, a directory, the judge's "
    "directory, the recall log, dreams.db, skill candidates, memreview.yaml, a boot file "
    "and .memreview/ itself",
    warnings=[
        ("memory/secret.md", None, "outside the workspace"),
        ("memory/linkdir", None, "outside the workspace"),
        ("memory/review/proposals.jsonl", None, "outside the workspace"),
        ("memory/recall_log.jsonl", None, "outside the workspace"),
        ("memory/knowledge/dreams.db", None, "outside the workspace"),
        ("memory/skill_candidates.json", None, "outside the workspace"),
        ("memreview.yaml", None, "outside the workspace"),
        ("main.boot.md", None, "outside the workspace"),
    ],
)
def _symlinks(ws: Path, out: Path) -> None:
    base(ws)
    link(ws, "memory/secret.md", out / "secret.md")
    link(ws, "memory/linkdir", out / "dir")
    link(ws, "memory/review", out / "dir")
    link(ws, "memory/recall_log.jsonl", out / "recall_log.jsonl")
    link(ws, "memory/knowledge/dreams.db", out / "dreams.db")
    link(ws, "memory/skill_candidates.json", out / "skill_candidates.json")
    link(ws, "memreview.yaml", out / "memreview.yaml")
    link(ws, "main.boot.md", out / "secret.md")
    link(ws, "NOW.md", "../outside/secret.md")  # relative, through ..
    link(ws, ".memreview", out / "state")


@case(
    "config-paths-out",
    "memreview.yaml pointing its paths outside the workspace ('..', absolute)",
    warnings=[
        ("../outside/recall_log.jsonl", None, "outside the workspace"),
        (None, None, "outside the workspace"),
    ],
)
def _config_out(ws: Path, out: Path) -> None:
    base(ws)
    put(
        ws,
        "memreview.yaml",
        (
            "recall_log: ../outside/recall_log.jsonl\n"
            f"proposals: {out / 'dir' / 'proposals.jsonl'}\n"
            f"dreams_db: {out / 'dreams.db'}\n"
            "skill_candidates: ../outside/skill_candidates.json\n"
            "now: ../outside/secret.md\n"
            "skills_dir: ../outside/skills\n"
            "superseded_file: ../outside/superseded.md\n"
            f"lock_files: [{out / 'secret.md'}]\n"
        ),
    )


@case(
    "symlink-loop",
    "symlink loops: a file linked to itself, two files linked to each other, a directory "
    "linked to its parent",
    warnings=[("memory/loop.md", None, "symlink loop"), ("memory/a.md", None, "symlink loop")],
)
def _loops(ws: Path, out: Path) -> None:
    base(ws)
    link(ws, "memory/loop.md", "loop.md")
    link(ws, "memory/a.md", "b.md")
    link(ws, "memory/b.md", "a.md")
    link(ws, "memory/sub/up", "..")
    link(ws, "memory/recall_log.jsonl", "recall_log.jsonl")


@case(
    "fifo",
    "named pipes where files are expected (a memory file, the recall log, the verdicts): "
    "a naive reader would hang",
    warnings=[("memory/pipe.md", None, "not a regular file")],
)
def _fifo(ws: Path, out: Path) -> None:
    base(ws)
    (ws / "memory/review").mkdir(parents=True, exist_ok=True)
    os.mkfifo(ws / "memory/pipe.md")
    os.mkfifo(ws / "memory/recall_log.jsonl")
    os.mkfifo(ws / "memory/review/verdicts.jsonl")
    put(
        ws,
        "memory/review/proposals.jsonl",
        jsonl({"id": "p-1", "relation": "contradicts", "new": "win11-utf8", "old": "win11-gbk"}),
    )


@case(
    "impossible-dates",
    "dates like 2026-02-30: an anchor's Added, a daily log's name, a chronicle row, a recall, "
    "a fragment, review_date in memreview.yaml",
    warnings=[
        ("MEMORY.md", 13, "Added '2026-02-30' is not a valid date"),
        ("memory/2026-02-30.md", None, "impossible date"),
        ("memreview.yaml", 1, "is not a date"),
        ("memory/recall_log.jsonl", 1, "recall without a valid 'ts'"),
    ],
)
def _dates(ws: Path, out: Path) -> None:
    base(
        ws,
        BASE_MEMORY + "\n## [FACT:bad-date]\nAdded: 2026-02-30\nSummary: never was\n---\n"
        "\n### Chronicle\n| Date | Events |\n|---|---|\n| 2026-02-30 | nothing |\n"
        "| 2026-02-30 | nothing at all |\n| 0000-00-00 | zero |\n",
    )
    put(ws, "memory/2026-02-30.md", "- a log from a day that never was\n")
    put(ws, "memory/2026-99-99-notes.md", "- and another\n")
    put(ws, "memreview.yaml", "review_date: 2026-02-30\n")
    put(ws, "memory/recall_log.jsonl", jsonl({"ts": "2026-02-30T00:00:00Z", "id": "bad-date"}))
    dreams_db(
        ws / "memory/knowledge/dreams.db",
        [
            {
                "id": "f",
                "content": "Backups run nightly at 03:00 from the pi cron job",
                "status": "archived",
                "last_seen": "2026-02-30",
            },
        ],
    )


ODD_NAMES = (
    "memory/notes with spaces.md",
    "memory/笔记 中文.md",
    "memory/new\nline.md",
    "memory/esc\x1b[31mred.md",
    "memory/bidi\u202etxt.md",
    "memory/--json.md",
    "memory/2026-11-02-with\nnewline.md",
)


@case(
    "odd-file-names",
    "file names with spaces, CJK, a newline, an escape sequence, a bidi override, a leading --",
    warnings=[("memory/esc\x1b[31mred.md", 3, "no closing '|'")],
)
def _names(ws: Path, out: Path) -> None:
    base(ws)
    for k, rel in enumerate(ODD_NAMES):
        put(ws, rel, f"# File {k}\n\n- an entry in file {k} about the gateway port\n")
    put(ws, "memory/esc\x1b[31mred.md", "# E\n\n| a | b\n")


@case(
    "markup-and-escapes",
    "Rich/Textual markup, OSC/CSI escape sequences, zero-width and bidi characters in entry "
    "text, anchor ids, a skill candidate, a proposal reason and a fragment",
    shows=["[@click=app.quit]quit[/] [/bold] [red]red[/red]", "␛]0;owned-title␇", "<U+202E>"],
)
def _markup(ws: Path, out: Path) -> None:
    base(
        ws,
        BASE_MEMORY + HOSTILE_LINE + " one\n" + HOSTILE_LINE + " one!\n"
        f"\n## [FACT:evil-{MARKUP.replace(' ', '')}]\nAdded: 2020-01-01\n"
        f"Summary: {ESCAPES}\nCONFLICTS-WITH: [[win11-gbk]]\n---\n",
    )
    put(
        ws,
        "memory/skill_candidates.json",
        json.dumps(
            {
                "candidates": [
                    {
                        "theme": f"theme {MARKUP}",
                        "content": f"{ESCAPES} {INVISIBLE}",
                        "count": 3,
                        "reason": MARKUP,
                    },
                ]
            },
            ensure_ascii=False,
        ),
    )
    put(
        ws,
        "memory/review/proposals.jsonl",
        jsonl(
            {
                "id": f"p-{ESCAPES}",
                "relation": "contradicts",
                "new": "win11-utf8",
                "old": "win11-gbk",
                "confidence": 0.5,
                "reason": f"{MARKUP} {ESCAPES} {INVISIBLE}",
            }
        ),
    )
    put(ws, "memory/projects/evil.md", f"# {MARKUP} {ESCAPES}\nAdded: 2020-01-01\n")


@case(
    "skill-theme-traversal",
    "skill candidates whose themes are paths: '../../etc', '/etc/passwd', '..', CJK only",
)
def _skill_paths(ws: Path, out: Path) -> None:
    base(ws)
    put(
        ws,
        "memory/skill_candidates.json",
        json.dumps(
            {
                "candidates": [
                    {"theme": "../../etc", "content": "pwned?", "count": 3, "reason": "r"},
                    {"theme": "/etc/passwd", "content": "pwned?", "count": 3, "reason": "r"},
                    {"theme": "..", "content": "dots", "count": 3, "reason": "r"},
                    {"theme": "技能：网关", "content": "中文", "count": 3, "reason": "r"},
                ]
            },
            ensure_ascii=False,
            indent=2,
        ),
    )


# -- workspaces that are not workspaces ------------------------------------------------------


@case("unusable-missing", "a path that does not exist", unusable="no such directory")
def _missing(ws: Path, out: Path) -> None:
    pass


@case("unusable-file", "a path that is a file", unusable="not a directory")
def _a_file(ws: Path, out: Path) -> None:
    ws.parent.mkdir(parents=True, exist_ok=True)
    ws.write_bytes(b"# MEMORY\n")


@case("unusable-no-memory", "a directory with no MEMORY.md", unusable="not a memory workspace")
def _no_memory(ws: Path, out: Path) -> None:
    put(ws, "notes.md", "- hello\n")


@case(
    "unusable-memory-dir",
    "MEMORY.md that is a directory",
    unusable="not a memory workspace",
)
def _memory_dir(ws: Path, out: Path) -> None:
    (ws / "MEMORY.md").mkdir(parents=True)


@case(
    "unusable-memory-loop",
    "MEMORY.md that is a symlink loop",
    unusable="not a memory workspace",
)
def _memory_loop(ws: Path, out: Path) -> None:
    ws.mkdir(parents=True)
    os.symlink("MEMORY.md", ws / "MEMORY.md")


@case(
    "memory-md-outside",
    "MEMORY.md itself a symlink to a file outside the workspace",
    warnings=[("MEMORY.md", None, "outside the workspace")],
)
def _memory_outside(ws: Path, out: Path) -> None:
    ws.mkdir(parents=True)
    os.symlink(out / "secret.md", ws / "MEMORY.md")
    put(ws, "memory/knowledge.md", ANCHORS)


def build(name: str, tmp: Path) -> tuple[Path, Path]:
    """Build case ``name`` under ``tmp``: (workspace root, outside directory)."""
    outside = tmp / "outside"
    make_outside(outside)
    ws = tmp / "ws"
    CASES[name].build(ws, outside)
    return ws, outside


# -- snapshots --------------------------------------------------------------------------------


def snapshot(*roots: Path, skip: tuple[str, ...] = ()) -> dict[str, object]:
    """Every entry under ``roots`` without following symlinks: file bytes, link targets,
    directories, pipes. ``skip``: top-level names to leave out (e.g. ``.memreview``)."""
    out: dict[str, object] = {}
    for root in roots:
        if not os.path.lexists(root):
            continue
        st = os.lstat(root)
        if not stat.S_ISDIR(st.st_mode):
            out[str(root)] = _entry(root, st)
            continue
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            rel_dir = os.path.relpath(dirpath, root)
            if rel_dir.split(os.sep)[0] in skip:
                dirnames[:] = []
                continue
            for name in dirnames + filenames:
                if rel_dir == "." and name in skip:
                    continue
                p = os.path.join(dirpath, name)
                out[p] = _entry(p, os.lstat(p))
    return out


def _entry(p: str | Path, st: os.stat_result) -> object:
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(p))
    if stat.S_ISDIR(st.st_mode):
        return ("dir",)
    if stat.S_ISFIFO(st.st_mode):
        return ("fifo",)
    with open(p, "rb") as f:
        return f.read()


def make_big_log(ws: Path, size: int = 50 * 1024 * 1024) -> Path:
    """A 50 MB daily log, written fast: one block repeated, one project mention at the end.

    It is over the default 32 MiB cap for a Markdown file, so the workspace raises the cap
    (``max_markdown_mib``): what is measured is reading a log that large."""
    put(ws, "memreview.yaml", "max_markdown_mib: 64\n")
    put(ws, "memory/projects/gateway-upgrade.md", "# Gateway upgrade\nAdded: 2026-01-01\n")
    block = (
        "### 09:15 — bounty-hunter (任务)\n- checked the queue, nothing new 测试\n" * 200
    ).encode()
    p = ws / "memory/2026-11-25.md"
    with open(p, "wb") as f:
        f.write(block * (size // len(block) + 1))
        f.write(b"- finally worked on gateway-upgrade\n")
    return p
