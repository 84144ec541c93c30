"""Warnings about input files are kept untranslated (the scan cache holds them for the next
run, whatever language it speaks) and shown in the interface's language; JSON stays English."""

from __future__ import annotations

import os
import pickle
import time
from datetime import date

import pytest

from memreview import i18n
from memreview.i18n import N_, Message, Nn_
from memreview.scan import scan_workspace
from memreview.workspace import loader
from memreview.workspace.cache import forget_live

TODAY = date(2026, 11, 29)


@pytest.fixture
def chinese_later():
    yield
    i18n.use_language("en")


@pytest.fixture
def ws(tmp_path, monkeypatch, use_scan_cache):
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory\n\n- a fact\n", encoding="utf-8")
    # neither UTF-8 nor GBK: read with escapes and warned about, with its line
    (root / "memory" / "notes.md").write_bytes(b"# notes\n- caf\xe9 \xff au lait\n")
    (root / "memory" / "2026-02-30.md").write_text("- a day that never was\n", encoding="utf-8")
    then = time.time() - 600  # older than the racy window: the cache keeps them
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            os.utime(os.path.join(dirpath, name), (then, then))
    monkeypatch.setenv("MEMREVIEW_CACHE_DIR", str(tmp_path / "cache"))
    return root.resolve()


def _messages(result) -> dict[str, str]:
    return {w["file"]: w["message"] for w in result.warnings}


def test_a_warning_cached_in_english_is_shown_in_chinese_and_its_json_stays_english(
    ws, monkeypatch, chinese_later
):
    english = _messages(scan_workspace(ws, today=TODAY))
    assert english["memory/notes.md"] == ("invalid UTF-8 (not GBK either); shown with escapes")
    forget_live()
    parsed = []
    parse = loader._parse
    monkeypatch.setattr(loader, "_parse", lambda *a: parsed.append(a[2]) or parse(*a))
    i18n.use_language("zh")
    chinese = scan_workspace(ws, today=TODAY)
    assert "memory/notes.md" not in parsed  # from the cache, warnings and all
    shown = _messages(chinese)
    assert shown["memory/notes.md"] == "UTF-8 无效（也不是 GBK）；以转义形式显示"
    assert shown["memory/2026-02-30.md"] == "日志文件名里的日期不存在（2026-02-30）；已跳过"
    as_json = {w["file"]: w["message"] for w in chinese.to_json()["warnings"]}
    assert as_json == english


def test_a_message_is_english_as_a_string_and_translated_when_shown(chinese_later):
    inner = Message(N_("not valid JSON"))
    outer = Message(N_("{problem}; line skipped"), problem=inner)
    counted = Message(
        Nn_("{count} more bad line not shown", "{count} more bad lines not shown"), count=3
    )
    assert outer == "not valid JSON; line skipped" and counted == "3 more bad lines not shown"
    again = pickle.loads(pickle.dumps(outer, protocol=pickle.HIGHEST_PROTOCOL))
    i18n.use_language("zh")
    assert again.shown() == "不是有效的 JSON；跳过该行"
    assert counted.shown() == "另有 3 行损坏，未列出"
    assert str(again) == "not valid JSON; line skipped"  # what JSON and logs get
