"""The one JSON-lines parser: good lines with their numbers, bad ones named and skipped."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from memreview.workspace.jsonl import NOT_JSON, NOT_OBJECT, parse_jsonl, problem_lines


def test_bad_lines_are_named_with_their_numbers_and_blank_lines_ignored():
    data = b'{"a": 1}\n\n{"b": \n[1, 2]\n{"c": "\xe6\x97\xa5"}\n\xff\n'
    rows, bad = parse_jsonl(data)
    assert rows == [(1, {"a": 1}), (5, {"c": "日"})]
    assert bad == [(3, NOT_JSON), (4, NOT_OBJECT), (6, NOT_JSON)]


def test_a_line_holding_two_objects_is_not_taken_for_two_lines():
    rows, bad = parse_jsonl(b'{"a": 1}, {"b": 2}\n{"c": 3}\n')
    assert rows == [(2, {"c": 3})] and bad == [(1, NOT_JSON)]


def test_only_the_first_problems_are_listed_then_how_many_more():
    lines = problem_lines([(k, NOT_JSON) for k in range(1, 26)])
    assert lines[0] == (1, "not valid JSON; line skipped")
    assert len(lines) == 21 and lines[-1] == (None, "5 more bad lines not shown")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=5,
)


@given(st.lists(json_values, max_size=8))
def test_clean_files_and_the_line_by_line_path_agree(values):
    data = b"\n".join(json.dumps(v).encode() for v in values)
    rows, bad = parse_jsonl(data)
    expected = [(no, v) for no, v in enumerate(values, 1) if isinstance(v, dict)]
    assert rows == expected
    assert [no for no, _ in bad] == [
        no for no, v in enumerate(values, 1) if not isinstance(v, dict)
    ]
