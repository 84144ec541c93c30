"""When two texts say the same thing: the comparison form and the differing spans (docs/design.md §2).

Parallel facts differ in the one token that matters (``<145`` vs ``<148``, ``一期`` vs
``二期``, ``posts`` vs ``pins``), so a high similarity ratio alone does not make two entries
duplicates. Two texts are the *same fact* when every span where they differ (rapidfuzz's
opcodes on their comparison forms, widened to whole words and numbers) is whitespace,
punctuation or a function word; a number, date, time, path, URL, e-mail, code span, name or
content word in a differing span makes them different facts.

The *comparison form* of a normalized text drops Markdown emphasis, a leading emphasis label
(``**重要：**``, ``Note:``), a list number or a second list marker, trailing sentence punctuation and the spaces
between CJK and other characters, and writes listed synonyms one way (``不然`` → ``否则``,
``prior to`` → ``before``), so that the ratio measures the words, not the dress.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz.distance import Indel

from memreview.workspace.fields import EMPHASIS_LABELS

# written one way before comparing (longest first where one contains another)
SYNONYMS: tuple[tuple[str, str], ...] = (
    ("之前", "前"),
    ("以前", "前"),
    ("之后", "后"),
    ("以后", "后"),
    ("要不然", "否则"),
    ("不然", "否则"),
    ("需要", "要"),
    ("首先", "先"),
    ("的时候", "时"),
    ("prior to", "before"),
    ("or else", "otherwise"),
    ("in order to", "to"),
)
FUNCTION_WORDS = frozenset(
    "the a an to of in on at for and or is are be it its this that with by as so then just "
    "also very really please".split()
)
FUNCTION_CHARS = frozenset("的了之前就会也都还并再着地得呢吧啊请很")

_EMPH = re.compile(r"\*\*|__|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")
_LEAD_NUMBER = re.compile(r"^\d{1,3}[.)]\s+")
# a list marker left at the start once normalization dropped the first (``- - [x] …``)
_LEAD_MARKER = re.compile(r"^(?:[-*+]\s+)+(?:\[[ xX]\]\s+)?")
_LEAD_LABEL = re.compile(r"^\s*([^\s:：]{1,12})\s*[:：!！]\s*")
_TRAIL_CHARS = "。.!！~～"
_LABEL_MARKS = re.compile("[:：!！]")  # what _LEAD_LABEL needs after its label
_CJK = r"\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f"
_CJK_SPACE = re.compile(rf"(?<=[{_CJK}])\s+|\s+(?=[{_CJK}])")
_DIGITS = re.compile(r"\d+")
_SYN_RE = [
    (re.compile(rf"\b{re.escape(a)}\b") if a.isascii() else re.compile(re.escape(a)), b)
    for a, b in SYNONYMS
]


@lru_cache(maxsize=1 << 16)  # duplicates and promotions ask for the same entries' forms
def comparison_form(norm: str) -> str:
    """The text two entries are compared by (see the module docstring)."""
    # (each pattern only where its telltale character is: most texts have none of them)
    s = _EMPH.sub("", norm) if "*" in norm or "_" in norm else norm
    if s[:1].isdigit():
        s = _LEAD_NUMBER.sub("", s)
    if s[:1] in "-*+":
        s = _LEAD_MARKER.sub("", s)
    m = _LEAD_LABEL.match(s) if _LABEL_MARKS.search(s) else None
    if m and m.group(1).lower() in EMPHASIS_LABELS:
        s = s[m.end() :]
    end = len(s)  # what _TRAIL matches: the run of spaces and full stops at the end
    while end and (s[end - 1] in _TRAIL_CHARS or s[end - 1].isspace()):
        end -= 1
    s = s[:end]
    if not s.isascii():
        s = _CJK_SPACE.sub("", s)
    s = " ".join(s.split())  # (str.split and \s agree on what is a space)
    for (word, _repl), (rx, repl) in zip(SYNONYMS, _SYN_RE, strict=True):
        if word in s:
            s = rx.sub(repl, s)
    return s


_TOKEN = re.compile(r"[A-Za-z0-9_'’]+|\S")


def tokens(text: str) -> list[str]:
    """Words and numbers whole, every other character (CJK, punctuation) alone; no spaces."""
    return _TOKEN.findall(text)


def _filler(token: str) -> bool:
    if token[0].isascii() and (token[0].isalnum() or token[0] == "_"):
        return token.lower() in FUNCTION_WORDS
    return token in FUNCTION_CHARS or not token.isalnum()


def numbers(text: str) -> tuple[str, ...]:
    """The numbers of a text in order: two texts whose numbers differ are different facts."""
    return tuple(_DIGITS.findall(text))


def same_fact(a: str, b: str, numbers_differ: bool | None = None) -> bool:
    """True when every token where the comparison forms ``a`` and ``b`` differ is filler:
    whitespace, punctuation, a function word. ``numbers_differ`` may be given when the
    caller knows it (``numbers`` of each, computed once per text)."""
    if a == b:
        return True
    if numbers_differ is None:
        numbers_differ = numbers(a) != numbers(b)
    if numbers_differ:
        return False  # a number changed, appeared or went: always substance
    ta, tb = tokens(a), tokens(b)
    for op in Indel.opcodes(ta, tb):
        if op.tag == "equal":
            continue
        if not all(_filler(t) for t in ta[op.src_start : op.src_end]):
            return False
        if not all(_filler(t) for t in tb[op.dest_start : op.dest_end]):
            return False
    return True


def _joined(toks: list[str]) -> str:
    """Tokens back into text: words apart, CJK and punctuation as they stand."""
    out = ""
    for t in toks:
        if out and t[0].isascii() and t[0].isalnum() and (out[-1].isascii() and out[-1].isalnum()):
            out += " "
        out += t
    return out


def differing_words(a: str, b: str) -> list[tuple[str, str]]:
    """Where the comparison forms of the normalized texts ``a`` and ``b`` differ, as pairs
    of what ``a`` has and what ``b`` has there (an empty side: nothing), in order."""
    ta, tb = tokens(comparison_form(a)), tokens(comparison_form(b))
    spans: list[list[int]] = []  # [a start, a end, b start, b end] of each differing stretch
    for op in Indel.opcodes(ta, tb):
        if op.tag == "equal":
            continue
        if spans and spans[-1][1] == op.src_start and spans[-1][3] == op.dest_start:
            spans[-1][1], spans[-1][3] = op.src_end, op.dest_end  # a deletion and an insertion
        else:
            spans.append([op.src_start, op.src_end, op.dest_start, op.dest_end])
    return [(_joined(ta[i:j]), _joined(tb[k:m])) for i, j, k, m in spans]
