"""What contradiction, supersede and demotion decisions write, byte for byte (docs/design.md §3)."""

from __future__ import annotations

import json

from decisions_helpers import NOW, TS, decide, only, scan, text

from memreview.decisions import apply
from memreview.decisions.state import load_state

OLD_NEW = {
    "MEMORY.md": (
        "# Memory\n"
        "\n"
        "## [KNOWLEDGE:old-fact]\n"
        "Added: 2026-01-10\n"
        "Summary: the old way\n"
        "CONFLICTS-WITH: [[new-fact]], [[other]]\n"
        "Body of the old fact.\n"
        "---\n"
        "\n"
        "\n"
        "## [KNOWLEDGE:keep-me]\n"
        "Added: 2026-01-11\n"
        "Summary: stays\n"
        "---\n"
    ),
    "memory/facts.md": (
        "# Facts\n"
        "\n"
        "## [KNOWLEDGE:new-fact]\n"
        "Added: 2026-06-01\n"
        "Summary: the new way\n"
        "CONFLICTS-WITH: [[old-fact]]\n"
        "Body of the new fact.\n"
        "---\n"
    ),
    "memory/review/proposals.jsonl": [
        {
            "id": "p-1",
            "ts": "2026-11-01T03:00:00Z",
            "relation": "supersedes",
            "new": "new-fact",
            "old": "old-fact",
            "confidence": 0.9,
            "reason": "newer",
        },
    ],
}


def test_supersede_approve_stamps_both_anchors_and_moves_the_old_one_to_the_archive(make_ws):
    root = make_ws(OLD_NEW)
    outcome = decide(root, "supersede", "approve")
    assert outcome.ok, outcome
    assert text(root, "MEMORY.md") == (
        "# Memory\n\n## [KNOWLEDGE:keep-me]\nAdded: 2026-01-11\nSummary: stays\n---\n"
    )
    assert text(root, "memory/facts.md") == (
        "# Facts\n"
        "\n"
        "## [KNOWLEDGE:new-fact]\n"
        "Added: 2026-06-01\n"
        "Summary: the new way\n"
        "Supersedes: [[old-fact]]\n"
        "Body of the new fact.\n"
        "---\n"
    )
    assert text(root, "memory/archive/superseded.md") == (
        "# Superseded\n"
        "\n"
        "## [KNOWLEDGE:old-fact]\n"
        "Added: 2026-01-10\n"
        "Summary: the old way\n"
        "CONFLICTS-WITH: [[other]]\n"
        "Superseded-By: [[new-fact]] (2026-11-29)\n"
        "From: MEMORY.md § Memory before [[keep-me]]\n"
        "Body of the old fact.\n"
        "---\n"
    )
    verdict = {
        "ts": TS,
        "proposal": "p-1",
        "relation": "supersedes",
        "new": "new-fact",
        "old": "old-fact",
        "verdict": "approved",
        "by": "human",
    }
    assert text(root, "memory/review/verdicts.jsonl") == json.dumps(verdict) + "\n"
    assert not scan(root).all_queues["supersede"]


def test_supersede_reject_writes_a_verdict_and_hides_the_item_for_good(make_ws):
    root = make_ws(OLD_NEW)
    item_id = scan(root).all_queues["supersede"][0]["id"]
    outcome = decide(root, "supersede", "reject")
    assert outcome.ok and outcome.hidden == [item_id]
    assert text(root, "MEMORY.md") == OLD_NEW["MEMORY.md"]
    line = json.loads(text(root, "memory/review/verdicts.jsonl"))
    assert line["verdict"] == "rejected" and line["proposal"] == "p-1"
    hidden = load_state(root).hidden[item_id]
    assert hidden.until is None and hidden.batch == outcome.batch
    assert scan(root).queues["supersede"] == []


PAIR = {
    "memory/notes.md": (
        "# Notes\n"
        "\n"
        "## [RULE:port-a]\n"
        "Added: 2026-03-01\n"
        "Summary: port 1\n"
        "SEE-ALSO: [[x]]\n"
        "CONFLICTS-WITH: [[port-b]]\n"
        "---\n"
        "\n"
        "## [RULE:port-b]\n"
        "Added: 2026-05-01\n"
        "Summary: port 2\n"
        "---\n"
    ),
    "memory/review/proposals.jsonl": [
        {
            "id": "p-7",
            "relation": "contradicts",
            "new": "port-b",
            "old": "port-a",
            "confidence": 0.8,
            "reason": "two ports",
        },
    ],
}


def test_contradiction_keep_both_turns_the_conflict_into_see_also_on_both_sides(make_ws):
    root = make_ws(PAIR)
    outcome = decide(root, "contradictions", "keep-both")
    assert outcome.ok, outcome
    assert text(root, "memory/notes.md") == (
        "# Notes\n"
        "\n"
        "## [RULE:port-a]\n"
        "Added: 2026-03-01\n"
        "Summary: port 1\n"
        "SEE-ALSO: [[x]], [[port-b]]\n"
        "---\n"
        "\n"
        "## [RULE:port-b]\n"
        "Added: 2026-05-01\n"
        "Summary: port 2\n"
        "SEE-ALSO: [[port-a]]\n"
        "---\n"
    )
    verdict = json.loads(text(root, "memory/review/verdicts.jsonl"))
    assert verdict == {
        "ts": TS,
        "proposal": "p-7",
        "relation": "contradicts",
        "new": "port-b",
        "old": "port-a",
        "verdict": "kept-both",
        "by": "human",
    }
    # the judge's proposal would bring the pair back: it stays hidden
    assert scan(root).queues["contradictions"] == []


def test_contradiction_keep_b_supersedes_the_older_anchor_a(make_ws):
    root = make_ws(PAIR)
    outcome = decide(root, "contradictions", "keep-b")
    assert outcome.ok, outcome
    assert text(root, "memory/notes.md") == (
        "# Notes\n"
        "\n"
        "## [RULE:port-b]\n"
        "Added: 2026-05-01\n"
        "Summary: port 2\n"
        "Supersedes: [[port-a]]\n"
        "---\n"
    )
    assert text(root, "memory/archive/superseded.md") == (
        "# Superseded\n"
        "\n"
        "## [RULE:port-a]\n"
        "Added: 2026-03-01\n"
        "Summary: port 1\n"
        "SEE-ALSO: [[x]]\n"
        "Superseded-By: [[port-b]] (2026-11-29)\n"
        "From: memory/notes.md § Notes before [[port-b]]\n"
        "---\n"
    )
    verdict = json.loads(text(root, "memory/review/verdicts.jsonl"))
    assert verdict["verdict"] == "approved" and verdict["kept"] == "port-b"
    assert (verdict["new"], verdict["old"]) == ("port-b", "port-a")  # the proposal's own


def test_contradiction_keep_a_from_a_one_sided_marker_writes_no_verdict(make_ws):
    files = {"memory/notes.md": PAIR["memory/notes.md"]}
    root = make_ws(files)
    outcome = decide(root, "contradictions", "keep-a")
    assert outcome.ok, outcome
    assert text(root, "memory/notes.md") == (
        "# Notes\n"
        "\n"
        "## [RULE:port-a]\n"
        "Added: 2026-03-01\n"
        "Summary: port 1\n"
        "SEE-ALSO: [[x]]\n"
        "Supersedes: [[port-b]]\n"
        "---\n"
        "\n"  # only the blank lines *after* a moved block leave with it
    )
    assert not (root / "memory/review/verdicts.jsonl").exists()


def test_archive_blocks_are_appended_in_decision_order_one_blank_line_apart(make_ws):
    root = make_ws(
        {
            "MEMORY.md": (
                "# M\n\n## [FACT:one]\nAdded: 2026-01-01\nSummary: a\n---\n\n"
                "## [FACT:two]\nAdded: 2026-01-02\nSummary: b\n---\n\n"
                "## [FACT:three]\nAdded: 2026-01-03\nSummary: c\n"
            ),
            "memory/recall_log.jsonl": "",
            "memory/archive/demoted.md": "# Demoted\n\n### [FACT:earlier]\nSummary: z\n---",
        }
    )
    result = scan(root)
    ids = [only(result, "demotion", title=f"[FACT:{n}]")["id"] for n in ("three", "one")]
    outcome = apply(result, [{"item": i, "action": "approve"} for i in ids], now=NOW)
    assert outcome.ok, outcome
    assert text(root, "MEMORY.md") == (
        "# M\n\n## [FACT:two]\nAdded: 2026-01-02\nSummary: b\n---\n\n"
    )
    assert text(root, "memory/archive/demoted.md") == (
        "# Demoted\n\n### [FACT:earlier]\nSummary: z\n---\n"
        "\n"
        "## [FACT:three]\nAdded: 2026-01-03\nSummary: c\nDemoted: 2026-11-29 (reviewed)\n"
        "From: MEMORY.md § M after [[two]]\n"
        "\n"
        "## [FACT:one]\nAdded: 2026-01-01\nSummary: a\nDemoted: 2026-11-29 (reviewed)\n"
        "From: MEMORY.md § M before [[two]]\n---\n"
    )


DEMOTE = {
    "MEMORY.md": (
        "# Memory\n"
        "\n"
        "## [FACT:wallet]\n"
        "Added: 2026-04-08\n"
        "Summary: registered\n"
        "Importance: 2\n"
        "Body.\n"
        "---\n"
        "\n"
        "- a bullet after it\n"
    ),
    "memory/recall_log.jsonl": "",
}


def test_demotion_approve_stamps_the_anchor_and_moves_it_to_demoted_md(make_ws):
    root = make_ws(DEMOTE)
    assert decide(root, "demotion", "approve").ok
    assert text(root, "MEMORY.md") == "# Memory\n\n- a bullet after it\n"
    assert text(root, "memory/archive/demoted.md") == (
        "# Demoted\n"
        "\n"
        "## [FACT:wallet]\n"
        "Added: 2026-04-08\n"
        "Summary: registered\n"
        "Importance: 2\n"
        "Demoted: 2026-11-29 (reviewed)\n"
        "From: MEMORY.md § Memory\n"
        "Body.\n"
        "---\n"
    )


def test_demotion_pin_replaces_the_importance_value(make_ws):
    root = make_ws(DEMOTE)
    assert decide(root, "demotion", "pin").ok
    assert text(root, "MEMORY.md") == DEMOTE["MEMORY.md"].replace(
        "Importance: 2", "Importance: high"
    )
    assert scan(root).all_queues["demotion"] == []


def test_demotion_reject_hides_the_anchor_for_twelve_weeks(make_ws):
    root = make_ws(DEMOTE)
    before = text(root, "MEMORY.md")
    outcome = decide(root, "demotion", "reject")
    assert outcome.ok
    assert text(root, "MEMORY.md") == before
    (hidden,) = load_state(root).hidden.values()
    assert str(hidden.until) == "2027-02-21" and hidden.reason == "rejected"


def test_pin_adds_the_key_after_the_last_metadata_line_before_the_body(make_ws):
    root = make_ws(
        {
            "MEMORY.md": "# M\n\n## [FACT:bare]\nAdded: 2026-01-01\nJust a body line.\n---\n",
            "memory/recall_log.jsonl": "",
        }
    )
    assert decide(root, "demotion", "pin").ok
    assert text(root, "MEMORY.md") == (
        "# M\n\n## [FACT:bare]\nAdded: 2026-01-01\nImportance: high\nJust a body line.\n---\n"
    )
