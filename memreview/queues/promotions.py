"""Promotions: entries a nightly pipeline put into a memory file, and the junk among them
(DESIGN §2, issue 13).

An item is one promoted entry the owner has not reviewed yet:
- OpenClaw: the bullet under an ``<!-- openclaw-memory-promotion:KEY -->`` marker in a
  ``## Promoted From Short-Term Memory (DATE)`` section (both tail generations:
  ``[score= recalls= avg= source=]`` and, since 2026.9, ``[score= signals= recalls= avg=
  source=]`` followed by ``<!-- trigger: … --> <!-- importance: N -->``), and the entries of
  ``## Consolidated Memory (DATE)`` sections (``Source: path#La-Lb``, an optional
  ``openclaw-memory-lineage`` marker); ``### Project: key`` / ``### Global`` group them;
- Lingxi: entries stamped ``（YYYY-MM-DD 自动沉淀）``.

Each item carries the junk flags that fire, each with its reason; flagged items come first,
then the newest promotions. The flags are deterministic text rules, tuned on the realistic
corpus so that a real lesson with a colon inside it, a command the owner saved under a
"Commands" heading and a short but complete rule are not flagged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from rapidfuzz import fuzz, process

from memreview.queues.common import item_id, short
from memreview.queues.duplicates import comparable, curated_files
from memreview.queues.sameness import comparison_form, same_fact
from memreview.workspace.dates import parse_date
from memreview.workspace.model import Entry, MemoryFile, Workspace
from memreview.workspace.normalize import normalize

REJECTED_FILE = "memory/archive/rejected-promotions.md"

PROMOTED_HEADING_RE = re.compile(r"promoted from short-term memory\s*\((\d{4}-\d{2}-\d{2})\)", re.I)
CONSOLIDATED_HEADING_RE = re.compile(r"consolidated memory\s*\((\d{4}-\d{2}-\d{2})\)", re.I)
PROJECT_HEADING_RE = re.compile(r"^(?:project:\s*(\S.*)|global)$", re.I)
MARKER_RE = re.compile(r"<!--\s*openclaw-memory-promotion:([^\n]*?)\s*-->")
LINEAGE_RE = re.compile(r"<!--\s*openclaw-memory-lineage:([^\n]*?)\s*-->")
TAIL_RE = re.compile(
    r"\[score=(?P<score>[\d.]+)(?:\s+signals=(?P<signals>\d+))?\s+recalls=(?P<recalls>\d+)"
    r"\s+avg=(?P<avg>[\d.]+)\s+source=(?P<path>[^\]\s]+?):(?P<a>\d+)-(?P<b>\d+)\]"
)
ANY_TAIL_RE = re.compile(r"\[score=[^\]]*\]")
TRAILING_COMMENTS_RE = re.compile(r"(?:\s*<!--.*?-->)+\s*$")
CONSOLIDATED_SOURCE_RE = re.compile(r"Source:\s*(?P<path>[^\s#]+)#L(?P<a>\d+)(?:-L?(?P<b>\d+))?")
LINGXI_RE = re.compile(r"[（(]\s*(\d{4}-\d{2}-\d{2})\s*自动沉淀\s*[）)]")
IMPORTANCE_RE = re.compile(r"<!--\s*importance:\s*(\d+)\s*-->")
TRIGGER_RE = re.compile(r"<!--\s*trigger:\s*(.*?)\s*-->")

# -- the junk flags ------------------------------------------------------------------------

FLAGS: dict[str, str] = {
    "never-recalled": "never recalled",
    "command": "shell command or code",
    "half-sentence": "half sentence",
    "flattened": "flattened document",
    "status-snapshot": "status snapshot",
    "scaffolding": "pipeline scaffolding leaked",
    "duplicate": "duplicate",
    "came-back": "came back",
    "dangling-source": "dangling source",
}

COMMAND_WORDS = frozenset(
    "sudo apt apt-get brew pip pip3 pipx npm npx pnpm yarn git cmake make docker docker-compose "
    "kubectl systemctl journalctl curl wget cd ls rm mv cp chmod chown ssh scp rsync python "
    "python3 node cargo go export source openclaw tar mkdir echo cat grep sed awk ffmpeg uv "
    "conda winget choco scoop powershell pwsh crontab ln find tail head kill pkill service "
    "dnf yum pacman snap flatpak gh helm terraform ansible".split()
)
_ARGISH = re.compile(r"^(?:-{1,2}\S|[~./$]|\S*[/=]\S*|\$\(|\S+\.\S+$|[a-z][a-z0-9_-]*$)")
_PROSE_LINK = re.compile(
    r"\b(because|so that|to avoid|otherwise|instead|unless|when|whenever|after|before|"
    r"never|always|only|must|should|works|fails|breaks|needs?)\b|因为|否则|以免|避免|如果|之前|之后|"
    r"必须|不要|才能|就会|会导致",
    re.I,
)
COMMAND_HEADINGS = re.compile(r"command|cheat ?sheet|snippet|shell|命令|指令|脚本", re.I)
_HEADING_IN_TEXT = re.compile(r"(?:^|\s)#{1,6}\s+\S")
_TABLE_SEP = re.compile(r"\|\s*:?-{3,}:?\s*\|")
_BOLD_LABEL_ONLY = re.compile(r"^\*\*[^*]+\*\*\s*[:：]?\s*$|^\*\*[^*]+[:：]\s*\*\*\s*$")
_SNAPSHOT_STRONG = re.compile(
    r"HEARTBEAT_OK|system is operational|all systems (?:normal|operational|green)|"
    r"no new action|nothing (?:new )?to report|no action (?:needed|required)|"
    r"无新(?:动作|操作|事项)|系统运行正常|一切正常|无需(?:处理|操作)",
    re.I,
)
_STATUS_EMOJI = re.compile(r"⚠️|⚠|🔴|🟢|🟡|🟠|⬛|⬜|✅|❌|🆗")
_PERCENT = re.compile(r"\d+(?:\.\d+)?\s*%")
_RESOURCE = re.compile(
    r"\b(disk|swap|cpu|mem|memory|ram|load|uptime|inode|usage|used|free|up|down)\b|"
    r"磁盘|内存|交换|负载|占用|使用率|在线|离线",
    re.I,
)
_SCAFFOLD = (
    (re.compile(r"(?:^|\n)\s*(?:-\s*)?Candidate:\s", re.I), "a light-sleep 'Candidate:' line"),
    (
        re.compile(r"(?:^|\n|\s)(?:-\s*)?(?:confidence:\s*[\d.]+|evidence:\s*\S+\.\w+:\d+)", re.I),
        "a candidate's confidence/evidence line",
    ),
    (re.compile(r"(?:^|\n)\s*(?:-\s*)?recalls:\s*\d+", re.I), "a candidate's 'recalls:' line"),
    (re.compile(r"status:\s*staged", re.I), "'status: staged'"),
    (re.compile(r"<!--\s*openclaw:dreaming:"), "an <!-- openclaw:dreaming:… --> marker"),
    (
        re.compile(r"Theme:\s*`[^`]*`\s*kept surfacing across\s*\d+\s*memories", re.I),
        "a REM reflection ('Theme: … kept surfacing')",
    ),
    (re.compile(r"@@ -\d+(?:,\d+)? (?:\+\d+(?:,\d+)? )?@@"), "a diff hunk header"),
    (
        re.compile(r"A memory trace surfaced, but details were unavailable in this run", re.I),
        "the fallback line 'A memory trace surfaced…'",
    ),
)


@dataclass
class Promoted:
    """One promoted entry as found in a memory file."""

    entry: Entry
    origin: str  # openclaw | consolidated | lingxi
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


def _strip_bullet(line: str) -> str:
    for lead in ("- ", "* "):
        if line.startswith(lead):
            return line[len(lead) :]
    return line.lstrip("-* ")


def _heading_day(entry: Entry) -> tuple[str | None, date | None, str | None]:
    """(origin, date, group) from the headings above an entry, or (None, None, None)."""
    origin, day, group = None, None, None
    for h in entry.heading_path:
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
        if any(LINGXI_RE.search(e.text) for e in mf.entries):
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
        lm = LINGXI_RE.search(e.text)
        if lm is None:
            return None
        body = _strip_bullet(first)
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
    body = _strip_bullet(text)
    if len(e.text.split("\n")) > 1:
        body = "\n".join([body, *e.text.split("\n")[1:]])
    p = Promoted(e, origin, "", day, body, tail, None, group)
    if origin == "openclaw":
        found = _marker_above(mf, e.line, MARKER_RE)
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


# -- the flags, one function each: (fires, reason) ----------------------------------------


def flag_command(p: Promoted, source_headings: tuple[str, ...] = ()) -> str | None:
    """Mostly a command line, a config fragment or a path list (not when the owner keeps it
    under a commands heading, here or in its source)."""
    if any(COMMAND_HEADINGS.search(h) for h in (*p.entry.heading_path, *source_headings)):
        return None
    body = p.body.strip()
    if "\n" in body or not body:
        return None
    plain = body.strip("`").strip()
    plain = re.sub(r"^\$\s+", "", plain)
    words = plain.split()
    if words and words[0].lower() in COMMAND_WORDS:
        if len(words) == 1 or _ARGISH.match(words[1]):
            if not _PROSE_LINK.search(plain):
                return f"reads as a command line ({short(plain, 50)!r})"
    if (plain.startswith("{") and plain.endswith("}") and '":' in plain) or re.fullmatch(
        r"(?:[\w.-]+\s*=\s*\S+\s*){2,}", plain
    ):
        return "a config fragment"
    paths = [w for w in words if re.match(r"^[~.]?/|^[A-Za-z]:\\|^[\w.-]+/[\w./-]+$", w)]
    if len(paths) >= 2 and len(paths) >= 0.6 * len(words):
        return f"a list of {len(paths)} paths"
    return None


def flag_half_sentence(p: Promoted) -> str | None:
    """Ends with a colon, is a heading turned into a bullet, or a bold label alone."""
    body = p.body.strip()
    if not body:
        return "empty bullet"
    if re.match(r"^#{1,6}\s", body) and len(_HEADING_IN_TEXT.findall(body)) == 1:
        return "a heading turned into a bullet, with no body"
    if _BOLD_LABEL_ONLY.match(body):
        return "a bold label with nothing after it"
    if body.endswith((":", "：")):
        return "ends with a colon: the rest of the sentence was left behind"
    return None


def flag_flattened(p: Promoted) -> str | None:
    """Several headings, or a whole table, squeezed into one bullet."""
    body = p.body
    heads = len(_HEADING_IN_TEXT.findall(body))
    if heads >= 2:
        return f"{heads} headings squeezed into one bullet"
    if _TABLE_SEP.search(body) or body.count("|") >= 6:
        return "a table squeezed into one bullet"
    return None


def flag_snapshot(p: Promoted) -> str | None:
    """A monitoring or heartbeat report: a moment's figures, not a lasting fact."""
    body = p.body
    m = _SNAPSHOT_STRONG.search(body)
    if m:
        return f"a heartbeat/status report ({m.group(0)!r})"
    emoji = len(_STATUS_EMOJI.findall(body))
    if emoji >= 2:
        return f"{emoji} host/status emoji: a status board"
    pct = len(_PERCENT.findall(body))
    if pct >= 2 and _RESOURCE.search(body):
        return f"{pct} percentages of resources: a monitoring snapshot"
    return None


def flag_scaffolding(p: Promoted) -> str | None:
    """The pipeline's own lines leaked into the entry."""
    text = p.body
    if ANY_TAIL_RE.search(text):
        return "a second [score=…] tail inside the text"
    for rx, what in _SCAFFOLD:
        if rx.search(text):
            return what
    return None


STRIP_LINE_RE = re.compile(
    r"^\s*(?:-\s*)?(?:Candidate:|confidence:|evidence:|recalls:\s*\d|status:\s*staged)", re.I
)


def stripped_body(body: str) -> str:
    """The entry's text without leaked scaffolding: score tails inside it,
    ``<!-- openclaw:dreaming:… -->`` markers, ``Candidate:``/``confidence:``/``evidence:``/
    ``recalls:``/``status: staged`` lines (a ``Candidate:`` label keeps its text)."""
    text = ANY_TAIL_RE.sub("", body)
    text = re.sub(r"<!--\s*openclaw:dreaming:[^>]*-->", "", text)
    kept = []
    for ln in text.split("\n"):
        cm = re.match(r"^(\s*(?:-\s*)?)Candidate:\s*(.*)$", ln, re.I)
        if cm:
            kept.append(cm.group(1) + cm.group(2))
            continue
        if STRIP_LINE_RE.match(ln):
            continue
        kept.append(ln)
    out = "\n".join(kept)
    out = re.sub(r"[ \t]*(?:-\s*)?(?:confidence:\s*[\d.]+|evidence:\s*\S+:\d+(?:-\d+)?)", "", out)
    out = re.sub(r"[ \t]*status:\s*staged", "", out, flags=re.I)
    out = re.sub(r"[ \t]{2,}", " ", out)
    return "\n".join(ln.rstrip() for ln in out.split("\n")).strip()


# -- the queue -------------------------------------------------------------------------------


@dataclass
class _Context:
    ws: Workspace
    today: date
    archived_keys: set[str]
    archived_forms: dict[str, str]
    curated: list[tuple[str, Entry]]  # comparison form and entry, outside promotion sections


def _source_lines(ws: Workspace, path: str) -> list[str] | None:
    """The lines of a workspace file that a promotion names as its source (None: missing)."""
    mf = ws.files.get(path) or ws.archive_files.get(path)
    if mf is not None:
        return [ln.text for ln in mf.source.lines]
    for log in ws.daily_logs:
        if log.rel == path:
            return log.text.split("\n") if log.text else [""] * log.lines
    tf = ws.other_files.get(path)
    if tf is not None:
        return [ln.text for ln in tf.lines]
    return None


def _source_headings(lines: list[str] | None, line: int) -> tuple[str, ...]:
    if not lines:
        return ()
    out = []
    for k in range(min(line, len(lines)) - 1, -1, -1):
        m = re.match(r"^#{1,6}\s+(.*)$", lines[k])
        if m:
            out.append(m.group(1))
            if lines[k].startswith("## ") or lines[k].startswith("# "):
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
    n = 0
    for r in usage.recalls:
        if p.day is not None and r.day < p.day:
            continue
        for path, a, b in spans:
            if r.path == path and r.start <= b and a <= r.end:
                n += 1
                break
    return n


def _archived(ws: Workspace) -> tuple[set[str], dict[str, str]]:
    """Marker keys and comparison forms of the entries archived in earlier reviews."""
    keys: set[str] = set()
    forms: dict[str, str] = {}
    for v in ws.verdicts or []:  # in file order: a restore takes an archive back
        if v.relation == "promotion" and v.verdict == "archived":
            keys.add(v.proposal)
        elif v.relation == "promotion" and v.verdict == "restored":
            keys.discard(v.proposal)
    mf = ws.archive_files.get(REJECTED_FILE)
    day = ""
    if mf is not None:
        for ln in mf.source.lines:
            m = MARKER_RE.search(ln.text)
            if m:
                keys.add(m.group(1))
            dm = re.match(r"^#{1,6}\s+(\d{4}-\d{2}-\d{2})", ln.text)
            if dm:
                day = dm.group(1)
        for e in mf.entries:
            if e.kind in ("bullet", "promoted"):
                text, _tail = split_tail(e.first_line)
                forms.setdefault(comparison_form(_norm(_strip_bullet(text))), day)
    return keys, forms


def _norm(text: str) -> str:
    return normalize("- " + text, "bullet")


def _duplicate(ctx: _Context, p: Promoted, form: str, seen: dict[str, Promoted]) -> str | None:
    earlier = seen.get(form)
    if earlier is not None:
        return f"the same text was promoted before, at {earlier.entry.file}:{earlier.entry.line}"
    if len(form) < 8 or not ctx.curated:
        return None
    forms = [f for f, _e in ctx.curated]
    for _choice, score, k in process.extract(
        form, forms, scorer=fuzz.ratio, score_cutoff=ctx.ws.config.near_ratio, limit=5
    ):
        other = ctx.curated[k][1]
        if score >= 100 or same_fact(form, forms[k]):
            return f"the same fact already stands at {other.file}:{other.line}"
    return None


def _flags(ctx: _Context, p: Promoted, form: str, seen_forms, seen_keys) -> list[dict]:
    ws = ctx.ws
    flags: list[tuple[str, str]] = []
    lines = _source_lines(ws, p.source[0]) if p.source else None
    if p.recalls == 0:
        flags.append(("never-recalled", "recalls=0 in its tail: promoted without one recall"))
    else:
        n = _recalled_since(ws, p)
        if n == 0 and p.day is not None and (ctx.today - p.day).days >= 7:
            flags.append(
                (
                    "never-recalled",
                    f"no recall of it in OpenClaw's recall events or store since its "
                    f"promotion on {p.day.isoformat()}",
                )
            )
    for name, fn in (
        (
            "command",
            lambda: flag_command(p, _source_headings(lines, p.source[1]) if p.source else ()),
        ),
        ("half-sentence", lambda: flag_half_sentence(p)),
        ("flattened", lambda: flag_flattened(p)),
        ("status-snapshot", lambda: flag_snapshot(p)),
        ("scaffolding", lambda: flag_scaffolding(p)),
    ):
        why = fn()
        if why:
            flags.append((name, why))
    if p.key in seen_keys:
        flags.append(("duplicate", f"the same key was promoted before, at {seen_keys[p.key]}"))
    else:
        why = _duplicate(ctx, p, form, seen_forms)
        if why:
            flags.append(("duplicate", why))
    if p.key in ctx.archived_keys:
        flags.append(("came-back", "its key was archived in an earlier review"))
    elif form in ctx.archived_forms:
        when = ctx.archived_forms[form]
        flags.append(
            (
                "came-back",
                f"the same text was archived in an earlier review{' on ' + when if when else ''}",
            )
        )
    # a workspace without a single daily log (MEMORY.md copied alone) can't tell a deleted
    # source from one that was never copied: its sources are not judged
    if p.source and ws.daily_logs:
        path, a, b = p.source
        if lines is None:
            flags.append(("dangling-source", f"its source {path} no longer exists"))
        elif b > len(lines) or (lines and not any(x.strip() for x in lines[a - 1 : b])):
            flags.append(
                (
                    "dangling-source",
                    f"lines {a}-{b} of {path} no longer exist (it has {len(lines)})",
                )
            )
    return [{"flag": f, "label": FLAGS[f], "reason": r} for f, r in flags]


def _curated(ws: Workspace, promoted_ids: set[int]) -> list[tuple[str, Entry]]:
    out = []
    for rel in sorted(curated_files(ws)):
        mf = ws.files.get(rel)
        if mf is None:
            continue
        for e in mf.entries:
            if id(e) in promoted_ids or not comparable(e):
                continue
            out.append((comparison_form(e.norm), e))
    return out


def _context_lines(lines: list[str] | None, a: int, b: int) -> list[list]:
    if lines is None:
        return []
    lo, hi = max(1, a - 2), min(len(lines), b + 2)
    return [[k, lines[k - 1]] for k in range(lo, hi + 1)]


def _item(p: Promoted, flags: list[dict], ws: Workspace) -> dict:
    e = p.entry
    source = None
    if p.source:
        path, a, b = p.source
        lines = _source_lines(ws, path)
        source = {
            "file": path,
            "start": a,
            "end": b,
            "missing": lines is None or b > len(lines),
            "lines": _context_lines(lines, a, b),
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
        "flags": flags,
    }


def promotions(ws: Workspace, today: date) -> list[dict]:
    """Every promoted entry with its junk flags: flagged first, then newest first."""
    found = find_promoted(ws)
    if not found:
        return []
    keys, forms = _archived(ws)
    ctx = _Context(ws, today, keys, forms, _curated(ws, {id(p.entry) for p in found}))
    # promotions are judged in the order they were made: the later copy is the duplicate
    order = sorted(found, key=lambda p: (p.day or date.min, p.entry.file, p.entry.line))
    seen_forms: dict[str, Promoted] = {}
    seen_keys: dict[str, str] = {}
    items = []
    for p in order:
        form = comparison_form(p.entry.norm)
        flags = _flags(ctx, p, form, seen_forms, seen_keys)
        seen_forms.setdefault(form, p)
        seen_keys.setdefault(p.key, f"{p.entry.file}:{p.entry.line}")
        items.append(_item(p, flags, ws))
    items.sort(
        key=lambda it: (
            not it["flags"],
            -(parse_date(it["promoted"] or "") or date.min).toordinal(),
            it["ref"]["file"],
            it["ref"]["line"],
        )
    )
    return items
