"""Restore: an archived entry goes back where it came from, through the one writer, as an
undoable batch; the receiving file is written before the archive that loses it."""

from __future__ import annotations

import json
from dataclasses import replace

from decisions_helpers import NOW, decide, only, scan, snapshot, text

from memreview.decisions import registry, undo
from memreview.decisions.restore import archived_entries, restore
from memreview.store import batches, read_journal

DEMOTE = {
    "MEMORY.md": (
        "# Memory\n"
        "\n"
        "## Facts\n"
        "\n"
        "## [FACT:wallet]\n"
        "Added: 2026-04-08\n"
        "Summary: registered\n"
        "Importance: 2\n"
        "---\n"
        "\n"
        "## Notes\n"
        "- a bullet after it\n"
    ),
    "memory/recall_log.jsonl": "",
}
WALLET = "## [FACT:wallet]\nAdded: 2026-04-08\nSummary: registered\nImportance: 2\n---\n"
MARK = "<!-- openclaw-memory-promotion:memory:memory/2026-11-27.md:3:3 -->"
BULLET = "- The gateway listens on port 18789 only [score=0.801 recalls=4 avg=0.700]"
PROMOTED = (
    "# Memory\r\n\r\n## Promoted From Short-Term Memory (2026-11-28)\r\n\r\n"
    f"{MARK}\r\n{BULLET}\r\n\r\n## Notes\r\n- an owner's line\r\n"
)


def _verdicts(root) -> list[dict]:
    return [json.loads(x) for x in text(root, "memory/review/verdicts.jsonl").splitlines()]


def test_a_demoted_anchor_records_its_origin_and_goes_back_there(make_ws):
    root = make_ws(DEMOTE)
    assert decide(root, "demotion", "approve").ok
    assert "From: MEMORY.md § Facts\n" in text(root, "memory/archive/demoted.md")
    [item] = archived_entries(root)
    assert (item.kind, item.origin, item.heading, item.found_by) == (
        "demoted",
        "MEMORY.md",
        "Facts",
        "recorded",
    )
    archive_before = (root / "memory/archive/demoted.md").read_bytes()
    out = restore(root, item.id, now=NOW)
    assert out.ok, out.message
    # back at the end of its section, without Demoted: and From:
    assert text(root, "MEMORY.md") == DEMOTE["MEMORY.md"]
    assert text(root, "memory/archive/demoted.md") == "# Demoted\n"
    v = _verdicts(root)[-1]
    assert v["verdict"] == "restored" and v["proposal"] == item.id and v["file"] == "MEMORY.md"
    # a journaled batch of its own, the receiving file written before the archive
    record = batches(root)[-1]
    assert record.kind == "restore" and record.batch_id == out.batch
    intent = [r for r in read_journal(root) if r["type"] == "intent"][-1]
    order = [f["file"] for f in intent["files"]]
    assert order.index("MEMORY.md") < order.index("memory/archive/demoted.md")
    # and it can be undone
    assert undo(root).ok
    assert (root / "memory/archive/demoted.md").read_bytes() == archive_before
    assert "## [FACT:wallet]" not in text(root, "MEMORY.md")


def test_an_old_block_without_from_is_traced_through_the_journal(make_ws):
    root = make_ws(DEMOTE)
    assert decide(root, "demotion", "approve").ok
    archive = root / "memory/archive/demoted.md"
    # as an earlier version wrote it: no From: line (the journal's copy is left alone)
    archive.write_text(archive.read_text().replace("From: MEMORY.md § Facts\n", ""))
    [item] = archived_entries(root)
    assert (item.origin, item.heading, item.found_by) == ("MEMORY.md", "Facts", "journal")
    assert restore(root, "wallet", now=NOW).ok
    assert WALLET in text(root, "MEMORY.md")


def test_an_unknown_origin_asks_for_the_file(make_ws):
    root = make_ws(
        {
            **DEMOTE,
            "memory/archive/superseded.md": "# Superseded\n\n"
            + WALLET.replace("Importance: 2\n", "Superseded-By: [[other]] (2026-01-01)\n"),
        }
    )
    before = snapshot(root, skip_private=False)
    out = restore(root, "wallet", now=NOW)
    assert not out.ok and "--to FILE" in out.message
    assert snapshot(root, skip_private=False) == before
    out = restore(root, "wallet", to="memory/facts.md", now=NOW)
    assert out.ok, out.message
    assert text(root, "memory/facts.md") == (
        "## [FACT:wallet]\nAdded: 2026-04-08\nSummary: registered\n---\n"
    )
    assert text(root, "memory/archive/superseded.md") == "# Superseded\n"


def test_a_rejected_promotion_goes_back_with_its_marker_crlf_kept(make_ws):
    log = "".join(f"- line {k}\n" for k in range(1, 10))
    root = make_ws({"MEMORY.md": PROMOTED.encode(), "memory/2026-11-27.md": log})
    assert decide(root, "promotions", "archive").ok
    assert "Removed promotions" in text(root, "MEMORY.md")
    [item] = archived_entries(root)
    assert item.kind == "rejected-promotion" and item.found_by == "recorded"
    out = restore(root, "18789", now=NOW)
    assert out.ok, out.message
    memory = (root / "MEMORY.md").read_bytes()
    assert memory.startswith(PROMOTED.split("## Notes")[0].encode())
    assert memory.count(MARK.encode()) == 1  # out of "Removed promotions", back in place
    assert text(root, "memory/archive/rejected-promotions.md") == "# Rejected promotions\n"
    v = _verdicts(root)[-1]
    assert (v["relation"], v["verdict"]) == ("promotion", "restored")
    assert v["proposal"] == "memory:memory/2026-11-27.md:3:3"
    # not flagged as "came back" now that the owner put it back
    again = only(scan(root), "promotions")
    assert "came-back" not in [f["flag"] for f in again["flags"]]


def test_a_removed_duplicate_goes_back_after_the_line_it_followed(make_ws):
    memory = (
        "# Memory\n\n## Lessons\n"
        "- bounties need a day for review (2026-04-10)\n"
        "- bounties need a day for review (2026-05-02)\n"
        "- another lesson\n"
    )
    root = make_ws({"MEMORY.md": memory})
    assert decide(root, "duplicates", "keep", keep=2).ok
    assert "(2026-04-10)" not in text(root, "MEMORY.md")
    [item] = archived_entries(root)
    assert item.kind == "removed" and item.archive is None
    assert restore(root, item.id, now=NOW).ok
    assert text(root, "MEMORY.md") == memory
    assert archived_entries(root) == []  # it is there again


def test_entries_are_looked_for_in_the_backups_of_queues_declaring_they_delete(
    make_ws, monkeypatch
):
    lesson = "- bounties need a day for review"
    memory = f"# Memory\n\n## Lessons\n{lesson} (2026-04-10)\n{lesson} (2026-05-02)\n"
    root = make_ws({"MEMORY.md": memory})
    assert decide(root, "duplicates", "keep", keep=2).ok
    assert [i.kind for i in archived_entries(root)] == ["removed"]
    quiet = tuple(replace(u, deletes=False) for u in registry.UNITS)
    monkeypatch.setattr(registry, "UNITS", quiet)
    assert archived_entries(root) == []


def test_text_naming_several_entries_writes_nothing(make_ws):
    root = make_ws(
        {
            **DEMOTE,
            "memory/archive/demoted.md": "# Demoted\n\n"
            + WALLET.replace("wallet", "w1")
            + "\n"
            + WALLET.replace("wallet", "w2"),
        }
    )
    before = snapshot(root, skip_private=False)
    out = restore(root, "registered", now=NOW)
    assert not out.ok and len(out.candidates) == 2
    assert "give one id" in out.message
    assert snapshot(root, skip_private=False) == before
    assert not restore(root, "nothing like this", now=NOW).ok


def test_an_anchor_goes_back_right_after_the_anchor_it_followed(make_ws):
    memory = (
        "# Memory\n\n## [FACT:a]\nSummary: first\n---\n\n"
        "## [FACT:wallet]\nAdded: 2026-04-08\nSummary: registered\nImportance: 2\n---\n\n"
        "## [FACT:c]\nSummary: third\n---\n"
    )
    root = make_ws({"MEMORY.md": memory, "memory/recall_log.jsonl": ""})
    assert decide(root, "demotion", "approve", {"title": "[FACT:wallet]"}).ok
    assert "From: MEMORY.md § Memory after [[a]]\n" in text(root, "memory/archive/demoted.md")
    [item] = archived_entries(root)
    assert item.after_anchor == "a"
    assert restore(root, item.id, now=NOW).ok
    assert text(root, "MEMORY.md") == memory


def test_restoring_a_superseded_anchor_records_the_proposal_its_approval_came_from(make_ws):
    from test_decisions_anchors import OLD_NEW

    from memreview.judge_card import report_card

    root = make_ws(OLD_NEW)
    assert decide(root, "supersede", "approve").ok
    assert report_card(root)["total"]["approved"] == 1
    out = restore(root, "old-fact", now=NOW)
    assert out.ok, out.message
    line = _verdicts(root)[-1]
    assert (line["proposal"], line["relation"], line["verdict"]) == (
        "p-1",
        "supersedes",
        "restored",
    )
    assert (line["new"], line["old"]) == ("new-fact", "old-fact")
    card = report_card(root)
    assert (card["total"]["approved"], card["total"]["rejected"], card["restored"]) == (0, 1, 1)
    assert undo(root, now=NOW).ok  # the restore taken back: the approval stands again
    assert report_card(root)["total"]["approved"] == 1


DUPES = (
    "# Memory\n\n## Lessons\n"
    "- bounties need a day for review (2026-04-10)\n"
    "- bounties need a day for review (2026-05-02)\n"
    "- another lesson\n"
)
MERGED = "- bounties need a day for review (2026-04-10, 2026-05-02)"


def test_a_duplicate_a_merge_deleted_goes_back_beside_the_merged_entry(make_ws):
    root = make_ws({"MEMORY.md": DUPES})
    assert decide(root, "duplicates", "merge", keep=1, text=MERGED).ok
    [record] = batches(root)
    [removed] = record.decisions[0]["removed"]  # the journal names it, without its text
    assert (removed["file"], removed["line"], removed["lines"]) == ("MEMORY.md", 5, 1)
    [item] = archived_entries(root)
    assert (item.kind, item.title) == ("merged", "- bounties need a day for review (2026-05-02)")
    out = restore(root, "2026-05-02)", now=NOW)
    assert out.ok, out.message
    assert text(root, "MEMORY.md") == DUPES.replace(
        "- bounties need a day for review (2026-04-10)\n", MERGED + "\n"
    )
    assert archived_entries(root) == []


def test_a_merge_journaled_before_deletions_were_recorded_is_found_in_its_backup(make_ws):
    root = make_ws({"MEMORY.md": DUPES})
    assert decide(root, "duplicates", "merge", keep=1, text=MERGED).ok
    journal = root / ".memreview" / "journal.jsonl"
    lines = [json.loads(x) for x in journal.read_text().splitlines()]
    for line in lines:
        for d in line.get("decisions") or []:
            d.pop("removed", None)
    journal.write_text("".join(json.dumps(x) + "\n" for x in lines))
    found = archived_entries(root)
    # the old text of the kept entry and the deleted copy, both in the rewritten run
    assert [(i.kind, i.title[-11:]) for i in found] == [
        ("merged", "2026-04-10)"),
        ("merged", "2026-05-02)"),
    ]
    assert restore(root, "2026-05-02)", now=NOW).ok
    assert "(2026-05-02)\n- another lesson\n" in text(root, "MEMORY.md")


def test_a_redaction_is_refused_naming_undo_of_its_batch(make_ws):
    key = "sk-or-v1-3f9a1c0e7b2d4a6f8e1c3b5d7f9a2c4e6b8d0f1a3c5e7b9d"
    root = make_ws({"MEMORY.md": f"# Memory\n\n## Tools\n- OpenRouter key: {key}\n"})
    assert decide(root, "secrets", "redact").ok
    [record] = batches(root)
    item = record.decisions[0]["item"]
    before = snapshot(root, skip_private=False)
    for query in (item, "openrouter key"):
        out = restore(root, query, now=NOW)
        assert not out.ok and out.exit_code == 1
        assert f"{item} was redacted by batch {record.batch_id}" in out.message
        assert f"`memreview undo --batch {record.batch_id}`" in out.message
    assert snapshot(root, skip_private=False) == before  # nothing written, not even the journal
    assert restore(root, "nothing like it", now=NOW).message == (
        "nothing archived matches 'nothing like it'"
    )


def test_the_approval_found_is_the_one_that_archived_the_anchor(make_ws):
    from memreview.decisions.restore.batch import approval

    def line(pid, verdict, kept=None, rel="contradicts"):
        obj = {"ts": TS_OF[pid], "proposal": pid, "relation": rel, "new": "a", "old": "b"}
        return {**obj, "verdict": verdict, **({"kept": kept} if kept else {})}

    TS_OF = {"p1": "2026-11-01T00:00:00Z", "p2": "2026-11-02T00:00:00Z"}
    verdicts = [
        line("p1", "approved", kept="a"),  # keep-a: b was archived
        line("p2", "approved", kept="b"),  # keep-b: a was archived
        line("p2", "undone"),  # ... and taken back
    ]
    root = make_ws({"memory/review/verdicts.jsonl": verdicts})
    rel = "memory/review/verdicts.jsonl"
    assert approval(root, rel, "b")["proposal"] == "p1"
    assert approval(root, rel, "a") is None  # its approval was undone
    assert approval(root, rel, None) is None


FIRST_IN_SECTION = {
    "MEMORY.md": (
        "# Memory\n\n## Facts\n\n"
        "## [FACT:wallet]\nAdded: 2026-04-08\nSummary: registered\nImportance: 2\n---\n\n"
        "## [FACT:other]\nAdded: 2026-04-09\nSummary: stays\nImportance: 9\n---\n\n"
        "## Notes\n- a bullet after it\n"
    ),
    "memory/recall_log.jsonl": "",
}


def test_the_first_anchor_of_its_section_goes_back_before_the_one_it_preceded(make_ws):
    root = make_ws(FIRST_IN_SECTION)
    assert decide(root, "demotion", "approve", {"title": "wallet"}).ok
    archive = text(root, "memory/archive/demoted.md")
    assert "From: MEMORY.md § Facts before [[other]]" in archive
    [item] = archived_entries(root)
    assert (item.after_anchor, item.before_anchor) == (None, "other")
    assert restore(root, "wallet", now=NOW).ok
    assert text(root, "MEMORY.md") == FIRST_IN_SECTION["MEMORY.md"]


def test_a_dry_run_names_no_batch_and_no_anchor_it_does_not_go_beside(make_ws):
    memory = (
        "# Memory\n\n## [FACT:a]\nSummary: first\n---\n\n"
        "## [FACT:wallet]\nAdded: 2026-04-08\nSummary: registered\nImportance: 2\n---\n"
    )
    root = make_ws({"MEMORY.md": memory, "memory/recall_log.jsonl": ""})
    assert decide(root, "demotion", "approve", {"title": "[FACT:wallet]"}).ok
    [item] = archived_entries(root)
    dry = restore(root, item.id, now=NOW, dry_run=True)
    assert dry.ok and dry.message.endswith("after [[a]]") and "batch" not in dry.message
    # the anchor it followed is gone (archived too): the message does not name it
    (root / "MEMORY.md").write_text("# Memory\n\n## Notes\n- something else\n")
    dry = restore(root, item.id, now=NOW, dry_run=True)
    assert dry.ok and "[[a]]" not in dry.message and "batch" not in dry.message


def _marked(n: int) -> str:
    return f"<!-- openclaw-memory-promotion:memory:memory/2026-11-27.md:{n}:{n} -->"


LIST = (
    "# Memory\n\n## Promoted From Short-Term Memory (2026-11-28)\n\n"
    f"{_marked(2)}\n- The gateway listens on port 18789 only [score=0.801 recalls=4]\n"
    f"{_marked(4)}\n- Backups run nightly at 03:00 from the pi [score=0.812 recalls=5]\n"
    f"{_marked(6)}\n- The owner reads the digest before 07:00 [score=0.820 recalls=6]\n"
    "\n## Notes\n- an owner's line\n"
)
ZH_LIST = (
    "# 记忆\n\n### 偏好\n"
    "- 主人喜欢早上七点前收到日报摘要（期待）（2026-05-01 自动沉淀）\n"
    "- 写给主人的内容用第一人称（认可）（2026-05-03 自动沉淀）\n"
    "- 每周日晚上主人会手动清一次浏览器缓存（习惯）（2026-08-30 自动沉淀）\n"
    "\n### 事实\n- 主人的工作站是 Win11（平静）（2026-04-20 自动沉淀）\n"
)


def test_a_promotion_from_the_middle_of_a_list_goes_back_between_its_neighbours(make_ws):
    log = "".join(f"- line {k}\n" for k in range(1, 10))
    root = make_ws({"MEMORY.md": LIST, "memory/2026-11-27.md": log})
    assert decide(root, "promotions", "archive", {"title": "Backups run nightly"}).ok
    assert "Backups run nightly" not in text(root, "MEMORY.md").split("Removed promotions")[0]
    out = restore(root, "Backups run nightly", now=NOW)
    assert out.ok, out.message
    # back in its place, no blank line splitting the list (the emptied marker section stays)
    assert text(root, "MEMORY.md").split("\n## Removed promotions")[0] == LIST


def test_a_chinese_promotion_goes_back_into_its_list_without_a_blank_line(make_ws):
    root = make_ws({"memory/MEMORY.md": ZH_LIST})
    assert decide(root, "promotions", "archive", {"title": "写给主人的内容"}).ok
    assert restore(root, "写给主人的内容", now=NOW).ok
    assert text(root, "memory/MEMORY.md") == ZH_LIST


def test_with_its_neighbours_gone_a_promotion_ends_its_list_not_after_a_blank_line(make_ws):
    root = make_ws({"memory/MEMORY.md": ZH_LIST})
    assert decide(root, "promotions", "archive", {"title": "写给主人的内容"}).ok
    now = text(root, "memory/MEMORY.md")
    edited = now.replace("七点前", "七点以前").replace("每周日晚上", "每周六晚上")
    (root / "memory/MEMORY.md").write_text(edited, encoding="utf-8")
    assert restore(root, "写给主人的内容", now=NOW).ok
    after = text(root, "memory/MEMORY.md")
    assert (
        "- 每周六晚上主人会手动清一次浏览器缓存（习惯）（2026-08-30 自动沉淀）\n"
        "- 写给主人的内容用第一人称（认可）（2026-05-03 自动沉淀）\n"
        "\n### 事实\n"
    ) in after


SPACED = (
    "# Memory\n\n## Promoted From Short-Term Memory (2026-11-21)\n\n"
    f"{_marked(2)}\n- New cron jobs are checked within a day [score=0.836 recalls=5]\n\n"
    f"{_marked(4)}\n- Gas is cheaper between 02:00 and 06:00 UTC [score=0.688 recalls=2]\n\n"
    "## [KNOWLEDGE:sqlite-fallback]\nAdded: 2026-05-12\nSummary: recall falls back to FTS5\n"
    "---\n"
)


def test_a_promotion_in_a_list_spaced_by_blank_lines_goes_back_as_it_was(make_ws):
    log = "".join(f"- line {k}\n" for k in range(1, 10))
    root = make_ws({"MEMORY.md": SPACED, "memory/2026-11-27.md": log})
    assert decide(root, "promotions", "archive", {"title": "New cron jobs"}).ok
    assert restore(root, "New cron jobs", now=NOW).ok
    # not after the anchor that follows its section: between the heading and its neighbour
    assert text(root, "MEMORY.md").split("\n## Removed promotions")[0] == SPACED
