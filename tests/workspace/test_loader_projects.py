"""Projects as owners keep them: files, folders, statuses in their common forms (docs/design.md §1.4)."""

from __future__ import annotations

import pytest

from memreview.workspace.model import is_closed_status


def test_readme_index_template_and_list_files_are_not_projects(make_ws):
    ws = make_ws(
        {
            "memory/projects/README.md": "# Projects\n\n- radar: see radar.md\n",
            "memory/projects/INDEX.md": "# Index\n",
            "memory/projects/index.md": "# index\n",
            "memory/projects/_template.md": "# Project: <name>\nStatus: planned\n",
            "memory/projects/project-template.md": "# <name>\n",
            "memory/projects/templates/basic.md": "# Basic\n",
            "memory/projects/active.md": "# Active projects\n- radar\n",
            "memory/projects/done.md": "# Done\n- solar logger\n",
            "memory/projects/ideas.md": "# Ideas\n- a bird feeder camera\n",
            "memory/projects/radar.md": "# Radar\nStatus: active\n",
            "memory/projects/done-right.md": "# Done right\n",
        }
    )
    assert list(ws.projects) == ["done-right", "radar"]


def test_a_project_folder_is_one_project_keyed_by_its_name_with_its_main_files_title(make_ws):
    ws = make_ws(
        {
            "memory/projects/esp32-radar/main.md": "# ESP32 presence radar\n**Status:** Planned\n",
            "memory/projects/esp32-radar/notes.md": "# Wiring notes\nStatus: scratch\n",
            "memory/projects/esp32-radar/log/2026-10.md": "# October\n",
            "memory/projects/home-nas/overview.md": "# Home NAS\nStatus: active\n",
            "memory/projects/home-nas/disks.md": "# Disks\n",
            "memory/projects/blog/README.md": "# Blog rebuild\n状态：进行中\n",
            "memory/projects/garden/index.md": "# Garden\n",
            "memory/projects/loose/ideas.md": "# Loose ideas\n",
        }
    )
    assert sorted(ws.projects) == ["blog", "esp32-radar", "garden", "home-nas", "loose"]
    radar = ws.projects["esp32-radar"]
    assert (radar.title, radar.status, radar.file) == (
        "ESP32 presence radar",
        "Planned",
        "memory/projects/esp32-radar/main.md",
    )
    assert ws.projects["home-nas"].file == "memory/projects/home-nas/overview.md"
    assert ws.projects["blog"].status == "进行中"
    assert ws.projects["loose"].file == "memory/projects/loose/ideas.md"


def test_archive_and_template_folders_hold_no_open_project(make_ws):
    ws = make_ws(
        {
            "memory/projects/archive/old.md": "# Old\n",
            "memory/projects/_template/main.md": "# <name>\n",
            "memory/projects/live.md": "# Live\n",
        }
    )
    assert list(ws.projects) == ["live"]


@pytest.mark.parametrize(
    "line, status",
    [
        ("Status: active", "active"),
        ("**Status:** Planned", "Planned"),
        ("**Status**: In progress", "In progress"),
        ("- **Status:** Blocked on parts", "Blocked on parts"),
        ("状态：进行中", "进行中"),
        ("**状态**：已完成", "已完成"),
        ("**Status: Done**", "Done"),
    ],
)
def test_status_is_read_in_its_common_forms(make_ws, line, status):
    ws = make_ws({"memory/projects/p.md": f"# P\n\n{line}\n"})
    assert ws.projects["p"].status == status


def test_front_matter_status_and_a_project_prefix_in_the_title(make_ws):
    ws = make_ws(
        {
            "memory/projects/fm.md": "---\nstatus: paused\ntags: [x]\n---\n# Project: Solar logger\n",
            "memory/projects/cn.md": "# 项目：家庭相册\n",
        }
    )
    assert (ws.projects["fm"].status, ws.projects["fm"].title) == ("paused", "Solar logger")
    assert ws.projects["cn"].title == "家庭相册"


def test_a_status_word_in_prose_or_code_is_not_the_status(make_ws):
    ws = make_ws(
        {
            "memory/projects/p.md": (
                "# P\n```\nStatus: done\n```\n- the status: page is slow\nStatusbar: x\n"
            )
        }
    )
    assert ws.projects["p"].status is None


def test_aliases_are_read_from_an_aliases_line(make_ws):
    ws = make_ws(
        {
            "memory/projects/radar.md": "# Radar\n**Aliases:** 人体雷达, presence sensor、mmWave\n",
        }
    )
    assert ws.projects["radar"].aliases == ("人体雷达", "presence sensor", "mmWave")


@pytest.mark.parametrize(
    "status",
    ["done", "Completed 2026-10-01", "cancelled", "Canceled", "✅ Done", "已完成", "完成", "取消"],
)
def test_closing_words_close_a_project(status):
    assert is_closed_status(status)


@pytest.mark.parametrize("status", ["active", "planned", "未完成", "in progress", "undone", ""])
def test_other_words_keep_it_open(status):
    assert not is_closed_status(status)
