"""Each realistic workspace shows exactly its expected findings, queue by queue."""

from __future__ import annotations

import pytest
from realistic_helpers import case_names, difference, load_case, scan_case


def _params():
    out = []
    for name in case_names():
        case = load_case(name)
        marks = [pytest.mark.xfail(reason=case.pending, strict=True)] if case.pending else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("name", _params())
def test_shown_items_are_exactly_the_expected_ones(name):
    case = load_case(name)
    shown = scan_case(case)
    diff = difference(case, shown)
    assert not diff, f"{name}:\n{diff}"


def test_every_case_says_what_it_is_and_holds_a_workspace():
    names = case_names()
    assert names
    for name in names:
        case = load_case(name)
        assert case.description, name
        assert (case.root / "MEMORY.md").is_file() or (case.root / "memory").is_dir(), name
