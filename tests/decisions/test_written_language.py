"""Text memreview writes follows the file's language, and the scan reads it back (docs/design.md §1.4)."""

from __future__ import annotations

from datetime import date

import pytest
from decisions_helpers import decide, scan, text

from memreview.decisions import apply
from memreview.scan import scan_workspace
from memreview.workspace.language import mostly_cjk

CHINESE_NOW = "# 当前\n\n**待办**:\n- [ ] 整理相册（2026-11-27）\n\n**进行中**:\n- 写周报\n"
ENGLISH_NOW = "# NOW\n\n**待办**:\n- [ ] sort the photo album (2026-11-27)\n"
DIARY = "# 深夜日记\n\n添加于 2026-06-01\n- 每晚写一点\n"


@pytest.mark.parametrize(
    "texts, want",
    [
        (["# 当前", "- [ ] 整理相册 (2026-11-27)", "**NOW**"], True),
        (["# NOW", "- [ ] sort photos 相册"], False),
        (["修复 gateway 的 websocket 重连"], False),  # more Latin letters than CJK
        ([], False),
        (["2026-11-29 — ✅ ** --"], False),
    ],
)
def test_mostly_cjk_counts_letters_not_markup(texts, want):
    assert mostly_cjk(texts) is want


def test_revive_into_a_chinese_now_md_writes_a_chinese_todo(make_ws):
    root = make_ws({"NOW.md": CHINESE_NOW, "memory/projects/diary.md": DIARY})
    assert decide(root, "dormant", "revive", {"project": "diary"}).ok
    assert text(root, "NOW.md") == CHINESE_NOW.replace(
        "（2026-11-27）\n", "（2026-11-27）\n- [ ] 回顾 深夜日记（2026-11-29）\n"
    )
    # the scan reads it back: not dormant again, and the todo is an open, dated todo
    assert [i["project"] for i in scan(root).queues["dormant"]] == []
    later = scan_workspace(root, today=date(2026, 12, 9))
    stale = [t["text"] for t in later.health["stale_todos"]]
    assert "回顾 深夜日记（2026-11-29）" in stale


def test_revive_into_an_english_now_md_stays_english(make_ws):
    root = make_ws({"NOW.md": ENGLISH_NOW, "memory/projects/diary.md": DIARY})
    assert decide(root, "dormant", "revive", {"project": "diary"}).ok
    assert text(root, "NOW.md") == ENGLISH_NOW + "- [ ] Revisit 深夜日记 (2026-11-29)\n"


def test_a_chinese_todo_already_there_is_not_written_twice(make_ws):
    now = CHINESE_NOW.replace("**进行中**", "- [ ] 回顾 深夜日记（2026-10-01）\n\n**进行中**")
    root = make_ws({"NOW.md": now, "memory/projects/diary.md": DIARY})
    result = scan(root)
    (item,) = result.all_queues["dormant"]
    assert apply(result, [{"item": item["id"], "action": "revive"}]).ok
    assert text(root, "NOW.md") == now


@pytest.mark.parametrize(
    "action, line",
    [("done", "状态：已完成（2026-11-29）"), ("archive", "状态：归档（2026-11-29）")],
)
def test_closing_a_chinese_project_writes_a_chinese_status_read_back_as_closed(
    make_ws, action, line
):
    root = make_ws({"memory/projects/diary.md": DIARY})
    assert decide(root, "dormant", action, {"project": "diary"}).ok
    assert text(root, "memory/projects/diary.md") == DIARY.replace(
        "# 深夜日记\n", f"# 深夜日记\n{line}\n"
    )
    result = scan(root)
    assert result.workspace.projects["diary"].closed
    assert result.all_queues["dormant"] == []


def test_closing_an_english_project_file_writes_status_in_english(make_ws):
    page = "# Photo album\n\nAdded: 2026-06-01\n- sort by year\n"
    root = make_ws({"memory/projects/album.md": page})
    assert decide(root, "dormant", "done", {"project": "album"}).ok
    assert text(root, "memory/projects/album.md") == page.replace(
        "album\n", "album\nStatus: done (2026-11-29)\n", 1
    )
    assert scan(root).workspace.projects["album"].closed
