"""What the owner reads: one date form, plurals that agree, no stand-ins, the same file count
in the app's review, its result and `apply --dry-run`, and jargon explained where it shows."""

from __future__ import annotations

import re
import shutil
from datetime import date
from pathlib import Path

import pytest

from memreview.app.backend import Backend
from memreview.cli import main
from memreview.decisions import registry
from memreview.decisions.units import archived, contradictions, dormant
from memreview.display import dated, day_of, days_ago
from memreview.scan import scan_workspace

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"
TODAY = date(2026, 11, 29)
# a revive (NOW.md and a hidden item) and a skip (skill_candidates.json and a hidden item)
DECISIONS = [
    {"item": "p-02a946511cb7", "action": "revive"},
    {"item": "k-c43e617f5360", "action": "skip"},
]


@pytest.mark.parametrize(
    "days, words", [(0, "today"), (1, "1 day ago"), (2, "2 days ago"), (-1, "in 1 day")]
)
def test_days_ago_gets_the_plural_right(days, words):
    assert days_ago(days) == words


@pytest.mark.parametrize(
    "value, shown",
    [
        ("2026-11-20", "2026-11-20"),
        ("2026-11-20T03:00:00Z", "2026-11-20"),
        ("2026-11-20T03:00:00.123+08:00", "2026-11-20"),
        ("2026-11-20 03:00", "2026-11-20"),
        ("last spring", "last spring"),
    ],
)
def test_every_date_is_shown_in_one_form(value, shown):
    assert day_of(value) == shown


def test_a_date_with_its_age():
    assert dated("2026-11-28T01:00:00Z", 1) == "2026-11-28 (1 day ago)"
    assert dated("2026-11-28", None) == "2026-11-28"
    assert dated(None, 3) is None


def test_no_act_shows_the_owner_a_stand_in():
    for unit in registry.units():
        for act in unit.acts:
            assert not re.search(r"\bDATE\b|<[a-z]+>", act.effect), (unit.name, act.effect)


def _facts(blocks) -> dict:
    return dict(next(b for b in blocks if hasattr(b, "pairs")).pairs)


def _captions(blocks) -> str:
    return " ".join(b.text for b in blocks if type(b).__name__ == "Caption")


def test_dormant_evidence_says_where_a_project_is_known_from_and_why_its_age_is_unknown():
    item = {"project": "zora", "last_mentioned": None, "days_dormant": None, "source": "marker"}
    blocks = dormant.evidence(item)
    facts = _facts(blocks)
    assert facts["known from"] == "<!-- project: … --> markers in entries only"
    assert facts["asleep"] == "for an unknown time"
    hints = _captions(blocks)
    assert "no Added: date to count from" in hints
    assert "archive and done have no status line to set" in hints
    seen = dormant.evidence(
        {"project": "radar", "last_mentioned": "2026-10-20", "days_dormant": 40, "source": "file"}
    )
    assert _facts(seen)["last mentioned"] == "2026-10-20 (40 days ago)"
    assert _facts(seen)["known from"] == "its page in the projects folder"


def test_archived_and_contradictions_evidence_use_plain_words():
    item = {"fragment": {"last_seen": "2026-09-12"}, "days_since_last_seen": 1, "matches": []}
    assert _facts(archived.evidence(item))["last seen"] == "2026-09-12 (1 day ago)"
    pair = {"source": "marker", "a": {}, "b": {}}
    facts = _facts(contradictions.evidence(pair))
    assert facts["found by"] == "a CONFLICTS-WITH line in an anchor"


def test_review_result_and_dry_run_count_the_same_files(tmp_path, capsys):
    ws = shutil.copytree(SAMPLE, tmp_path / "ws")
    decisions = tmp_path / "decisions.yaml"
    decisions.write_text(
        "".join(f"- {{item: {d['item']}, action: {d['action']}}}\n" for d in DECISIONS)
    )
    result = scan_workspace(ws, today=TODAY)
    backend = Backend(ws)
    preview = backend.preview(result, DECISIONS)
    assert sorted(preview.files) == ["NOW.md", "memory/skill_candidates.json"] and preview.hides

    assert (
        main(
            ["apply", str(ws), "--decisions", str(decisions), "--today", "2026-11-29", "--dry-run"]
        )
        == 0
    )
    out, err = capsys.readouterr()
    assert "would apply 2 of 2 decisions, 2 files and memreview's list of hidden items" in err
    assert "batch: dry-run" not in out
    assert re.search(r"^\+    batch: \d{8}-\d{6}-[0-9a-f]{6}$", out, re.M)

    written = backend.apply(scan_workspace(ws, today=TODAY), DECISIONS)
    assert sorted(written.written) == sorted(preview.files) and written.hidden == 2


def test_health_lists_ages_in_words_with_the_plural_right():
    from memreview.app.widgets.health import _lists

    health = {
        "dreaming": {"last_run": "2026-11-28T03:00:00Z", "days_since": 1},
        "stale_todos": [{"file": "NOW.md", "line": 7, "text": "check", "days": 5}],
        "untouched": [{"file": "memory/old.md", "days": 1}],
    }
    text = _lists(health, [], {}, "red").plain
    assert "last run 2026-11-28 (1 day ago)" in text
    assert "5 days ago" in text and "memory/old.md  1 day ago" in text
    assert "1 days" not in text and "5d" not in text


def test_the_guide_lists_every_action_by_the_name_the_app_and_files_use():
    readme = (SAMPLE.parent / "docs" / "guide.md").read_text()
    for unit in registry.units():
        row = re.search(rf"^\| {unit.title} \| (.*)$", readme, re.M)
        assert row, unit.title
        for act in unit.acts:
            assert f"`{act.action}`" in row.group(1), (unit.title, act.action)
            # the app shows the action's own name (a duplicate's member: keep #N)
            assert act.label == act.action or act.staged or act.verb == "merge", act
        for option in {o for a in unit.acts for o in a.takes}:
            assert f"`{option}:" in row.group(1), (unit.title, option)


def test_promotions_evidence_names_the_pipeline_and_shows_days():
    from memreview.decisions.units import promotions

    item = {
        "promoted": "2026-11-21",
        "origin": "openclaw",
        "ref": {},
        "store": {
            "recall_days": 3,
            "last_recalled": "2026-11-20T03:00:00.000Z",
            "promoted_at": "2026-11-21T01:02:03Z",
        },
    }
    blocks = promotions.evidence(item)
    first = dict(blocks[0].pairs)
    assert first["written by"].startswith("OpenClaw's nightly promotion")
    store = dict(blocks[-1].pairs)
    assert store["last recalled"] == "2026-11-20" and store["promoted at"] == "2026-11-21"


@pytest.mark.parametrize(
    "item, en, zh",
    [
        ({"days_left": 5}, "lost in 5 days", "何时丢失 5 天后"),
        ({"days_left": 1}, "lost in 1 day", "何时丢失 1 天后"),
        ({"days_left": 0, "evicted_next": True}, "lost next: the store is full", "何时丢失 下一个"),
        ({"days_left": 0}, "lost now: past the 30-day limit", "何时丢失 现在：已过 30 天期限"),
    ],
)
def test_dropping_evidence_reads_as_one_sentence_after_its_lost_label(item, en, zh):
    from memreview.app.render import facts
    from memreview.decisions.units import dropping
    from memreview.i18n import use_language

    def shown() -> str:
        return facts(_facts(dropping.evidence(item)).items(), lambda _name: "").plain

    assert en in shown() and "left" not in shown()
    use_language("zh")
    try:
        assert zh in shown()
    finally:
        use_language("en")
