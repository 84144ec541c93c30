"""Duplicates: chronicle dates, fingerprint groups, near duplicates (docs/design.md §1.5, §2)."""

from __future__ import annotations

import random
from datetime import date
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process

from memreview.queues.duplicates import duplicates, near_candidates
from memreview.queues.duplicates import near as near_module

TODAY = date(2026, 11, 29)


def of_kind(items, kind):
    return [i for i in items if i["kind"] == kind]


def lines(item):
    return [r["line"] for r in item["refs"]]


def chronicle(*rows: str) -> str:
    return "## 模块\n### 编年史\n| 日期 | 事件 |\n|---|---|\n" + "".join(r + "\n" for r in rows)


# -- chronicle -----------------------------------------------------------------------------


def test_a_chronicle_date_in_two_rows_is_one_item_with_the_proposed_merge(make_ws):
    ws = make_ws(
        {
            "memory/MEMORY.md": chronicle(
                "| 2026-04-25 | 灵犀修复；sandbox 版本问题修复 |",
                "| 2026-04-26 | 其他 |",
                "| 2026-04-25 | 新增记忆压缩 |",
            )
        }
    )
    (item,) = duplicates(ws, TODAY)
    assert item["kind"] == "chronicle"
    assert lines(item) == [5, 7]
    assert item["merged"] == "| 2026-04-25 | 灵犀修复；sandbox 版本问题修复；新增记忆压缩 |"
    assert item["score"] is None
    assert item["refs"][0]["text"] == "| 2026-04-25 | 灵犀修复；sandbox 版本问题修复 |"


def test_the_kept_chronicle_row_is_the_longest_and_is_listed_first(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": chronicle(
                "| 2026-04-25 | short |",
                "| 2026-04-25 | a much longer event |",
            )
        }
    )
    (item,) = duplicates(ws, TODAY)
    assert lines(item) == [6, 5]
    assert item["merged"] == "| 2026-04-25 | a much longer event；short |"


def test_equal_length_chronicle_rows_keep_the_first(make_ws):
    ws = make_ws({"MEMORY.md": chronicle("| 2026-04-26 | 甲 |", "| 2026-04-26 | 乙 |")})
    (item,) = duplicates(ws, TODAY)
    assert lines(item) == [5, 6]
    assert item["merged"] == "| 2026-04-26 | 甲；乙 |"


def test_chronicle_merge_splits_on_both_semicolons_and_skips_events_already_present(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": chronicle(
                "| 2026-04-25 | 灵犀修复；sandbox 版本问题修复 |",
                "| 2026-04-25 | 灵犀修复; 上线 |",
                "| 2026-04-25 | 上线；复盘 |",
            )
        }
    )
    (item,) = duplicates(ws, TODAY)
    assert lines(item) == [5, 6, 7]
    assert item["merged"] == "| 2026-04-25 | 灵犀修复；sandbox 版本问题修复；上线；复盘 |"


def test_chronicle_columns_after_the_second_come_from_the_kept_row(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": chronicle(
                "| 2026-04-25 | 事件甲 | 来源：kept row |",
                "| 2026-04-25 | 事件乙 | other |",
            )
        }
    )
    (item,) = duplicates(ws, TODAY)
    assert item["merged"] == "| 2026-04-25 | 事件甲；事件乙 | 来源：kept row |"


def test_unique_chronicle_dates_and_identical_events_on_other_dates_are_not_duplicates(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": chronicle(
                "| 2026-04-25 | 修复 sandbox 版本问题并上线 |",
                "| 2026-04-26 | 修复 sandbox 版本问题并上线 |",
            )
        }
    )
    assert duplicates(ws, TODAY) == []


def test_chronicle_rows_in_different_files_are_not_merged(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": chronicle("| 2026-04-25 | a |"),
            "memory/MEMORY.md": chronicle("| 2026-04-25 | b |"),
        }
    )
    assert duplicates(ws, TODAY) == []


# -- fingerprint groups --------------------------------------------------------------------


def test_same_normalized_text_in_one_section_is_a_fingerprint_group(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "# M\n## Notes\n- Gateway uses port 18789\n- other\n"
            "* [x] gateway uses PORT 18789 <!-- importance: 3 -->\n"
            "| Gateway uses port 18789 |\n"
        }
    )
    (item,) = duplicates(ws, TODAY)
    assert item["kind"] == "fingerprint"
    assert lines(item) == [3, 5, 6]
    assert item["merged"] is None and item["score"] is None


def test_dated_settle_stamps_do_not_stop_a_fingerprint_match(make_ws):
    ws = make_ws(
        {
            "memory/MEMORY.md": "### 情绪\n- 主人今天很开心（开心）（2026-05-01 自动沉淀）\n"
            "- 主人今天很开心（开心）（2026-05-03 自动沉淀）\n"
        }
    )
    (item,) = duplicates(ws, TODAY)
    assert (item["kind"], lines(item)) == ("fingerprint", [2, 3])


def test_same_text_in_two_sections_is_not_a_fingerprint_group(make_ws):
    ws = make_ws(
        {"MEMORY.md": "## A\n- Gateway uses port 18789\n## B\n- Gateway uses port 18789\n"}
    )
    items = duplicates(ws, TODAY)
    assert of_kind(items, "fingerprint") == []
    # the pair is still a duplicate (the same text: exact): looked for in the whole file
    (near,) = of_kind(items, "exact")
    assert (lines(near), near["score"]) == ([2, 4], 100.0)


def test_level_4_headings_do_not_split_a_section(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "### S\n#### a\n- the same entry here, twice\n#### b\n- the same entry here, twice\n"
        }
    )
    assert [i["kind"] for i in duplicates(ws, TODAY)] == ["fingerprint"]


def test_same_text_in_a_curated_and_another_file_is_a_copy_listing_the_curated_one_first(make_ws):
    ws = make_ws(
        {
            "memory/notes.md": "## Notes\n- Gateway uses port 18789\n",
            "MEMORY.md": "## Notes\n- x\n- Gateway uses port 18789\n",
        }
    )
    (item,) = duplicates(ws, TODAY)
    assert item["kind"] == "exact"
    assert [(r["file"], r["line"]) for r in item["refs"]] == [
        ("MEMORY.md", 3),
        ("memory/notes.md", 2),
    ]


def test_same_text_in_two_files_neither_curated_is_not_a_duplicate(make_ws):
    ws = make_ws(
        {
            "memory/a.md": "## Notes\n- Gateway uses port 18789\n",
            "memory/notes.md": "## Notes\n- Gateway uses port 18789\n",
        }
    )
    assert duplicates(ws, TODAY) == []


def test_same_fingerprint_but_different_30_chars_after_parentheticals_is_not_confirmed(make_ws):
    head = "（" + "备注" * 9 + "）" + "x" * 20  # 40 characters, the first 20 a parenthetical
    assert len(head) == 40
    ws = make_ws({"MEMORY.md": f"- {head}{'a' * 15}\n- {head}{'b' * 15}\n"})
    assert of_kind(duplicates(ws, TODAY), "fingerprint") == []


def test_confirmation_ignores_parentheticals_within_a_shared_fingerprint(make_ws):
    text = "（情绪）" + "y" * 40
    ws = make_ws({"MEMORY.md": f"- {text}甲\n- {text}乙\n"})
    (item,) = duplicates(ws, TODAY)
    assert item["kind"] == "fingerprint"


def test_anchor_blocks_are_never_compared(make_ws):
    block = "## [FACT:{}]\nAdded: 2026-01-01\n- Gateway uses port 18789\n---\n"
    ws = make_ws({"MEMORY.md": block.format("a") + block.format("b")})
    assert duplicates(ws, TODAY) == []


def test_archive_files_are_not_compared(make_ws):
    ws = make_ws({"memory/archive/demoted.md": "# Demoted\n- same entry here\n- same entry here\n"})
    assert duplicates(ws, TODAY) == []


# -- near duplicates -----------------------------------------------------------------------
# 44 characters; without its two "the" 36: ratio 2·36 / 80 = 90, and only filler differs
AT_90 = ("keep the gateway log and the digest for days", "keep gateway log and digest for days")


def test_a_filler_pair_with_ratio_exactly_90_is_a_near_duplicate(make_ws):
    assert fuzz.ratio(*AT_90) == 90
    ws = make_ws({"MEMORY.md": f"- {AT_90[0]}\n- {AT_90[1]}\n"})
    (item,) = duplicates(ws, TODAY)
    assert (item["kind"], item["score"], item["merged"]) == ("near", 90.0, None)


def test_a_filler_pair_just_under_90_is_not_a_near_duplicate_but_the_same_substance(make_ws):
    a = "keep the gateway log and the digest for the days"
    assert fuzz.ratio(a, AT_90[1]) < 90
    ws = make_ws({"MEMORY.md": f"- {a}\n- {AT_90[1]}\n"})
    # not near by the ratio; the same words without the filler: the same fact in other dress
    assert [(i["kind"], i["score"]) for i in duplicates(ws, TODAY)] == [("restructured", 100.0)]


def test_near_and_fingerprint_pairs_need_20_columns_a_cjk_character_counting_two(make_ws):
    short = "- 重启网关前要通知主人\n- 重启网关要通知主人\n"  # 9 CJK characters: 18 columns
    # not near (under 20 columns); the same substance but 前 (关要 only where 前 was left
    # out is where two words meet, no substance): the substance measure's, from 10 columns
    assert [i["kind"] for i in duplicates(make_ws({"MEMORY.md": short}), TODAY)] == ["restructured"]
    wide = "- 重启网关前要通知主人啊\n- 重启网关要通知主人啊\n"  # 10: 20 columns
    (item,) = duplicates(make_ws({"MEMORY.md": wide}), TODAY)
    assert item["kind"] == "near"
    same = "- Daily dashboard\n- Daily dashboard\n"  # 15 columns: a list item, not a fact
    assert duplicates(make_ws({"MEMORY.md": same}), TODAY) == []


def test_the_minimum_width_is_a_setting(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "- Daily dashboard\n- Daily dashboard\n",
            "memreview.yaml": "duplicates:\n  min_width: 10\n",
        }
    )
    assert [i["kind"] for i in duplicates(ws, TODAY)] == ["fingerprint"]


def test_near_pairs_across_files_need_a_curated_side(make_ws):
    a, b = AT_90
    ws = make_ws({"MEMORY.md": f"- {a}\n", "memory/notes.md": f"- {b}\n"})
    (item,) = duplicates(ws, TODAY)
    assert (item["kind"], item["score"]) == ("near", 90.0)
    ws = make_ws({"memory/other.md": f"- {a}\n", "memory/notes.md": f"- {b}\n"})
    assert duplicates(ws, TODAY) == []


def test_members_of_one_fingerprint_group_are_not_also_a_near_pair(make_ws):
    text = "g" * 40
    ws = make_ws({"MEMORY.md": f"- {text} one\n- {text} two\n"})
    assert [i["kind"] for i in duplicates(ws, TODAY)] == ["fingerprint"]


def test_near_pairs_chain_into_one_group_scored_by_its_lowest_pair(make_ws):
    a = "keep the gateway log and the digest for the days"
    mid = "keep gateway log and the digest for days"
    b = "keep gateway log and digest for days"  # under 90 from a: joined through mid
    assert fuzz.ratio(a, b) < 90
    ws = make_ws({"MEMORY.md": f"- {a}\n- unrelated text entirely here\n- {mid}\n- {b}\n"})
    (item,) = duplicates(ws, TODAY)
    assert item["kind"] == "near"
    assert lines(item) == [1, 3, 4]
    assert item["score"] == round(min(fuzz.ratio(a, mid), fuzz.ratio(mid, b)), 1)


def test_a_near_pair_differing_at_both_ends_is_found_among_many_entries(make_ws):
    common = "nightly pipeline writes its summary to the daily log"
    rng = random.Random(7)
    others = [
        f"- m{k:02d} " + "".join(rng.choice("qwrtpsdfgh ") for _ in range(40)) for k in range(30)
    ]
    text = "\n".join([f"- the {common}.", *others, f"- a {common}!"]) + "\n"
    ws = make_ws({"MEMORY.md": text})
    near = of_kind(duplicates(ws, TODAY), "near")
    assert [lines(i) for i in near] == [[1, 32]]


def test_near_and_fingerprint_ids_are_stable_across_lines_inserted_above(make_ws):
    body = (
        f"## S\n- Gateway uses port 18789\n- Gateway uses port 18789\n- {AT_90[0]}\n- {AT_90[1]}\n"
    )
    first = {i["kind"]: i["id"] for i in duplicates(make_ws({"MEMORY.md": body}), TODAY)}
    moved = "# Top\n- unrelated inserted line\n\n" + body
    second = {i["kind"]: i["id"] for i in duplicates(make_ws({"MEMORY.md": moved}), TODAY)}
    assert first == second
    assert set(first) == {"fingerprint", "near"}


def _chunked_equals_every_pair(norms: list[str]) -> None:
    full = process.cdist(norms, norms, scorer=fuzz.ratio, score_cutoff=90, dtype=np.float64)
    expected = {(i, j): float(full[i, j]) for i, j in zip(*np.nonzero(full), strict=True) if i < j}
    found = near_candidates(norms, list(range(len(norms))), 90, cap=len(norms))
    assert found == pytest.approx(expected)


@settings(max_examples=40, deadline=None)
@given(
    base=st.lists(st.text("ab灵犀 -", min_size=8, max_size=60), min_size=5, max_size=8),
    tails=st.lists(st.text("abx日", max_size=8), min_size=12, max_size=16),
)
def test_length_chunked_near_candidates_equal_scoring_every_pair(base, tails):
    # 60+ near-equal strings (a base plus a short tail) of spread lengths, in chunks of 16
    # rows, so that the length window and the row chunks both matter (the chunk is lowered
    # to keep each example small: with 256 rows the same cover takes 300+ strings)
    norms = [b + t for b in base for t in tails]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(near_module, "ROW_CHUNK", 16)
        assert len(norms) > 3 * near_module.ROW_CHUNK
        _chunked_equals_every_pair(norms)


def test_near_candidates_in_chunks_of_the_real_size_equal_scoring_every_pair():
    rng = random.Random(11)
    base = ["".join(rng.choice("ab灵犀 -") for _ in range(n)) for n in (8, 15, 24, 33, 47, 60)]
    tails = ["".join(rng.choice("abx日") for _ in range(rng.randrange(9))) for _ in range(70)]
    norms = [b + t for b in base for t in tails]
    assert len(norms) > near_module.ROW_CHUNK
    _chunked_equals_every_pair(norms)


def _neighbour_reference(texts, queries, cutoff, cap, window):
    """The neighbour search written as plain loops: each text offers every scored neighbour
    (WINDOW ahead in prefix and in suffix order) to both ends, each keeping its ``cap`` best."""
    want, best = set(queries), {}
    for key in (lambda k: texts[k], lambda k: texts[k][::-1]):
        order = sorted(range(len(texts)), key=key)
        for x, i in enumerate(order):
            for j in order[x + 1 : x + 1 + window]:
                s = fuzz.ratio(texts[i], texts[j], score_cutoff=cutoff)
                if s and (i in want or j in want):
                    best.setdefault(i, []).append((s, -j))
                    best.setdefault(j, []).append((s, -i))
    out = {}
    for i, offers in best.items():
        for s, neg_j in sorted(offers, reverse=True)[:cap]:
            out[(min(i, -neg_j), max(i, -neg_j))] = s
    return out


@settings(max_examples=40, deadline=None)
@given(
    base=st.lists(st.text("ab灵犀 -", min_size=8, max_size=30), min_size=2, max_size=4),
    tails=st.lists(st.text("abx日1", max_size=4), min_size=10, max_size=30),
    data=st.data(),
)
def test_the_neighbour_search_keeps_each_texts_best_partners_among_its_window(base, tails, data):
    # above EXACT_PAIRS only neighbours in prefix and suffix order are scored (all at once):
    # near-equal strings, so that nearly every neighbour in the window scores
    texts = [b + t for b in base for t in tails]
    queries = sorted(data.draw(st.sets(st.integers(0, len(texts) - 1), min_size=1)))
    cap = data.draw(st.sampled_from([1, 3, len(texts)]))
    cutoff = data.draw(st.sampled_from([70, 90]))
    with mock.patch.object(near_module, "EXACT_PAIRS", 0):
        found = near_candidates(texts, queries, cutoff, cap)
    assert found == _neighbour_reference(texts, queries, cutoff, cap, near_module.WINDOW)
