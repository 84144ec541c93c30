"""Dormant archive/done on projects kept in lists: a table row, a list item, a heading of
projects.md — only the project's own lines change, and undo gives every byte back."""

from __future__ import annotations

import pytest
from decisions_helpers import decide, scan, snapshot, text

from memreview.store import undo_batch

TABLE = (
    "# Memory\n\n## Active Projects\n\n| Project | Status | Notes |\n|---|---|---|\n"
    "| Bike Fit Log | active | saddle height |\n| Pantry Tracker | active | barcodes |\n"
)
ITEMS = (
    "# Memory\n\n## Key Projects\n"
    "- **Recipe Scraper** — Status: paused. Pulls recipes from bookmarks.\n"
    "- [ ] **Garage Shelves**: two bays of plywood\n"
    "  - next: buy screws\n"
    "\n## Tools\n- **Printer:** MK4\n"
)
ZH_ITEMS = "# 记忆\n\n## 进行中的项目\n- **读书笔记机器人**：状态：暂停，把摘录整理成卡片\n"
PROJECTS_MD = (
    "# Projects\n\n## Balcony Herbs\nStatus: growing\nBasil and mint.\n\n"
    "## Weather Station\nESP32 on the rail.\n"
)


def _dormant_keys(root):
    return [p["project"] for p in scan(root).all_queues["dormant"]]


@pytest.mark.parametrize(
    "files, project, action, rel, before, after",
    [
        (
            {"MEMORY.md": TABLE},
            "bike-fit-log",
            "done",
            "MEMORY.md",
            "| Bike Fit Log | active | saddle height |",
            "| Bike Fit Log | done (2026-11-29) | saddle height |",
        ),
        (
            {"MEMORY.md": ITEMS},
            "recipe-scraper",
            "archive",
            "MEMORY.md",
            "Status: paused. Pulls",
            "Status: archived (2026-11-29). Pulls",
        ),
        (
            {"MEMORY.md": ITEMS},
            "garage-shelves",
            "done",
            "MEMORY.md",
            "- [ ] **Garage Shelves**: two bays of plywood\n",
            "- [ ] **Garage Shelves**: two bays of plywood — Status: done (2026-11-29)\n",
        ),
        (
            {"MEMORY.md": ZH_ITEMS},
            "读书笔记机器人",
            "done",
            "MEMORY.md",
            "状态：暂停，",
            "状态：已完成（2026-11-29），",
        ),
        (
            {"memory/projects.md": PROJECTS_MD},
            "balcony-herbs",
            "archive",
            "memory/projects.md",
            "Status: growing\n",
            "Status: archived (2026-11-29)\n",
        ),
        (
            {"memory/projects.md": PROJECTS_MD},
            "weather-station",
            "done",
            "memory/projects.md",
            "## Weather Station\n",
            "## Weather Station\nStatus: done (2026-11-29)\n",
        ),
    ],
)
def test_archive_and_done_set_the_status_in_the_projects_own_lines_and_undo_restores_them(
    make_ws, files, project, action, rel, before, after
):
    root = make_ws(files)
    assert project in _dormant_keys(root)
    original = snapshot(root)
    outcome = decide(root, "dormant", action, {"project": project})
    assert outcome.ok
    assert text(root, rel) == original[rel].decode().replace(before, after, 1)
    assert project not in _dormant_keys(root)  # closed now
    changed = {r for r, data in snapshot(root).items() if original.get(r) != data}
    assert changed == {rel}
    assert undo_batch(root, outcome.batch).ok
    assert snapshot(root) == original


def test_a_row_whose_lines_changed_since_the_scan_is_a_conflict_not_a_guess(make_ws):
    from decisions_helpers import only

    from memreview.decisions import apply

    root = make_ws({"MEMORY.md": TABLE})
    result = scan(root)
    item = only(result, "dormant", project="bike-fit-log")
    changed = TABLE.replace("saddle height", "saddle height and stem")
    (root / "MEMORY.md").write_bytes(changed.encode())
    outcome = apply(result, [{"item": item["id"], "action": "done"}])
    assert not outcome.ok
    assert text(root, "MEMORY.md") == changed
