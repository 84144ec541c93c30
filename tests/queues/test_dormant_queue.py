"""Dormant projects (docs/design.md §1.4, §2)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from memreview.decisions.state import State
from memreview.queues.dormant import dormant
from memreview.scan import compute

TODAY = date(2026, 11, 29)


def day(days_before: int) -> str:
    return (TODAY - timedelta(days=days_before)).isoformat()


def log(days_before: int, text: str) -> dict[str, str]:
    return {f"memory/{day(days_before)}.md": text + "\n"}


def project_file(key: str, title: str = "Gateway upgrade", *lines: str) -> dict[str, str]:
    return {f"memory/projects/{key}.md": "\n".join([f"# {title}", *lines, ""])}


def keys(items) -> list[str]:
    return [i["project"] for i in items]


def test_a_project_last_mentioned_28_days_ago_is_dormant_and_27_is_not(make_ws):
    ws = make_ws(
        project_file("gw", "Gateway")
        | project_file("db", "Database")
        | log(28, "- worked on gw today")
        | log(27, "- db migration")
    )
    (item,) = dormant(ws, TODAY)
    assert item["project"] == "gw"
    assert (item["last_mentioned"], item["days_dormant"]) == (day(28), 28)
    assert item["title"] == "Gateway"
    assert item["ref"]["file"] == "memory/projects/gw.md"
    assert item["ref"]["line"] == 1


def test_the_latest_mention_counts(make_ws):
    ws = make_ws(
        project_file("gw", "Gateway") | log(60, "gw") | log(10, "gw again") | log(40, "gw")
    )
    assert dormant(ws, TODAY) == []


def test_a_key_counts_only_as_a_whole_token(make_ws):
    ws = make_ws(project_file("gw", "Gateway") | log(1, "gw-2 gw_x gw2 xgw 2gw -gw gw- _gw"))
    assert keys(dormant(ws, TODAY)) == ["gw"]


def test_a_key_next_to_punctuation_or_in_any_case_is_a_mention(make_ws):
    for text in ("(GW)", "see gw.", "gw，完成", "[gw]", "GW"):
        ws = make_ws(project_file("gw", "Gateway") | log(1, text))
        assert dormant(ws, TODAY) == [], text


def test_the_full_title_counts_case_insensitively_but_part_of_it_does_not(make_ws):
    ws = make_ws(
        project_file("gw", "Gateway Upgrade")
        | project_file("cron", "Pi Cron Setup")
        | log(2, "Finished the GATEWAY UPGRADE checklist")
        | log(1, "the pi-cron box is flaky")
    )
    assert keys(dormant(ws, TODAY)) == ["cron"]


def test_only_daily_logs_and_recalls_count_as_mentions(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "- gw is going well\n",
            "DREAMS.md": "- gw dream\n",
            "NOW.md": "- [ ] gw next step 2026-11-28\n",
            "memory/notes.md": "- gw notes\n",
            "memory/archive/2026-11-28.md": "gw\n",
            "memory/dreaming/2026-11-28.md": "gw\n",
        }
        | project_file("gw", "Gateway", "Added: 2026-09-30", "- gw worked on 2026-11-28")
    )
    (item,) = dormant(ws, TODAY)
    assert (item["last_mentioned"], item["days_dormant"]) == (None, 60)


def test_a_slugged_daily_log_is_dated_by_its_name(make_ws):
    ws = make_ws(project_file("gw", "Gateway") | {f"memory/logs/{day(3)}-standup.md": "gw\n"})
    assert dormant(ws, TODAY) == []


def test_a_daily_log_dated_after_the_review_date_does_not_count(make_ws):
    ws = make_ws(project_file("gw", "Gateway", "Added: 2026-01-01") | log(-2, "gw"))
    (item,) = dormant(ws, TODAY)
    assert item["last_mentioned"] is None


def test_a_non_hook_recall_of_the_key_or_anchor_id_is_a_mention_dated_by_its_timestamp(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "## [PROJECT:pi-cron]\nAdded: 2026-01-01\nSummary: Pi cron\n---\n",
            "memory/recall_log.jsonl": [
                {"ts": f"{day(30)}T23:00:00Z", "id": "gw", "channel": "search"},
                {"ts": f"{day(1)}T08:00:00Z", "id": "gw", "channel": "hook"},
                {"ts": f"{day(5)}T08:00:00Z", "id": "pi-cron", "channel": "manual"},
                {"ts": f"{day(-3)}T08:00:00Z", "id": "gw", "channel": "search"},
            ],
        }
        | project_file("gw", "Gateway")
    )
    (item,) = dormant(ws, TODAY)
    assert (item["project"], item["last_mentioned"], item["days_dormant"]) == ("gw", day(30), 30)


def test_a_never_mentioned_project_sleeps_since_its_added_date(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "## [PROJECT:anchored]\nAdded: 2026-10-01\n---\n"
            "## [PROJECT:fresh]\nAdded: 2026-11-27\n---\n",
        }
        | project_file("filed", "Filed", "Added: 2026-09-01")
    )
    items = dormant(ws, TODAY)
    assert [i["title"] for i in items] == ["Filed", "anchored", "fresh"]  # no Summary: the id
    assert [(i["project"], i["days_dormant"], i["last_mentioned"]) for i in items] == [
        ("filed", 89, None),
        ("anchored", 59, None),
        ("fresh", 2, None),
    ]


def test_a_project_without_any_date_ranks_first_with_null_days(make_ws):
    ws = make_ws(
        project_file("old", "Old", "Added: 2025-01-01")
        | project_file("undated", "Undated")
        | project_file("also-undated", "Also")
    )
    items = dormant(ws, TODAY)
    assert keys(items) == ["also-undated", "undated", "old"]
    assert [i["days_dormant"] for i in items] == [None, None, (TODAY - date(2025, 1, 1)).days]


def test_equal_sleep_ties_break_by_key(make_ws):
    ws = make_ws(
        project_file("b-proj", "B") | project_file("a-proj", "A") | log(40, "a-proj b-proj")
    )
    assert keys(dormant(ws, TODAY)) == ["a-proj", "b-proj"]


def test_closed_statuses_are_never_dormant(make_ws):
    files = {}
    for k, status in enumerate(["done", "archived", "已完成", "归档", "Done (2026-10-01)"]):
        files |= project_file(f"closed{k}", f"Closed {k}", f"Status: {status}")
    files |= project_file("open", "Open", "Status: active")
    files["MEMORY.md"] = "## [PROJECT:anchor-done]\nStatus: done\n---\n"
    ws = make_ws(files)
    assert keys(dormant(ws, TODAY)) == ["open"]


def test_one_key_in_a_file_an_anchor_and_a_marker_is_one_project_and_the_file_wins(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "## [PROJECT:gw]\nAdded: 2026-01-01\nSummary: Anchor title\n"
            "Status: done\n---\n- note <!-- project: gw -->\n",
        }
        | project_file("gw", "File title", "Status: active")
    )
    (item,) = dormant(ws, TODAY)
    assert (item["title"], item["ref"]["file"]) == ("File title", "memory/projects/gw.md")
    assert item["days_dormant"] == (TODAY - date(2026, 1, 1)).days  # the anchor's Added


def test_an_anchor_wins_over_a_marker_for_title_and_status(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "- see <!-- project: pi -->\n## [PROJECT:pi]\nSummary: Pi box\n---\n"
            "- closed one <!-- project: shut -->\n## [PROJECT:shut]\nStatus: 归档\n---\n",
        }
    )
    (item,) = dormant(ws, TODAY)
    assert (item["project"], item["title"], item["ref"]["anchor"]) == ("pi", "Pi box", "pi")


def test_a_marker_alone_makes_a_project_titled_by_its_key(make_ws):
    ws = make_ws({"MEMORY.md": "# M\n- Use port 18789 <!-- project: gateway-upgrade -->\n"})
    (item,) = dormant(ws, TODAY)
    assert (item["project"], item["title"], item["days_dormant"]) == (
        "gateway-upgrade",
        "gateway-upgrade",
        None,
    )
    assert item["ref"]["line"] == 2


def test_archived_project_anchors_are_not_projects(make_ws):
    ws = make_ws({"memory/archive/demoted.md": "# Demoted\n## [PROJECT:old]\n---\n"})
    assert dormant(ws, TODAY) == []


def test_only_the_ten_longest_sleepers_are_listed_unless_all_are_asked_for(make_ws):
    files = {}
    for k in range(12):
        files |= project_file(f"p{k:02d}", f"P {k}", f"Added: {day(100 + k)}")
    ws = make_ws(files)
    assert len(dormant(ws, TODAY)) == 12
    top = compute(ws, TODAY, State())
    assert keys(top.queues["dormant"]) == [f"p{k:02d}" for k in range(11, 1, -1)]
    assert top.counts["dormant"] == 10
    everything = compute(ws, TODAY, State(), all_dormant=True)
    assert everything.counts["dormant"] == 12


def test_dormant_item_id_depends_on_the_key_only(make_ws):
    first = dormant(make_ws(project_file("gw", "Gateway")), TODAY)[0]["id"]
    second = dormant(make_ws(project_file("gw", "Gateway", "", "more text")), TODAY)[0]["id"]
    assert first == second


# -- projects as owners keep them, and how they are mentioned (issue shapes 7) -----------------


def test_a_folder_project_is_one_item_and_readme_or_index_files_are_none(make_ws):
    ws = make_ws(
        {
            "memory/projects/README.md": "# Projects\n",
            "memory/projects/INDEX.md": "# Index\n",
            "memory/projects/esp32-radar/main.md": "# ESP32 radar\nAdded: 2026-08-01\n",
            "memory/projects/esp32-radar/overview.md": "# Overview\n",
        }
    )
    (item,) = dormant(ws, TODAY)
    assert (item["project"], item["title"]) == ("esp32-radar", "ESP32 radar")
    assert item["ref"]["file"] == "memory/projects/esp32-radar/main.md"


def test_a_bold_or_chinese_closed_status_is_not_dormant_and_an_open_one_is(make_ws):
    ws = make_ws(
        project_file("a", "A", "**Status:** Done")
        | project_file("b", "B", "状态：已完成")
        | project_file("c", "C", "**Status**: cancelled")
        | {"memory/projects/d/README.md": "---\nstatus: archived\n---\n# D\n"}
        | project_file("open", "Open", "**Status:** Planned")
    )
    assert keys(dormant(ws, TODAY)) == ["open"]


@pytest.mark.parametrize("text", ["esp32 radar wired", "ESP32_RADAR", "the esp32-radar board"])
def test_a_key_with_dash_underscore_or_space_between_its_words_is_a_mention(make_ws, text):
    ws = make_ws(project_file("esp32-radar", "Presence sensor") | log(1, text))
    assert dormant(ws, TODAY) == []


def test_the_key_words_apart_or_glued_to_other_words_are_no_mention(make_ws):
    ws = make_ws(
        project_file("esp32-radar", "Presence sensor")
        | log(1, "esp32 arrived; the radar is loud\nesp32 radars")
    )
    assert keys(dormant(ws, TODAY)) == ["esp32-radar"]


def test_the_title_without_its_project_prefix_is_a_mention(make_ws):
    ws = make_ws(
        {
            "memory/projects/album.md": "# 项目：家庭相册\n",
            "memory/projects/s.md": "# Project: Solar\n",
        }
        | log(3, "今天整理了家庭相册的目录")
        | log(2, "solar panel cleaned")
    )
    assert dormant(ws, TODAY) == []


def test_a_title_glued_inside_a_longer_english_word_is_no_mention(make_ws):
    ws = make_ws(project_file("s", "Solar") | log(2, "the solarium is closed"))
    assert keys(dormant(ws, TODAY)) == ["s"]


def test_an_alias_is_a_mention(make_ws):
    ws = make_ws(
        project_file("radar", "Radar", "Aliases: 人体雷达, presence sensor")
        | log(4, "人体雷达误报")
    )
    assert dormant(ws, TODAY) == []


def test_distinctive_name_words_together_on_one_line_are_a_mention(make_ws):
    ws = make_ws(
        project_file("presence", "Presence radar (ESP32 + LD2410)")
        | log(5, "- flashed the LD2410 config from the esp32 console")
    )
    assert dormant(ws, TODAY) == []


def test_distinctive_name_words_on_different_lines_are_only_partial_mentions(make_ws):
    ws = make_ws(
        project_file("presence", "Presence radar (ESP32 + LD2410)", f"Added: {day(90)}")
        | log(40, "- ordered an LD2410 and a spare ESP32 for the radar")
        | log(5, "- ESP32 board for the weather station\n- LD2410 datasheet saved")
    )
    (item,) = dormant(ws, TODAY)
    assert item["last_mentioned"] == day(40)
    partial = item["partial_mentions"]
    assert [(p["date"], p["line"]) for p in partial] == [(day(5), 1), (day(5), 2)]
    assert partial[0]["file"] == f"memory/{day(5)}.md"
    assert partial[0]["words"] == ["esp32"]
    assert "weather station" in partial[0]["text"]


def test_partial_mentions_show_the_lines_naming_most_of_the_project_first(make_ws):
    ws = make_ws(
        project_file("garden-irrigation", "Garden irrigation")
        | log(3, "- garden party on saturday")
        | log(10, "- irrigation timer for the garden beds")
    )
    (item,) = dormant(ws, TODAY)
    assert [p["date"] for p in item["partial_mentions"]] == [day(10), day(3)]
    assert item["partial_mentions"][0]["words"] == ["garden", "irrigation"]


def test_a_project_with_no_partial_mention_shows_none(make_ws):
    ws = make_ws(project_file("zephyr", "Zephyr") | log(3, "- nothing related"))
    (item,) = dormant(ws, TODAY)
    assert item["partial_mentions"] == []


def test_an_openclaw_recall_of_a_project_files_lines_is_a_mention(make_ws):
    ws = make_ws(
        {
            "memory/projects/radar/main.md": "# Radar\nAdded: 2026-01-01\n",
            "memory/projects/radar/wiring.md": "# Wiring\n- GPIO 4\n",
            "memory/projects/nas.md": "# NAS\nAdded: 2026-01-01\n",
            "memory/.dreams/events.jsonl": [
                {
                    "type": "memory.recall.recorded",
                    "timestamp": f"{day(3)}T09:00:00Z",
                    "query": "gpio",
                    "results": [
                        {"path": "memory/projects/radar/wiring.md", "startLine": 2, "endLine": 2}
                    ],
                }
            ],
        }
    )
    assert keys(dormant(ws, TODAY)) == ["nas"]


def test_two_pieces_of_a_chinese_name_on_a_line_are_a_partial_mention_and_one_is_not(make_ws):
    ws = make_ws(
        project_file("wechat-bot", "微信机器人", "Added: 2026-07-01")
        | log(9, "1. 微信群里有人问机器人还在不在")
        | log(5, "1. 给妈妈发了微信")
    )
    (item,) = dormant(ws, TODAY)
    assert [(p["date"], p["text"]) for p in item["partial_mentions"]] == [
        (day(9), "1. 微信群里有人问机器人还在不在")
    ]


def test_a_two_character_chinese_title_is_a_mention_and_a_two_letter_one_is_not(make_ws):
    ws = make_ws(
        project_file("album", "相册")
        | project_file("ai", "AI")
        | log(2, "整理相册")
        | log(1, "AI said hi")
    )
    assert keys(dormant(ws, TODAY)) == []  # "ai" is still its key, a whole token
    ws = make_ws(project_file("helper", "AI") | log(1, "AI said hi"))
    assert keys(dormant(ws, TODAY)) == ["helper"]
