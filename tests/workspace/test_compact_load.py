"""A loaded file holds its text once: no bytes beside the lines of a UTF-8 file, a long
metadata value as its place in the block, an anchor's normalized text made only when asked."""

from __future__ import annotations

import codecs
import pickle

from memreview.workspace.markdown import LONG_META, parse_memory_file
from memreview.workspace.normalize import normalize
from memreview.workspace.textfile import Line, decode_bytes


def test_a_utf8_file_keeps_no_bytes_beside_its_lines_and_renders_them_back():
    data = "# 记忆\r\n- one\n- two\u2028 three\n\n- 尾".encode()
    tf = decode_bytes("MEMORY.md", data)
    assert all(ln.stored is None for ln in tf.lines)
    assert "data" not in tf.__dict__
    assert tf.data == data and tf.lines[0].raw == "# 记忆\r\n".encode()
    bom = decode_bytes("MEMORY.md", codecs.BOM_UTF8 + data)
    assert bom.bom == codecs.BOM_UTF8 and bom.data == codecs.BOM_UTF8 + data


def test_lines_of_other_encodings_keep_their_bytes_and_compare_by_them():
    gbk = "- 默认代码页是 GBK\n- plain ascii\n".encode("gb18030")
    tf = decode_bytes("memory/gbk.md", gbk)
    assert tf.encoding == "gb18030" and tf.data == gbk
    assert tf.lines[0].stored == "- 默认代码页是 GBK\n".encode("gb18030")
    assert tf.lines[1].stored is None  # ASCII: the same bytes in UTF-8
    utf16 = codecs.BOM_UTF16_LE + "- a\n- 乙\n".encode("utf-16-le")
    assert decode_bytes("x.md", utf16).data == utf16
    bad = b"- caf\xe9 \xff\n"
    lossy = decode_bytes("x.md", bad)
    assert lossy.data == bad and lossy.lines[0].stored is None
    # one form for one line, whichever way it was made
    assert Line("- a", "\n", b"- a\n") == Line("- a", "\n")
    assert Line("- 乙", "\n", "- 乙\n".encode("gb18030")) != Line("- 乙", "\n")


def test_a_text_file_pickles_and_unpickles_to_the_same_lines():
    for data in ("- a\r\n- 乙\n- c".encode(), "- 默认\n".encode("gb18030")):
        tf = decode_bytes("MEMORY.md", data)
        back = pickle.loads(pickle.dumps(tf))
        assert back.lines == tf.lines and back.data == data


def block(refs: int) -> str:
    others = ", ".join(f"[[claim-{k:05d}]]" for k in range(refs))
    return f"## [FACT:hub]\nAdded: 2026-01-02\nCONFLICTS-WITH:   {others}  \nThe claim.\n---\n"


def test_a_long_metadata_value_is_read_from_the_block_not_kept_twice():
    text = "# Memory\n\n" + block(200)
    mf, _problems = parse_memory_file(decode_bytes("MEMORY.md", text.encode()))
    (a,) = mf.anchors
    value = ", ".join(f"[[claim-{k:05d}]]" for k in range(200))
    assert len(value) > LONG_META
    assert isinstance(a.meta["CONFLICTS-WITH"], tuple)
    assert a.get("conflicts-with") == value
    assert a.ref_list("CONFLICTS-WITH") == [f"claim-{k:05d}" for k in range(200)]
    assert a.get("Added") == "2026-01-02" and a.meta["Added"] == "2026-01-02"


def test_an_anchor_entry_makes_its_normalized_text_when_first_asked():
    text = "# Memory\n\n- **A bullet** with text\n\n" + block(3)
    mf, _problems = parse_memory_file(decode_bytes("MEMORY.md", text.encode()))
    bullet, anchor = mf.entries
    assert bullet.known_norm == normalize(bullet.text, "bullet")
    assert anchor.kind == "anchor" and anchor.known_norm is None
    assert anchor.norm == normalize(anchor.text, "anchor") and anchor.known_norm is not None
    assert not hasattr(anchor, "__dict__")  # slots: no dictionary per entry


def test_an_anchor_s_value_is_the_first_of_its_key_in_any_case_and_its_index_is_not_stored():
    text = "## [INFRA:nas]\nadded: 2026-01-02\nAdded: 2026-03-04\nStatus: active\n---\n"
    tf = decode_bytes("memory/infra.md", text.encode())
    mf, _problems = parse_memory_file(tf)
    [a] = mf.anchors
    assert a.get("ADDED") == a.get("Added") == "2026-01-02"  # the first, whatever the case
    assert a.get("status") == "active" and a.get("Owner") is None
    assert "_by_low" in a.__dict__  # the index made at the first question…
    back = pickle.loads(pickle.dumps(a))
    assert "_by_low" not in back.__dict__ and back == a  # …is not what the cache stores
    assert back.get("added") == "2026-01-02"
