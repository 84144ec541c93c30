"""Whole-file rewrites keep every byte a decision doesn't touch (docs/design.md §4.2, §9)."""

from __future__ import annotations

import codecs
import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memreview.store import FileOutcome, FunctionJob, apply_batch
from memreview.workspace.textfile import GB18030, TextFile, decode_bytes

TEXT_CHARS = "ab z#-|[]():中文记忆\t\x0b\x0c\x1c\x85\u2028\u2029\u00e9\r"
GBK_CHARS = "ab z#-|:中文记忆规则偏好"


@st.composite
def file_bytes(draw: st.DrawFn) -> tuple[str, bytes]:
    kind = draw(st.sampled_from(["utf-8", "utf-8-bom", "gbk"]))
    alphabet = GBK_CHARS if kind == "gbk" else TEXT_CHARS
    texts = draw(st.lists(st.text(alphabet=alphabet, max_size=12), min_size=1, max_size=12))
    endings = draw(
        st.lists(st.sampled_from(["\n", "\r\n"]), min_size=len(texts), max_size=len(texts))
    )
    if draw(st.booleans()):
        endings[-1] = ""  # no final newline
    body = "".join(t + e for t, e in zip(texts, endings, strict=True))
    if kind == "gbk":
        return kind, body.encode("gb18030")
    data = body.encode("utf-8")
    return kind, (codecs.BOM_UTF8 + data) if kind == "utf-8-bom" else data


@settings(max_examples=200, deadline=None)
@given(file_bytes())
def test_decode_then_render_without_change_gives_the_same_bytes(sample: tuple[str, bytes]) -> None:
    _kind, data = sample
    tf = decode_bytes("MEMORY.md", data)
    assert tf.render(tf.lines) == data


def _edit_line(index: int, text: str):
    def compute(current: TextFile | None) -> FileOutcome:
        assert current is not None
        lines = list(current.lines)
        i = index % len(lines)
        lines[i] = current.make_line(text, lines[i].ending)
        return FileOutcome(current.render(lines), applied=["edit"])

    return compute


@settings(max_examples=40, deadline=None)
@given(file_bytes(), st.integers(min_value=0, max_value=50))
def test_editing_one_line_through_apply_batch_changes_only_that_lines_bytes(
    sample: tuple[str, bytes], index: int
) -> None:
    _kind, data = sample
    assume(data.strip(codecs.BOM_UTF8))  # an empty file has no line to edit
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "MEMORY.md").write_bytes(data)
        result = apply_batch(root, [FunctionJob("MEMORY.md", _edit_line(index, "已编辑"))], [])
        assert result.failures == []
        tf = decode_bytes("MEMORY.md", data)
        i = index % len(tf.lines)
        expected = (
            tf.bom
            + b"".join(ln.raw for ln in tf.lines[:i])
            + tf.encode_text("已编辑" + tf.lines[i].ending)
            + b"".join(ln.raw for ln in tf.lines[i + 1 :])
        )
        assert (root / "MEMORY.md").read_bytes() == expected
        if tf.encoding == GB18030:
            assert "已编辑".encode("gb18030") in expected


SAMPLES = {
    "utf8": b"# M\n\n- alpha\n- beta\n- gamma\n",
    "bom": codecs.BOM_UTF8 + "# 记忆\n- alpha\n- beta\n- gamma\n".encode(),
    "crlf": b"# M\r\n- alpha\r\n- beta\r\n- gamma\r\n",
    "mixed": b"# M\r\n- alpha\n- beta\r\n- gamma\n\x0c\xc2\x85\n",
    "gbk": "# 记忆\r\n- 规则一\r\n- beta\r\n- 偏好二\r\n".encode("gb18030"),
    "no-final-newline": b"# M\n- alpha\n- beta\n- gamma",
}


@pytest.mark.parametrize("name", list(SAMPLES))
def test_rewrite_of_beta_keeps_every_other_byte_for_each_encoding_and_ending(
    tmp_path: Path, name: str
) -> None:
    data = SAMPLES[name]
    (tmp_path / "MEMORY.md").write_bytes(data)

    def compute(current: TextFile | None) -> FileOutcome:
        assert current is not None
        lines = list(current.lines)
        i = current.texts.index("- beta")
        lines[i] = current.make_line("- beta 已确认", lines[i].ending)
        return FileOutcome(current.render(lines), applied=["d"])

    apply_batch(tmp_path, [FunctionJob("MEMORY.md", compute)], [])
    tf = decode_bytes("MEMORY.md", data)
    new_beta = tf.encode_text("- beta 已确认")
    assert (tmp_path / "MEMORY.md").read_bytes() == data.replace(
        tf.encode_text("- beta"), new_beta, 1
    )


def test_character_the_file_encoding_cannot_hold_is_a_failure_and_the_file_is_untouched(
    tmp_path: Path,
) -> None:
    data = SAMPLES["gbk"]
    (tmp_path / "MEMORY.md").write_bytes(data)
    (tmp_path / "other.md").write_bytes(b"- x\n")

    def compute(current: TextFile | None) -> FileOutcome:
        assert current is not None
        # Text carried over from a line that held invalid bytes (kept as surrogate escapes).
        lines = [*current.lines, current.make_line("- copied \udcff")]
        return FileOutcome(current.render(lines), applied=["copy"])

    def other(current: TextFile | None) -> FileOutcome:
        return FileOutcome(b"- y\n", applied=["other"])

    result = apply_batch(
        tmp_path,
        [FunctionJob("MEMORY.md", compute, ["copy"]), FunctionJob("other.md", other, ["other"])],
        [],
    )
    assert (tmp_path / "MEMORY.md").read_bytes() == data
    assert [f.decision for f in result.failures] == ["copy"]
    assert "cannot be written" in result.failures[0].reason
    assert result.applied == ["other"]
    assert (tmp_path / "other.md").read_bytes() == b"- y\n"
