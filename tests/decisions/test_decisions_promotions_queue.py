"""Decisions on the promotions queue: keep, edit, strip (and defer) write exactly what they
say, byte for byte, CRLF kept; every decision appends a verdict with the marker key and
flags; a reviewed promotion is not shown next week unless every promotion is asked for."""

from __future__ import annotations

import json

from decisions_helpers import NOW, TODAY, decide, only, scan, snapshot, text

from memreview.decisions import apply
from memreview.scan import scan_workspace

MARK = "<!-- openclaw-memory-promotion:memory:memory/2026-11-27.md:3:3 -->"
TAIL = " [score=0.801 signals=4 recalls=4 avg=0.700 source=memory/2026-11-27.md:3-3] <!-- importance: 8 -->"
JUNK = "Candidate: Galxe bounties expire within 48 hours\n  - confidence: 0.76\n  - status: staged"


def _memory(nl: str = "\n", first: str = "The gateway listens on port 18789 only") -> bytes:
    lines = [
        "# Memory",
        "",
        "## Promoted From Short-Term Memory (2026-11-28)",
        "",
        MARK,
        f"- {first}{TAIL}",
        "",
    ]
    return nl.join(lines).encode("utf-8")


def _ws(make_ws, memory: bytes) -> object:
    log = "".join(f"- line {k}\n" for k in range(1, 10))
    return make_ws({"MEMORY.md": memory, "memory/2026-11-27.md": log})


def _verdicts(root) -> list[dict]:
    return [json.loads(x) for x in text(root, "memory/review/verdicts.jsonl").splitlines()]


def test_keep_writes_no_memory_line_records_the_verdict_and_hides_it_until_asked(make_ws):
    root = _ws(make_ws, _memory())
    before = snapshot(root)
    out = decide(root, "promotions", "keep")
    assert not out.conflicts
    after = snapshot(root)
    assert after["MEMORY.md"] == before["MEMORY.md"]
    v = _verdicts(root)
    assert len(v) == 1
    assert v[0]["relation"] == "promotion" and v[0]["verdict"] == "kept"
    assert v[0]["proposal"] == "memory:memory/2026-11-27.md:3:3" and v[0]["flags"] == []
    assert scan(root).queues["promotions"] == []
    every = scan_workspace(root, today=TODAY, all_promotions=True)
    assert len(every.queues["promotions"]) == 1
    assert not [w for w in every.warnings if "verdict" in w["message"]]


def test_edit_replaces_the_text_keeping_marker_and_tail_byte_for_byte_crlf(make_ws):
    root = _ws(make_ws, _memory("\r\n"))
    out = decide(root, "promotions", "edit", text="The gateway listens on 18789 (LAN only)")
    assert out.ok, (out.conflicts, out.failures)
    want = _memory("\r\n", "The gateway listens on 18789 (LAN only)")
    assert (root / "MEMORY.md").read_bytes() == want
    assert _verdicts(root)[0]["verdict"] == "edited"


def test_strip_removes_leaked_scaffolding_only(make_ws):
    memory = (
        "# Memory\n\n## Promoted From Short-Term Memory (2026-11-28)\n\n"
        f"{MARK}\n- Candidate: Galxe bounties expire within 48 hours confidence: 0.76{TAIL}\n"
        "\n## Notes\n- an owner's line\n"
    )
    root = _ws(make_ws, memory.encode("utf-8"))
    result = scan(root)
    item = only(result, "promotions", origin="openclaw")
    assert "scaffolding" in {f["flag"] for f in item["flags"]}
    out = apply(result, [{"item": item["id"], "action": "strip"}], now=NOW)
    assert out.ok, (out.conflicts, out.failures)
    want = memory.replace(
        "Candidate: Galxe bounties expire within 48 hours confidence: 0.76",
        "Galxe bounties expire within 48 hours",
    )
    assert text(root, "MEMORY.md") == want
    v = _verdicts(root)[0]
    assert v["verdict"] == "stripped" and "scaffolding" in v["flags"]


def test_strip_with_nothing_to_strip_is_refused_and_writes_nothing(make_ws):
    root = _ws(make_ws, _memory())
    before = snapshot(root)
    out = decide(root, "promotions", "strip")
    assert out.failures and "nothing" in out.failures[0].reason
    assert snapshot(root) == before


def test_defer_writes_nothing_and_the_item_stays(make_ws):
    root = _ws(make_ws, _memory())
    before = snapshot(root)
    decide(root, "promotions", "defer")
    assert snapshot(root) == before
    assert len(scan(root).queues["promotions"]) == 1


def test_archive_moves_the_entry_with_its_marker_to_the_rejected_archive_crlf(make_ws):
    root = _ws(make_ws, _memory("\r\n") + b"## Notes\r\n- an owner's line\r\n")
    out = decide(root, "promotions", "archive")
    assert out.ok, (out.conflicts, out.failures)
    memory = (root / "MEMORY.md").read_bytes()
    assert b"The gateway listens on port 18789 only" not in memory
    # the owner's lines stay; the marker leaves the promotion section for "Removed promotions"
    # (so OpenClaw does not promote the same lines again), in the file's CRLF
    assert b"## Notes\r\n- an owner's line\r\n\r\n## Removed promotions\r\n" in memory
    assert memory.endswith(f"{MARK}\r\n".encode())
    assert memory.count(MARK.encode()) == 1
    assert memory.startswith(b"# Memory\r\n\r\n## Promoted From Short-Term Memory (2026-11-28)\r\n")
    archived = text(root, "memory/archive/rejected-promotions.md")
    assert archived == (
        "# Rejected promotions\n\n"
        "Rejected: 2026-11-29 (promoted 2026-11-28; source memory/2026-11-27.md:3-3; flags: none)\n"
        "From: MEMORY.md § Promoted From Short-Term Memory (2026-11-28)\n"
        f"{MARK}\n- The gateway listens on port 18789 only{TAIL}\n"
    )
    v = _verdicts(root)[0]
    assert v["verdict"] == "archived" and v["proposal"] == "memory:memory/2026-11-27.md:3:3"
    again = scan(root)
    assert again.queues["promotions"] == []


def test_an_archived_promotion_pushed_again_comes_back_flagged(make_ws):
    root = _ws(make_ws, _memory())
    decide(root, "promotions", "archive")
    (root / "MEMORY.md").write_bytes(_memory().replace(b"2026-11-28)", b"2026-11-30)"))
    [item] = scan(root).all_queues["promotions"]
    assert "came-back" in {f["flag"] for f in item["flags"]}
