"""Which language a memory file is written in, so that text memreview writes into it follows
the owner's (a Chinese NOW.md gets ``- [ ] 回顾 …``, a Chinese project file ``状态：已完成（…）``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# CJK ideographs (unified, extension A, compatibility), kana and hangul: one character a word
# or a syllable. Latin letters are counted one by one.
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_LATIN_RE = re.compile(r"[A-Za-z]")


def mostly_cjk(texts: Iterable[str]) -> bool:
    """Whether CJK characters are the majority of the letters in ``texts`` (markup, digits,
    punctuation and spaces are not counted). An empty file is not."""
    cjk = latin = 0
    for text in texts:
        cjk += len(_CJK_RE.findall(text))
        latin += len(_LATIN_RE.findall(text))
    return cjk > latin
