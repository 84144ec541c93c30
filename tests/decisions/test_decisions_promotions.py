"""Removing OpenClaw promoted entries: the marker's fate, and demoting unused promotions
(issue shapes 8 and 9; rewrite's module docstring says why the marker is kept)."""

from __future__ import annotations

from decisions_helpers import decide, only, scan, text

from memreview.decisions.state import load_state

M1 = "<!-- openclaw-memory-promotion:memory:memory/2026-09-01.md:3:3 -->"
M2 = "<!-- openclaw-memory-promotion:memory:memory/2026-09-02.md:7:7 -->"
M3 = "<!-- openclaw-memory-promotion:memory:memory/2026-09-03.md:2:2 -->"
TAIL = " [score=0.81 recalls=4 avg=0.66 source=memory/2026-09-0{}.md:{}-{}]"
B1 = "- Gateway restarts need the owner present" + TAIL.format(1, 3, 3)
B2 = "- Gateway restarts need the owner present" + TAIL.format(2, 7, 7)
B3 = "- Gas is cheapest between 02:00 and 06:00 UTC" + TAIL.format(3, 2, 2)
NOTE = (
    "<!-- memreview: markers of promoted entries removed in review. While a marker is in "
    "MEMORY.md, OpenClaw does not promote the same lines again. -->"
)


def memory(*section: str) -> str:
    return "# Memory\n\n## Promoted From Short-Term Memory (2026-09-05)\n\n" + "\n".join(section)


# a bootstrap window of 100 characters: the promotions below lie in the part the agent never
# sees at boot, where recalls count (what it sees is never demoted for being unused)
SMALL_WINDOW = {"memreview.yaml": "alarms:\n  bootstrap_chars: 100\n"}


def logs() -> dict[str, str]:
    return {f"memory/2026-09-0{k}.md": "# log\n\n- a\n- b\n- c\n- d\n- e\n" for k in (1, 2, 3)}


def test_keeping_one_of_two_promoted_duplicates_moves_the_others_marker_out_of_the_section(
    make_ws,
):
    root = make_ws({"MEMORY.md": memory(M1, B1, "", M2, B2, "", M3, B3, ""), **logs()})
    assert decide(root, "duplicates", "keep", {"kind": "fingerprint"}, keep=1).ok
    assert text(root, "MEMORY.md") == memory(
        M1, B1, "", M3, B3, "", "## Removed promotions", "", NOTE, M2, ""
    )
    # the section is well-formed again: every marker has its bullet under it
    lines = text(root, "MEMORY.md").split("## Removed promotions")[0].split("\n")
    markers = [k for k, t in enumerate(lines) if t.startswith("<!-- openclaw")]
    assert all(lines[k + 1].startswith("- ") for k in markers)


def test_an_existing_removed_promotions_section_receives_the_marker_once(make_ws):
    tomb = ["## Removed promotions", "", NOTE, M2, "", "## Notes", "- owner note", ""]
    root = make_ws({"MEMORY.md": memory(M1, B1, "", M2, B2, "", *tomb), **logs()})
    assert decide(root, "duplicates", "keep", {"kind": "fingerprint"}, keep=1).ok
    assert text(root, "MEMORY.md") == memory(M1, B1, "", *tomb)


def test_deleting_a_plain_bullet_leaves_the_promotion_markers_alone(make_ws):
    plain = "- Gateway restarts need the owner present (2026-08-01)"
    root = make_ws({"MEMORY.md": memory(M1, B1, "", plain, ""), **logs()})
    assert decide(root, "duplicates", "keep", {"kind": "fingerprint"}, keep=1).ok
    assert text(root, "MEMORY.md") == memory(M1, B1, "", "")


def usage(*recalls: dict) -> dict:
    return {
        "memory/.dreams/events.jsonl": [
            {"type": "memory.recall.recorded", "timestamp": ts, "query": "q", "results": [r]}
            for ts, r in recalls
        ]
    }


def test_demoting_an_unused_promotion_moves_it_with_its_marker_and_keeps_a_tombstone(make_ws):
    root = make_ws(
        {"MEMORY.md": memory(M1, B1, "", M3, B3, ""), **logs(), **SMALL_WINDOW}
        | usage(("2026-11-20T10:00:00Z", {"path": "MEMORY.md", "startLine": 9, "endLine": 9}))
    )
    item = only(scan(root), "demotion")
    assert item["anchor"]["line"] == 6 and item["promoted"] == "2026-09-05"
    assert decide(root, "demotion", "approve").ok
    assert text(root, "MEMORY.md") == memory(M3, B3, "", "## Removed promotions", "", NOTE, M1, "")
    assert text(root, "memory/archive/demoted.md") == (
        "# Demoted\n\nDemoted: 2026-11-29 (reviewed) · From: MEMORY.md § "
        f"Promoted From Short-Term Memory (2026-09-05)\n{M1}\n{B1}\n"
    )
    assert item["id"] not in [i["id"] for i in scan(root).all_queues["demotion"]]


def test_pinning_an_unused_promotion_hides_it_for_good_and_writes_nothing(make_ws):
    files = {"MEMORY.md": memory(M1, B1, ""), **logs(), **SMALL_WINDOW} | usage()
    root = make_ws(files)
    assert decide(root, "demotion", "pin").ok
    assert text(root, "MEMORY.md") == files["MEMORY.md"]
    assert [h.until for h in load_state(root).hidden.values()] == [None]


def test_a_demotion_cut_short_after_demoted_md_was_written_is_not_appended_twice(make_ws):
    demoted = f"# Demoted\n\nDemoted: 2026-11-20 (reviewed)\n{M1}\n{B1}\n"
    root = make_ws(
        {"MEMORY.md": memory(M1, B1, ""), "memory/archive/demoted.md": demoted, **logs()}
        | SMALL_WINDOW
        | usage()
    )
    assert decide(root, "demotion", "approve").ok
    assert text(root, "memory/archive/demoted.md") == demoted
    assert text(root, "MEMORY.md") == memory("## Removed promotions", "", NOTE, M1, "")
