"""The substance measure: tokens, weights, disagreement, the index and the evidence
(memreview.queues.duplicates.substance)."""

from __future__ import annotations

from memreview.queues.duplicates.substance import (
    POSTING_CAP,
    Weights,
    candidates,
    disagree,
    entry_substance,
    evidence,
    rare_keys,
    same_fact_groups,
    score,
    sub_entries,
    substance,
)
from memreview.workspace.model import Entry


def _entry(text: str, line: int = 1, file: str = "MEMORY.md", kind: str = "bullet") -> Entry:
    return Entry(file, line, line + text.count("\n"), kind, text, ("H",), "H", 1)


def _texts(text: str) -> set[str]:
    return {t.text for t in substance(text)}


def _kinds(text: str) -> dict[str, str]:
    return {t.text: t.kind for t in substance(text)}


# -- tokens -------------------------------------------------------------------------------


def test_dress_gives_no_token_bold_label_prefix_pipes_and_cell_order():
    plain = _texts("back up ~/vault/db before the upgrade")
    assert plain == {"back", "up", "~/vault/db", "upgrade"}
    bold = _entry("- **重要：** back up `~/vault/db` before the upgrade！")
    note = _entry("1. Important: back up ~/vault/db before the upgrade.", kind="numbered")
    assert {t.text for t in entry_substance(bold)} == plain
    assert {t.text for t in entry_substance(note)} == plain
    assert _texts("| 止损 | 回撤 8% |") == _texts("| 回撤 8% | 止损 |") == {"止损", "回撤", "8%"}


def test_each_kind_of_value_is_one_token_of_its_kind():
    kinds = _kinds(
        "Ping dana@northwind.dev on 2026-03-16 at 09:25 about v0.13.1 of "
        "https://example.org/x and memory/logs/a.md, 8 点, 300元, button.feed_now, 二期"
    )
    assert kinds["dana@northwind.dev"] == "email"
    assert kinds["2026-03-16"] == "date"
    assert kinds["09:25"] == "time"
    assert kinds["v0.13.1"] == "version"
    assert kinds["https://example.org/x"] == "url"
    assert kinds["memory/logs/a.md"] == "path"
    assert kinds["8点"] == "num"
    assert kinds["300元"] == "num"
    assert kinds["button.feed_now"] == "ident"
    assert kinds["二期"] == "ordinal"


def test_a_capitalised_word_inside_a_sentence_is_a_name_at_its_start_a_word():
    kinds = _kinds("Reports go to Priya on Friday")
    assert kinds["priya"] == kinds["friday"] == "name"
    assert kinds["report"] == "word"  # first word of the sentence, stemmed


def test_function_words_are_dropped_and_force_words_kept():
    assert _texts("it is the same for them") == set()
    assert _kinds("Always ask before you push")["always"] == "force"
    assert _kinds("不要在周五发布")["不要"] == "force"


def test_cjk_text_gives_character_pairs_without_particles():
    assert _texts("原始对话记录") == {"原始", "始对", "对话", "话记", "记录"}
    assert "的" not in "".join(_texts("我的记录"))


# -- weights ------------------------------------------------------------------------------


def test_a_label_repeated_across_records_weighs_less_than_a_rare_path():
    bags = [substance(f"Role: maintainer {k}") for k in range(20)]
    bags.append(substance("Role: the deploy script is ~/bin/deploy.sh"))
    w = Weights(bags)
    (path,) = [t for t in bags[-1] if t.kind == "path"]
    (role,) = [t for t in bags[-1] if t.text == "role"]
    assert w.df[role] == 21 and w.df[path] == 1
    assert w(path) > 3 * w(role)


def test_score_is_the_weighted_share_in_common():
    a, b = substance("grafana port 3000 nas-02"), substance("| Grafana | 3000 | nas-02 |")
    w = Weights([a, b, substance("prometheus port 9090")])
    assert score(a, a, w) == 100.0
    assert 50 < score(a, b, w) < 100
    assert score(a, substance("nothing alike here"), w) == 0.0


# -- disagreement -------------------------------------------------------------------------


def test_another_number_date_or_cjk_ordinal_in_the_same_slot_disagrees():
    assert disagree(_entry("- 心率控制在 <145"), _entry("- 心率控制在 <148"))
    assert disagree(_entry("- 大基金一期持仓"), _entry("- 大基金二期持仓"))
    assert disagree(_entry("- Report due 2026-12-01"), _entry("- Report due 2026-12-08"))


def test_one_label_with_two_values_disagrees():
    assert disagree(_entry("- Email: a@northwind.dev"), _entry("- Email: b@northwind.dev"))
    assert not disagree(_entry("- Dog: Diggy"), _entry("- Dog: Diggy (black, orange collar)"))


def test_another_name_at_one_position_disagrees_even_when_both_names_occur():
    a = _entry("- Shared inbox; Sage watches for invoices here")
    b = _entry("- Shared inbox; Hermes watches for invoices here (hands off to Sage)")
    assert disagree(a, b)


def test_texts_differing_in_one_place_only_with_substance_each_side_disagree():
    assert disagree(_entry("- 华夏基金－科技创新混合计划"), _entry("- 嘉实基金－科技创新混合计划"))


def test_another_force_disagrees_but_two_labels_of_one_value_do_not():
    assert disagree(
        _entry("- ask before deleting ~/archive"), _entry("- always ask before deleting ~/archive")
    )
    assert not disagree(
        _entry("- Config file: ~/.agent/config.toml"), _entry("- 配置: ~/.agent/config.toml")
    )


# -- the index ----------------------------------------------------------------------------


def _pair_groups(a: Entry, b: Entry, *others: Entry) -> list:
    units = [a, b, *others]
    return same_fact_groups(units, lambda x, y: True, lambda x, y: False)


def test_cjk_words_in_another_order_are_one_fact():
    # the character pairs that cross a word in one order only (件删, 除前) are not substance
    a = _entry("- 重要：删除任何文件之前必须先问主人！")
    b = _entry("- **重要**：任何文件删除前，必须先问主人", file="memory/owner.md")
    filler = [_entry(f"- 第{k}周的周报已经发给主人", line=10 + k) for k in range(6)]
    assert (
        score(
            entry_substance(a),
            entry_substance(b),
            Weights([entry_substance(a), entry_substance(b)]),
        )
        < 75
    )
    groups = _pair_groups(a, b, *filler)
    assert [[e.file for e in g.entries] for g in groups] == [["MEMORY.md", "memory/owner.md"]]
    assert groups[0].kind == "restructured"


def test_the_same_steps_in_another_order_disagree():
    assert disagree(
        _entry("- 回复主人时先给结论，再给细节"), _entry("- 回复主人时先给细节，再给结论", 2)
    )
    assert disagree(
        _entry("- Deploys: first run the full test suite, then push to production"),
        _entry("- Deploys: first push to production, then run the full test suite", 2),
    )
    # a clause of "before" may come first or last with one meaning
    assert not disagree(
        _entry("- Always take a snapshot of the volume before running the migrations"),
        _entry("- Before running the migrations, always take a snapshot of the volume", 2),
    )


def test_candidates_come_from_shared_rare_tokens_only():
    bags = [
        substance("the nightly job writes ~/logs/nightly.log"),
        substance("~/logs/nightly.log is where the nightly job writes"),
        *(substance(f"the weekly job writes summary {k}") for k in range(POSTING_CAP + 1)),
    ]
    w = Weights(bags)
    assert candidates(bags, w) == {(0, 1)}
    assert candidates(bags, w, queries={2}) == set()


def test_a_token_held_by_more_than_the_cap_indexes_nothing():
    bags = [substance(f"shared-token-x run {k:05d}") for k in range(POSTING_CAP + 1)]
    w = Weights(bags)
    assert all(not rare_keys(b, w) for b in bags)
    assert candidates(bags, w) == set()


def test_the_index_work_grows_linearly_with_the_entries():
    # every bag shares tokens with many others, yet each looks up only a few postings
    bags = [substance(f"job {k % 50} writes file-{k % 7}.log at {k % 24}:00") for k in range(2000)]
    w = Weights(bags)
    pairs = candidates(bags, w)
    assert len(pairs) <= len(bags) * 4 * POSTING_CAP


# -- nested lines and evidence ------------------------------------------------------------


def test_the_list_items_nested_in_an_entry_are_entries_of_their_own():
    e = _entry("3. Load the store first\n   - path: `memory/db/main.db`\n   note", kind="numbered")
    (sub,) = sub_entries(e)
    assert (sub.line, sub.end_line, sub.kind, sub.text) == (
        2,
        2,
        "bullet",
        "- path: `memory/db/main.db`",
    )
    assert sub_entries(_entry("- one line")) == []


def test_evidence_lists_the_shared_substance_rarest_first_and_the_differing_words():
    a = _entry("- Default spogo device set to Mac mini as fallback")
    b = _entry("- Spotify default device set to Mac mini as fallback", line=2)
    other = [substance(f"- device {k} set") for k in range(10)]
    w = Weights([entry_substance(a), entry_substance(b), *other])
    ev = evidence(a, b, w)
    assert set(ev) == {"shared", "differs"}
    assert set(ev["shared"][-2:]) == {"device", "set"}  # the commonest last
    assert ["spogo", ""] in ev["differs"] and ["", "spotify"] in ev["differs"]


def test_shared_chinese_is_listed_as_the_runs_of_text_it_makes_not_character_pairs():
    """``中文日志会乱码`` shared whole is one run, not 中文, 文日, 日志, 志会, 会乱, 乱码;
    pairs that meet only by a character, from two places, stay apart."""
    a = _entry("- Windows 上跑脚本前先 set PYTHONUTF8=1，否则中文日志会乱码；文件名用中文")
    b = _entry("- 在 Windows 上跑脚本之前先 set PYTHONUTF8=1，不然中文日志会乱码", line=2)
    shared = evidence(a, b)["shared"]
    assert "中文日志会乱码" in shared
    assert not {"文日", "日志", "志会", "会乱"} & set(shared)
    assert "上跑脚本" in shared
    assert "pythonutf8" in shared


def test_the_evidence_of_a_group_lists_what_every_member_shares():
    a = _entry("- 中文日志会乱码，要先 set PYTHONUTF8=1")
    b = _entry("- 中文日志会乱码：先 set PYTHONUTF8=1", line=2)
    c = _entry("- 中文日志会乱：先设 PYTHONUTF8=1", line=3)
    shared = evidence(a, b, also=[set(entry_substance(c))])["shared"]
    assert "中文日志会乱" in shared and "中文日志会乱码" not in shared
    assert "set" not in shared


# -- in the queue -------------------------------------------------------------------------


def test_every_item_of_two_places_carries_its_evidence(make_ws):
    from datetime import date

    from memreview.queues.duplicates import duplicates

    ws = make_ws(
        {
            "MEMORY.md": "# M\n- keep the gateway log for 30 days\n- keep the gateway log for 30 days.\n"
            "- Grafana listens on port 3000 on nas-02\n- Loki listens on port 3100 on nas-03\n"
            "- Tempo listens on port 3200 on nas-04\n",
            "memory/services.md": "# S\n| Service | Port | Host |\n|---|---|---|\n| Grafana | 3000 | nas-02 |\n",
        }
    )
    items = duplicates(ws, date(2026, 11, 30))
    by_kind = {it["kind"]: it for it in items}
    assert set(by_kind) == {"near", "restructured"}
    assert set(by_kind["near"]["evidence"]["shared"]) == {"keep", "gateway", "log", "30", "day"}
    assert by_kind["restructured"]["evidence"] == {
        "shared": ["grafana", "3000", "02", "nas"],  # rarest first: nas is on three lines
        "differs": [["listens on port", "|"], ["on", "|"]],
    }


def test_fields_of_per_person_records_never_pair(make_ws):
    from datetime import date

    from memreview.queues.duplicates import duplicates

    record = "- Role: maintainer\n- Can merge to main: yes\n- Can rotate deploy keys: no\n"
    ws = make_ws({"MEMORY.md": f"# M\n## Access\n### Priya\n{record}\n### Tomas\n{record}"})
    assert duplicates(ws, date(2026, 11, 30)) == []
