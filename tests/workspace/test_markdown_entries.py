"""Entries, anchors, promotions, sections and the chronicle (docs/design.md §1.1, §1.2, §1.6)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memreview.workspace.markdown import parse_memory_file
from memreview.workspace.textfile import decode_bytes


def parse(text: str, rel: str = "MEMORY.md"):
    mf, problems = parse_memory_file(decode_bytes(rel, text.encode("utf-8")))
    return mf


def kinds(mf):
    return [(e.kind, e.line, e.end_line) for e in mf.entries]


# -- bullets ------------------------------------------------------------------------------


def test_dash_and_star_bullets_are_entries_with_1_based_lines():
    mf = parse("# M\n- one\n* two\n")
    assert kinds(mf) == [("bullet", 2, 2), ("bullet", 3, 3)]
    assert mf.entries[0].text == "- one"


def test_indented_lines_under_a_bullet_belong_to_it():
    mf = parse("- head\n  more\n\tand tab\n  - nested\n- next\n")
    assert kinds(mf) == [("bullet", 1, 4), ("bullet", 5, 5)]
    assert mf.entries[0].text == "- head\n  more\n\tand tab\n  - nested"
    assert mf.entries[0].norm == "head more and tab - nested"


def test_a_blank_line_or_an_unindented_line_ends_a_bullet():
    mf = parse("- a\n\n  after blank\n- b\nplain\n")
    assert kinds(mf) == [("bullet", 1, 1), ("bullet", 4, 4)]


def test_task_boxes_are_bullets_and_the_box_is_not_part_of_the_normalized_text():
    mf = parse("- [ ] Buy milk\n- [x] Paid rent\n* [X] Done too\n")
    assert [e.kind for e in mf.entries] == ["bullet"] * 3
    assert [e.norm for e in mf.entries] == ["buy milk", "paid rent", "done too"]


def test_lines_that_only_look_like_bullets_are_not_entries():
    mf = parse("-no space\n---\n**bold**\n+ plus\n")
    assert mf.entries == []


# -- tables -------------------------------------------------------------------------------


def test_table_rows_are_entries_but_not_the_header_or_the_separator():
    mf = parse("## T\n| key | value |\n|:---|---:|\n| a | 1 |\n| b | 2 |\n")
    assert kinds(mf) == [("row", 4, 4), ("row", 5, 5)]
    assert mf.entries[0].norm == "a | 1"


def test_a_table_without_separator_has_every_row_as_an_entry():
    mf = parse("| a | 1 |\n| b | 2 |\n")
    assert kinds(mf) == [("row", 1, 1), ("row", 2, 2)]


# -- anchors ------------------------------------------------------------------------------

ANCHOR = """\
# Memory

## [KNOWLEDGE:win11-python-default-codepage-gbk]
Added: 2026-06-22
Summary: Windows Python uses the GBK code page by default
Importance: high
Source: owner
SEE-ALSO: [[gbk-codepage]], [[pi-cron-setup]]
CONFLICTS-WITH: [[win11-utf8-default]]
Body: not metadata after a free line? no: still directly under the header
(free body: context, see [[in-body-ref]])
Note: this is body text, not metadata
- a bullet in the body is not an entry of its own
---
- after the block
"""


def test_anchor_block_runs_to_the_dash_line_inclusive_with_its_metadata():
    mf = parse(ANCHOR)
    (a,) = mf.anchors
    assert (a.type, a.id, a.line, a.end_line, a.level) == (
        "KNOWLEDGE",
        "win11-python-default-codepage-gbk",
        3,
        14,
        2,
    )
    assert a.get("Added") == "2026-06-22"
    assert a.get("importance") == "high"  # keys are case-insensitive on lookup
    assert a.get("Source") == "owner"
    assert a.ref_list("SEE-ALSO") == ["gbk-codepage", "pi-cron-setup"]
    assert a.ref_list("CONFLICTS-WITH") == ["win11-utf8-default"]
    assert a.get("Body") is not None
    assert a.get("Note") is None  # after the free body line: body, not metadata
    assert a.meta_end == 10
    assert set(a.refs) == {
        "gbk-codepage",
        "pi-cron-setup",
        "win11-utf8-default",
        "in-body-ref",
    }


def test_anchor_block_is_one_entry_and_its_inner_bullets_are_not():
    mf = parse(ANCHOR)
    assert kinds(mf) == [("anchor", 3, 14), ("bullet", 15, 15)]
    assert mf.entries[0].anchor == "win11-python-default-codepage-gbk"
    assert mf.entries[0].ref()["text"] == "## [KNOWLEDGE:win11-python-default-codepage-gbk]"


def test_anchor_block_ends_before_the_next_same_level_heading_without_trailing_blanks():
    mf = parse("## [FACT:a]\nAdded: 2026-01-01\nbody\n\n\n## [FACT:b]\nbody b\n")
    a, b = mf.anchors
    assert (a.line, a.end_line) == (1, 3)
    assert (b.line, b.end_line) == (6, 7)


def test_anchor_block_ends_at_a_higher_level_heading():
    mf = parse("### [RULE:r]\nbody\n## Next part\n- x\n")
    (a,) = mf.anchors
    assert (a.line, a.end_line) == (1, 2)
    assert kinds(mf)[-1] == ("bullet", 4, 4)


def test_a_deeper_plain_heading_stays_inside_the_anchor_block():
    mf = parse("## [DECISION:d]\nAdded: 2026-01-01\n### Why\nbecause\n---\n")
    (a,) = mf.anchors
    assert (a.line, a.end_line) == (1, 5)


def test_anchor_header_must_be_level_2_or_3_with_an_upper_case_type():
    text = "# [FACT:h1]\n#### [FACT:h4]\n## [fact:lower]\n## [FACT:has space]\n## [FACT:ok]\n"
    mf = parse(text)
    assert [a.id for a in mf.anchors] == ["ok"]


def test_anchor_ids_may_be_cjk_and_any_type_name_is_allowed():
    mf = parse("## [LESSON:编码-踩坑]\nAdded: 2026-03-01\n---\n### [CUSTOM_2:x.y/z]\n")
    assert [(a.type, a.id) for a in mf.anchors] == [("LESSON", "编码-踩坑"), ("CUSTOM_2", "x.y/z")]


def test_metadata_may_follow_blank_lines_right_under_the_header():
    mf = parse("## [FACT:a]\n\nAdded: 2026-01-01\nStatus: done\n\nbody\n---\n")
    (a,) = mf.anchors
    assert a.get("Added") == "2026-01-01"
    assert a.get("Status") == "done"


def test_metadata_ends_at_the_first_non_metadata_line():
    mf = parse("## [FACT:a]\nfree text first\nAdded: 2026-01-01\n---\n")
    (a,) = mf.anchors
    assert a.get("Added") is None
    assert a.meta_end == a.line


def test_an_anchor_inside_a_code_fence_is_ignored():
    text = "# M\n```markdown\n## [FACT:fenced]\n- fenced bullet\n```\n~~~\n## [FACT:tilde]\n~~~\n"
    mf = parse(text)
    assert mf.anchors == []
    assert mf.entries == []


def test_a_heading_inside_a_fence_does_not_end_an_anchor_block():
    mf = parse("## [FACT:a]\nbody\n```\n## not a heading\n```\nmore\n---\n")
    (a,) = mf.anchors
    assert (a.line, a.end_line) == (1, 7)


def test_an_anchor_block_at_end_of_file_runs_to_its_last_non_blank_line():
    mf = parse("## [FACT:a]\nbody\n\n")
    (a,) = mf.anchors
    assert a.end_line == 2


def test_a_second_anchor_with_the_same_id_is_a_problem_and_the_first_is_kept():
    mf, problems = parse_memory_file(
        decode_bytes("MEMORY.md", b"## [FACT:a]\n---\n## [FACT:a]\n---\n")
    )
    assert len(mf.anchors) == 2
    assert problems and "also defined at line 1" in problems[0][1]


# -- OpenClaw promotions -----------------------------------------------------------------

PROMOTED = """\
## Promoted From Short-Term Memory (2026-07-02)

<!-- openclaw-memory-promotion:memory:memory/2026-06-27.md:18:18 -->
- Gateway restarts need the owner present [score=0.806 recalls=3 avg=0.620 source=memory/2026-06-27.md:18-18]

- Use port 18789 for the gateway <!-- trigger: gateway, port --> <!-- importance: 3 --> <!-- project: gateway-upgrade -->
"""


def test_the_bullet_under_a_promotion_marker_is_a_promoted_entry_without_its_score_tail():
    mf = parse(PROMOTED)
    first, second = mf.entries
    assert (first.kind, first.line) == ("promoted", 4)
    assert first.norm == "gateway restarts need the owner present"
    assert second.kind == "bullet"
    assert second.norm == "use port 18789 for the gateway"
    assert second.projects == ("gateway-upgrade",)


def test_a_promotion_marker_then_a_blank_line_still_marks_the_next_bullet():
    mf = parse("<!-- openclaw-memory-promotion:x -->\n\n- promoted\nplain text\n- not\n")
    assert [e.kind for e in mf.entries] == ["promoted", "bullet"]


# -- headings and sections ----------------------------------------------------------------


def test_heading_path_is_the_chain_and_section_the_nearest_level_3_or_higher():
    text = "- top\n# A\n## B\n### C\n#### D\n- deep\n## E\n- e\n"
    mf = parse(text)
    top, deep, e = mf.entries
    assert (top.heading_path, top.section, top.section_line) == ((), "", 0)
    assert deep.heading_path == ("A", "B", "C", "D")
    assert (deep.section, deep.section_line) == ("C", 4)
    assert e.heading_path == ("A", "E")
    assert (e.section, e.section_line) == ("E", 7)


# -- chronicle ------------------------------------------------------------------------------

CHRONICLE = """\
## 模块三
> 最后更新：2026-05-12
### 编年史
| 日期 | 事件 |
|---|---|
| 2026-04-25 | 灵犀修复；sandbox 版本问题修复 |
| 2026-04-26 | 上线 | 额外列 |
| 备注 | 不是日期 |
### 其他
| 2026-04-27 | not chronicle |
"""


def test_chronicle_rows_are_dated_rows_of_the_table_under_the_chronicle_heading():
    mf = parse(CHRONICLE, "memory/MEMORY.md")
    assert [(r.line, r.date, r.events) for r in mf.chronicle] == [
        (6, "2026-04-25", "灵犀修复；sandbox 版本问题修复"),
        (7, "2026-04-26", "上线"),
    ]
    assert mf.chronicle[1].cells == ("2026-04-26", "上线", "额外列")
    in_chron = [e.line for e in mf.entries if e.in_chronicle]
    assert in_chron == [6, 7, 8]


def test_chronicle_heading_matches_english_in_any_case_and_only_the_first_counts():
    text = "## My CHRONICLE\n| 2026-01-01 | a |\n## chronicle again\n| 2026-01-02 | b |\n"
    mf = parse(text)
    assert [r.date for r in mf.chronicle] == ["2026-01-01"]


def test_a_level_4_chronicle_heading_still_holds_the_chronicle():
    text = "### Log\n#### 编年史\n| 日期 | 事件 |\n|---|---|\n| 2026-04-25 | a |\n#### next\n| 2026-04-26 | b |\n"
    mf = parse(text)
    assert [r.date for r in mf.chronicle] == ["2026-04-25"]


# -- any input -----------------------------------------------------------------------------

MD_LINE = st.sampled_from(
    [
        "# H1",
        "## Section",
        "### 编年史",
        "#### deep",
        "## [FACT:a]",
        "### [RULE:规则-1]",
        "Added: 2026-01-01",
        "CONFLICTS-WITH: [[b]]",
        "---",
        "- bullet",
        "* [x] task",
        "  continued",
        "| 2026-04-25 | 事件 |",
        "|---|---|",
        "| head |",
        "```",
        "~~~",
        "<!-- openclaw-memory-promotion:x -->",
        "<!-- project: p -->",
        "",
        "plain text",
    ]
) | st.text(max_size=20).map(lambda t: t.replace("\n", " "))


@settings(max_examples=200, deadline=None)
@given(st.lists(MD_LINE, max_size=30))
def test_property_any_markdown_parses_into_ordered_entries_inside_the_file(lines):
    text = "\n".join(lines)
    mf = parse(text)
    n = len(decode_bytes("x", text.encode("utf-8")).lines)
    last_end = 0
    for e in mf.entries:
        assert 1 <= e.line <= e.end_line <= n
        assert e.line > last_end  # entries never overlap and come in file order
        last_end = e.end_line
    for a in mf.anchors:
        assert 1 <= a.line <= a.meta_end <= a.end_line <= n


# -- numbered list items --------------------------------------------------------------------


def test_numbered_items_with_a_dot_or_a_parenthesis_are_entries_with_their_indented_lines():
    mf = parse(
        "# Steps\n1. Stop the gateway\n   before midnight\n2) Back up ~/.openclaw\n10. Done\n"
    )
    assert kinds(mf) == [("numbered", 2, 3), ("numbered", 4, 4), ("numbered", 5, 5)]
    assert [e.norm for e in mf.entries] == [
        "stop the gateway before midnight",
        "back up ~/.openclaw",
        "done",
    ]


def test_lines_that_only_look_numbered_are_not_entries():
    mf = parse("1.5 GB free\n2026年计划\n3.\u00a0x\n  1. indented alone\n1234567890. too long\n")
    assert mf.entries == []
