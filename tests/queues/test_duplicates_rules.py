"""Issue 12's duplicates rules, each on both sides: what is one fact stored twice, and the
look-alikes from real workspaces that are not (docs/design.md §2)."""

from __future__ import annotations

from datetime import date

from memreview.queues.duplicates import duplicates

TODAY = date(2026, 11, 30)


def shown(ws):
    return sorted(
        (i["kind"], tuple(sorted(f"{r['file']}:{r['line']}" for r in i["refs"])))
        for i in duplicates(ws, TODAY)
    )


ACCOUNTS = "".join(
    f"### {name}\n- **Email:** ops@northwind.dev\n- **Plan:** {plan}\n- **Owner:** Dana\n"
    for name, plan in (("GitHub", "Team"), ("Vercel", "Pro"), ("npm", "Free"))
)


# -- shape 1: field lines belong to their records ------------------------------------------


def test_field_lines_repeated_across_records_are_not_duplicates(make_ws):
    ws = make_ws({"MEMORY.md": "# M\n## Accounts\n" + ACCOUNTS})
    assert shown(ws) == []


def test_weekly_table_rows_with_a_repeated_label_are_not_duplicates(make_ws):
    week = "### W{n}\n| 项目 | 周二 | 周四 |\n|---|---|---|\n| 体感 | - | - |\n| 备注 | 跑前热身十分钟以上 | 跑前热身十分钟以上 |\n"
    ws = make_ws({"MEMORY.md": "# 训练\n" + week.format(n=1) + week.format(n=2)})
    assert shown(ws) == []


def test_a_record_copied_whole_into_another_file_is_one_record_item(make_ws):
    record = (
        "### 2026-11-03 选择向量库\n- **时间**: 10:01\n- **结论**: 用 pgvector，不上独立向量库\n"
    )
    other = "### 2026-11-03 部署方式\n- **时间**: 10:05\n- **结论**: 先单机 docker compose\n"
    ws = make_ws({"MEMORY.md": "# M\n" + record + other, "memory/facts-d.md": "# D\n" + record})
    assert shown(ws) == [("restructured", ("MEMORY.md:3", "memory/facts-d.md:3"))]


def test_a_line_shared_by_two_records_that_disagree_elsewhere_is_not_a_duplicate(make_ws):
    a = "### GitHub\n- Email: ops@northwind.dev\n- Plan: Team plan with two seats\n"
    b = "### GitLab\n- Email: ops@northwind.dev\n- Plan: Free plan, one seat\n"
    ws = make_ws({"MEMORY.md": "# M\n" + a, "memory/facts-d.md": "# D\n" + b})
    assert shown(ws) == []
    # the same two records agreeing on every field: the lines are copies
    ws = make_ws({"MEMORY.md": "# M\n" + a, "memory/facts-d.md": "# D\n" + a.replace("Hub", "Lab")})
    assert [k for k, _ in shown(ws)] == ["exact", "exact"]


def test_records_whose_values_differ_only_in_dress_agree(make_ws):
    # a full-width colon, bold and quotes are dress: the two records hold the same values
    a = "### 看板\n- **表名**：“销售漏斗”\n- **列**：公司、阶段、金额、下次跟进\n"
    b = "### 看板\n- 表名: 销售漏斗\n- 列: 公司、阶段、金额、下次跟进\n"
    ws = make_ws({"MEMORY.md": "# M\n" + a, "memory/facts-crm.md": "# C\n" + b})
    assert ("near", ("MEMORY.md:4", "memory/facts-crm.md:4")) in shown(ws)
    # the look-alike: another sheet with the same columns is another record
    c = b.replace("销售漏斗", "招聘漏斗")
    ws = make_ws({"MEMORY.md": "# M\n" + a, "memory/facts-crm.md": "# C\n" + c})
    assert shown(ws) == []


# -- shape 2: parallel facts ---------------------------------------------------------------


def test_a_near_pair_differing_in_a_number_is_not_a_duplicate(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "- 周四慢跑 40 分钟，心率控制在 145 以下\n- 周四慢跑 40 分钟，心率控制在 148 以下\n"
        }
    )
    assert shown(ws) == []


def test_a_near_pair_differing_in_a_function_word_is_a_duplicate(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "- 周四慢跑四十分钟，心率控制在安全区以下\n- 周四慢跑四十分钟，心率就控制在安全区以下\n"
        }
    )
    assert shown(ws) == [("near", ("MEMORY.md:1", "MEMORY.md:2"))]


# -- shape 3 is in test_duplicates_queue (widths) ------------------------------------------
# -- shape 4: only what the agent loads every session --------------------------------------


SUMMARY = "## Findings\n- BM25 stays ahead on exact product codes\n## Open questions\n- BM25 stays ahead on exact product codes\n"


def test_a_summary_restating_its_own_document_is_not_a_duplicate(make_ws):
    for title in ("Summary", "TL;DR", "总结", "要点"):
        text = SUMMARY.replace("Open questions", title)
        assert shown(make_ws({"MEMORY.md": text})) == []
    # the same point in another section, or in another file's summary, is a duplicate
    assert shown(make_ws({"MEMORY.md": SUMMARY})) == [("exact", ("MEMORY.md:2", "MEMORY.md:4"))]
    other = {"MEMORY.md": "## Findings\n- BM25 stays ahead on exact product codes\n"}
    other["memory/bm25.md"] = "## Summary\n- BM25 stays ahead on exact product codes\n"
    assert shown(make_ws(other)) == [("exact", ("MEMORY.md:2", "memory/bm25.md:2"))]


def test_a_document_repeating_itself_outside_curated_files_is_not_reported(make_ws):
    assert shown(make_ws({"memory/research/bm25.md": SUMMARY})) == []


def test_scope_all_compares_every_file(make_ws):
    ws = make_ws(
        {"memory/research/bm25.md": SUMMARY, "memreview.yaml": "duplicates: {scope: all}\n"}
    )
    assert shown(ws) == [("exact", ("memory/research/bm25.md:2", "memory/research/bm25.md:4"))]


def test_curated_globs_and_anchor_files_are_curated(make_ws):
    ws = make_ws(
        {"memory/research/bm25.md": SUMMARY, "memreview.yaml": "curated: [memory/research/*.md]\n"}
    )
    assert len(shown(ws)) == 1
    anchors = "## [FACT:x]\nAdded: 2026-01-01\n---\n" + SUMMARY
    assert len(shown(make_ws({"memory/knowledge.md": anchors}))) == 1


# -- shape 5: promoted snippets share their source heading ----------------------------------

PREFIX = "AIX Midday Monitor Cron — Second Fix (2026-11-21): "


def test_a_long_fingerprint_group_needs_agreement_beyond_the_shared_prefix(make_ws):
    a = PREFIX + "the cron now runs at 12:15 local time so the snapshot is complete"
    b = PREFIX + "alerts above the drawdown limit are posted with the chart attached"
    ws = make_ws(
        {"MEMORY.md": f"## P\n- {a}\n- {b}\n- {a} [score=0.8 recalls=3 avg=0.6 source=x]\n"}
    )
    assert shown(ws) == [("fingerprint", ("MEMORY.md:2", "MEMORY.md:4"))]


def test_a_short_fingerprint_group_keeps_seed_002s_rule(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "## P\n- Galxe 赏金提交后要等审批（2026-04-10）\n- Galxe 赏金提交后要等审批 (2026-05-02)\n"
        }
    )
    assert shown(ws) == [("fingerprint", ("MEMORY.md:2", "MEMORY.md:3"))]


# -- shape 6: the same fact in two files ----------------------------------------------------


def test_a_fact_copied_into_a_facts_file_is_one_copy_item(make_ws):
    fact = "- 晨起静息心率超过 60 说明没恢复好\n"
    ws = make_ws({"MEMORY.md": "# M\n" + fact, "memory/facts-health.md": "# F\n- x\n" + fact})
    assert shown(ws) == [("exact", ("MEMORY.md:2", "memory/facts-health.md:3"))]


def test_every_copy_of_a_curated_fact_is_in_its_item(make_ws):
    fact = "- 晨起静息心率超过 60 说明没恢复好\n"
    ws = make_ws({"MEMORY.md": "# M\n" + fact, "memory/facts-health.md": "# F\n" + fact + fact})
    assert shown(ws) == [
        ("exact", ("MEMORY.md:2", "memory/facts-health.md:2", "memory/facts-health.md:3"))
    ]


# -- shape 11: the same fact in other dress (one measure: shared substance, `restructured`) --------------------------------------------------


def test_the_same_value_under_two_labels_is_a_duplicate(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "## Tools\n- Config file: ~/.agent/config.toml\n",
            "memory/notes.md": "## 工具\n- 配置: ~/.agent/config.toml\n",
        }
    )
    assert shown(ws) == [("restructured", ("MEMORY.md:2", "memory/notes.md:2"))]


def test_a_labelled_value_and_the_same_text_as_a_bare_bullet_are_a_duplicate(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "## Offer\n- Base salary of 90K plus yearly bonus\n",
            "memory/facts-job.md": "## Job\n- Pay: base salary of 90K plus yearly bonus\n",
        }
    )
    assert shown(ws) == [("restructured", ("MEMORY.md:2", "memory/facts-job.md:2"))]
    # the look-alike: another figure is another offer
    ws = make_ws(
        {
            "MEMORY.md": "## Offer\n- Base salary of 90K plus yearly bonus\n",
            "memory/facts-job.md": "## Job\n- Pay: base salary of 95K plus yearly bonus\n",
        }
    )
    assert shown(ws) == []


def test_a_value_shared_by_more_than_two_label_lines_is_not_a_duplicate(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "## Owner\n- Contact: ops@northwind.dev\n",
            "memory/accounts.md": "# A\n" + ACCOUNTS,
        }
    )
    assert shown(ws) == []


def test_an_e_mail_or_a_date_under_two_labels_is_not_one_fact(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "## A\n- GitHub login: dana@northwind.dev\n## B\n- Deadline: 2026-12-01 18:00\n",
            "memory/notes.md": "## C\n- npm account: dana@northwind.dev\n## D\n- 上线：2026-12-01 18:00\n",
        }
    )
    assert shown(ws) == []


def test_two_fields_of_one_record_sharing_a_value_are_not_a_duplicate(make_ws):
    ws = make_ws(
        {"MEMORY.md": "## GitHub\n- Login: ops@northwind.dev\n- Email: ops@northwind.dev\n"}
    )
    assert shown(ws) == []


def test_a_table_row_and_a_bullet_with_the_same_values_are_a_duplicate(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "## 纪律\n| 规则 | 设定 |\n|---|---|\n| 止损 | 回撤 8% |\n| 止盈 | 盈利 25% |\n",
            "memory/facts-trading.md": "# 事实\n- 止损：回撤8%\n- 止盈：盈利 20%\n",
        }
    )
    assert shown(ws) == [("restructured", ("MEMORY.md:4", "memory/facts-trading.md:2"))]


def test_a_bullet_restating_a_table_row_in_a_sentence_is_a_duplicate(make_ws):
    table = "# Layout\n| Kind | Where |\n|---|---|\n| Meeting notes | `notes/meetings/` |\n"
    ws = make_ws(
        {
            "memory/layout.md": table,
            "MEMORY.md": "## Hygiene\n- Meeting notes belong under `notes/meetings/`\n",
        }
    )
    assert shown(ws) == [("restructured", ("MEMORY.md:2", "memory/layout.md:4"))]
    # the look-alike: the bullet names another path beside the row's: another fact
    ws = make_ws(
        {
            "memory/layout.md": table,
            "MEMORY.md": "## Hygiene\n- Meeting notes move from `notes/meetings/` to `archive/`\n",
        }
    )
    assert shown(ws) == []


def test_the_same_dated_record_in_two_tables_with_different_columns(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "## 里程碑\n| 日期 | 事件 |\n|---|---|\n| 2026-10-03 | 迁移到新服务器 |\n| 2026-10-09 | 换域名 |\n",
            "memory/ops.md": "# 运维\n| 日期 | 事件 | 影响 |\n|---|---|---|\n| 2026-10-03 | 迁移到新服务器 | 停机 20 分钟 |\n| 2026-10-09 | 续费证书 | 无 |\n",
        }
    )
    assert shown(ws) == [("restructured", ("MEMORY.md:4", "memory/ops.md:4"))]


def test_a_dated_row_whose_note_cell_lists_the_other_rows_cells_is_the_same_record(make_ws):
    mem = "## 骑行\n| 日期 | 距离 | 备注 |\n|---|---|---|\n| 2026-09-02 | 21km | 通勤，顶风 |\n"
    log = "# 骑行记录\n| 日期 | 类型 | 距离 | 备注 |\n|---|---|---|---|\n| 2026-09-02 | 通勤 | 21km | 顶风 |\n"
    ws = make_ws({"MEMORY.md": mem, "memory/rides.md": log})
    assert shown(ws) == [("restructured", ("MEMORY.md:4", "memory/rides.md:4"))]
    # the look-alike: the same day, another ride
    ws = make_ws({"MEMORY.md": mem, "memory/rides.md": log.replace("顶风", "下雨")})
    assert shown(ws) == []


BLOCK = (
    "- Pull main and run the smoke tests before tagging\n"
    "- Bump the version in pyproject.toml and the changelog\n"
    "- Tag as vX.Y.Z and push the tag, never the branch\n"
)


def test_a_copied_block_is_reported_once(make_ws):
    ws = make_ws({"MEMORY.md": "## Deploy\n" + BLOCK + "## Copy\n- intro line\n" + BLOCK})
    assert shown(ws) == [("block", ("MEMORY.md:2", "MEMORY.md:7"))]


def test_a_run_repeated_in_three_sections_is_a_template_not_a_copy(make_ws):
    weeks = "".join(f"## Week {n}\n" + BLOCK for n in (1, 2, 3))
    ws = make_ws({"MEMORY.md": weeks})
    assert shown(ws) == []  # neither a block nor its lines
    # the same run in three files is copied: each line one group of three
    files = {
        rel: f"## {n}\n" + BLOCK
        for n, rel in enumerate(("MEMORY.md", "memory/a.md", "memory/b.md"))
    }
    assert [k for k, _ in shown(make_ws(files))] == ["exact"] * 3


def test_a_run_carrying_its_headings_into_three_places_is_one_block(make_ws):
    part = (
        "## Deploy\n"
        + BLOCK
        + "## After\n- Announce the release in the team channel with the notes\n"
    )
    ws = make_ws({"MEMORY.md": "# M\n" + part + "## Pasted\n" + part + part})
    assert shown(ws) == [("block", ("MEMORY.md:15", "MEMORY.md:2", "MEMORY.md:9"))]


def test_two_lines_in_common_are_not_a_block(make_ws):
    two = "".join(BLOCK.splitlines(keepends=True)[:2])
    ws = make_ws({"MEMORY.md": "## Deploy\n" + two + "## Copy\n" + two})
    assert [k for k, _ in shown(ws)] == ["exact", "exact"]


def test_an_unknown_scope_is_warned_about_and_curated_used(make_ws):
    ws = make_ws(
        {"memory/research/bm25.md": SUMMARY, "memreview.yaml": "duplicates: {scope: everything}\n"}
    )
    assert shown(ws) == []
    assert any("duplicates scope 'everything'" in w.message for w in ws.warnings)
