"""Generated Markdown, JSON, YAML and plain bytes fed to every reader: none of them raises,
and what is read can be written back byte for byte."""

from __future__ import annotations

import codecs
import json
from datetime import date
from pathlib import Path

from hostile_corpus import RAW_CONTROL_RE
from hostile_helpers import run_main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memreview.decisions import DecisionsFileError, parse_decisions_file
from memreview.decisions.state import State, parse_state
from memreview.scan import scan_workspace
from memreview.workspace.config import Config, load_config
from memreview.workspace.markdown import parse_memory_file
from memreview.workspace.textfile import decode_bytes

FUZZ = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# -- strategies -------------------------------------------------------------------------------

FRAGMENTS = [
    "# Memory",
    "## Rules",
    "### 编年史",
    "### Chronicle",
    "#",
    "####### seven",
    "## [FACT:x]",
    "## [RULE:y]",
    "### [KNOWLEDGE:中文-id]",
    "## [FACT:x",
    "## [lower:z]",
    "Added: 2026-02-30",
    "Added: 2026-06-22",
    "Summary: s",
    "Importance: high",
    "Source: owner",
    "Status: done",
    "CONFLICTS-WITH: [[x]], [[y]]",
    "SEE-ALSO: [[x]]",
    "Superseded-By: [[y]] (2026-01-01)",
    "Boot: yes",
    "---",
    "----",
    "```",
    "~~~",
    "```markdown",
    "- a bullet",
    "- a bullet",
    "* star",
    "-",
    "- [ ] todo 2026-11-01",
    "- [x] done",
    "  indented continuation",
    "\tTabbed",
    "| 2026-10-01 | event；other |",
    "| 2026-10-01 | event |",
    "|---|---|",
    "| a | b",
    "| Date | Events |",
    "|",
    "||",
    "<!-- openclaw-memory-promotion:memory:memory/x.md:1:1 -->",
    "- promoted [score=0.8 recalls=3 avg=0.6 source=memory/x.md:1-1]",
    "<!-- project: p -->",
    "- with project <!-- project: gateway -->",
    "<!-- unclosed",
    "（2026-05-01 自动沉淀）",
    "- 内容（情绪）（2026-05-01 自动沉淀）",
    "[@click=app.quit]",
    "[/bold]",
    "\x1b]0;t\x07",
    "\x1b[31m",
    "\u202e",
    "\u2066",
    "\u200b",
    "\ufeff",
    "\x00",
    "\x0b\x0c\x1c\x85\u2028\u2029",
    "\r",
    "",
    " ",
    "x" * 300,
    "（",
    "(",
    "）",
    "]]",
    "[[",
    "[[]]",
    "**待办**:",
]
ENDINGS = ["\n", "\n", "\r\n", "", "\r"]

markdown_text = st.lists(
    st.tuples(st.sampled_from(FRAGMENTS) | st.text(max_size=40), st.sampled_from(ENDINGS)),
    max_size=40,
).map(lambda parts: "".join(a + b for a, b in parts))


def _encode(text: str, how: str) -> bytes:
    if how == "utf-8-sig":
        return codecs.BOM_UTF8 + text.encode("utf-8", "surrogatepass")
    if how == "utf-16":
        return codecs.BOM_UTF16_LE + text.encode("utf-16-le", "surrogatepass")
    if how == "gbk":
        return text.encode("gbk", "replace")
    return text.encode("utf-8", "surrogatepass")


markdown_bytes = st.one_of(
    st.tuples(markdown_text, st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "gbk"])).map(
        lambda t: _encode(*t)
    ),
    st.binary(max_size=600),
    st.tuples(markdown_text, st.binary(max_size=8), markdown_text).map(
        lambda t: t[0].encode("utf-8", "surrogatepass") + t[1] + t[2].encode("utf-8", "replace")
    ),
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
RECORD_KEYS = ["ts", "id", "channel", "query", "relation", "new", "old", "confidence", "reason"]
record = st.dictionaries(
    st.sampled_from(RECORD_KEYS) | st.text(max_size=6),
    json_values
    | st.sampled_from(["2026-11-20T03:00:00Z", "2026-02-30", "x", "supersedes", "contradicts"]),
    max_size=8,
)


def _jsonl(lines: list, cut: int) -> bytes:
    data = "".join(
        (json.dumps(v, ensure_ascii=False) if not isinstance(v, bytes) else "") + "\n"
        for v in lines
    ).encode("utf-8", "surrogatepass")
    return data[: len(data) - cut] if cut else data


jsonl_bytes = st.one_of(
    st.tuples(st.lists(record | json_values, max_size=12), st.integers(0, 5)).map(
        lambda t: _jsonl(*t)
    ),
    st.binary(max_size=300),
)

skills_bytes = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    st.lists(
        st.dictionaries(
            st.sampled_from(["theme", "content", "count", "reason"]), json_values, max_size=4
        ),
        max_size=4,
    ).map(lambda c: json.dumps({"candidates": c}, ensure_ascii=False).encode()),
    st.binary(max_size=200),
)

YAML_BITS = [
    "review_date: 2026-11-29",
    "review_date: 2026-02-30",
    "today: x",
    "dormant_days: 5",
    "dormant_days: [",
    "thresholds:",
    "  near_ratio: 80",
    "paths:",
    "  recall_log: ../x",
    "skills_dir: /etc",
    "lock_files: [a, b]",
    "- item",
    "? complex",
    ": :",
    "{",
    "}",
    "[",
    "]",
    "&a x",
    "*a",
    "*b",
    "!!binary aGk=",
    "!!python/name:os.system",
    "hidden:",
    "  d-1:",
    "    until: 2026-02-30",
    "    until: 2027-01-01",
    "    reason: r",
    "    batch: [1]",
    "- {item: d-1, action: keep, keep: 1}",
    "- {item: x}",
    "- item: d-2",
    "  action: merge",
    "  text: |",
    "    - merged",
    "decisions:",
    "\t",
    "%YAML 1.1",
    "---",
    "...",
    "# comment",
]
yaml_bytes = st.one_of(
    st.lists(st.sampled_from(YAML_BITS) | st.text(max_size=20), max_size=15).map(
        lambda ls: "\n".join(ls).encode("utf-8", "surrogatepass")
    ),
    st.binary(max_size=200),
)

# -- the readers ------------------------------------------------------------------------------


@FUZZ
@given(data=markdown_bytes)
def test_decoding_never_raises_and_round_trips_every_byte(data):
    tf = decode_bytes("MEMORY.md", data)
    assert tf.render(tf.lines) == data
    assert tf.data == data
    for line in tf.lines:
        assert line.ending in ("\n", "\r\n", "")


@FUZZ
@given(data=markdown_bytes, archived=st.booleans())
def test_parsing_a_memory_file_never_raises_and_spans_stay_in_the_file(data, archived):
    tf = decode_bytes("memory/x.md", data)
    mf, problems = parse_memory_file(tf, archived=archived)
    n = len(tf.lines)
    for e in mf.entries:
        assert 1 <= e.line <= e.end_line <= n
        assert e.text == "\n".join(tf.texts[e.line - 1 : e.end_line])
    for line, message in problems:
        assert 0 <= line <= n and message
    assert tf.render(tf.lines) == data  # parsing changes nothing


@FUZZ
@given(data=yaml_bytes)
def test_config_state_and_decisions_files_never_raise(data):
    cfg, problems = load_config(data)
    assert isinstance(cfg, Config)
    assert all(isinstance(msg, str) and "\n" not in msg for _line, msg in problems)
    state, problem = parse_state(data)
    assert isinstance(state, State) and (problem is None or "\n" not in problem)
    try:
        parse_decisions_file(data)
    except DecisionsFileError as exc:
        assert "\n" not in str(exc)


def _workspace(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "memory/review").mkdir(parents=True, exist_ok=True)
    (root / "MEMORY.md").write_bytes(
        b"# Memory\n\n- Always ask first\n- Always ask first (2026-01-01)\n"
    )
    (root / "memory/knowledge.md").write_bytes(
        b"## [FACT:x]\nAdded: 2026-01-01\nCONFLICTS-WITH: [[y]]\n---\n"
        b"## [FACT:y]\nAdded: 2026-02-01\n---\n"
    )
    return root


TARGETS = {
    "MEMORY.md": markdown_bytes,
    "memory/recall_log.jsonl": jsonl_bytes,
    "memory/review/proposals.jsonl": jsonl_bytes,
    "memory/skill_candidates.json": skills_bytes,
    "memreview.yaml": yaml_bytes,
    ".memreview/state.yaml": yaml_bytes,
}


@FUZZ
@given(target=st.sampled_from(sorted(TARGETS)), seed=st.data())
def test_loading_a_workspace_with_a_generated_file_never_raises_nor_writes(tmp_path, target, seed):
    ws = _workspace(tmp_path / "ws")
    data = seed.draw(TARGETS[target])
    p = ws / target
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    listing = sorted(str(q) for q in ws.rglob("*"))
    result = scan_workspace(ws, today=date(2026, 11, 29))
    json.dumps(result.to_json(), ensure_ascii=False)
    assert p.read_bytes() == data
    assert sorted(str(q) for q in ws.rglob("*")) == listing
    if target == "MEMORY.md" and "MEMORY.md" in result.workspace.files:
        src = result.workspace.files["MEMORY.md"].source
        assert src.render(src.lines) == data
    for w in result.warnings:
        assert w["file"] and w["message"]


@FUZZ
@given(target=st.sampled_from(sorted(TARGETS)), seed=st.data())
def test_the_terminal_outputs_of_a_generated_workspace_are_utf8_and_harmless(
    tmp_path, target, seed
):
    ws = _workspace(tmp_path / "ws")
    p = ws / target
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(seed.draw(TARGETS[target]))
    doc = run_main("scan", str(ws), "--json", "--today", "2026-11-29")  # decodes strictly
    assert doc.code == 0, doc.err
    doc.json()
    for command in ("scan", "report"):
        run = run_main(command, str(ws), "--today", "2026-11-29")
        assert run.code == 0, run.err
        assert RAW_CONTROL_RE.search(run.out + run.err) is None
