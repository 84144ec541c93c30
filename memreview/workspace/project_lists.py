"""Projects kept where owners keep them without folders (docs/design.md §2): the list items, table
rows and sub-headings of a memory file's projects section (``## Projects``, ``## Key
Projects``, ``## 进行中的项目``…), the headings of a single ``projects.md``, and a file whose front
matter says ``type: project``. Each needs a name and a status (a ``Status``/``状态`` cell or
value, a task box, or the section's own word: ``Active Projects``, ``已完成的项目``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memreview.workspace.markdown import find_status_line, status_value
from memreview.workspace.model import MemoryFile

# A heading that names a list of projects: qualifiers, then "projects" (or 项目).
_EN_QUALIFIERS = (
    "my|our|active|current|key|main|ongoing|open|side|personal|major|other|paused|past|"
    "completed|done|archived|finished|planned|upcoming|in progress|in-progress|live"
)
_ZH_QUALIFIERS = (
    "进行中的?|当前的?|重点|主要|核心|活跃的?|在做的?|我的|正在进行的?|近期的?|个人|已完成的?|"
    "暂停的?|归档的?|计划中的?|长期"
)
PROJECTS_HEADING_RE = re.compile(
    rf"^(?:(?:{_EN_QUALIFIERS})\s+)*projects(?:\s+(?:list|status|board|tracker|overview))?$"
    rf"|^project\s+(?:list|status|board|tracker)$"
    rf"|^(?:{_ZH_QUALIFIERS})*项目(?:列表|清单|进度|状态|看板|一览)?$",
    re.I,
)
# The status a heading's words give the projects under it.
_HEADING_STATUS = (
    (
        re.compile(
            r"\b(?:active|current|ongoing|open|in[- ]progress|live)\b|进行中|当前|活跃|在做"
        ),
        "active",
    ),
    (re.compile(r"\b(?:completed|done|finished)\b|已完成"), "done"),
    (re.compile(r"\b(?:archived|past)\b|归档"), "archived"),
    (re.compile(r"\bpaused\b|暂停"), "paused"),
    (re.compile(r"\b(?:planned|upcoming)\b|计划中"), "planned"),
)
# A sub-heading that groups projects by status rather than naming one.
GROUP_HEADING_RE = re.compile(
    r"^(?:active|current|ongoing|in progress|done|completed|finished|archived|paused|on hold|"
    r"planned|ideas|backlog|someday|进行中|当前|已完成|完成|归档|暂停|搁置|计划中|想法|待办)$",
    re.I,
)
# Headings of a projects.md that are about the list, not a project.
NOT_PROJECT_HEADINGS = re.compile(
    r"^(?:notes?|overview|index|summary|template|how to use|legend|说明|概述|索引|总结|模板)$", re.I
)
# Status words a list item may carry without a label.
STATUS_WORDS = re.compile(
    r"^(?:active|in progress|in-progress|ongoing|paused|on hold|blocked|planned|planning|idea|"
    r"done|completed|complete|archived|cancelled|canceled|shipped|live|building|waiting|wip|"
    r"进行中|暂停|已完成|完成|归档|取消|计划中|规划中|搁置|待定|筹备中|开发中)$",
    re.I,
)
_EMOJI_STATUS = {"✅": "done", "✔️": "done", "🟢": "active", "🚧": "active", "🔄": "active",
                 "⏸️": "paused", "⏸": "paused", "❌": "cancelled"}  # fmt: skip
# Folders and titles of reference notes: what they hold is about others' projects.
REFERENCE_PARTS = re.compile(
    r"(?:^|/)(?:research|references?|refs|docs|learnings|knowledge|资料|调研|参考)(?:/|$)", re.I
)
REFERENCE_TITLE = re.compile(
    r"\b(?:research|reference|references|cheat ?sheet|pointers|links|glossary|guide)\b"
    r"|调研|参考|资料|指南|索引",
    re.I,
)
_LEAD_EMOJI_RE = re.compile(r"^(?:[✅✔🟢🚧🔄⏸❌]\ufe0f?[ \t]*)+")
_LIST_RE = re.compile(r"^(?P<indent>[ \t]*)(?:[-*+]|\d+[.)])[ \t]+(?P<body>.*)$")
_BOX_RE = re.compile(r"^\[(?P<box>[ xX])\][ \t]+")
_BOLD_RE = re.compile(r"^(?:\*\*|__)(?P<name>[^*_]+?)(?:\*\*|__)")
_LINK_RE = re.compile(r"^\[(?P<name>[^\]]+)\]\([^)]*\)")
_SEP_RE = re.compile(r"[ \t]*(?:[:：|]|[ \t][—–-][ \t])[ \t]*")
_INLINE_STATUS_RE = re.compile(
    r"(?:status|状态)(?:\*\*|__)?[ \t]*[:：][ \t]*(?:\*\*|__)?"
    r"(?P<v>(?:[^,，;；。|()（）.\n]|\.(?![ \t]|$))*)",
    re.I,
)
_PAREN_RE = re.compile(r"^[ \t]*[(（](?P<v>[^)）]{1,20})[)）]")
_HEADING_CLEAN = re.compile(r"[^\w\s\-\u3400-\u9fff]+")
_ROW_SEP = re.compile(r"^\s*\|?\s*:?-{2,}")
NAME_HEADERS = {"project", "projects", "name", "项目", "名称", "项目名", "项目名称"}
STATUS_HEADERS = {"status", "state", "状态"}


@dataclass
class Listed:
    """A project found in a list: its name, status and where its lines are."""

    name: str
    status: str | None
    kind: str  # item | row | heading
    line: int  # 1-based
    end_line: int
    status_cell: int | None = None  # a row's status column


def heading_words(text: str) -> str:
    """A heading's words: emoji, numbering and punctuation dropped, spaces squeezed."""
    text = re.sub(r"^\s*\d+[.)、]\s*", "", text)
    return " ".join(_HEADING_CLEAN.sub(" ", text).split()).strip()


def slug(name: str) -> str:
    """A project's key from its name: lower-case ASCII letters and digits and CJK characters,
    every other run of characters one ``-``."""
    return re.sub(r"[^0-9a-z\u3400-\u9fff]+", "-", name.lower()).strip("-")


def heading_status(words: str) -> str | None:
    for rx, status in _HEADING_STATUS:
        if rx.search(words.lower()):
            return status
    return None


def is_reference(rel: str, title: str) -> bool:
    """A reference note: in a research or references folder, or titled as one."""
    return bool(REFERENCE_PARTS.search(rel.rsplit("/", 1)[0])) or bool(
        REFERENCE_TITLE.search(title)
    )


def _clean(name: str) -> str:
    name = re.sub(r"[`*_]+", "", name).strip(" \t:：-—–")
    return " ".join(name.split())


def _plausible(name: str) -> bool:
    """A name, not a sentence: a few words, no sentence punctuation, not a date."""
    if not name or len(name) > 60 or re.match(r"^\d{4}-\d{2}-\d{2}", name):
        return False
    if re.search(r"[.!?。！？，,；;]", name):
        return False
    return len(name.split()) <= 8 and any(c.isalpha() for c in name)


def inline_status(text: str) -> re.Match[str] | None:
    """The first ``Status: x``/``状态：x`` in a line, its value as group ``v`` (up to a comma,
    a semicolon, a bracket, a pipe or the end of a sentence)."""
    m = _INLINE_STATUS_RE.search(text)
    return m if m and m.group("v").strip(" *_") else None


def _item_status(rest: str, full: str) -> str | None:
    """A list item's status: a ``Status:``/``状态：`` value, a status word in brackets or first
    after the name, or a status emoji."""
    m = inline_status(full)
    if m:
        return m.group("v").strip(" *_")
    m = _PAREN_RE.match(rest)
    if m and STATUS_WORDS.match(m.group("v").strip()):
        return m.group("v").strip()
    first = re.split(
        r"[,，;；.。(（]",
        _SEP_RE.sub("", rest, count=1) if _SEP_RE.match(rest) else rest,
        maxsplit=1,
    )[0]
    if STATUS_WORDS.match(first.strip(" *_")):
        return first.strip(" *_")
    for emoji, status in _EMOJI_STATUS.items():
        if emoji in full:
            return status
    return None


def parse_item(body: str, full: str) -> tuple[str, str | None, bool] | None:
    """(name, status, ticked box) of a list item's text that names a project, or None."""
    box = _BOX_RE.match(body)
    ticked = None
    if box:
        ticked = box.group("box") != " "
        body = body[box.end() :]
    body = _LEAD_EMOJI_RE.sub("", body)
    m = _BOLD_RE.match(body) or _LINK_RE.match(body)
    if m:
        name, rest = m.group("name"), body[m.end() :]
    else:
        sep = _SEP_RE.search(body)
        if not sep or sep.start() == 0:
            return None
        name, rest = body[: sep.start()], body[sep.start() :]
    paren = re.match(r"^(?P<n>.*?)[ \t]*[(（](?P<p>[^)）]{1,20})[)）][ \t]*$", name)
    if paren and STATUS_WORDS.match(paren.group("p").strip()):
        name, rest = paren.group("n"), f"({paren.group('p')}){rest}"
    name = _clean(name)
    if not _plausible(name):
        return None
    status = _item_status(rest, full)
    if status is None and ticked is not None:
        status = "done" if ticked else "open"
    return name, status, bool(ticked)


def _cells(text: str) -> list[str]:
    return [c.strip() for c in text.strip().strip("|").split("|")]


def section_projects(
    mf: MemoryFile, start: int, stop: int, status: str | None, whole: bool = False
) -> list[Listed]:
    """The projects of the lines ``start``..``stop`` (1-based, exclusive) of a projects section:
    sub-headings that name one (in a projects.md, ``whole``, even without a status), and the
    list items and table rows outside them."""
    lines = mf.source.texts
    out: list[Listed] = []
    heads = [(ln, lvl, t) for ln, lvl, t in mf.headings if start < ln < stop]
    spans: list[tuple[int, int]] = []
    for k, (ln, lvl, text) in enumerate(heads):
        words = heading_words(text)
        end = next((h for h, lv, _t in heads[k + 1 :] if lv <= lvl), stop)
        if GROUP_HEADING_RE.match(words):
            continue
        if NOT_PROJECT_HEADINGS.match(words) or not _plausible(_clean(text)):
            continue
        body = lines[ln : end - 1]
        at = find_status_line(body)
        st = status_value(body[at]) if at is not None else None
        st = st or heading_status_of_group(heads[:k], lines, status)
        if st or whole:
            out.append(Listed(_clean(text), st, "heading", ln, _last_text(lines, ln, end - 1)))
        spans.append((ln, end))
    header: list[str] | None = None
    n = start + 1
    while n < stop:
        text = lines[n - 1]
        if any(a <= n < b for a, b in spans):
            header = None
            n += 1
            continue
        group_here = heading_status_of_group([h for h in heads if h[0] < n], lines, status)
        if text.lstrip().startswith("|"):
            cells = _cells(text)
            if header is None:
                header = [c.lower().strip("* ") for c in cells]
            elif not _ROW_SEP.match(text):
                out.extend(_row(header, cells, n, group_here))
            n += 1
            continue
        header = None
        m = _LIST_RE.match(text)
        if m and len(m.group("indent").expandtabs(4)) < 2:
            end = n
            while end < stop - 1 and lines[end].strip() and lines[end][:1] in (" ", "\t"):
                end += 1
            full = "\n".join(lines[n - 1 : end])
            got = parse_item(m.group("body"), full)
            if got:
                name, st, _ticked = got
                st = st or group_here
                if st:
                    out.append(Listed(name, st, "item", n, end))
            n = end + 1
            continue
        n += 1
    return out


def _last_text(lines: list[str], first: int, last: int) -> int:
    while last > first and not lines[last - 1].strip():
        last -= 1
    return last


def heading_status_of_group(
    heads: list[tuple[int, int, str]], lines: list[str], status: str | None
) -> str | None:
    """The status a grouping sub-heading above gives (the nearest one), else ``status``."""
    for _ln, _lvl, text in reversed(heads):
        words = heading_words(text)
        if GROUP_HEADING_RE.match(words):
            return heading_status(words) or words.lower()
    return status


def _row(header: list[str], cells: list[str], n: int, status: str | None) -> list[Listed]:
    name_col = next((i for i, h in enumerate(header) if h in NAME_HEADERS), 0)
    status_col = next((i for i, h in enumerate(header) if h in STATUS_HEADERS), None)
    if name_col >= len(cells):
        return []
    name = _clean(re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", cells[name_col]))
    st = (
        cells[status_col].strip(" *_")
        if status_col is not None and status_col < len(cells)
        else None
    )
    inline = inline_status(" | ".join(cells))
    st = st or (inline.group("v").strip(" *_") if inline else None) or status
    if not _plausible(name) or not st:
        return []
    return [Listed(name, st, "row", n, n, status_col)]


def file_projects(mf: MemoryFile, whole: bool) -> list[Listed]:
    """The projects a memory file lists: its projects sections (every ``##``/``###`` heading a
    project when ``whole``, the file being a projects.md)."""
    lines = mf.source.texts
    n_lines = len(lines)
    out: list[Listed] = []
    if whole:
        first = next((ln for ln, lvl, _t in mf.headings if lvl == 1), 0)
        return section_projects(mf, first, n_lines + 1, None, whole=True)
    for k, (ln, lvl, text) in enumerate(mf.headings):
        words = heading_words(text)
        if not PROJECTS_HEADING_RE.match(words):
            continue
        stop = next((h for h, lv, _t in mf.headings[k + 1 :] if lv <= lvl), n_lines + 1)
        out.extend(section_projects(mf, ln, stop, heading_status(words)))
    return out


def front_matter(texts: list[str]) -> dict[str, str]:
    """The ``key: value`` lines of a file's front matter (between ``---`` lines at its top)."""
    if not texts or texts[0].strip() != "---":
        return {}
    out: dict[str, str] = {}
    for text in texts[1:60]:
        if text.strip() == "---":
            return out
        m = re.match(r"^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$", text)
        if m:
            out.setdefault(m.group(1).lower(), m.group(2).strip("'\""))
    return {}
