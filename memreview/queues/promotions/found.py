"""Finding promoted entries: the promotion and consolidation headings, the markers above an
entry, its ``[score=…]`` tail and Lingxi's ``自动沉淀`` stamp, read into ``Promoted``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from memreview.workspace.dates import parse_date
from memreview.workspace.markdown import MARKER_KEY_RE, PROMOTED_HEADING_RE, SETTLED_STAMP_RE
from memreview.workspace.model import Entry, MemoryFile, Workspace

REJECTED_FILE = "memory/archive/rejected-promotions.md"  # where an archived promotion goes

CONSOLIDATED_HEADING_RE = re.compile(r"consolidated memory\s*\((\d{4}-\d{2}-\d{2})\)", re.I)
PROJECT_HEADING_RE = re.compile(r"^(?:project:\s*(\S.*)|global)$", re.I)
LINEAGE_RE = re.compile(r"<!--\s*openclaw-memory-lineage:([^\n]*?)\s*-->")
TAIL_RE = re.compile(
    r"\[score=(?P<score>[\d.]+)(?:\s+signals=(?P<signals>\d+))?\s+recalls=(?P<recalls>\d+)"
    r"\s+avg=(?P<avg>[\d.]+)\s+source=(?P<path>[^\]\s]+?):(?P<a>\d+)-(?P<b>\d+)\]"
)
ANY_TAIL_RE = re.compile(r"\[score=[^\]]*\]")
TRAILING_COMMENTS_RE = re.compile(r"(?:\s*<!--.*?-->)+\s*$")
CONSOLIDATED_SOURCE_RE = re.compile(r"Source:\s*(?P<path>[^\s#]+)#L(?P<a>\d+)(?:-L?(?P<b>\d+))?")
IMPORTANCE_RE = re.compile(r"<!--\s*importance:\s*(\d+)\s*-->")
OWNER_RE = re.compile(r"<!--\s*promoted-by:\s*owner\b")
TRIGGER_RE = re.compile(r"<!--\s*trigger:\s*(.*?)\s*-->")


@dataclass
class Promoted:
    """One promoted entry as found in a memory file."""

    entry: Entry
    origin: str  # openclaw | consolidated | lingxi | owner
    key: str
    day: date | None
    body: str  # the text without bullet, tail and trailing comments
    tail: str  # the tail and the comments after it, as written ('' when none)
    marker_line: int | None
    group: str | None  # the ### Project: key / ### Global sub-heading
    score: float | None = None
    signals: int | None = None
    recalls: int | None = None
    avg: float | None = None
    importance: int | None = None
    trigger: str | None = None
    source: tuple[str, int, int] | None = None


def split_tail(first_line: str) -> tuple[str, str]:
    """(the bullet's text, its tail): the last ``[score=…]`` and every comment after it, or
    the trailing comments alone."""
    m = next(reversed(list(ANY_TAIL_RE.finditer(first_line))), None)
    if m is not None:
        rest = first_line[m.end() :]
        if not rest.strip() or TRAILING_COMMENTS_RE.fullmatch(rest):
            start = m.start()
            while start > 0 and first_line[start - 1] in " \t":
                start -= 1
            return first_line[:start], first_line[start:]
    cm = TRAILING_COMMENTS_RE.search(first_line)
    if cm is not None and cm.start() > 0:
        return first_line[: cm.start()], first_line[cm.start() :]
    return first_line, ""


def strip_bullet(line: str) -> str:
    """The line without its ``- `` or ``* `` bullet."""
    for lead in ("- ", "* "):
        if line.startswith(lead):
            return line[len(lead) :]
    return line.lstrip("-* ")


def _heading_day(entry: Entry) -> tuple[str | None, date | None, str | None]:
    """(origin, date, group) from the headings above an entry, or (None, None, None)."""
    return _path_day(entry.heading_path)


@lru_cache(maxsize=4096)  # the entries of a section share their heading path
def _path_day(heading_path: tuple[str, ...]) -> tuple[str | None, date | None, str | None]:
    origin, day, group = None, None, None
    for h in heading_path:
        pm = PROMOTED_HEADING_RE.search(h)
        cm = CONSOLIDATED_HEADING_RE.search(h)
        if pm or cm:
            origin = "openclaw" if pm else "consolidated"
            day = parse_date((pm or cm).group(1))
            group = None
            continue
        if origin is not None:
            gm = PROJECT_HEADING_RE.match(h.strip())
            if gm:
                group = gm.group(1).strip() if gm.group(1) else "Global"
    return origin, day, group


def _marker_above(mf: MemoryFile, line: int, rx: re.Pattern) -> tuple[str, int] | None:
    """The marker key (and its line) above the entry at ``line``: only comment lines or
    blank lines between them."""
    lines = mf.source.lines
    k = line - 2
    while k >= 0:
        t = lines[k].text.strip()
        m = rx.search(t)
        if m:
            return m.group(1), k + 1
        if t and not (t.startswith("<!--") and t.endswith("-->")):
            return None
        if not t and k < line - 3:
            return None
        k -= 1
    return None


def has_promotions(ws: Workspace) -> bool:
    """Whether any memory file has a promotion or consolidation section or a 自动沉淀 stamp."""
    for mf in ws.files.values():
        for _line, _level, text in mf.headings:
            if PROMOTED_HEADING_RE.search(text) or CONSOLIDATED_HEADING_RE.search(text):
                return True
        if any(SETTLED_STAMP_RE.search(e.text) for e in mf.entries):
            return True
    return False


def find_promoted(ws: Workspace) -> list[Promoted]:
    """Every promoted entry of the workspace's memory files (archives excluded)."""
    out: list[Promoted] = []
    for mf in ws.files.values():
        for e in mf.entries:
            if e.kind not in ("bullet", "promoted") or e.in_anchor is not None:
                continue
            p = _promoted(mf, e)
            if p is not None:
                out.append(p)
    return out


def _promoted(mf: MemoryFile, e: Entry) -> Promoted | None:
    origin, day, group = _heading_day(e)
    first = e.first_line
    if origin is None:
        lm = SETTLED_STAMP_RE.search(e.text) if "自动沉淀" in e.text else None
        if lm is None:
            return None
        body = strip_bullet(first)
        return Promoted(
            e,
            "lingxi",
            f"lingxi:{e.file}:{lm.group(1)}:{e.norm}",
            parse_date(lm.group(1)),
            body,
            "",
            None,
            None,
        )
    text, tail = split_tail(first)
    body = strip_bullet(text)
    if len(e.text.split("\n")) > 1:
        body = "\n".join([body, *e.text.split("\n")[1:]])
    if origin == "openclaw" and OWNER_RE.search(tail):
        origin = "owner"  # promoted anyway by the owner (the dropping queue)
    p = Promoted(e, origin, "", day, body, tail, None, group)
    if origin in ("openclaw", "owner"):
        found = _marker_above(mf, e.line, MARKER_KEY_RE)
        tm = TAIL_RE.search(tail) if tail else None
        if tm:
            p.score, p.avg = float(tm["score"]), float(tm["avg"])
            p.signals = int(tm["signals"]) if tm["signals"] else None
            p.recalls = int(tm["recalls"])
            p.source = (tm["path"], int(tm["a"]), int(tm["b"]))
        if found:
            p.key, p.marker_line = found
        elif p.source:
            p.key = f"memory:{p.source[0]}:{p.source[1]}:{p.source[2]}"
        else:
            p.key = f"text:{e.file}:{e.norm}"
    else:
        found = _marker_above(mf, e.line, LINEAGE_RE)
        sm = CONSOLIDATED_SOURCE_RE.search(e.text)
        if sm:
            a = int(sm["a"])
            p.source = (sm["path"], a, int(sm["b"] or a))
            body = CONSOLIDATED_SOURCE_RE.sub("", body).rstrip(" \t—-–·|()（）")
            p.body = body
        if found:
            p.key, p.marker_line = found[0], found[1]
        elif p.source:
            p.key = f"consolidated:{p.source[0]}:{p.source[1]}:{p.source[2]}"
        else:
            p.key = f"consolidated:{e.file}:{e.norm}"
    im = IMPORTANCE_RE.search(tail)
    p.importance = int(im.group(1)) if im else None
    trig = TRIGGER_RE.search(tail)
    p.trigger = trig.group(1) if trig else None
    return p
