"""Label lines, field lines, records and tables (docs/design.md §1.1)."""

from __future__ import annotations

import pytest

from memreview.workspace.fields import file_fields, label_of, width


def entry_at(ws, rel, line):
    return next(e for e in ws.files[rel].entries if e.line == line)


@pytest.mark.parametrize(
    ("line", "label"),
    [
        ("- Email: a@b.c", ("email", "a@b.c")),
        ("- **Email:** a@b.c", ("email", "a@b.c")),
        ("- **时间**: 10:01", ("时间", "10:01")),
        ("- 止损：回撤8%", ("止损", "回撤8%")),
        ("- 2FA: hardware key", ("2fa", "hardware key")),
        ("- See https://example.com for details", None),
        ("- meet at 10:05 with Sam", None),
        ("- **重要：** 主人的手机号不能公开", None),  # an emphasis, not a field
        ("- Note: the gateway needs the owner", None),
        ("- Restart the gateway, then check: logs and cron", None),  # a sentence, not a label
        ("- plain bullet", None),
    ],
)
def test_label_lines(make_ws, line, label):
    ws = make_ws({"MEMORY.md": line + "\n"})
    assert label_of(ws.files["MEMORY.md"].entries[0]) == label


def test_a_label_repeated_once_per_record_makes_field_lines(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "# M\n### GitHub\n- Email: a@b.c\n- Plan: Team\n"
            "### npm\n- Email: a@b.c\n- Plan: Free\n## Tools\n- Config file: ~/.x/config.toml\n"
        }
    )
    ff = file_fields(ws.files["MEMORY.md"])
    fields = [e.line for e in ws.files["MEMORY.md"].entries if ff.is_field(e)]
    assert fields == [3, 4, 6, 7]
    assert [(r.heading, [e.line for e in r.entries]) for r in ff.records] == [
        ("GitHub", [3, 4]),
        ("npm", [6, 7]),
    ]


def test_a_label_repeated_within_one_record_is_not_a_field(make_ws):
    ws = make_ws({"MEMORY.md": "## Rules\n- Rule: a\n- Rule: b\n## More\n- Rule: c\n"})
    ff = file_fields(ws.files["MEMORY.md"])
    assert not any(ff.is_field(e) for e in ws.files["MEMORY.md"].entries)


def test_a_row_label_in_two_tables_is_a_field_row_but_a_date_is_not(make_ws):
    table = "| 项目 | 周二 |\n|---|---|\n| 体感 | - |\n| {d} | x |\n| 心率{n} | <145 |\n"
    ws = make_ws(
        {
            "MEMORY.md": "## A\n"
            + table.format(d="2026-01-01", n="")
            + "## B\n"
            + table.format(d="2026-01-01", n="区间")
        }
    )
    mf = ws.files["MEMORY.md"]
    ff = file_fields(mf)
    assert [e.line for e in mf.entries if ff.is_field(e)] == [4, 10]
    assert len(set(ff.tables.values())) == 2


def test_width_counts_a_cjk_character_as_two():
    assert width("ab") == 2
    assert width("网关") == 4
    assert width("ＡＢ") == 4
