"""Decisions on the same anchors or entries are checked against each other (issue 16): a
batch where one sends an anchor or entry somewhere another doesn't is refused whole."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from decisions_helpers import snapshot

from memreview.cli import main
from memreview.decisions.model import Decision
from memreview.decisions.plan import (
    AddRef,
    DeleteEntry,
    MoveBlock,
    PlannedDecision,
    RemoveRef,
    SetMeta,
    Target,
    clash,
)

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"
WIN11 = "c-b11f2638588a"  # win11-python-default-codepage-gbk ⟷ win11-utf8-default
WIN11_SUPERSEDE = "s-ad900f249d91"  # win11-utf8-default supersedes win11-python-…
BILLING = "c-199f3a12cce5"  # pi-billing-subscription ⟷ pi-billing-api-metered
TODAY = ["--today", "2026-11-29"]


@pytest.fixture
def sample(tmp_path) -> Path:
    return Path(shutil.copytree(SAMPLE, tmp_path / "sample"))


def _apply(root: Path, tmp_path: Path, text: str, *extra: str) -> int:
    f = tmp_path / "decisions.yaml"
    f.write_text(text, encoding="utf-8")
    return main(["apply", str(root), "--decisions", str(f), *TODAY, *extra])


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_file_deciding_one_pair_two_ways_is_refused_whole(sample, tmp_path, capsys, dry_run):
    before = snapshot(sample, skip_private=False)
    decisions = (
        f"- {{item: {BILLING}, action: keep-b}}\n"  # fine on its own
        f"- {{item: {WIN11}, action: keep-a}}\n"
        f"- {{item: {WIN11_SUPERSEDE}, action: approve}}\n"
    )
    code = _apply(sample, tmp_path, decisions, *(["--dry-run"] if dry_run else []))
    captured = capsys.readouterr()
    assert code == 2
    assert snapshot(sample, skip_private=False) == before  # nothing written, not even .memreview
    refused = [ln for ln in captured.err.splitlines() if ln.startswith("refused: ")]
    assert refused == [
        f"refused: {WIN11_SUPERSEDE} (Supersede: approve) conflicts with {WIN11} "
        "(Contradictions: keep A): anchor win11-utf8-default would be moved to "
        f"memory/archive/superseded.md by {WIN11} and kept and edited by {WIN11_SUPERSEDE}"
    ]
    assert "nothing applied" in captured.err
    assert captured.out == ""


def test_the_same_supersession_from_both_queues_applies_once(sample, tmp_path, capsys):
    decisions = (
        f"- {{item: {WIN11}, action: keep-b}}\n- {{item: {WIN11_SUPERSEDE}, action: approve}}\n"
    )
    assert _apply(sample, tmp_path, decisions) == 0
    assert "applied 2 of 2 decisions" in capsys.readouterr().err
    archive = (sample / "memory/archive/superseded.md").read_text()
    assert archive.count("## [KNOWLEDGE:win11-python-default-codepage-gbk]") == 1
    memory = (sample / "MEMORY.md").read_text()
    assert "## [KNOWLEDGE:win11-python-default-codepage-gbk]" not in memory
    assert "## [KNOWLEDGE:win11-utf8-default]" in memory


def test_decisions_on_distinct_anchors_still_apply_together(sample, tmp_path, capsys):
    decisions = f"- {{item: {WIN11}, action: keep-a}}\n- {{item: {BILLING}, action: keep-both}}\n"
    assert _apply(sample, tmp_path, decisions) == 0
    assert "applied 2 of 2 decisions" in capsys.readouterr().err


# -- the rule itself, on any pair of queues -------------------------------------------------

ANCHOR = Target(
    "MEMORY.md", "anchor", "## [FACT:a]\nSummary: x\n- inner entry\n---", 10, anchor="a"
)
INNER = Target("MEMORY.md", "bullet", "- inner entry", 12)
OTHER = Target("MEMORY.md", "bullet", "- another entry", 20)


def _pd(item: str, *ops, kept=()) -> PlannedDecision:
    pd = PlannedDecision(Decision(item, "x"), "q", item)
    pd.ops = [("MEMORY.md", op) for op in ops]
    pd.kept = list(kept)
    return pd


def _why(first: PlannedDecision, second: PlannedDecision) -> str | None:
    for mine in second.claims():
        for theirs in first.claims():
            if theirs.target.overlaps(mine.target):
                why = clash(theirs, mine, "one", "two")
                if why:
                    return why
    return None


def test_deleting_an_entry_inside_an_anchor_another_decision_moves_clashes():
    demote = _pd(
        "m", SetMeta("m:x", ANCHOR, "Demoted", "d"), MoveBlock("m:x", ANCHOR, "demoted.md", 1)
    )
    dedupe = _pd("d", DeleteEntry("d:x", INNER))
    assert _why(demote, dedupe) == (
        "the entry '- inner entry' (MEMORY.md:12) would be moved to demoted.md by one "
        "and deleted by two"
    )


def test_keeping_an_entry_another_decision_deletes_clashes():
    assert "kept by one and deleted by two" in _why(
        _pd("a", kept=[INNER]), _pd("d", DeleteEntry("d:x", INNER))
    )


def test_moving_one_anchor_to_two_places_clashes_and_to_one_place_does_not():
    to = [
        _pd(k, MoveBlock(f"{k}:x", ANCHOR, dest, 1)) for k, dest in (("s", "s.md"), ("m", "d.md"))
    ]
    assert "moved to s.md by one and moved to d.md by two" in _why(*to)
    assert _why(to[0], _pd("t", MoveBlock("t:x", ANCHOR, "s.md", 2))) is None
    assert _why(_pd("a", DeleteEntry("a:x", INNER)), _pd("b", DeleteEntry("b:x", INNER))) is None


def test_edits_agree_unless_they_set_or_link_differently():
    pin = _pd("p", SetMeta("p:x", ANCHOR, "Importance", "high"))
    see = _pd("k", AddRef("k:x", ANCHOR, "SEE-ALSO", "b"))
    assert _why(pin, see) is None
    assert _why(pin, _pd("k", kept=[ANCHOR])) is None
    assert "Importance: high from one and Importance: low from two" in _why(
        pin, _pd("q", SetMeta("q:x", ANCHOR, "Importance", "low"))
    )
    assert "disagree on [[b]] in SEE-ALSO" in _why(
        see, _pd("r", RemoveRef("r:x", ANCHOR, "SEE-ALSO", "b"))
    )


def test_decisions_on_distinct_entries_never_clash():
    assert (
        _why(_pd("a", DeleteEntry("a:x", OTHER)), _pd("b", MoveBlock("b:x", ANCHOR, "d", 1)))
        is None
    )


def test_a_decision_whose_targets_changed_since_it_was_decided_stays_pending(
    sample, tmp_path, capsys
):
    from datetime import date

    from memreview.decisions import seen_now
    from memreview.decisions.pending import load_pending
    from memreview.scan import scan_workspace

    seen = seen_now(scan_workspace(sample, today=date(2026, 11, 29)), Decision(WIN11, "keep-a"))
    memory = sample / "MEMORY.md"
    before = memory.read_text()
    memory.write_text(before.replace("没有附实测", "已经实测"))  # win11-utf8-default's body
    changed = memory.read_text()
    assert changed != before
    assert _apply(sample, tmp_path, f"- {{item: {WIN11}, action: keep-a, seen: {seen}}}\n") == 1
    assert f"conflict: {WIN11}:keep-a: changed since you decided" in capsys.readouterr().err
    assert memory.read_text() == changed
    assert [d.item for d in load_pending(sample)[0]] == [WIN11]

    again = seen_now(scan_workspace(sample, today=date(2026, 11, 29)), Decision(WIN11, "keep-a"))
    assert again != seen
    assert _apply(sample, tmp_path, f"- {{item: {WIN11}, action: keep-a, seen: {again}}}\n") == 0
    assert "## [KNOWLEDGE:win11-utf8-default]" not in memory.read_text()
