"""The health view and the report show boot memory: each bootstrap file against its window,
the lines the agent never sees, and what OpenClaw's compaction deletes next (issue 28)."""

from __future__ import annotations

from datetime import date

from memreview.app.widgets.health import boot_text
from memreview.health import health
from memreview.report_boot import boot_lines

TODAY = date(2026, 11, 29)
CONFIG = "".join(
    f"interface vlan{k}\n  description segment {k} of the flat\n!\n" for k in range(700)
)


def _promotion(day: str, n: int) -> str:
    return (
        f"## Promoted From Short-Term Memory ({day})\n\n"
        f"<!-- openclaw-memory-promotion:memory:memory/2026-09-01.md:{n}:{n} -->\n"
        f"- Gateway rule number {n} [score=0.81 recalls=0 avg=0.66 "
        f"source=memory/2026-09-01.md:{n}-{n}]\n\n"
    )


def _ws(make_ws):
    memory = (
        "# Memory\n\n"
        + "".join(_promotion(f"2026-0{m}-01", m) for m in range(1, 5))
        + "## Router config\n\n```\n"
        + CONFIG
        + "```\n"
    )
    return make_ws({"MEMORY.md": memory, "AGENTS.md": "# Agents\n\n- be brief\n"})


def test_health_lists_each_bootstrap_file_its_unseen_lines_and_the_sections_deleted_next(make_ws):
    boot = health(_ws(make_ws), TODAY)["boot"]
    by_file = {f["file"]: f for f in boot["files"]}
    assert by_file["AGENTS.md"]["unseen"] is None
    mem = by_file["MEMORY.md"]
    assert mem["chars"] > 20_000 and mem["cap"] == 20_000
    first, last = mem["unseen"]
    assert 20 < first < last and [h for _l, h in mem["sections"]] == ["Router config"]
    pb = boot["promotion_budget"]
    assert pb["budget"] == 10_000
    assert [s["heading"] for s in pb["deletes_next"]] == [
        "Promoted From Short-Term Memory (2026-01-01)"
    ]


def test_the_health_view_and_the_report_say_it_in_words(make_ws):
    boot = health(_ws(make_ws), TODAY)["boot"]
    text = boot_text(boot, "green", "red", 20).plain
    assert "not seen at boot: lines" in text and "Router config" in text
    assert "its compaction deletes next" in text and "(2026-01-01)" in text
    report = "\n".join(boot_lines({"boot": boot}))
    assert "MEMORY.md: " in report and "not seen at boot" in report
    assert "deleted next by its compaction: Promoted From Short-Term Memory (2026-01-01)" in report


def test_a_workspace_without_bootstrap_files_has_no_boot_figures(make_ws):
    ws = make_ws({"memory/MEMORY.md": "# M\n\n- a fact\n"})
    assert health(ws, TODAY)["boot"] is None
    assert boot_lines({"boot": None}) == []
