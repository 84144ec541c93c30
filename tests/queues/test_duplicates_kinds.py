"""The kind an item shows is its dress; its id is still derived from the rule that found it
(docs/design.md §2): an owner's ``not-duplicate`` and snoozes name items by id, so showing
a new kind must not change any id."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memreview.queues.duplicates import duplicates
from memreview.queues.duplicates.detect import FORMER_RULES
from memreview.queues.duplicates.kinds import KINDS

TODAY = date(2026, 11, 30)

BLOCK = (
    "- Pull main and run the smoke tests before tagging\n"
    "- Bump the version in pyproject.toml and the changelog\n"
    "- Tag as vX.Y.Z and push the tag, never the branch\n"
)
RECORD = "### 2026-11-03 选择向量库\n- **时间**: 10:01\n- **结论**: 用 pgvector，不上独立向量库\n"
FACT = "- 晨起静息心率超过 60 说明没恢复好\n"

# (the rule that finds it, its workspace, the kind shown, the id the rule's items had before
# kinds named the dress: what state.yaml files written then hold)
CASES = [
    (
        "chronicle",
        {
            "MEMORY.md": "# M\n\n### 编年史\n| 日期 | 事件 |\n|---|---|\n"
            "| 2026-10-14 | dreaming 断线恢复 |\n| 2026-10-14 | 补跑两晚；dreaming 断线恢复 |\n"
        },
        "chronicle",
        "d-1772f20b0bb7",
    ),
    (
        "fingerprint",
        {
            "MEMORY.md": "## P\n- Galxe 赏金提交后要等审批（2026-04-10）\n- Galxe 赏金提交后要等审批 (2026-05-02)\n"
        },
        "fingerprint",
        "d-028d941907d9",
    ),
    (
        "near",
        {
            "MEMORY.md": "- 周四慢跑四十分钟，心率控制在安全区以下\n- 周四慢跑四十分钟，心率就控制在安全区以下\n"
        },
        "near",
        "d-3f66d9ca2454",
    ),
    (
        "near",
        {
            "MEMORY.md": "## A\n- Deploys go out on Tuesdays after the standup\n## B\n- Deploys go out on Tuesdays after the standup\n"
        },
        "exact",
        "d-7173d1f031e6",
    ),
    (
        "copy",
        {"MEMORY.md": "# M\n" + FACT, "memory/facts-health.md": "# F\n- x\n" + FACT},
        "exact",
        "d-fd5e82fbd272",
    ),
    (
        "copy",
        {
            "MEMORY.md": "# M\n### 看板\n- **表名**：“销售漏斗”\n- **列**：公司、阶段、金额、下次跟进\n",
            "memory/facts-crm.md": "# C\n### 看板\n- 表名: 销售漏斗\n- 列: 公司、阶段、金额、下次跟进\n",
        },
        "near",
        "d-cb4bed385cc3",
    ),
    (
        "copy",
        {
            "MEMORY.md": "## 纪律\n| 规则 | 设定 |\n|---|---|\n| 止损线 | 回撤 8%，全部仓位 |\n",
            "memory/routine.md": "# 日常\n- 止损线：回撤 8%，全部仓位\n",
        },
        "restructured",
        "d-39518157da0f",
    ),
    (
        "block",
        {"MEMORY.md": "## Deploy\n" + BLOCK + "## Copy\n- intro line\n" + BLOCK},
        "block",
        "d-97dfa4da0ba5",
    ),
    (
        "record",
        {"MEMORY.md": "# M\n" + RECORD, "memory/facts-d.md": "# D\n" + RECORD},
        "restructured",
        "d-de066213cfc7",
    ),
    (
        "value",
        {
            "MEMORY.md": "## Tools\n- Config file: ~/.agent/config.toml\n",
            "memory/notes.md": "## 工具\n- 配置: ~/.agent/config.toml\n",
        },
        "restructured",
        "d-83e820175562",
    ),
    (
        "row-bullet",
        {
            "MEMORY.md": "## 纪律\n| 规则 | 设定 |\n|---|---|\n| 止损 | 回撤 8% |\n| 止盈 | 盈利 25% |\n",
            "memory/facts-trading.md": "# 事实\n- 止损：回撤8%\n- 止盈：盈利 20%\n",
        },
        "restructured",
        "d-9f507a8a5590",
    ),
    (
        "dated-row",
        {
            "MEMORY.md": "## 里程碑\n| 日期 | 事件 |\n|---|---|\n| 2026-10-03 | 迁移到新服务器 |\n",
            "memory/ops.md": "# 运维\n| 日期 | 事件 | 影响 |\n|---|---|---|\n"
            "| 2026-10-03 | 迁移到新服务器 | 停机 20 分钟 |\n",
        },
        "restructured",
        "d-0a33e978eaf1",
    ),
]


@pytest.mark.parametrize(
    ("rule", "files", "kind", "ident"), CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES]
)
def test_each_rule_shows_its_dress_and_keeps_its_id(make_ws, rule, files, kind, ident):
    items = duplicates(make_ws(files), TODAY)
    assert kind in KINDS
    if rule in FORMER_RULES:  # found by the substance measure now: the old id still hides it
        (item,) = items
        assert item["kind"] == kind and ident in item["former_ids"]
    else:  # (the measure may find one more line of the same copy beside the rule's item)
        assert (kind, ident) in {(it["kind"], it["id"]) for it in items}


def test_a_pair_hidden_under_the_id_its_former_rule_gave_stays_hidden(make_ws):
    from memreview.scan import scan_workspace

    rule, files, _kind, old = next(c for c in CASES if c[0] == "value")
    ws = make_ws(files)
    (item,) = duplicates(ws, TODAY)
    assert old in item["former_ids"] and item["id"] != old
    state = Path(ws.root) / ".memreview" / "state.yaml"
    state.parent.mkdir(exist_ok=True)
    state.write_text(
        f"hidden:\n  {old}:\n    until: null\n    reason: not-duplicate\n    batch: b1\n",
        encoding="utf-8",
    )
    shown = scan_workspace(ws.root, today=TODAY, cache=False).queues["duplicates"]
    assert item["id"] not in {it["id"] for it in shown}
    state.write_text("hidden: {}\n", encoding="utf-8")
    shown = scan_workspace(ws.root, today=TODAY, cache=False).queues["duplicates"]
    assert item["id"] in {it["id"] for it in shown}
