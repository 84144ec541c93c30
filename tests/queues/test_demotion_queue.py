"""Demotion: anchors that are not important and rarely used (docs/design.md §2, seed 003)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from memreview.decisions.state import State
from memreview.queues.demotion import demotion
from memreview.scan import compute

TODAY = date(2026, 11, 29)


def day(days_before: int) -> str:
    return (TODAY - timedelta(days=days_before)).isoformat()


def anchor(aid: str, *meta: str, type: str = "FACT", body: str = "plain body") -> str:
    return "\n".join([f"## [{type}:{aid}]", *meta, body, "---", ""])


def old(aid: str, *meta: str, **kw) -> str:
    """An anchor added 30 days before the review date (old enough to be demoted)."""
    return anchor(aid, f"Added: {day(30)}", *meta, **kw)


def recall(aid: str, days_before: int, channel: str = "search") -> dict:
    return {"ts": f"{day(days_before)}T12:00:00Z", "id": aid, "channel": channel, "query": "q"}


def demoted_ids(files: dict, make_ws, recalls=()) -> list[str]:
    files = {"memory/recall_log.jsonl": list(recalls)} | files
    return [i["anchor"]["anchor"] for i in demotion(make_ws(files), TODAY)]


def test_an_unimportant_unused_anchor_added_30_days_ago_is_an_item(make_ws):
    ws = make_ws({"memory/notes.md": "# M\n" + old("tip"), "memory/recall_log.jsonl": []})
    (item,) = demotion(ws, TODAY)
    assert (item["recalls_90d"], item["age_days"]) == (0, 30)
    assert item["anchor"] == {
        "file": "memory/notes.md",
        "line": 2,
        "end_line": 5,
        "text": "## [FACT:tip]",
        "anchor": "tip",
    }
    assert item["title"] == "[FACT:tip]"


def test_an_anchor_added_29_days_ago_is_too_young(make_ws):
    files = {"memory/notes.md": anchor("young", f"Added: {day(29)}")}
    assert demoted_ids(files, make_ws) == []


def test_one_non_hook_recall_still_demotes_but_two_do_not(make_ws):
    files = {"memory/notes.md": old("once") + old("twice")}
    recalls = [recall("once", 3), recall("twice", 3), recall("twice", 50, "boot")]
    assert demoted_ids(files, make_ws, recalls) == ["once"]


def test_hook_recalls_never_count(make_ws):
    files = {"memory/notes.md": old("hooked")}
    recalls = [recall("hooked", 1, "hook"), recall("hooked", 2, "hook"), recall("hooked", 3)]
    ws = make_ws({"memory/recall_log.jsonl": recalls} | files)
    (item,) = demotion(ws, TODAY)
    assert item["recalls_90d"] == 1


@pytest.mark.parametrize(
    ("days_before", "counts"),
    [(0, True), (89, True), (90, False), (-1, False)],
)
def test_the_recall_window_is_the_90_days_up_to_the_review_date_both_ends_included(
    make_ws, days_before, counts
):
    files = {"memory/notes.md": old("edge", f"Added: {day(200)}")}
    recalls = [recall("edge", days_before), recall("edge", days_before, "manual")]
    expected = [] if counts else ["edge"]
    assert demoted_ids(files, make_ws, recalls) == expected


@pytest.mark.parametrize(
    ("block", "why"),
    [
        (old("r", type="RULE"), "RULE type"),
        (old("i", type="INFRA"), "INFRA type"),
        (old("o", "Source: owner"), "Source owner"),
        (old("o2", "Source: Owner"), "Source owner, any case"),
        (old("z", "Source: 主人"), "Source 主人"),
        (old("c", body="see the INCIDENT report"), "incident, upper case"),
        (old("c2", body="来自一次事故"), "事故"),
        (old("c3", body="Postmortem: disk full"), "postmortem"),
        (old("c4", body="周会复盘"), "复盘"),
        (old("h", "Importance: high"), "Importance high"),
        (old("h2", "Importance: 高"), "Importance 高"),
        (old("h3", "Importance: Critical"), "Importance critical"),
        (old("h4", "Importance: 4"), "Importance 4"),
        (old("h5", "Importance: 5"), "Importance 5"),
        (old("k", body="body <!-- importance: 4 -->"), "importance comment 4"),
        (old("b", "Boot: yes"), "Boot yes"),
    ],
)
def test_an_important_anchor_is_never_demoted(make_ws, block, why):
    assert demoted_ids({"memory/notes.md": block}, make_ws) == [], why


@pytest.mark.parametrize(
    "block",
    [
        old("m", "Importance: medium"),
        old("n", "Importance: 3"),
        old("p", body="body <!-- importance: 3 -->"),
        old("s", "Source: agent"),
        old("t", "Boot: no"),
    ],
)
def test_lesser_importance_marks_do_not_protect_an_anchor(make_ws, block):
    assert len(demoted_ids({"memory/notes.md": block}, make_ws)) == 1


def test_an_anchor_listed_in_a_boot_file_is_not_demoted(make_ws):
    files = {"memory/notes.md": old("booted") + old("plain"), "agent.boot.md": "- [[booted]]\n"}
    assert demoted_ids(files, make_ws) == ["plain"]


def test_citations_from_two_other_anchors_protect_but_one_does_not(make_ws):
    files = {
        "memory/notes.md": old("twice-cited")
        + old("once-cited")
        + old("citer-a", "SEE-ALSO: [[twice-cited]], [[once-cited]]")
        + old("citer-b", body="see [[twice-cited]] and [[twice-cited]]")
        + old("self", body="[[self]] [[self]]")
    }
    ids = demoted_ids(files, make_ws)
    assert "twice-cited" not in ids
    assert {"once-cited", "self", "citer-a", "citer-b"} <= set(ids)


def test_an_anchor_without_added_is_not_demoted(make_ws):
    assert demoted_ids({"memory/notes.md": anchor("undated")}, make_ws) == []


def test_an_unparsable_added_is_warned_about_and_not_demoted(make_ws):
    ws = make_ws(
        {"memory/notes.md": anchor("bad", "Added: 2026-02-30"), "memory/recall_log.jsonl": []}
    )
    assert demotion(ws, TODAY) == []
    assert any("2026-02-30" in w.message for w in ws.warnings)


def test_an_added_after_the_review_date_is_not_demoted(make_ws):
    assert demoted_ids({"memory/notes.md": anchor("future", "Added: 2026-12-01")}, make_ws) == []


def test_superseded_demoted_closed_and_archived_anchors_are_excluded(make_ws):
    files = {
        "memory/notes.md": old("sup", "Superseded-By: [[x]] (2026-11-01)")
        + old("dem", "Demoted: 2026-11-01 (reviewed)")
        + old("done", "Status: done")
        + old("arch", "Status: archived")
        + old("zh1", "Status: 已完成")
        + old("zh2", "Status: 归档")
        + old("open", "Status: active"),
        "memory/archive/demoted.md": "# Demoted\n\n" + old("moved"),
    }
    assert demoted_ids(files, make_ws) == ["open"]


def test_project_anchors_can_be_demoted(make_ws):
    files = {"memory/notes.md": old("side-project", type="PROJECT")}
    assert demoted_ids(files, make_ws) == ["side-project"]


def test_anchors_in_any_memory_file_are_candidates(make_ws):
    files = {
        "memory/notes.md": "# M\n",
        "memory/lessons/ops.md": "# Ops\n" + old("lesson", type="LESSON"),
    }
    assert demoted_ids(files, make_ws) == ["lesson"]


def test_without_a_recall_log_the_queue_is_empty_and_says_why(make_ws):
    ws = make_ws({"memory/notes.md": old("tip")})
    assert demotion(ws, TODAY) == []
    result = compute(ws, TODAY, State())
    assert result.queues["demotion"] == []
    assert "recall log" in result.missing["demotion"]


def test_demotion_item_id_is_stable_across_lines_inserted_above(make_ws):
    files = {"memory/notes.md": old("tip"), "memory/recall_log.jsonl": []}
    first = demotion(make_ws(files), TODAY)[0]
    files["memory/notes.md"] = "# New top\n\n- a new entry\n" + files["memory/notes.md"]
    second = demotion(make_ws(files), TODAY)[0]
    assert first["id"] == second["id"]
    assert second["anchor"]["line"] == first["anchor"]["line"] + 3


def test_an_anchor_id_defined_twice_gives_one_item_for_the_first_definition(make_ws):
    files = {"memory/a.md": "# M\n" + old("same"), "memory/notes.md": "# N\n" + old("same")}
    ws = make_ws({"memory/recall_log.jsonl": []} | files)
    items = demotion(ws, TODAY)
    assert [(i["anchor"]["file"], i["anchor"]["line"]) for i in items] == [("memory/a.md", 2)]


# -- OpenClaw workspaces: usage from recall events and the store (issue shape 8) ---------------


def promoted_memory(section_day: str) -> str:
    return (
        "# Memory\n"
        "\n"
        f"## Promoted From Short-Term Memory ({section_day})\n"
        "\n"
        "<!-- openclaw-memory-promotion:memory:memory/2026-09-01.md:3:3 -->\n"  # line 5
        "- Gateway restarts need the owner present [score=0.81 signals=4 recalls=4 avg=0.66 "
        "source=memory/2026-09-01.md:3-3] <!-- trigger: gateway --> <!-- importance: 8 -->\n"
    )


def events(*recalled: tuple[int, str, int, int]) -> dict:
    return {
        "memory/.dreams/events.jsonl": [
            {
                "type": "memory.recall.recorded",
                "timestamp": f"{day(n)}T09:00:00Z",
                "query": "gateway",
                "results": [{"path": path, "startLine": a, "endLine": b, "score": 0.7}],
            }
            for n, path, a, b in recalled
        ]
    }


def test_a_promotion_30_days_old_never_recalled_since_is_an_item_whatever_its_importance(
    make_ws,
):
    ws = make_ws(
        {"memory/notes.md": promoted_memory(day(30))} | events((40, "memory/notes.md", 6, 6))
    )
    (item,) = demotion(ws, TODAY)
    assert item["anchor"]["line"] == 6 and item["anchor"]["anchor"] is None
    assert (item["age_days"], item["promoted"], item["recalls_90d"]) == (30, day(30), 1)
    assert item["title"] == f"promoted {day(30)}: Gateway restarts need the owner present"


def test_a_promotion_29_days_old_is_not_an_item(make_ws):
    ws = make_ws({"memory/notes.md": promoted_memory(day(29))} | events())
    assert demotion(ws, TODAY) == []


@pytest.mark.parametrize("where", [("memory/notes.md", 6, 6), ("memory/2026-09-01.md", 2, 4)])
def test_a_recall_of_its_lines_or_of_its_source_since_the_promotion_keeps_it(make_ws, where):
    ws = make_ws({"memory/notes.md": promoted_memory(day(60))} | events((3, *where)))
    assert demotion(ws, TODAY) == []


def test_without_openclaw_usage_data_no_promotion_is_an_item(make_ws):
    ws = make_ws({"memory/notes.md": promoted_memory(day(90))})
    assert demotion(ws, TODAY) == []


def test_a_promotion_dated_only_by_the_store_uses_its_promoted_at(make_ws):
    text = promoted_memory(day(60)).replace(f" ({day(60)})", "")
    key = "memory:memory/2026-09-01.md:3:3"
    store = {
        "memory/.dreams/short-term-recall.json": {
            "version": 1,
            "entries": {
                key: {
                    "key": key,
                    "path": "memory/2026-09-01.md",
                    "startLine": 3,
                    "endLine": 3,
                    "recallDays": [day(70)],
                    "promotedAt": f"{day(45)}T03:00:00Z",
                }
            },
        }
    }
    (item,) = demotion(make_ws({"memory/notes.md": text} | store), TODAY)
    assert (item["promoted"], item["age_days"]) == (day(45), 45)


def test_anchors_are_demoted_on_an_openclaw_workspace_by_their_recalled_lines(make_ws):
    memory = "# M\n" + old("used") + old("unused")  # used: lines 2-5, unused: lines 6-9
    ws = make_ws(
        {"memory/notes.md": memory}
        | events((5, "memory/notes.md", 3, 4), (6, "memory/notes.md", 2, 2))
    )
    assert [i["anchor"]["anchor"] for i in demotion(ws, TODAY)] == ["unused"]
