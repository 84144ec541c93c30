"""The weekly report: its sections and figures, the command, the output file."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from report_helpers import EXPECTED_LAST_WEEKS, HOSTILE, STAMPED, TODAY, write_files

from memreview.cli.parser import add_report_parser
from memreview.health import summarize_weeks, weekly_growth
from memreview.report import md_text, weekly_report
from memreview.scan import scan_workspace
from memreview.store import recent_decisions


def section(report: str, title: str) -> str:
    """The text of the ``## title`` section (up to the next heading of level 2)."""
    start = report.index(f"## {title}")
    end = report.find("\n## ", start + 1)
    return report[start : end if end != -1 else len(report)]


def run_report(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="memreview")
    add_report_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["report", *argv])
    return args.func(args)


def test_report_has_every_section_in_order(report_ws):
    report = weekly_report(report_ws, TODAY)
    titles = [
        "Alarms (",
        "Queues",
        "Health",
        "Growth",
        "Decisions in the last 7 days",
        "The judge's report card",
        "Warnings",
    ]
    positions = [report.index(f"\n## {t}") for t in titles]
    assert positions == sorted(positions)
    assert report.startswith("# Weekly memory review — ws — 2026-07-06\n")


def test_queue_counts_and_top_items_match_the_scan(report_ws):
    report = weekly_report(report_ws, TODAY)
    queues = section(report, "Queues")
    assert "| contradictions | 1 | 0 |  |" in queues
    assert "| duplicates | 1 | 0 |  |" in queues
    assert "| dormant | 1 | 0 |  |" in queues
    assert "| supersede | 0 | 0 | no judge proposals" in queues
    assert f"| promotions | {len(STAMPED)} | 0 |  |" in queues  # the 自动沉淀 entries
    assert f"| **all** | {3 + len(STAMPED)} | 0 | |" in queues
    assert "### contradictions (1)\n\n- alpha ⟷ beta\n" in queues
    assert "- Old garden — never mentioned" in queues
    assert "### supersede" not in queues  # empty queues get no list


def test_only_the_top_five_items_of_a_queue_are_listed(tmp_path):
    bullets = "".join(
        f"- a note about topic {w} {w}\n- a note about topic {w} {w}\n" for w in "abcdefg"
    )
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# M\n\n" + bullets})
    report = weekly_report(root, TODAY)
    queues = section(report, "Queues")
    assert "### duplicates (7)" in queues
    assert queues.count("(the same fingerprint)") == 5
    assert "- … and 2 more" in queues


def test_health_figures_against_their_budgets(report_ws):
    health = section(weekly_report(report_ws, TODAY), "Health")
    assert "| MEMORY.md lines | 31 | 500 | ok (6%) |" in health
    assert "| HEARTBEAT.md lines | 60 | 50 | **over budget** (120%) |" in health
    assert (
        "open for more than 3 days: 1\n  - Renew the domain (2026-06-20) (16 days, line 4)"
        in health
    )
    assert "missing in the last 7 days: 2026-07-02, 2026-07-04" in health
    assert "Empty daily logs: 1\n  - memory/2026-07-01.md" in health
    assert "untouched for 30 days: 1\n  - memory/projects/old-garden.md" in health
    assert "Dreaming diary: no run found" in health


def test_memory_over_the_token_budget_is_flagged(tmp_path):
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# 记忆\n\n- " + "记" * 12_500 + "\n"})
    health = section(weekly_report(root, TODAY), "Health")
    assert "| MEMORY.md tokens (estimated) | 12,504 | 12,000 | **over budget** (104%) |" in health


def test_growth_per_week_slope_and_acceleration_on_known_dates(report_ws):
    result = scan_workspace(report_ws, TODAY)
    growth = result.health["growth"]
    assert growth["weeks"][-4:] == EXPECTED_LAST_WEEKS
    assert growth["weeks"][4] == 2  # the two anchors Added 2026-05-01 and 05-02
    assert growth["week_starts"][0] == "2026-03-31"
    assert growth["slope_4w"] == 1.3 and growth["accelerating"]

    text = section(weekly_report(report_ws, TODAY), "Growth")
    assert "| 2026-04-28 | 2 |" in text
    assert "| 2026-06-23 | 3 |\n| 2026-06-30 | 5 |" in text
    assert "changed by +1.30 a week (the four weeks before: +0.00) — **accelerating**" in text
    assert "Git history not used: not a git repository." in text


def test_summarize_weeks_agrees_with_health_growth():
    dates = [TODAY.replace(day=d) for d in (1, 2, 2, 3)] + [TODAY.replace(month=6, day=1)]
    expected = weekly_growth(dates, TODAY)
    assert summarize_weeks(expected["weeks"], expected["week_starts"]) == expected


def test_falling_growth_is_not_accelerating():
    g = summarize_weeks([0] * 10 + [5, 3, 2, 1], ["w"] * 14)
    assert g["slope_4w"] == -1.3 and not g["accelerating"]


def test_decisions_of_the_last_seven_days_without_undone_or_conflicted_ones(report_ws):
    journal = recent_decisions(report_ws, TODAY)
    items = [(d["date"], d["item"], d["action"]) for d in journal["decisions"]]
    assert items == [
        ("2026-07-03", "d-keep-one", "keep"),
        ("2026-07-03", "s-rejected", "reject"),
        ("2026-07-05", "c-kept", "keep-both"),
    ]
    assert journal["undone_batches"] == ["b2"]
    assert journal["interrupted"] == [{"date": "2026-07-05", "batch": "b4"}]
    assert [w["line"] for w in journal["warnings"]] == [6]  # the torn line, skipped

    text = section(weekly_report(report_ws, TODAY), "Decisions in the last 7 days")
    assert "3 decisions in 2 batches" in text
    assert "- 2026-07-03 · keep · d-keep-one (queue duplicates, keep 2)" in text
    for absent in ("x-too-old", "c-undone", "c-conflicted", "c-cut"):
        assert md_text(absent) not in text
    assert "1 batch was undone" in text
    assert "(b4) was cut short" in text


def test_a_one_line_undo_record_also_takes_a_batch_back(tmp_path):
    root = write_files(
        tmp_path / "ws",
        {
            "MEMORY.md": "# M\n",
            ".memreview/journal.jsonl": [
                {
                    "type": "intent",
                    "batch": "b1",
                    "ts": "2026-07-05T10:00:00Z",
                    "decisions": [{"item": "i-1", "action": "approve"}],
                },
                {"type": "commit", "batch": "b1", "ts": "2026-07-05T10:00:01Z"},
                {"type": "undo", "batch": "u1", "undoes": "b1", "ts": "2026-07-05T11:00:00Z"},
            ],
        },
    )
    assert recent_decisions(root, TODAY)["decisions"] == []


def test_untrusted_memory_text_is_escaped_in_the_report(report_ws):
    report = weekly_report(report_ws, TODAY)
    assert "\x1b" not in report and "\u202e" not in report
    line = next(x for x in report.split("\n") if "Evil" in x)
    assert line.startswith(
        "- \\- ␛\\[31m# Evil \\[@click=app.quit\\] \\<script\\>x\\</script\\> \\| pipe \\<U+202E\\>"
    )
    assert line.endswith(" — 2 entries (the same fingerprint)")


def test_md_text_escapes_controls_markup_and_leading_block_markers():
    assert md_text("\x1b[2J") == "␛\\[2J"
    assert md_text("a\u202eb\u2066c") == "a\\<U+202E\\>b\\<U+2066\\>c"
    assert md_text("x\x00y\x7fz\x85") == "x␀y␡z\\<U+0085\\>"
    assert md_text("# heading") == "\\# heading"
    assert md_text("- item") == "\\- item"
    assert md_text("12. item") == "12\\. item"
    assert md_text("&#8238; <b>*_`~|") == "\\&#8238; \\<b\\>\\*\\_\\`\\~\\|"
    assert md_text("two\nlines\tand  spaces") == "two lines and spaces"
    assert md_text("a" * 10, width=5) == "aaaa…"
    assert md_text(HOSTILE).count("\\|") == 1


def test_report_command_prints_markdown_and_exits_0(report_ws, capsys):
    assert run_report([str(report_ws), "--today", "2026-07-06"]) == 0
    out = capsys.readouterr().out
    assert out == weekly_report(report_ws, TODAY)


def test_report_command_writes_the_out_file_whole(report_ws, tmp_path, capsys):
    out = tmp_path / "reports" / "week.md"
    out.parent.mkdir()
    out.write_text("last week's report\n")
    assert run_report([str(report_ws), "--today", "2026-07-06", "--out", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert out.read_text(encoding="utf-8") == weekly_report(report_ws, TODAY)
    assert [p.name for p in out.parent.iterdir()] == ["week.md"]  # no temp file left


@pytest.mark.parametrize(
    "target", ["memory/report.md", "memory/projects/r.md", "MEMORY.md", ".memreview/r.md"]
)
def test_report_refuses_to_write_into_the_workspace_memory(report_ws, capsys, target):
    before = {p: p.read_bytes() for p in report_ws.rglob("*") if p.is_file()}
    assert run_report([str(report_ws), "--out", str(report_ws / target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("memreview: --out ") and err.count("\n") == 1
    after = {p: p.read_bytes() for p in report_ws.rglob("*") if p.is_file()}
    assert after == before


def test_report_refuses_a_symlink_that_leads_into_memory(report_ws, tmp_path, capsys):
    link = tmp_path / "innocent.md"
    link.symlink_to(report_ws / "MEMORY.md")
    assert run_report([str(report_ws), "--out", str(link)]) == 2
    assert "refusing" in capsys.readouterr().err


def test_report_on_a_non_workspace_exits_2_with_one_line(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert run_report([str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("memreview: ") and err.count("\n") == 1 and "no such directory" in err


def test_report_with_a_bad_date_exits_2(report_ws, capsys):
    with pytest.raises(SystemExit) as exc:
        run_report([str(report_ws), "--today", "2026-02-30"])
    assert exc.value.code == 2
    assert "not a date" in capsys.readouterr().err


def test_review_date_from_the_workspace_config_is_used(tmp_path):
    root = write_files(
        tmp_path / "ws", {"MEMORY.md": "# M\n", "memreview.yaml": "review_date: 2026-05-04\n"}
    )
    assert "Review date: 2026-05-04" in weekly_report(Path(root))


def test_alarms_come_first_with_evidence_and_what_to_do(tmp_path):
    body = "".join(f"- fact number {k} about the workspace and its habits\n" for k in range(600))
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# Memory\n" + body})
    report = weekly_report(root, TODAY)
    alarms = section(report, "Alarms (1)")
    assert report.index("## Alarms (1)") < report.index("## Queues")
    assert "- **memory-over-bootstrap**: MEMORY.md is" in alarms
    assert "  - what to do: move what the agent must always see above the cut" in alarms
    quiet = write_files(tmp_path / "quiet", {"MEMORY.md": "# Memory\n- a rule\n"})
    assert "## Alarms (0)\n\nNo alarm fired." in weekly_report(quiet, TODAY)
