"""The weekly report in Chinese: its headings, table heads and sentences from the zh
catalogue, the queues by their Chinese titles with their ids; memory text untouched."""

from __future__ import annotations

import shutil
from pathlib import Path

from memreview import i18n
from memreview.report import weekly_report

SAMPLE = Path(__file__).resolve().parent.parent.parent / "sample_workspace"


def test_the_report_of_the_sample_has_chinese_headings(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLE, ws)
    i18n.use_language("zh")
    text = weekly_report(ws, today=None)
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert headings[0].startswith("# 每周记忆审查 — ")
    for heading in ("## 待审队列", "## 健康状况", "## 增长", "## 评审模型成绩单"):
        assert heading in headings, heading
    assert any(h.startswith("## 最近 7 天的决定") for h in headings)
    assert "### 矛盾（contradictions）（3）" in headings
    assert "| 队列 | 待审 | 已隐藏 | 说明 |" in text
    assert "| 提升审查（promotions） |" in text
    # memory text is the owner's: the Chinese entries stay as written, English ones too
    assert "每周日晚上主人会手动清一次浏览器缓存" in text
    assert "win11-utf8-default" in text
    assert "Weekly memory review" not in text and "## Health" not in text


def test_the_english_report_is_unchanged_by_the_catalogue(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLE, ws)
    text = weekly_report(ws, today=None)
    assert text.startswith("# Weekly memory review — ")
    assert "## Queues" in text and "| contradictions | 3 |" in text
