"""Skill candidates from the dreaming pipeline (docs/design.md §2)."""

from __future__ import annotations

import hashlib
import re
import sys
import threading
from datetime import date

from memreview.queues.common import item_id, short
from memreview.workspace.model import Workspace

SLUG_MAX = 64  # characters of a skill's folder name
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# runs of ASCII letters and digits, and runs of Chinese characters
_RUNS = re.compile(r"[A-Za-z0-9]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def skill_slug(theme: str) -> str:
    """A readable ASCII folder name for a skill (``[a-z0-9-]``, docs/design.md §4): the theme's ASCII
    words lower-cased and its Chinese words in pinyin, joined by ``-`` (``每日日报推送`` →
    ``meiri-ribao-tuisong``, ``Windows UTF-8 启动`` → ``windows-utf-8-qidong``), at most
    64 characters; a theme with neither gets ``skill-`` and 8 hex digits of its sha256."""
    words: list[str] = []
    for run in _RUNS.findall(theme):
        words.extend([run.lower()] if run.isascii() else _pinyin_words(run))
    slug = "-".join(w for w in words if w)
    if len(slug) > SLUG_MAX:
        slug = slug[: SLUG_MAX + 1].rsplit("-", 1)[0][:SLUG_MAX]
    if slug:
        return slug
    return "skill-" + hashlib.sha256(theme.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def _pinyin_words(run: str) -> list[str]:
    """The words of a run of Chinese characters in toneless pinyin: the words pypinyin's
    dictionary knows, the characters between them two by two (``每日日报推送`` has none it
    knows: ``meiri``, ``ribao``, ``tuisong``)."""
    with _PINYIN:  # never while another thread lets it go (``_unload_pinyin``)
        return _pinyin_words_of(run)


# held while pypinyin is used, and while it is let go
_PINYIN = threading.RLock()


def _pinyin_words_of(run: str) -> list[str]:
    # pypinyin loads its dictionaries (~0.5 s) on first use: only for a Chinese theme
    from pypinyin import lazy_pinyin
    from pypinyin.seg.mmseg import seg

    groups: list[str] = []
    singles = ""
    for word in seg.cut(run):
        if len(word) == 1:
            singles += word
            continue
        groups += [singles[k : k + 2] for k in range(0, len(singles), 2)]
        singles = ""
        groups.append(word)
    groups += [singles[k : k + 2] for k in range(0, len(singles), 2)]
    out = []
    for g in groups:
        word = re.sub(r"[^a-z0-9]", "", "".join(lazy_pinyin(g, errors="ignore")).lower())
        if word:
            out.append(word)
    return out


def skill_item(
    theme: str, content: str, count: int | None, reason: str | None, slug: str | None = None
) -> dict:
    """The queue's item for one candidate (``slug``: its theme's ``skill_slug`` when known)."""
    return {
        "id": item_id("k", theme, content),
        "title": short(f"{theme}: {content}"),
        "theme": theme,
        "slug": skill_slug(theme) if slug is None else slug,
        "content": content,
        "count": count,
        "reason": reason,
    }


def skills(ws: Workspace, today: date) -> list[dict]:
    """One item per skill candidate of the dreaming pipeline, in the file's order. The
    themes' slugs are kept by the scan cache (pypinyin, which a Chinese theme's needs, takes
    half a second to load: a rescan after a decision loads it only for a new theme)."""
    memo = ws.per_file.memo("skill-slugs") if ws.per_file is not None else None
    loaded = "pypinyin" in sys.modules
    items = [
        skill_item(
            c.theme,
            c.content,
            c.count,
            c.reason,
            memo.get(c.theme, _slug, _well_made) if memo is not None else _slug(c.theme),
        )
        for c in ws.skills or []
    ]
    if not loaded:
        _unload_pinyin()
    return items


# the slugs this process has made, by theme: pypinyin is let go after a scan, and a rescan
# without the scan cache must not load it again for the same themes
_SLUGS: dict[str, str] = {}
_SLUGS_MAX = 10_000


def _slug(theme: str) -> str:
    slug = _SLUGS.get(theme)
    if slug is None:
        if len(_SLUGS) >= _SLUGS_MAX:
            _SLUGS.clear()
        slug = _SLUGS[theme] = skill_slug(theme)
    return slug


def _unload_pinyin() -> None:
    """Let go of pypinyin once this scan's slugs are made: its dictionaries hold about 50 MB
    for as long as the process lives (the app's whole review), for a few folder names. The
    next Chinese theme the cache doesn't know loads it again.

    Its modules hold each other (a module's functions hold its globals): their objects are
    freed by emptying each module's globals, not by the cyclic collector, which would walk
    every object the scan has made so far (0.22 s of a cold scan at scale 1, where the
    automatic collections are off). pypinyin is used nowhere but here, under the same lock,
    and nothing keeps one of its functions: emptied, the modules are never run again."""
    with _PINYIN:
        # the names copied first, in one step (``list`` of a dict runs no Python code): a
        # thread importing meanwhile (the app's screens, a queue's own modules) would end
        # an iteration over sys.modules itself with "dictionary changed size"
        names = [m for m in list(sys.modules) if m == "pypinyin" or m.startswith("pypinyin.")]
        modules = [m for m in (sys.modules.pop(name, None) for name in names) if m is not None]
        for module in modules:
            origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
            if origin.endswith(".py"):  # a compiled module's globals are left as they are
                module.__dict__.clear()


def _well_made(slug: str) -> bool:
    return len(slug) <= SLUG_MAX and SLUG_RE.match(slug) is not None
