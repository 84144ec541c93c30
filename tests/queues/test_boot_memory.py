"""Boot memory (docs/design.md §2, issue 28): what the agent sees at every session start is never a
demotion candidate for being unused; what lies outside the bootstrap window is judged by its
recalls. The window, and what OpenClaw's promotion-budget compaction deletes next."""

from __future__ import annotations

from datetime import date, timedelta

from memreview.queues.demotion import demotion
from memreview.workspace.boot import compaction_next, seen_at_boot, window_of

TODAY = date(2026, 11, 29)


def day(n: int) -> str:
    return (TODAY - timedelta(days=n)).isoformat()


def old_anchor(aid: str) -> str:
    return f"## [FACT:{aid}]\nAdded: {day(40)}\nplain body of {aid}\n---\n"


AGENTS = "# AGENTS.md\n\n- Read MEMORY.md first.\n"
FILLER = "".join(f"- filler line {k:05d} about nothing in particular at all\n" for k in range(600))


def promotion(section_day: str, n: int) -> str:
    return (
        f"## Promoted From Short-Term Memory ({section_day})\n\n"
        f"<!-- openclaw-memory-promotion:memory:memory/2026-09-01.md:{n}:{n} -->\n"
        f"- Gateway rule number {n} [score=0.81 signals=4 recalls=0 avg=0.66 "
        f"source=memory/2026-09-01.md:{n}-{n}]\n\n"
    )


def _events() -> dict:
    return {
        "memory/.dreams/events.jsonl": [
            {
                "type": "memory.recall.recorded",
                "timestamp": f"{day(80)}T09:00:00Z",
                "query": "q",
                "results": [{"path": "memory/x.md", "startLine": 1, "endLine": 1, "score": 0.7}],
            }
        ]
    }


def test_an_unused_anchor_in_memory_md_seen_at_boot_is_not_demoted_one_past_the_window_is(
    make_ws,
):
    memory = "# Memory\n\n" + old_anchor("at-boot") + FILLER + old_anchor("in-gap") + FILLER
    ws = make_ws(
        {
            "MEMORY.md": memory,
            "AGENTS.md": AGENTS,
            "memory/notes.md": "# N\n" + old_anchor("elsewhere"),
            "memory/recall_log.jsonl": [],
        }
    )
    w = seen_at_boot(ws)["MEMORY.md"]
    assert w.chars > 20_000 and w.unseen is not None
    ids = sorted(i["anchor"]["anchor"] for i in demotion(ws, TODAY))
    assert ids == ["elsewhere", "in-gap"]


def test_an_unrecalled_promotion_seen_at_boot_is_kept_one_outside_the_window_is_a_candidate(
    make_ws,
):
    memory = "# Memory\n\n" + promotion(day(60), 3) + FILLER + promotion(day(50), 7) + FILLER
    ws = make_ws({"MEMORY.md": memory} | _events())
    items = demotion(ws, TODAY)
    assert [i["promoted"] for i in items] == [day(50)]


def test_a_small_memory_md_is_all_boot_memory_whatever_its_recalls(make_ws):
    files = {"MEMORY.md": "# M\n" + old_anchor("tip"), "memory/recall_log.jsonl": []}
    assert demotion(make_ws(files | {"AGENTS.md": AGENTS}), TODAY) == []


def test_without_openclaw_memory_md_is_not_boot_memory_the_boot_files_name_it(make_ws):
    """Another loader's workspace lists its boot memory in *.boot.md: the rest is judged."""
    files = {
        "MEMORY.md": "# M\n" + old_anchor("tip") + old_anchor("listed"),
        "agent.boot.md": "- [[listed]]\n",
        "memory/recall_log.jsonl": [],
    }
    assert [i["anchor"]["anchor"] for i in demotion(make_ws(files), TODAY)] == ["tip"]


def test_the_window_is_the_first_75_and_the_last_25_percent_of_20000_characters():
    texts = ["x" * 99] * 400  # 40,000 characters in 400 lines of 100
    w = window_of("MEMORY.md", texts, 20_000)
    assert (w.head, w.tail) == (15_000, 5_000)
    assert w.unseen == (151, 350)  # line 151 starts at character 15,000; line 351 at 35,000
    assert w.sees(150) and not w.sees(151) and not w.sees(350) and w.sees(351)


def test_user_md_has_a_4000_character_window(make_ws):
    ws = make_ws({"USER.md": "- about the owner\n" * 400, "AGENTS.md": "- rule\n"})
    boot = seen_at_boot(ws)
    assert boot["USER.md"].cap == 4_000 and boot["USER.md"].unseen is not None
    assert boot["AGENTS.md"].unseen is None


def test_compaction_deletes_the_oldest_compactable_sections_until_within_budget():
    sections = "".join(promotion(f"2026-0{m}-01", m) for m in range(1, 9))
    texts = ("# Memory\n\n" + "- " + "y" * 9_500 + "\n\n" + sections).split("\n")
    gone = compaction_next(texts, 10_000)
    assert [s.heading for s in gone] == [
        "Promoted From Short-Term Memory (2026-01-01)",
        "Promoted From Short-Term Memory (2026-02-01)",
    ]
    assert compaction_next(texts, 100_000) == []
