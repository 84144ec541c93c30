"""The junk flags of a promoted entry: deterministic text rules, one function each, returning
the reason it fires (or None); and ``stripped_body``, the text without leaked scaffolding."""

from __future__ import annotations

import re
from functools import lru_cache

from memreview.i18n import N_, _
from memreview.queues.common import short
from memreview.queues.promotions.found import ANY_TAIL_RE, Promoted
from memreview.queues.promotions.shapes import PROSE_LINK

FLAGS: dict[str, str] = {
    "command": N_("shell command or code"),
    "half-sentence": N_("half sentence"),
    "flattened": N_("flattened document"),
    "status-snapshot": N_("status snapshot"),
    "scaffolding": N_("pipeline scaffolding leaked"),
    "metadata": N_("metadata, not a fact"),
    "transcript": N_("a conversation's line"),
    "dream": N_("dream narration"),
    "duplicate": N_("duplicate"),
    "came-back": N_("came back"),
    "dangling-source": N_("dangling source"),
}

COMMAND_WORDS = frozenset(
    "sudo apt apt-get brew pip pip3 pipx npm npx pnpm yarn git cmake make docker docker-compose "
    "kubectl systemctl journalctl curl wget cd ls rm mv cp chmod chown ssh scp rsync python "
    "python3 node cargo go export source openclaw tar mkdir echo cat grep sed awk ffmpeg uv "
    "conda winget choco scoop powershell pwsh crontab ln find tail head kill pkill service "
    "dnf yum pacman snap flatpak gh helm terraform ansible".split()
)
_ARGISH = re.compile(r"^(?:-{1,2}\S|[~./$]|\S*[/=]\S*|\$\(|\S+\.\S+$|[a-z][a-z0-9_-]*$)")
COMMAND_HEADINGS = re.compile(r"command|cheat ?sheet|snippet|shell|命令|指令|脚本", re.I)
_HEADING_IN_TEXT = re.compile(r"(?:^|\s)#{1,6}\s+\S")
_INNER_HEADING = re.compile(r"\S\s+#{2,6}\s+\S")
# a bullet of the source inside the text: `` - `` before bold, a capital, CJK, or at a line start
_INNER_BULLET = re.compile(r"(?:(?<=\S)[ \t]+|\n[ \t]*)[-*•]\s+(?=\*\*|[A-Z\u4e00-\u9fff])")
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
    (re.compile(r"(?:^|\n)\s*(?:-\s*)?Candidate:\s", re.I), N_("a light-sleep 'Candidate:' line")),
    (
        re.compile(r"\[(?:confidence|evidence)=[^\]]*\]", re.I),
        N_("a nested [confidence= evidence=] tail"),
    ),
    (re.compile(r"^[-*•]\s"), N_("a bullet of bullets ('- - ')")),
    (
        re.compile(r"(?:^|\n|\s)(?:-\s*)?(?:confidence:\s*[\d.]+|evidence:\s*\S+\.\w+:\d+)", re.I),
        N_("a candidate's confidence/evidence line"),
    ),
    (re.compile(r"(?:^|\n)\s*(?:-\s*)?recalls:\s*\d+", re.I), N_("a candidate's 'recalls:' line")),
    (re.compile(r"status:\s*staged", re.I), N_("'status: staged'")),
    (re.compile(r"<!--\s*openclaw:dreaming:"), N_("an <!-- openclaw:dreaming:… --> marker")),
    (
        re.compile(r"Theme:\s*`[^`]*`\s*kept surfacing across\s*\d+\s*memories", re.I),
        N_("a REM reflection ('Theme: … kept surfacing')"),
    ),
    (re.compile(r"@@ -\d+(?:,\d+)? (?:\+\d+(?:,\d+)? )?@@"), N_("a diff hunk header")),
    (
        re.compile(r"A memory trace surfaced, but details were unavailable in this run", re.I),
        N_("the fallback line 'A memory trace surfaced…'"),
    ),
)


_PROMPT = re.compile(r"^\$\s+")
_ASSIGNMENTS = re.compile(r"(?:[\w.-]+\s*=\s*\S+\s*){2,}")
_PATH_WORD = re.compile(r"^[~.]?/|^[A-Za-z]:\\|^[\w.-]+/[\w./-]+$")  # every form holds / or \


@lru_cache(maxsize=1 << 14)  # the headings above one source line are asked for by many
def _command_heading(heading: str) -> bool:
    return COMMAND_HEADINGS.search(heading) is not None


def flag_command(p: Promoted, source_headings: tuple[str, ...] = ()) -> str | None:
    """Mostly a command line, a config fragment or a path list (not when the owner keeps it
    under a commands heading, here or in its source)."""
    if any(map(_command_heading, p.entry.heading_path)) or any(
        map(_command_heading, source_headings)
    ):
        return None
    body = p.body.strip()
    if "\n" in body or not body:
        return None
    plain = body.strip("`").strip()
    plain = _PROMPT.sub("", plain)
    words = plain.split()
    if words and words[0].lower() in COMMAND_WORDS:
        if len(words) == 1 or _ARGISH.match(words[1]):
            if not PROSE_LINK.search(plain):
                return _("reads as a command line ({text!r})").format(text=short(plain, 50))
    if (plain.startswith("{") and plain.endswith("}") and '":' in plain) or (
        "=" in plain and _ASSIGNMENTS.fullmatch(plain)
    ):
        return _("a config fragment")
    paths = [w for w in words if ("/" in w or "\\" in w) and _PATH_WORD.match(w)]
    if len(paths) >= 2 and len(paths) >= 0.6 * len(words):
        return _("a list of {count} paths").format(count=len(paths))
    return None


def flag_half_sentence(p: Promoted) -> str | None:
    """Ends with a colon, is a heading turned into a bullet, or a bold label alone."""
    body = p.body.strip()
    if not body:
        return _("empty bullet")
    if (
        body[:1] == "#"
        and re.match(r"^#{1,6}\s", body)
        and len(_HEADING_IN_TEXT.findall(body)) == 1
    ):
        return _("a heading turned into a bullet, with no body")
    if _BOLD_LABEL_ONLY.match(body):
        return _("a bold label with nothing after it")
    if body.rstrip("*_ ").endswith((":", "：")):
        return _("ends with a colon: the rest of the sentence was left behind")
    return None


def flag_flattened(p: Promoted) -> str | None:
    """A whole log or document squeezed into one bullet: several headings, a heading after
    text, several bullets inside, or a table."""
    body = p.body
    heads = len(_HEADING_IN_TEXT.findall(body))
    if heads >= 2:
        return _("{count} headings squeezed into one bullet").format(count=heads)
    if _INNER_HEADING.search(body):
        return _("a heading inside the text: a log's sections squeezed into one bullet")
    bullets = len(_INNER_BULLET.findall(body))
    if bullets >= 2:
        return _("{count} bullets squeezed into one bullet").format(count=bullets + 1)
    if _TABLE_SEP.search(body) or body.count("|") >= 6:
        return _("a table squeezed into one bullet")
    return None


def flag_snapshot(p: Promoted) -> str | None:
    """A monitoring or heartbeat report: a moment's figures, not a lasting fact."""
    body = p.body
    m = _SNAPSHOT_STRONG.search(body)
    if m:
        return _("a heartbeat/status report ({text!r})").format(text=m.group(0))
    emoji = len(_STATUS_EMOJI.findall(body))
    if emoji >= 2:
        return _("{count} host/status emoji: a status board").format(count=emoji)
    pct = len(_PERCENT.findall(body))
    if pct >= 2 and _RESOURCE.search(body):
        return _("{count} percentages of resources: a monitoring snapshot").format(count=pct)
    return None


def flag_scaffolding(p: Promoted) -> str | None:
    """The pipeline's own lines leaked into the entry."""
    text = p.body
    if ANY_TAIL_RE.search(text):
        return _("a second [score=…] tail inside the text")
    for rx, what in _SCAFFOLD:
        if rx.search(text):
            return _(what)
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
