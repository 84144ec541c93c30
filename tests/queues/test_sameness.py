"""Same fact or parallel facts: the comparison form and the differing spans (docs/design.md §2)."""

from __future__ import annotations

import pytest

from memreview.queues.sameness import comparison_form, same_fact, tokens


def same(a: str, b: str) -> bool:
    return same_fact(comparison_form(a.lower()), comparison_form(b.lower()))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("重启网关之前先通知主人，否则任务会中断", "重启网关前先通知主人，不然任务会中断"),
        ("发日报需要先确认日志已经归档", "发日报要先确认日志已经归档"),
        ("Back up the database before upgrading", "Back up the database prior to upgrading"),
        ("rotate the key before the end of the quarter", "rotate the key before end of quarter"),
        ("**重要：** 手机号不能写进公开文件！", "手机号不能写进公开文件"),
        ("Note: keep the log for a week.", "keep the log for a week"),
        ("网关重启要主人确认", "网关重启前要主人确认"),
        ("回撤 8% 就止损", "回撤8%就止损"),
        ("**Always** ask first", "Always ask first"),
    ],
)
def test_filler_synonyms_and_dress_are_the_same_fact(a, b):
    assert same(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("心率控制在 <145", "心率控制在 <148"),
        ("大基金一期减持后减仓", "大基金二期减持后减仓"),
        ("易方达基金－中证金融资产管理计划", "南方基金－中证金融资产管理计划"),
        ("tail -f /tmp/x.log", "tail -f /tmp/x-error.log"),
        ("Schedule posts for Tuesday", "Schedule pins for Tuesday"),
        ("Read today's log first", "Read yesterday's log first"),
        ("| Master Bedroom | 19 °C |", "| Master Bathroom | 19 °C |"),
        ("切换到 `架构模式` 讨论", "切换到 `稳定模式` 讨论"),
        ("never on weekends", "never on weekend"),
        ("mail ops@a.dev", "mail ops@b.dev"),
        ("meet at 10:01", "meet at 10:05"),
        ("ask the owner", "ask not the owner"),
    ],
)
def test_a_changed_number_name_path_or_word_is_another_fact(a, b):
    assert not same(a, b)


def test_tokens_are_whole_words_numbers_and_single_cjk_characters():
    assert tokens("schedule posts now") == ["schedule", "posts", "now"]
    assert tokens("网关重启前要确认") == ["网", "关", "重", "启", "前", "要", "确", "认"]
    assert tokens("limit 145 bpm, 10:05") == ["limit", "145", "bpm", ",", "10", ":", "05"]


def test_a_doubled_list_marker_is_dress():
    # a bullet pasted under a bullet (``- - [x] …``) is the same item as the plain one
    assert comparison_form("- [x] 主人分享过的长期目标和约束") == comparison_form(
        "主人分享过的长期目标和约束"
    )
    assert comparison_form("* - keep the gateway on port 18789") == "keep the gateway on port 18789"
    # a minus sign that starts a number is not a marker
    assert comparison_form("-5 °c is the alarm threshold") == "-5 °c is the alarm threshold"
