"""Property: a decision changes only its own lines, whatever the encoding and line endings."""

from __future__ import annotations

import codecs

from hypothesis import given, settings
from hypothesis import strategies as st

from memreview.decisions.plan import DeleteEntry, ReplaceEntry, Target
from memreview.decisions.rewrite import rewrite
from memreview.workspace.textfile import decode_bytes

WORDS = st.sampled_from(["网关重启", "alpha", "日志追加", "beta", "主人确认", "gamma 端口"])
ENDINGS = st.sampled_from(["\n", "\r\n"])


@st.composite
def memory_files(draw):
    bullets = draw(st.lists(st.lists(WORDS, min_size=1, max_size=3), min_size=2, max_size=6))
    texts = [f"- {k} " + " ".join(words) for k, words in enumerate(bullets)]
    endings = draw(st.lists(ENDINGS, min_size=len(texts) + 1, max_size=len(texts) + 1))
    lines = ["# 记忆", *texts]
    if not draw(st.booleans()):
        endings[-1] = ""  # no final newline
    codec = draw(st.sampled_from(["utf-8", "utf-8-sig", "gb18030"]))
    raw = [
        (text + end).encode("gb18030" if codec == "gb18030" else "utf-8")
        for text, end in zip(lines, endings, strict=True)
    ]
    bom = codecs.BOM_UTF8 if codec == "utf-8-sig" else b""
    return bom, raw, texts


@settings(max_examples=60, deadline=None)
@given(memory_files(), st.data())
def test_deleting_or_replacing_an_entry_changes_only_its_bytes(case, data):
    bom, raw, texts = case
    current = decode_bytes("MEMORY.md", bom + b"".join(raw))
    k = data.draw(st.integers(0, len(texts) - 1))
    target = Target("MEMORY.md", "bullet", texts[k], k + 2)

    deleted = rewrite("MEMORY.md", current, [DeleteEntry("d", target)])
    assert deleted.new_bytes == bom + b"".join(raw[: k + 1] + raw[k + 2 :])

    new_text = "- 新的 entry"
    replaced = rewrite("MEMORY.md", current, [ReplaceEntry("r", target, (new_text,))])
    old = raw[k + 1]
    ending = b"\r\n" if old.endswith(b"\r\n") else b"\n" if old.endswith(b"\n") else b""
    encoding = "gb18030" if current.encoding == "gb18030" else "utf-8"
    new_line = new_text.encode(encoding) + ending
    assert replaced.new_bytes == bom + b"".join(raw[: k + 1] + [new_line] + raw[k + 2 :])
