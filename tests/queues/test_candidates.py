"""The candidate filter must never lose a pair that reaches the threshold."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from memreview.queues.archived import contained_in
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


def _cases(longest: int):
    """Patterns, and texts holding a lightly edited copy of one in the middle of noise."""
    return given(
        patterns=st.lists(st.text(ALPHABET, min_size=8, max_size=longest), min_size=1, max_size=4),
        noise=st.lists(st.text(ALPHABET, max_size=longest + 10), min_size=1, max_size=6),
        edits=st.lists(
            st.tuples(st.integers(0, longest + 10), st.sampled_from(["", "x", "日"])),
            max_size=longest // 8 + 1,
        ),
    )


def _embedded(patterns: list[str], noise: list[str], edits) -> list[str]:
    copies = [
        n[: len(n) // 2] + _mutate(p, edits) + n[len(n) // 2 :] for p in patterns for n in noise
    ]
    return copies + noise


@settings(max_examples=150, deadline=None)
@_cases(40)
def test_every_longer_text_reaching_partial_ratio_90_is_a_candidate_with_its_span(
    patterns, noise, edits
):
    texts = _embedded(patterns, noise, edits)
    found = {
        pi: {
            t: (a, b) for t, a, b in zip(s.text.tolist(), s.lo.tolist(), s.hi.tolist(), strict=True)
        }
        for pi, s in candidate_pairs(patterns, texts, 0.2).items()
    }
    for pi, p in enumerate(patterns):
        for ti, t in enumerate(texts):
            # (a text exactly as long is also scored the other way round, against windows
            # of the pattern: the filter makes no promise there; contained_in handles it)
            if len(t) <= len(p) or fuzz.partial_ratio(p, t) < 90:
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


@settings(max_examples=200, deadline=None)
@_cases(70)
def test_contained_in_finds_exactly_the_texts_that_score_90(patterns, noise, edits):
    # The three steps (q-gram filter, LCS bound, score) together must agree with scoring
    # every pair: nothing lost, nothing extra, same scores. Copies edited up to the limit,
    # texts as long as the pattern, and patterns over 64 characters are all in the mix.
    texts = _embedded(patterns, noise, edits) + [_mutate(p, edits[:2]) for p in patterns]
    got = contained_in(patterns, texts, 90)
    for pi, p in enumerate(patterns):
        expected = []
        for ti, t in enumerate(texts):
            score = fuzz.partial_ratio(p, t, score_cutoff=90) if len(t) >= len(p) else 0
            if score:
                expected.append((ti, score))
        assert got.get(pi, []) == expected, p


def test_a_text_holding_only_a_pattern_s_common_piece_is_no_candidate():
    # "abc" again and again would fill the diagonals with occurrences of one piece; a match
    # needs one of the pattern's rarest pieces intact, and this text holds none of them
    pattern = "abcdefghijklmnopqrstuvwxyz0123"
    found = candidate_pairs([pattern], ["abc" * 200, "xx" + pattern + "yy"], 0.2)
    assert found[0].text.tolist() == [1]


def test_a_copy_with_a_typo_in_its_middle_is_found_and_a_look_alike_is_not():
    # the typo breaks the pieces around it: the copy matches only by partial_ratio, through
    # the pieces left intact; the look-alike shares the opening and closing words only
    pattern = "the nightly backup writes the ledger to the nas before the sync job starts"
    typo = pattern.replace("ledger to", "ledgr to")
    look_alike = "the nightly backup copies every photo to a usb disk before the sync job starts"
    texts = ["notes: " + look_alike + " (ok)", "notes: " + typo + " (ok)"]
    assert fuzz.partial_ratio(pattern, texts[1]) >= 90 > fuzz.partial_ratio(pattern, texts[0])
    assert pattern not in texts[1]
    found = contained_in([pattern], texts, 90)
    assert [ti for ti, _s in found[0]] == [1]


def test_a_low_cutoff_that_leaves_no_piece_intact_still_finds_its_match():
    # at a cutoff of 50 every piece of the pattern may be broken: nothing to filter on
    text = "aXbXcXdXeXfXgXhXyy"
    assert fuzz.partial_ratio("abcdefgh", text) >= 50
    assert [ti for ti, _s in contained_in(["abcdefgh"], [text], 50)[0]] == [0]


def test_the_window_hashes_and_every_occurrence_are_let_go_before_the_kept_ones_are_made(
    monkeypatch,
):
    """The archived queue's peak memory: the filter's largest arrays (a hash of every
    three characters of every memory entry, then every occurrence of any piece) were held
    to its end, beside the occurrences kept; at scale 1 that was 117 MB of the queue's
    peak, 73 MB without them."""
    import weakref

    from memreview.queues import candidates

    gone: dict[str, weakref.ref] = {}
    positions_of, group = candidates._positions_of, candidates._group

    def spy_positions_of(hashes, keys):
        found = positions_of(hashes, keys)
        gone["hashes"] = weakref.ref(hashes)
        gone["pos"], gone["slot"] = (weakref.ref(a) for a in found)
        return found

    alive_at_group: dict[str, bool] = {}

    def spy_group(*args):
        alive_at_group["hashes"] = gone["hashes"]() is not None
        grouped = group(*args)
        alive_at_group["occurrences"] = gone["pos"]() is not None or gone["slot"]() is not None
        return grouped

    monkeypatch.setattr(candidates, "_positions_of", spy_positions_of)
    monkeypatch.setattr(candidates, "_group", spy_group)
    pattern = "the nightly backup writes the ledger to the nas before the sync job starts"
    texts = ["notes: " + pattern + " (ok)", "nothing of it here", "the nightly backup"] * 20
    found = candidate_pairs([pattern], texts, 0.2)
    assert found[0].text.tolist() == list(range(0, 60, 3))
    assert alive_at_group == {"hashes": False, "occurrences": False}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=2**63 - 1), max_size=60))
def test_unique_is_numpy_s_unique(values):
    import numpy as np

    from memreview.queues.candidates import _unique

    for dtype in (np.uint64, np.int64):
        a = np.array(values, dtype=dtype)
        got, want = _unique(a), np.unique(a)
        assert got.dtype == want.dtype
        assert got.tolist() == want.tolist()


def test_a_scan_computing_the_archived_queue_does_not_import_numpy_s_masked_arrays():
    """numpy 2.3+ imports ``numpy.ma`` on the first ``np.unique`` without counts: about 30 ms
    of a scan that needs none of it."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys; from pathlib import Path; from memreview.scan import scan_workspace; "
        "r = scan_workspace(Path('sample_workspace'), cache=False); "
        "print(len(r.queues['archived']) > 0, 'numpy' in sys.modules, 'numpy.ma' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["True", "True", "False"]
