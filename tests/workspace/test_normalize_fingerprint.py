"""Normalization, fingerprints and confirmation (docs/design.md §1.5)."""

from __future__ import annotations

from memreview.workspace.normalize import (
    confirmed_key,
    fingerprint,
    normalize,
    without_parentheticals,
)


def test_bullet_markers_and_task_boxes_are_dropped():
    assert normalize("- Keep it") == "keep it"
    assert normalize("* Keep it") == "keep it"
    assert normalize("- [ ] Keep it") == "keep it"
    assert normalize("- [x] Keep it") == "keep it"


def test_only_the_leading_bullet_is_dropped_not_inner_dashes():
    assert normalize("- a - b") == "a - b"


def test_table_row_loses_its_outer_pipes_but_keeps_inner_ones():
    assert normalize("| 2026-04-25 | Fix |", "row") == "2026-04-25 | fix"
    assert normalize("  | a | b", "row") == "a | b"


def test_html_comments_are_removed_anywhere():
    text = "- Use port 18789 <!-- trigger: gateway --> now <!-- importance: 3 -->"
    assert normalize(text) == "use port 18789  now"


def test_openclaw_score_tail_is_removed():
    text = "- Gateway restarts [score=0.806 recalls=3 avg=0.620 source=memory/x.md:1-1]"
    assert normalize(text) == "gateway restarts"


def test_a_bracket_that_is_not_a_score_tail_stays():
    assert normalize("- see [score] and [docs]") == "see [score] and [docs]"


def test_date_notes_in_both_bracket_widths_are_removed():
    assert normalize("- 修复（2026-05-01）完成") == "修复完成"
    assert normalize("- Fixed (2026-05-01) ok") == "fixed  ok"


def test_automatic_settle_stamps_are_removed_but_other_parentheticals_stay():
    assert normalize("- 内容（开心）（2026-05-01 自动沉淀）") == "内容（开心）"


def test_continuation_lines_join_with_a_space_and_case_folds():
    assert normalize("- First LINE\n  Second\n   THIRD  ") == "first line second third"


def test_fingerprint_is_the_first_40_characters():
    norm = "x" * 39 + "yz" + "w" * 10
    assert fingerprint(norm) == "x" * 39 + "y"
    assert len(fingerprint(norm)) == 40
    assert fingerprint("short") == "short"


def test_confirmation_uses_30_characters_after_removing_parentheticals():
    a = "内容（开心）" + "a" * 30
    b = "内容(sad)" + "a" * 30
    assert confirmed_key(a) == confirmed_key(b) == ("内容" + "a" * 30)[:30]
    assert len(confirmed_key("z" * 50)) == 30


def test_a_parenthetical_runs_to_the_nearest_closing_bracket_of_either_width():
    assert without_parentheticals("a(b）c（d)e") == "ace"
    assert without_parentheticals("a (x (y) z) b") == "a  z) b"


def test_an_unmatched_bracket_is_left_as_it_is():
    assert without_parentheticals("a (open only") == "a (open only"
    assert without_parentheticals("close only) b") == "close only) b"
    assert without_parentheticals("a （未闭合 b") == "a （未闭合 b"
