"""Dormant projects: open projects nobody mentioned for four weeks (docs/design.md §2, seed 003)."""

from __future__ import annotations

import re
from datetime import date

from memreview.queues.candidates import find_patterns
from memreview.queues.common import item_id
from memreview.workspace.memo import kept_with_file
from memreview.workspace.model import DailyLog, Project, Workspace

PARTIAL_LIMIT = 3  # partial mentions shown with a dormant project
PARTIAL_CANDIDATES = 30  # lines collected per project before the best are chosen
PARTIAL_SPARE = 5  # partial mentions for this many projects beyond those shown (snoozed ones)
# Words too common in project names to count as a partial mention on their own.
COMMON_WORDS = {
    "project",
    "projects",
    "the",
    "and",
    "for",
    "with",
    "from",
    "into",
    "new",
    "old",
    "app",
    "tool",
    "tools",
    "system",
    "notes",
    "plan",
    "main",
    "test",
    "todo",
    "work",
    "data",
    "home",
    "auto",
    "bot",
    "api",
    "web",
    "site",
    "page",
    "list",
    "daily",
    "weekly",
    "setup",
    "v2",
}
_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
_AS_DASH = str.maketrans({"_": "-", " ": "-"})


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch in "-_"


def _whole_token(text: str, pos: int, length: int) -> bool:
    before = text[pos - 1] if pos > 0 else ""
    after = text[pos + length] if pos + length < len(text) else ""
    return not (before and _is_word(before)) and not (after and _is_word(after))


def _ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _name_bounds(text: str, pos: int, length: int) -> bool:
    """A title, alias or name word is not glued to an ASCII letter or digit where it starts
    or ends with one ("radar" is not a mention inside "radars"; CJK needs no boundary)."""
    end = pos + length
    if _ascii_alnum(text[pos]) and pos > 0 and _ascii_alnum(text[pos - 1]):
        return False
    return not (_ascii_alnum(text[end - 1]) and end < len(text) and _ascii_alnum(text[end]))


def key_variants(key: str) -> list[str]:
    """The key, and its words joined by ``-``, ``_`` or a space (``esp32-radar``,
    ``esp32_radar``, ``esp32 radar``), lower-cased."""
    low = key.lower()
    words = [w for w in re.split(r"[-_ ]+", low) if w]
    out = [low]
    if len(words) > 1:
        for sep in ("-", "_", " "):
            v = sep.join(words)
            if v not in out:
                out.append(v)
    return out


# Generic words of Chinese project names ("研究实体化方案" is talked about as "实体化").
CJK_GENERIC = re.compile(r"项目|系统|计划|方案|研究|调研|开发|工具|平台|搭建|优化|设计|建设|探索")
STOP_WORDS = {"a", "an", "of", "to", "in", "on", "at", "as", "by", "is", "or", "vs", "s"}


def other_forms(name: str) -> list[str]:
    """A name in the forms an owner writes it in passing: a Chinese name without its generic
    words (at least three characters left), and every three consecutive words of an English
    name with at least two content words (``GitHub Shared Memory`` of ``GitHub Shared Memory
    for Sarah's Agent``)."""
    low = name.strip().lower()
    out = []
    core = CJK_GENERIC.sub("", low).strip()
    if core != low and len(re.findall(r"[\u3400-\u9fff]", core)) >= 3 and core.isalnum():
        out.append(core)
    segments = [re.findall(r"[a-z0-9]+(?:'[a-z]+)?", seg) for seg in re.split(r"[^\w\s']", low)]
    whole = sum(len(words) for words in segments)
    for words in segments:  # a phrase never runs across punctuation ("Stack — Integration")
        if whole <= 3:
            break
        for k in range(len(words) - 2):
            three = words[k : k + 3]
            plain = [w in STOP_WORDS or w in COMMON_WORDS for w in three]
            if not plain[0] and not plain[2] and sum(plain) <= 1:
                out.append(" ".join(three))
    return out


def names(p: Project) -> list[str]:
    """The title and aliases (lower-cased) and their other forms, the key's own variants
    left out."""
    keys = set(key_variants(p.key))
    out = []
    forms = [p.title, *p.aliases]
    for n in (p.title, *p.aliases):
        forms.extend(other_forms(n))
    for n in forms:
        n = n.strip().lower()
        # at least three columns wide: "NAS" or "相册", not "AI"
        width = sum(2 if ord(c) >= 0x2E80 else 1 for c in n)
        if width >= 3 and n not in keys and n not in out:
            out.append(n)
    return out


def name_words(p: Project) -> list[str]:
    """The distinctive words of a project's names: part numbers and model names (a letter
    and a digit: ``ESP32``, ``LD2410``) and acronyms of three or more capitals (``MQTT``).
    Two or more of them together on one line are a mention."""
    out: list[str] = []
    for n in (p.key, p.title, *p.aliases):
        for w in _ASCII_WORD.findall(n):
            low = w.lower()
            distinctive = (any(c.isdigit() for c in w) and any(c.isalpha() for c in w)) or (
                len(w) >= 3 and w.isupper()
            )
            if distinctive and low not in out and low not in COMMON_WORDS:
                out.append(low)
    return out if len(out) >= 2 else []


def partial_words(p: Project) -> list[str]:
    """Words of a project's key and names that hint at it when seen alone: ASCII words of four
    or more characters, and the two-character pieces of Chinese names (``微信机器人`` →
    ``微信``, ``信机``, ``机器``, ``器人``), which count only two or more to a line."""
    out: list[str] = []
    for n in (p.key, p.title, *p.aliases):
        for w in re.split(r"[^0-9a-z\u3400-\u9fff]+", n.lower()):
            if w.isascii():
                pieces = [w] if len(w) >= 4 else []
            else:
                run = re.sub(r"[0-9a-z]+", "", w)
                pieces = [run[k : k + 2] for k in range(len(run) - 1)] if len(run) >= 3 else []
            for piece in pieces:
                if piece not in out and piece not in COMMON_WORDS:
                    out.append(piece)
    return out


def _enough(words: set[str]) -> bool:
    """A line is a partial mention with one ASCII word, or with two Chinese pieces."""
    return any(w.isascii() for w in words) or len(words) >= 2


def _line_at(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end < 0 else end


def _hits(text: str, word: str, limit: int = 200):
    """Positions of ``word`` in ``text`` as a name (not glued to ASCII letters or digits),
    at most ``limit`` of them (str.find: a few words need no hashing pass of their own)."""
    pos = text.find(word)
    n = 0
    while pos >= 0 and n < limit:
        if _name_bounds(text, pos, len(word)):
            yield pos
            n += 1
        pos = text.find(word, pos + 1)


def _words_on_one_line(text: str, words: list[str]) -> bool:
    """All ``words`` on one line of ``text``."""
    if not all(w in text for w in words):
        return False
    lines: set[int] | None = None
    for w in words:
        here = {_line_at(text, pos)[0] for pos in _hits(text, w, 10_000)}
        lines = here if lines is None else lines & here
        if not lines:
            return False
    return True


@kept_with_file  # a rescan reuses it for the logs a write left alone, the cache too
def _log_hits(log: DailyLog, patterns: tuple[str, ...]) -> list[tuple[int, int]]:
    """(pattern index, position) of each of ``patterns`` in the log's lower-cased text, "_"
    and " " read as "-"."""
    dashed = log.text_lower.replace("_", "-").replace(" ", "-")
    return find_patterns(dashed, list(patterns))


@kept_with_file  # the next open reuses it for the logs unchanged
def _partial_hits(log: DailyLog, words: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """For each of ``words``, its first PARTIAL_CANDIDATES places as a name in the log's
    lower-cased text."""
    text = log.text_lower
    return tuple(tuple(_hits(text, w, PARTIAL_CANDIDATES)) for w in words)


def _partial_places(log: DailyLog, words: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """``_partial_hits``, from what is kept with the log when it is well made."""
    kept = _partial_hits(log, words)
    if (
        isinstance(kept, tuple)
        and len(kept) == len(words)
        and all(isinstance(t, tuple) and all(type(x) is int for x in t) for t in kept)
    ):
        return kept
    return _partial_hits.__wrapped__(log, words)  # not what this code keeps: made again


def last_mentions(ws: Workspace, today: date) -> dict[str, date]:  # noqa: C901
    """The latest mention of each project up to the review date: in the daily logs (newest
    first) and in non-hook recalls.

    A mention is the key as a whole token (its words joined by ``-``, ``_`` or a space), the
    title or an alias, or all the project's distinctive name words on one line.
    """
    projects = list(ws.projects.values())
    last: dict[str, date] = {}
    if not projects:
        return last
    # Searched with "_" and " " read as "-" (one pattern per key for its three spellings);
    # boundaries are checked in the text as written.
    patterns: list[str] = []
    owners: list[tuple[str, str, int]] = []  # (project key, how: token|name, 0)
    words_of: dict[str, list[str]] = {}
    for p in projects:
        seen: set[str] = set()
        for how, variants in (("token", key_variants(p.key)), ("name", names(p))):
            for v in variants:
                v = v.translate(_AS_DASH)
                if v not in seen:
                    seen.add(v)
                    patterns.append(v)
                    owners.append((p.key, how, 0))
        words = name_words(p)
        if words:
            words_of[p.key] = words
    for log in sorted(ws.daily_logs, key=lambda d: (d.date, d.rel), reverse=True):
        if log.date > today:
            continue
        # newest log first: a project found once needs no more looking for
        active = [pi for pi, (key, _how, _k) in enumerate(owners) if key not in last]
        if not active and all(key in last for key in words_of):
            break
        text = log.text_lower
        for ai, pos in _log_hits(log, tuple(patterns[pi] for pi in active)):
            pi = active[ai]
            key, how, _k = owners[pi]
            if key in last:
                continue
            length = len(patterns[pi])
            if how == "token":
                if _whole_token(text, pos, length):
                    last[key] = log.date
            elif _name_bounds(text, pos, length):
                last[key] = log.date
        for key, words in words_of.items():
            if key not in last and _words_on_one_line(text, words):
                last[key] = log.date
    by_id: dict[str, list[str]] = {}
    for p in projects:
        by_id.setdefault(p.key, []).append(p.key)
        if p.anchor and p.anchor != p.key:
            by_id.setdefault(p.anchor, []).append(p.key)
    for r in ws.recalls or []:
        if r.channel == "hook" or r.day > today:
            continue
        for key in by_id.get(r.id, ()):
            if key not in last or r.day > last[key]:
                last[key] = r.day
    return last


def partial_mentions(
    ws: Workspace, today: date, projects: list[Project], last: dict[str, date]
) -> dict[str, list[dict]]:
    """For each of ``projects``, the lines since its last mention that name part of it (a
    word of its key, title or aliases): the lines naming most of it first, then the newest.
    They let the owner see a project that lives on under another name."""
    words_of = {p.key: partial_words(p) for p in projects}
    # every log is searched for every word (what it holds is kept with it: the same words
    # next time, whichever projects are still looked for in it)
    every = tuple(sorted({w for words in words_of.values() for w in words}))
    found: dict[str, list[dict]] = {p.key: [] for p in projects}
    for log in sorted(ws.daily_logs, key=lambda d: (d.date, d.rel), reverse=True):
        if log.date > today:
            continue
        active = [
            key
            for key in words_of
            if len(found[key]) < PARTIAL_CANDIDATES and (key not in last or log.date > last[key])
        ]
        if not active:
            break
        text = log.text_lower
        hits = dict(zip(every, _partial_places(log, every), strict=True))
        per_line: dict[tuple[str, int], set[str]] = {}
        for key in active:
            for w in words_of[key]:
                for pos in hits[w]:
                    per_line.setdefault((key, _line_at(text, pos)[0]), set()).add(w)
        for (key, start), words in sorted(per_line.items()):
            if not _enough(words):
                continue
            end = _line_at(text, start)[1]
            found[key].append(
                {
                    "file": log.rel,
                    "line": text.count("\n", 0, start) + 1,
                    "date": log.date.isoformat(),
                    "text": text[start:end].strip()[:200],
                    "words": sorted(words),
                }
            )
    out = {}
    for key, rows in found.items():
        # the lines naming most of the project first; among them the newest (collection order)
        rows.sort(key=lambda r: -len(r["words"]))
        out[key] = rows[:PARTIAL_LIMIT]
    return out


def dormant(ws: Workspace, today: date) -> list[dict]:
    """Every dormant project, longest sleep first (the caller keeps the top 10).

    The first ones (those the owner is shown, and a few more in case some are snoozed) carry
    the partial mentions found since their last mention.
    """
    cfg = ws.config
    last = last_mentions(ws, today)
    rows: list[tuple] = []
    for p in ws.projects.values():
        if p.closed:
            continue
        seen = last.get(p.key)
        if seen is not None:
            days = (today - seen).days
            if days < cfg.dormant_days:
                continue
        elif p.added is not None and p.added <= today:
            days = (today - p.added).days
        else:
            days = None
        rows.append((days is not None, -(days or 0), p.key, p, seen, days))
    rows.sort(key=lambda r: r[:3])
    first = [r[3] for r in rows[: cfg.dormant_limit + PARTIAL_SPARE]]
    partial = partial_mentions(ws, today, first, last)
    return [_item(p, seen, days, partial.get(p.key, [])) for *_k, p, seen, days in rows]


def _item(p: Project, seen: date | None, days: int | None, partial: list[dict]) -> dict:
    return {
        "id": item_id("p", p.key),
        "title": p.title,
        "project": p.key,
        "ref": p.ref,
        "last_mentioned": seen.isoformat() if seen else None,
        "days_dormant": days,
        "source": p.source,
        "partial_mentions": partial,
    }
