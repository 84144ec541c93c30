"""Decoding memory files byte for byte (docs/design.md §1, §4.2)."""

from __future__ import annotations

import codecs

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memreview.workspace.textfile import (
    GB18030,
    UTF8,
    UTF8_BOM,
    UTF8_LOSSY,
    UTF16,
    UTF16BE,
    decode_bytes,
    is_binary,
)

ODD_SEPARATORS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


def roundtrip(data: bytes):
    tf = decode_bytes("MEMORY.md", data)
    assert tf.render(tf.lines) == data
    return tf


def test_plain_utf8_is_read_as_utf8_lines_without_endings():
    tf = roundtrip("# 记忆\n- 第一条\n".encode())
    assert tf.encoding == UTF8
    assert tf.texts == ["# 记忆", "- 第一条"]
    assert [ln.ending for ln in tf.lines] == ["\n", "\n"]
    assert tf.warnings == []


def test_utf8_bom_is_kept_out_of_the_first_line_and_written_back():
    tf = roundtrip(codecs.BOM_UTF8 + b"# Memory\n- a\n")
    assert tf.encoding == UTF8_BOM
    assert tf.texts[0] == "# Memory"
    assert tf.bom == codecs.BOM_UTF8


def test_crlf_endings_are_per_line_and_not_part_of_the_text():
    tf = roundtrip(b"# M\r\n- a\r\n")
    assert tf.texts == ["# M", "- a"]
    assert [ln.ending for ln in tf.lines] == ["\r\n", "\r\n"]
    assert tf.default_ending == "\r\n"


def test_mixed_line_endings_are_kept_line_by_line():
    tf = roundtrip(b"a\r\nb\nc\r\nd")
    assert tf.texts == ["a", "b", "c", "d"]
    assert [ln.ending for ln in tf.lines] == ["\r\n", "\n", "\r\n", ""]


def test_a_lone_carriage_return_does_not_end_a_line():
    tf = roundtrip(b"a\rb\n\r\n")
    assert tf.texts == ["a\rb", ""]
    assert [ln.ending for ln in tf.lines] == ["\n", "\r\n"]


def test_missing_final_newline_leaves_the_last_line_without_ending():
    tf = roundtrip(b"- a\n- b")
    assert tf.lines[-1].text == "- b"
    assert tf.lines[-1].ending == ""


def test_empty_file_has_no_lines():
    tf = roundtrip(b"")
    assert tf.lines == []


def test_gbk_file_falls_back_to_gb18030():
    data = "# 长期记忆\r\n### 编年史\n- 灵犀修复（2026-05-01 自动沉淀）\n".encode("gbk")
    tf = roundtrip(data)
    assert tf.encoding == GB18030
    assert tf.texts == ["# 长期记忆", "### 编年史", "- 灵犀修复（2026-05-01 自动沉淀）"]
    assert tf.warnings == []


def test_gb18030_four_byte_characters_decode():
    text = "- 㐀𠀀 记忆 ok\n"
    tf = roundtrip(text.encode("gb18030"))
    assert tf.encoding == GB18030
    assert tf.texts == [text.rstrip("\n")]


def test_invalid_utf8_that_is_not_gbk_is_kept_with_escapes_and_warned_with_its_line():
    data = b"# ok\n- caf\xe9 \xff au lait\n"
    tf = roundtrip(data)
    assert tf.encoding == UTF8_LOSSY
    assert tf.texts[0] == "# ok"
    assert "\udcff" in tf.texts[1]
    assert len(tf.warnings) == 1
    assert tf.warnings[0][0] == 2 and "invalid UTF-8" in tf.warnings[0][1]


def test_utf8_bom_followed_by_invalid_utf8_keeps_the_bom_on_render():
    roundtrip(codecs.BOM_UTF8 + b"- caf\xe9\n")
    roundtrip(codecs.BOM_UTF8 + "- 灵犀修复\n".encode("gbk"))


def test_utf16_le_bom_file_decodes_and_roundtrips():
    data = codecs.BOM_UTF16_LE + "# 记忆\r\n- a\nb".encode("utf-16-le")
    tf = roundtrip(data)
    assert tf.encoding == UTF16
    assert tf.texts == ["# 记忆", "- a", "b"]
    assert [ln.ending for ln in tf.lines] == ["\r\n", "\n", ""]


def test_utf16_be_bom_file_decodes_and_roundtrips():
    data = codecs.BOM_UTF16_BE + "- x\n".encode("utf-16-be")
    tf = roundtrip(data)
    assert tf.encoding == UTF16BE
    assert tf.texts == ["- x"]


def test_invalid_utf16_does_not_crash_and_keeps_every_byte():
    for data in (codecs.BOM_UTF16_LE + b"a", codecs.BOM_UTF16_LE + b"\x00\xd8\n\x00"):
        tf = roundtrip(data)
        assert tf.warnings


def test_utf16_with_bom_is_not_binary_but_nul_bytes_otherwise_are():
    assert not is_binary(codecs.BOM_UTF16_LE + "a".encode("utf-16-le"))
    assert is_binary(b"PK\x03\x04\x00\x00")
    assert not is_binary("- 记忆\n".encode())


def test_lines_never_split_on_unicode_line_separators():
    text = "- a" + "".join(f"{c}x" for c in ODD_SEPARATORS) + "\n- b\n"
    tf = roundtrip(text.encode("utf-8"))
    assert len(tf.lines) == 2
    assert tf.texts[0] == text.split("\n")[0]


# -- properties --------------------------------------------------------------------------

PREFIXES = st.sampled_from([b"", codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE])
BYTES = st.binary(max_size=200) | st.lists(
    st.sampled_from([b"\n", b"\r\n", b"\r", b"\xff", b"\x80", b"\xd6\xd0", b"a", b"\xe4\xb8"]),
    max_size=40,
).map(b"".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prefix=PREFIXES, body=BYTES)
def test_property_any_bytes_decode_without_crash_and_render_back_identically(prefix, body):
    roundtrip(prefix + body)


LINE_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r\ufeff")
    | st.sampled_from(ODD_SEPARATORS + ["记", "忆", "编", "年", "史", "（", "）"]),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.tuples(LINE_TEXT, st.sampled_from(["\n", "\r\n"])), max_size=12),
    last_ending=st.booleans(),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "gb18030"]),
)
def test_property_encoded_text_with_random_endings_roundtrips(lines, last_ending, encoding):
    if lines and not last_ending:
        lines[-1] = (lines[-1][0], "")
    text = "".join(t + e for t, e in lines)
    data = text.encode(encoding)
    tf = roundtrip(data)
    expected = [t for t, _e in lines]
    if lines and lines[-1] == ("", ""):
        expected.pop()  # an empty last line without an ending is no line at all
    if encoding == "utf-8":
        assert tf.encoding == UTF8
        assert tf.texts == expected
    elif encoding == "utf-8-sig":
        assert tf.encoding == UTF8_BOM
        assert tf.texts == expected
    elif tf.encoding == GB18030:
        assert tf.texts == expected
    # line count never depends on \x0b, \x0c, \x1c, \x85, \u2028 …
    assert len(tf.lines) == len(expected)
    assert [ln.ending for ln in tf.lines] == [e for _t, e in lines][: len(expected)]
