"""Every sequence of decisions ends in an honest workspace (issue 29): undo stages every field
again, a decision applies once (state-only ones too), an undo takes back its own batch and
nothing of another's, a redaction undone is said to stay, and two decisions that touch one
entry from different queues must agree."""

from __future__ import annotations

from pathlib import Path

import pytest
from decisions_helpers import NOW, TODAY, snapshot
from shared_ws import write_shared

from memreview import store
from memreview.cli import main
from memreview.decisions import apply, clash_of, load_pending, seen_now, undo
from memreview.decisions.model import Decision
from memreview.decisions.state import load_state
from memreview.scan import scan_workspace

SKILL = "k-4768d525e4d6"
DIGEST = "d-6b333b01af74"  # MEMORY.md:4 and :5
KEYS = "d-f8495d10a0cb"  # MEMORY.md:7 and :8, each holding the credential
BACKUPS = "a-367f1fd60171"  # the archived fragment still in MEMORY.md:6
PROMO_4, PROMO_5, PROMO_6 = "pm-04f328fb2129", "pm-02440390e6a1", "pm-eaa6cc272c75"
PROMO_7, PROMO_8 = "pm-96c2252d4d29", "pm-5147136af5c2"
SECRET_7 = "cr-0c574f4e3b29"
ZORA, ZORA_DEMOTE = "p-02a946511cb7", "m-02a946511cb7"  # one PROJECT anchor, two queues


@pytest.fixture
def ws(tmp_path) -> Path:
    return write_shared(tmp_path / "ws")


def _scan(root: Path):
    return scan_workspace(root, today=TODAY)


def _decide(root: Path, decisions: list[dict]):
    return apply(_scan(root), decisions, now=NOW)


def test_undo_stages_every_field_of_every_decision_again(ws):
    result = _scan(ws)
    wanted = [
        Decision(SKILL, "create-skill", queue="skills", slug="smoke-after-deploys"),
        Decision(
            DIGEST,
            "merge",
            keep=2,
            text="- The owner wants the digest before 07:00",
            queue="duplicates",
        ),
        Decision(SECRET_7, "keep", queue="secrets"),
    ]
    wanted = [Decision.from_dict({**d.to_dict(), "seen": seen_now(result, d)}) for d in wanted]
    assert wanted[1].seen and wanted[2].seen  # a new skill's folder has nothing to have read
    out = apply(result, wanted, now=NOW)
    assert not out.failures and not out.conflicts and len(out.applied) == 3
    assert (ws / "skills/smoke-after-deploys/SKILL.md").is_file()
    undone = undo(ws)
    assert undone.ok
    pending, _warnings = load_pending(ws)
    assert sorted(d.to_dict().items() for d in pending) == sorted(
        d.to_dict().items() for d in wanted
    )
    # written again, the skill goes to the folder the owner chose, not the default one
    again = apply(_scan(ws), pending, now=NOW)
    assert len(again.applied) == 3, again.messages
    assert [p.name for p in (ws / "skills").iterdir()] == ["smoke-after-deploys"]


STATE_ONLY = [
    {"item": ZORA, "action": "snooze"},
    {"item": DIGEST, "action": "not-duplicate"},
    {"item": BACKUPS, "action": "keep"},
    {"item": PROMO_8, "action": "keep"},
    {"item": SKILL, "action": "create-skill"},
]


def test_applying_the_same_decisions_again_writes_nothing_for_state_only_actions(ws):
    first = _decide(ws, STATE_ONLY)
    assert len(first.applied) == 5 and first.batch
    before = snapshot(ws, skip_private=False)
    again = _decide(ws, STATE_ONLY)
    assert again.batch is None and not again.applied
    assert {d.item for d in again.skipped} == {d["item"] for d in STATE_ONLY}
    assert snapshot(ws, skip_private=False) == before
    assert [b.batch_id for b in store.batches(ws)] == [first.batch]
    # undo takes back that one batch, all of it
    assert undo(ws).ok
    assert load_state(ws).hidden == {}


def test_an_undo_puts_back_the_state_entry_its_batch_replaced(ws):
    kept = _decide(ws, [{"item": PROMO_6, "action": "keep"}])
    assert load_state(ws).hidden[PROMO_6].batch == kept.batch
    # decided again while hidden (another action): its batch replaces the state entry
    archived = _decide(ws, [{"item": PROMO_6, "action": "archive"}])
    assert archived.batch and load_state(ws).hidden[PROMO_6].batch == archived.batch
    out = undo(ws)
    assert out.ok and out.result.undone_batch == archived.batch
    # the keep's batch is not undone: the item stays hidden by it
    entry = load_state(ws).hidden[PROMO_6]
    assert (entry.batch, entry.reason) == (kept.batch, "reviewed")
    assert PROMO_6 not in out.unhidden


def test_an_undone_redaction_is_said_to_stay_and_leaves_no_dead_decision(ws):
    out = _decide(
        ws,
        [
            {"item": SECRET_7, "action": "redact"},
            {"item": DIGEST, "action": "keep", "keep": 1},
            {"item": PROMO_6, "action": "keep"},
        ],
    )
    assert len(out.applied) == 3
    undone = undo(ws)
    assert undone.ok
    assert "the redaction stays (MEMORY.md)" in undone.message
    assert "undo never writes a credential back" in undone.message
    pending, _warnings = load_pending(ws)
    assert sorted(d.item for d in pending) == sorted([DIGEST, PROMO_6])
    assert [d.item for d in undone.restaged] == [d.item for d in pending]
    result = _scan(ws)
    assert SECRET_7 not in {it["id"] for it in result.all_queues["secrets"]}
    # every decision left pending is one the workspace still offers: written again cleanly
    again = apply(result, pending, now=NOW)
    assert not again.failures and not again.conflicts and len(again.applied) == 2


# Decisions from two queues on one entry or anchor that don't agree on what becomes of it.
DISAGREE = [
    ({"item": BACKUPS, "action": "remove"}, {"item": PROMO_6, "action": "keep"}),
    ({"item": DIGEST, "action": "keep", "keep": 1}, {"item": PROMO_5, "action": "archive"}),
    ({"item": KEYS, "action": "keep", "keep": 2}, {"item": SECRET_7, "action": "redact"}),
    ({"item": SECRET_7, "action": "keep"}, {"item": PROMO_7, "action": "archive"}),
    ({"item": ZORA, "action": "snooze"}, {"item": ZORA_DEMOTE, "action": "approve"}),
    ({"item": BACKUPS, "action": "remove"}, {"item": PROMO_6, "action": "archive"}),
]


@pytest.mark.parametrize(("first", "second"), DISAGREE, ids=lambda d: f"{d['item']}:{d['action']}")
def test_two_decisions_that_disagree_on_one_entry_are_refused_whole(
    ws, tmp_path, capsys, first, second
):
    before = snapshot(ws, skip_private=False)
    f = tmp_path / "decisions.yaml"
    lines = [first, second, {"item": PROMO_4, "action": "keep"}]  # the third is fine alone
    f.write_text(
        "".join("- {" + ", ".join(f"{k}: {v}" for k, v in d.items()) + "}\n" for d in lines),
        encoding="utf-8",
    )
    code = main(["apply", str(ws), "--decisions", str(f), "--today", TODAY.isoformat()])
    err = capsys.readouterr().err
    assert code == 2
    assert snapshot(ws, skip_private=False) == before
    refused = [ln for ln in err.splitlines() if ln.startswith("refused: ")]
    assert len(refused) == 1 and first["item"] in refused[0] and second["item"] in refused[0]


@pytest.mark.parametrize(("first", "second"), DISAGREE, ids=lambda d: f"{d['item']}:{d['action']}")
def test_the_app_refuses_to_stage_the_second_naming_the_first(ws, first, second):
    result = _scan(ws)
    staged = [Decision.from_dict(first)]
    why = clash_of(result, staged, Decision.from_dict(second))
    assert why is not None and why.startswith(f"conflicts with {first['item']} (")
    # and the other way round
    why = clash_of(result, [Decision.from_dict(second)], Decision.from_dict(first))
    assert why is not None and why.startswith(f"conflicts with {second['item']} (")


def test_decisions_that_agree_on_an_entry_are_written_together(ws):
    out = _decide(
        ws,
        [
            {"item": DIGEST, "action": "not-duplicate"},
            {"item": PROMO_4, "action": "keep"},
            {"item": SECRET_7, "action": "redact"},
            {"item": PROMO_7, "action": "keep"},
        ],
    )
    assert len(out.applied) == 4 and not out.refused
