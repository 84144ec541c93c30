"""The judge's report card: approvals per relation and confidence band."""

from __future__ import annotations

import json

from report_helpers import TODAY, write_files

from memreview.judge_card import confidence_bucket, report_card
from memreview.report import render_report_card, weekly_report
from memreview.workspace.loader import load_workspace

PROPOSALS = [
    {"id": "p1", "relation": "supersedes", "new": "a", "old": "b", "confidence": 0.95},
    {"id": "p2", "relation": "supersedes", "new": "c", "old": "d", "confidence": 0.92},
    {"id": "p3", "relation": "supersedes", "new": "e", "old": "f", "confidence": 0.6},
    {"id": "p4", "relation": "contradicts", "new": "g", "old": "h", "confidence": 0.8},
    {"id": "p5", "relation": "duplicate", "new": "i", "old": "j"},
    {"id": "p6", "relation": "supersedes", "new": "k", "old": "l", "confidence": 0.3},
    {"id": "p8", "relation": "supersedes", "new": "m", "old": "n", "confidence": 0.5},
    # The judge rewrote p8 later: the later line and its confidence count.
    {"id": "p8", "relation": "supersedes", "new": "m", "old": "n", "confidence": 0.91},
]


def verdict(pid: str, v: str, relation: str = "supersedes") -> dict:
    return {
        "ts": "2026-07-01T10:00:00Z",
        "proposal": pid,
        "relation": relation,
        "new": "x",
        "old": "y",
        "verdict": v,
        "by": "human",
    }


VERDICTS = [
    verdict("p1", "rejected"),
    verdict("p1", "approved"),  # a later verdict replaces the earlier one
    verdict("p2", "approved"),
    verdict("p2", "undone"),  # taken back: p2 has no verdict now
    verdict("p3", "approved"),
    verdict("p4", "kept-both", "contradicts"),
    verdict("p5", "approved", "duplicate"),
    verdict("p6", "rejected"),
    verdict("p7", "rejected", "complements"),  # its proposal is gone from the judge's file
    verdict("p8", "approved"),
    verdict("p8", "rejected"),
    verdict("p8", "undone"),  # takes back the rejection: the approval stands again
    "not json at all",
    {"proposal": "p9", "verdict": "maybe"},
]


def card_workspace(tmp_path, verdicts=VERDICTS, proposals=PROPOSALS):
    return write_files(
        tmp_path / "ws",
        {
            "MEMORY.md": "# M\n",
            "memory/review/proposals.jsonl": proposals,
            "memory/review/verdicts.jsonl": verdicts,
        },
    )


def cell(approved=0, rejected=0, kept_both=0):
    decided = approved + rejected + kept_both
    return {
        "approved": approved,
        "rejected": rejected,
        "kept-both": kept_both,
        "decided": decided,
        "approval_rate": round(approved / decided, 4) if decided else None,
    }


def test_confidence_buckets_have_closed_lower_bounds():
    assert [confidence_bucket(c) for c in (0.0, 0.49, 0.5, 0.69, 0.7, 0.89, 0.9, 1.0)] == [
        "<0.5", "<0.5", "0.5–0.7", "0.5–0.7", "0.7–0.9", "0.7–0.9", "0.9–1.0", "0.9–1.0"
    ]  # fmt: skip
    for unknown in (None, "0.9", True, 1.2, -0.1, float("nan")):
        assert confidence_bucket(unknown) == "n/a"


def test_card_counts_latest_verdicts_per_relation_and_band(tmp_path):
    card = report_card(card_workspace(tmp_path))
    assert card["relations"] == {
        "supersedes": {
            "<0.5": cell(rejected=1),
            "0.5–0.7": cell(approved=1),
            "0.9–1.0": cell(approved=2),
        },
        "contradicts": {"0.7–0.9": cell(kept_both=1)},
        "duplicate": {"n/a": cell(approved=1)},
        "complements": {"n/a": cell(rejected=1)},
    }
    assert card["by_bucket"]["n/a"] == cell(approved=1, rejected=1)
    assert card["total"] == cell(approved=4, rejected=2, kept_both=1)
    assert card["undone"] == 2 and card["unmatched"] == 1


def test_bad_verdict_lines_are_load_warnings_and_left_out(tmp_path):
    ws = load_workspace(card_workspace(tmp_path))
    bad = [w for w in ws.warnings if w.file == "memory/review/verdicts.jsonl"]
    assert [(w.line, w.message) for w in bad] == [
        (13, "not valid JSON; line skipped"),
        (14, "verdict without a proposal id or a known verdict; skipped"),
    ]
    assert len(ws.verdicts) == 12 and report_card(ws)["verdict_lines"] == 12


def test_card_is_json_and_the_same_from_a_path_or_a_loaded_workspace(tmp_path):
    root = card_workspace(tmp_path)
    from_path = report_card(root)
    from_ws = report_card(load_workspace(root))
    assert json.loads(json.dumps(from_path, ensure_ascii=False)) == from_path
    assert from_ws == from_path


def test_card_says_when_confidence_did_not_track_approvals(tmp_path):
    card = report_card(card_workspace(tmp_path))
    # <0.5: 0%, 0.5–0.7: 100%, 0.7–0.9: 0%, 0.9–1.0: 100%
    assert card["trend"] == "mixed"
    assert card["summary"].startswith("Higher confidence did not steadily mean more approvals")


def test_card_says_when_higher_confidence_meant_more_approvals(tmp_path):
    verdicts = [verdict("p3", "rejected"), verdict("p1", "approved"), verdict("p8", "approved")]
    card = report_card(card_workspace(tmp_path, verdicts))
    assert card["trend"] == "more"
    assert card["summary"] == (
        "Higher confidence meant more approvals: 0% at 0.5–0.7, rising to 100% at 0.9–1.0."
    )


def test_card_says_when_higher_confidence_meant_fewer_approvals(tmp_path):
    verdicts = [verdict("p3", "approved"), verdict("p4", "approved"), verdict("p1", "rejected")]
    card = report_card(card_workspace(tmp_path, verdicts))
    assert card["trend"] == "fewer"
    assert "it meant fewer: 100% at 0.5–0.7, falling to 0% at 0.9–1.0" in card["summary"]


def test_card_without_verdicts_or_with_one_band_cannot_tell(tmp_path):
    root = write_files(tmp_path / "a", {"MEMORY.md": "# M\n"})
    card = report_card(root)
    assert not card["has_verdicts"] and card["trend"] == "unknown"
    assert "No verdicts yet" in "\n".join(render_report_card(card))

    one_band = report_card(card_workspace(tmp_path, [verdict("p1", "approved")]))
    assert one_band["trend"] == "unknown" and "one confidence band" in one_band["summary"]


def test_card_in_the_report_is_a_table_with_one_sentence(tmp_path):
    report = weekly_report(card_workspace(tmp_path), TODAY)
    card = report[report.index("## The judge's report card") :]
    assert "| relation | confidence | approved | rejected | kept both | approval rate |" in card
    assert "| supersedes | 0.9–1.0 | 2 | 0 | 0 | 100% |" in card
    assert "| contradicts | 0.7–0.9 | 0 | 0 | 1 | 0% |" in card
    assert "| **all** | **all** | 4 | 2 | 1 | 57% |" in card
    assert "Higher confidence did not steadily mean more approvals" in card
    assert "1 verdict names a proposal no longer in the judge's file" in card


def test_a_restored_anchor_turns_its_approval_into_a_rejection_until_undone(tmp_path):
    restored = verdict("p1", "restored")
    card = report_card(card_workspace(tmp_path, [verdict("p1", "approved"), restored]))
    assert card["relations"]["supersedes"]["0.9–1.0"] == cell(rejected=1)
    assert card["restored"] == 1
    lines = "\n".join(render_report_card(card))
    assert "1 approval was taken back by `memreview restore`" in lines

    undone = [verdict("p1", "approved"), restored, verdict("p1", "undone")]
    card = report_card(card_workspace(tmp_path / "again", undone))
    assert card["relations"]["supersedes"]["0.9–1.0"] == cell(approved=1)


def test_a_restored_line_on_no_proposal_is_not_a_judge_verdict(tmp_path):
    line = {**verdict("ar-0123456789", "restored", "archive"), "archive": "x.md"}
    ws = load_workspace(card_workspace(tmp_path, [verdict("p1", "approved"), line]))
    assert [v.verdict for v in ws.verdicts] == ["approved"]
    assert report_card(ws)["total"] == cell(approved=1)
