"""The candidate filter must never lose a pair that reaches the threshold."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from memreview.queues.candidates import candidate_pairs, find_patterns

ALPHABET = "abc 灵犀日报-"


def _mutate(text: str, edits: list[tuple[int, str]]) -> str:
    out = list(text)
    for pos, ch in edits:
        if not out:
            break
        i = pos % len(out)
        if ch == "":
            del out[i]
        else:
            out.insert(i, ch)
    return "".join(out)


@settings(max_examples=150, deadline=None)
@given(
    patterns=st.lists(st.text(ALPHABET, min_size=8, max_size=40), min_size=1, max_size=4),
    noise=st.lists(st.text(ALPHABET, min_size=0, max_size=50), min_size=1, max_size=6),
    edits=st.lists(st.tuples(st.integers(0, 60), st.sampled_from(["", "x", "日"])), max_size=6),
)
def test_every_pair_reaching_partial_ratio_90_is_a_candidate_with_its_span(patterns, noise, edits):
    # texts that hold a lightly edited copy of a pattern somewhere, and unrelated ones
    texts = [
        n[: len(n) // 2] + _mutate(p, edits) + n[len(n) // 2 :] for p in patterns for n in noise
    ]
    texts += noise
    found = candidate_pairs(patterns, texts, 0.2)
    for pi, p in enumerate(patterns):
        for ti, t in enumerate(texts):
            if len(t) < len(p) or fuzz.partial_ratio(p, t) < 90:
                continue
            assert ti in found.get(pi, {}), (p, t)
            a, b = found[pi][ti]
            assert fuzz.partial_ratio(p, t[a:b]) >= 90, (p, t, t[a:b])


def test_find_patterns_reports_every_occurrence_with_its_position():
    text = "gateway-upgrade 和 gateway 都提到了；灵犀修复 gateway"
    patterns = ["gateway", "灵犀修复", "zz", "g"]
    hits = find_patterns(text, patterns)
    for pi, p in enumerate(patterns):
        expected = [i for i in range(len(text)) if text.startswith(p, i)]
        assert sorted(pos for k, pos in hits if k == pi) == expected
    assert len([1 for k, _ in hits if k == 0]) == 3
