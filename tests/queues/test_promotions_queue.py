"""The promotions queue: promoted entries found in both OpenClaw generations, consolidation
sections and Lingxi stamps; each junk flag fires on true junk and stays quiet on the real
lessons that look like it (English and Chinese)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from shared_helpers import walks_of

from memreview.queues.promotions import promotions, split_tail, stripped_body
from memreview.workspace.loader import load_workspace

TODAY = date(2026, 11, 30)
HEAD = "# MEMORY.md\n\n## Promoted From Short-Term Memory (2026-11-28)\n\n"


def _bullet(text: str, n: int, recalls: int = 4, src: str = "memory/2026-11-27.md") -> str:
    return (
        f"<!-- openclaw-memory-promotion:memory:{src}:{n}:{n} -->\n"
        f"- {text} [score=0.801 signals=4 recalls={recalls} avg=0.700 source={src}:{n}-{n}]"
        f" <!-- trigger: a, b --> <!-- importance: 8 -->\n\n"
    )


def _scan(tmp_path: Path, memory: str, files: dict[str, str] | None = None) -> list[dict]:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_bytes(memory.encode("utf-8"))
    log = "".join(f"- daily line {k}\n" for k in range(1, 40))
    (root / "memory" / "2026-11-27.md").write_bytes(log.encode("utf-8"))
    for rel, text in (files or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(text.encode("utf-8"))
    return promotions(load_workspace(root), TODAY)


def _flags_of(tmp_path: Path, text: str, **kw) -> set[str]:
    items = _scan(tmp_path, HEAD + _bullet(text, 3, **kw))
    assert len(items) == 1
    return {f["flag"] for f in items[0]["flags"]}


def test_both_tail_generations_are_read_with_marker_key_and_figures(tmp_path):
    old = (
        "<!-- openclaw-memory-promotion:memory:memory/2026-11-27.md:5:5 -->\n"
        "- Gateway restarts need the owner present "
        "[score=0.806 recalls=3 avg=0.620 source=memory/2026-11-27.md:5-5]\n\n"
    )
    items = _scan(tmp_path, HEAD + old + _bullet("Use port 18789 for the gateway", 7))
    by_line = {it["ref"]["line"]: it for it in items}
    a, b = by_line[6], by_line[9]
    assert a["key"] == "memory:memory/2026-11-27.md:5:5"
    assert (a["score"], a["signals"], a["recalls"]) == (0.806, None, 3)
    assert a["text"] == "Gateway restarts need the owner present"
    assert (b["signals"], b["importance"], b["trigger"]) == (4, 8, "a, b")
    assert b["tail"].startswith(" [score=0.801") and b["tail"].endswith("<!-- importance: 8 -->")
    assert a["promoted"] == b["promoted"] == "2026-11-28"
    assert a["source"]["lines"][0] == [3, "- daily line 3"]  # two lines of context


def test_project_sub_headings_group_and_consolidated_entries_and_lingxi_are_items(tmp_path):
    memory = (
        HEAD
        + "### Project: esp32-radar\n\n"
        + _bullet("The radar board needs 5 V, never 3.3 V", 3)
        + "### Global\n\n"
        + _bullet("The owner reads reports before 9:00", 4)
        + "## Consolidated Memory (2026-11-20)\n\n"
        + "<!-- openclaw-memory-lineage:c-42 -->\n"
        + "- Backups run at 02:00 on the NAS Source: memory/2026-11-27.md#L8-L9\n"
    )
    lingxi = (
        "# 记忆\n\n- 主人周三晚上去打羽毛球（平静）（2026-06-11 自动沉淀）\n- 主人亲手写的一条\n"
    )
    items = _scan(tmp_path, memory, {"memory/MEMORY.md": lingxi})
    groups = {it["text"]: (it["origin"], it["group"]) for it in items}
    assert groups["The radar board needs 5 V, never 3.3 V"] == ("openclaw", "esp32-radar")
    assert groups["The owner reads reports before 9:00"] == ("openclaw", "Global")
    cons = next(it for it in items if it["origin"] == "consolidated")
    assert (
        cons["key"] == "c-42" and cons["source"]["start"] == 8 and cons["promoted"] == "2026-11-20"
    )
    ling = [it for it in items if it["origin"] == "lingxi"]
    assert len(ling) == 1 and ling[0]["promoted"] == "2026-06-11"


def test_flagged_first_then_newest_first(tmp_path):
    memory = (
        "# M\n\n## Promoted From Short-Term Memory (2026-11-20)\n\n"
        + _bullet("Older good lesson about the gateway port", 3)
        + "## Promoted From Short-Term Memory (2026-11-28)\n\n"
        + _bullet("Newer good lesson about the backup disk", 4)
        + _bullet("sudo apt remove --purge snapd", 5)
    )
    items = _scan(tmp_path, memory)
    assert [it["text"][:6] for it in items] == ["sudo a", "Newer ", "Older "]


# -- each flag: true junk flagged, its look-alike not ---------------------------------------

JUNK = [
    ("command", "sudo apt remove --purge snapd", {}),
    ("command", "cmake --build build -j$(nproc) --target firmware", {}),
    ("command", "`git clone https://github.com/acme/radar.git`", {}),
    ("command", "~/.aix/state.json ~/.aix/config.yaml /etc/aix/aix.conf", {}),
    ("half-sentence", "Josephur's decision on the lease:", {}),
    ("half-sentence", "## Josephur's Decision", {}),
    ("half-sentence", "**部署步骤：**", {}),
    ("half-sentence", "网关升级之后需要注意：", {}),
    ("flattened", "### Security Updates 3 pending ### Disk Alerts /dev/sda1 91%", {}),
    ("flattened", "| host | cpu | | --- | --- | | nas | 12% |", {}),
    ("status-snapshot", "HEARTBEAT_OK — System is operational, no new action", {}),
    ("status-snapshot", "nas ✅ up, pi ⚠️ swap 88%, router 🔴 down", {}),
    ("status-snapshot", "磁盘使用率 91%，内存 73%，交换 40%", {}),
    ("scaffolding", "Candidate: Galxe bounties expire within 48 hours confidence: 0.76", {}),
    ("scaffolding", "Theme: `assistant` kept surfacing across 344 memories.", {}),
    ("scaffolding", "@@ -3,4 +3,6 @@ (2 before, 31 after)", {}),
    ("scaffolding", "A memory trace surfaced, but details were unavailable in this run.", {}),
    ("scaffolding", "Ports [score=0.77 recalls=3 avg=0.6 source=memory/x.md:1-1] leak", {}),
]

GOOD = [
    "Lesson: restart the gateway only after the owner confirms, never at night",
    "教训：网关升级前先备份 openclaw.json，否则配置会丢",
    "Never push to main on Fridays.",
    "周五不发版。",
    "git clone --depth 1 is enough for CI, because full history takes four minutes",
    "Keep disk usage under 80% or the NAS stops syncing",
    "Confidence in the new router is low: it dropped twice this week",
    "The owner's status page lives at status.example.org",
]


@pytest.mark.parametrize(("flag", "text", "kw"), JUNK, ids=[f"{f}:{t[:24]}" for f, t, _ in JUNK])
def test_true_junk_carries_its_flag_with_a_reason(tmp_path, flag, text, kw):
    items = _scan(tmp_path, HEAD + _bullet(text, 3, **kw))
    got = {f["flag"]: f["reason"] for f in items[0]["flags"]}
    assert flag in got, got
    assert got[flag]


@pytest.mark.parametrize("text", GOOD, ids=[t[:24] for t in GOOD])
def test_a_real_lesson_is_not_flagged(tmp_path, text):
    assert _flags_of(tmp_path, text) == set()


def test_recalls_0_is_evidence_shown_with_the_item_never_a_flag(tmp_path):
    """Real tails carry recalls=0 on good entries too: bulk archive of the flagged must not
    take them."""
    items = _scan(tmp_path, HEAD + _bullet("The owner likes dark mode in every editor", 3, 0))
    assert items[0]["flags"] == []
    assert items[0]["recalls"] == 0


def test_a_command_the_owner_saved_under_a_commands_heading_is_not_flagged(tmp_path):
    log = (
        "".join(f"- line {k}\n" for k in range(1, 6))
        + "## Commands\n\n- sudo systemctl restart aix\n"
    )
    memory = HEAD + _bullet("sudo systemctl restart aix", 8, src="memory/2026-11-26.md")
    items = _scan(tmp_path, memory, {"memory/2026-11-26.md": log})
    assert "command" not in {f["flag"] for f in items[0]["flags"]}
    saved = "# M\n\n## 常用命令\n\n- sudo systemctl restart aix（2026-11-01 自动沉淀）\n"
    items = _scan(tmp_path / "b", saved)
    assert items and items[0]["flags"] == []


def test_duplicate_same_fact_in_curated_memory_same_text_twice_and_same_key(tmp_path):
    memory = (
        "# M\n\n## Owner\n- The gateway listens on port 18789 only\n\n"
        + HEAD.split("\n", 2)[2]
        + _bullet("The gateway listens on port 18789 only.", 3)
        + _bullet("Backups of the NAS run at 02:00 every night", 4)
        + _bullet("Backups of the NAS run at 02:00 every night", 5)
        + "<!-- openclaw-memory-promotion:memory:memory/2026-11-27.md:4:4 -->\n"
        + "- The router is in the hall cupboard [score=0.8 recalls=3 avg=0.7 "
        + "source=memory/2026-11-27.md:4-4]\n"
    )
    items = {it["ref"]["line"]: it for it in _scan(tmp_path, memory)}
    reasons = {
        ln: [f["reason"] for f in it["flags"] if f["flag"] == "duplicate"]
        for ln, it in items.items()
    }
    assert "MEMORY.md:4" in reasons[9][0]
    assert reasons[12] == []  # the first promotion of the backup sentence
    assert "promoted before" in reasons[15][0]
    assert "same key" in reasons[18][0]


def test_duplicate_does_not_fire_on_a_parallel_fact(tmp_path):
    memory = (
        "# M\n\n## Owner\n- The gateway listens on port 18789 only\n\n" + HEAD.split("\n", 2)[2]
    )
    memory += _bullet("The gateway listens on port 18790 only", 3)
    assert _scan(tmp_path, memory)[0]["flags"] == []


def test_came_back_after_an_earlier_archive(tmp_path):
    archive = (
        "# Rejected promotions\n\n"
        "Rejected: 2026-11-10 (promoted 2026-11-09; source memory/2026-11-08.md:3-3; flags: none)\n"
        "<!-- openclaw-memory-promotion:memory:memory/2026-11-27.md:3:3 -->\n"
        "- The cat sits on the keyboard [score=0.8 recalls=3 avg=0.7 source=memory/2026-11-08.md:3-3]\n"
    )
    memory = HEAD + _bullet("Whatever text", 3) + _bullet("The cat sits on the keyboard", 9)
    items = _scan(tmp_path, memory, {"memory/archive/rejected-promotions.md": archive})
    assert all("came-back" in {f["flag"] for f in it["flags"]} for it in items)
    assert _flags_of(tmp_path / "b", "The cat sits on the keyboard") == set()


def test_dangling_source_missing_file_or_lines(tmp_path):
    gone = HEAD + _bullet("A fact from a deleted log", 3, src="memory/2026-01-01.md")
    assert "dangling-source" in {f["flag"] for f in _scan(tmp_path, gone)[0]["flags"]}
    short_log = HEAD + _bullet("A fact from past the end", 90)
    item = _scan(tmp_path / "b", short_log)[0]
    assert "dangling-source" in {f["flag"] for f in item["flags"]}
    assert item["source"]["missing"] is True
    [why] = [f["reason"] for f in item["flags"] if f["flag"] == "dangling-source"]
    assert why.startswith("lines 90-90 of memory/2026-11-27.md no longer exist (it has ")


def test_a_source_line_that_is_blank_now_is_said_so_not_gone(tmp_path):
    log = "".join(f"- daily line {k}\n" if k != 5 else "\n" for k in range(1, 40))
    memory = HEAD + _bullet("A fact whose line was emptied", 5)
    [item] = _scan(tmp_path, memory, {"memory/2026-11-27.md": log})
    [why] = [f["reason"] for f in item["flags"] if f["flag"] == "dangling-source"]
    assert why == "lines 5-5 of memory/2026-11-27.md are blank now"


def test_split_tail_and_stripped_body():
    line = "- Ports [score=0.866 signals=5 recalls=5 avg=0.850 source=memory/a.md:3-3] <!-- trigger: a -->"
    text, tail = split_tail(line)
    assert text == "- Ports" and tail.startswith(" [score=0.866") and tail.endswith("-->")
    assert split_tail("- plain <!-- importance: 4 -->") == ("- plain", " <!-- importance: 4 -->")
    body = (
        "Candidate: Galxe bounties expire within 48 hours\n  - confidence: 0.76\n  - status: staged"
    )
    assert stripped_body(body) == "Galxe bounties expire within 48 hours"
    assert stripped_body("Ports <!-- openclaw:dreaming:light:start --> x") == "Ports x"


def test_the_sources_of_many_promotions_are_found_without_a_walk_through_the_logs_each(tmp_path):
    """A year of dreaming is thousands of promotions citing hundreds of logs: finding each
    source must not walk every log (promotions × logs); the sources found are the same."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    days = [f"2026-10-{d:02d}" for d in range(1, 31)]
    for day in days:
        log = "".join(f"- line {k} of {day}\n" for k in range(1, 12))
        (root / "memory" / f"{day}.md").write_bytes(log.encode("utf-8"))
    bullets = [
        _bullet(f"Fact number {n} worth keeping", 1 + n % 10, src=f"memory/{days[n % 30]}.md")
        for n in range(90)
    ]
    (root / "MEMORY.md").write_bytes((HEAD + "".join(bullets)).encode("utf-8"))
    ws = load_workspace(root)
    items, walks = walks_of(promotions, ws, TODAY)
    assert len(items) == 90
    assert walks <= 3  # not one per promotion
    for it in items:
        n = int(it["text"].split()[2])
        assert it["source"]["lines"][0][1].endswith(f" of {days[n % 30]}")
        assert "dangling-source" not in {f["flag"] for f in it["flags"]}


def _section(day: str, *bullets: str) -> str:
    return f"\n## Promoted From Short-Term Memory ({day})\n\n" + "".join(bullets)


def test_the_copy_kept_when_its_later_duplicate_is_archived_has_not_come_back(tmp_path):
    """The owner archives the later of two promotions of one text (flagged duplicate) and
    keeps the first: the first did not come back, and "archive every flagged item" must
    not take it too. A copy promoted after the archive did come back, with the day."""
    from memreview.decisions import apply
    from memreview.scan import scan_workspace

    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    log = "".join(f"- daily line {k}\n" for k in range(1, 40))
    (root / "memory" / "2026-11-27.md").write_bytes(log.encode("utf-8"))
    text = "主人喜欢早上 7 点前收到日报摘要，不要超过一屏"
    memory = (
        "# MEMORY.md\n"
        + _section("2026-05-01", _bullet(text, 3))
        + _section("2026-05-09", _bullet(text, 5))
    )
    (root / "MEMORY.md").write_bytes(memory.encode("utf-8"))
    result = scan_workspace(root, today=TODAY, cache=False)
    [later] = [it for it in result.queues["promotions"] if it["promoted"] == "2026-05-09"]
    assert {f["flag"] for f in later["flags"]} == {"duplicate"}
    out = apply(result, [{"queue": "promotions", "item": later["id"], "action": "archive"}])
    assert not out.conflicts and not out.failures
    [kept] = scan_workspace(root, today=TODAY, cache=False).queues["promotions"]
    assert kept["promoted"] == "2026-05-01"
    assert kept["flags"] == []
    # the pipeline promotes the text again after the archive: that copy came back
    more = _section("2026-12-05", _bullet(text, 7))
    (root / "MEMORY.md").write_bytes((root / "MEMORY.md").read_bytes() + more.encode("utf-8"))
    items = scan_workspace(root, today=date(2026, 12, 6), cache=False).queues["promotions"]
    by_day = {it["promoted"]: {f["flag"]: f["reason"] for f in it["flags"]} for it in items}
    assert "came-back" not in by_day["2026-05-01"]
    assert by_day["2026-12-05"]["came-back"] == (
        f"the same text was archived in an earlier review on {TODAY.isoformat()}"
    )


def test_each_archived_text_has_the_day_it_was_archived(tmp_path):
    """Two texts archived on two days: each promotion that came back names its own day,
    not the last day the archive file mentions."""
    archive = (
        "# Rejected promotions\n\n"
        "Rejected: 2026-11-10 (promoted 2026-11-09; source memory/2026-11-08.md:3-3; flags: none)\n"
        "- The cat sits on the keyboard [score=0.8 recalls=3 avg=0.7 source=memory/2026-11-08.md:3-3]\n"
        "\nRejected: 2026-11-20 (promoted 2026-11-19; source memory/2026-11-18.md:4-4; flags: none)\n"
        "- The dog sleeps under the desk [score=0.8 recalls=3 avg=0.7 source=memory/2026-11-18.md:4-4]\n"
    )
    memory = (
        HEAD
        + _bullet("The cat sits on the keyboard", 9)
        + _bullet("The dog sleeps under the desk", 11)
    )
    items = _scan(tmp_path, memory, {"memory/archive/rejected-promotions.md": archive})
    reasons = {it["text"]: {f["flag"]: f["reason"] for f in it["flags"]} for it in items}
    assert reasons["The cat sits on the keyboard"]["came-back"].endswith("on 2026-11-10")
    assert reasons["The dog sleeps under the desk"]["came-back"].endswith("on 2026-11-20")
