"""memreview's own state (``.memreview/state.yaml``): what it writes it can read back (a long
skipped candidate is kept beside it, not in it), and a state file it can't read is never
replaced by a fresh one (every reject and snooze in it would be gone)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from memreview.decisions import apply, finish, undo
from memreview.decisions.hidden import hidden_items, unhide
from memreview.decisions.state import load_state
from memreview.scan import scan_workspace
from memreview.store import batches
from memreview.workspace.yamlcap import CONFIG_LIMIT

TODAY = date(2026, 11, 29)
NOW = datetime(2026, 11, 29, 10, 0, 0, tzinfo=UTC)
STATE = ".memreview/state.yaml"


def _workspace(root: Path, junk: str) -> Path:
    cands = [
        {"theme": "Daily digest", "content": "send the digest at 07:00", "count": 6},
        {"theme": "Junk", "content": junk, "count": 1},
        {"theme": "UTF-8 first", "content": "读写文件时先用 UTF-8", "count": 3},
    ]
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory\n\n- a rule\n")
    text = json.dumps({"candidates": cands}, ensure_ascii=False, indent=2) + "\n"
    (root / "memory/skill_candidates.json").write_text(text)
    (root / "memory/projects").mkdir()
    (root / "memory/projects/diary.md").write_text("# Diary\nAdded: 2026-01-01\n")
    return root


def _item(root: Path, queue: str, **match) -> dict:
    result = scan_workspace(root, today=TODAY)
    [found] = [
        it for it in result.all_queues[queue] if all(it.get(k) == v for k, v in match.items())
    ]
    return found


def _decide(root: Path, queue: str, action: str, **match):
    result = scan_workspace(root, today=TODAY)
    it = _item(root, queue, **match)
    return apply(result, [{"item": it["id"], "action": action}], now=NOW), it["id"]


def test_a_skipped_candidate_over_the_state_cap_is_hidden_and_stays_hidden(tmp_path):
    """A 1.2 MB junk candidate skipped: the skip is written, state.yaml stays small enough
    to read back, the item stays hidden on the next load, and unhide puts it back whole."""
    junk = "x" * 1_200_000
    root = _workspace(tmp_path / "ws", junk)
    before = (root / "memory/skill_candidates.json").read_bytes()
    snoozed, diary = _decide(root, "dormant", "snooze")
    assert snoozed.ok
    out, junk_id = _decide(root, "skills", "skip", theme="Junk")
    assert out.ok, out.messages
    assert (root / STATE).stat().st_size < CONFIG_LIMIT
    state = load_state(root)
    assert {junk_id, diary} <= set(state.hidden)
    assert json.loads(state.hidden[junk_id].removed["candidate"])["content"] == junk
    assert junk_id not in [i["id"] for i in scan_workspace(root, today=TODAY).queues["skills"]]
    assert (
        not (root / ".memreview/pending.yaml").exists()
        or junk_id not in (root / ".memreview/pending.yaml").read_text()
    )
    back = unhide(root, junk_id, today=TODAY, now=NOW)
    assert back.ok, back.message
    assert (root / "memory/skill_candidates.json").read_bytes() == before
    assert undo(root).ok  # hidden again, from the batch's copy of the file
    assert junk_id in load_state(root).hidden
    assert (root / STATE).stat().st_size < CONFIG_LIMIT
    assert unhide(root, junk_id, today=TODAY, now=NOW).ok
    assert (root / "memory/skill_candidates.json").read_bytes() == before


def test_a_side_file_the_agent_changed_is_not_put_back(tmp_path):
    """The kept candidate is checked against its digest in state.yaml: a changed copy is
    refused by unhide (nothing written), the item stays hidden."""
    root = _workspace(tmp_path / "ws", "y" * 200_000)
    out, junk_id = _decide(root, "skills", "skip", theme="Junk")
    assert out.ok
    [side] = [p for p in (root / ".memreview").rglob("*.json") if "backups" not in p.parts]
    side.write_text(json.dumps({"theme": "Junk", "content": "planted"}))
    cands = (root / "memory/skill_candidates.json").read_bytes()
    back = unhide(root, junk_id, today=TODAY, now=NOW)
    assert not back.ok
    assert (root / "memory/skill_candidates.json").read_bytes() == cands
    assert junk_id in load_state(root).hidden


DAMAGE = {
    "over the cap": lambda good: good + b"# " + b"p" * CONFIG_LIMIT + b"\n",
    "damaged YAML": lambda good: good + b"hidden: [unclosed\n",
    "forged types": lambda good: b"hidden: [1, 2, 3]\n",
    "python tag": lambda good: b"hidden: !!python/object:os.system {}\n",
}


def _snoozed_and_interrupted(root: Path) -> bytes:
    """A snoozed item in state.yaml, then a skip cut short after its file was written."""
    out, _diary = _decide(root, "dormant", "snooze")
    assert out.ok
    result = scan_workspace(root, today=TODAY)
    it = _item(root, "skills", theme="Daily digest")

    def stop(step: str) -> None:
        if step == "journal-file":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        apply(result, [{"item": it["id"], "action": "skip"}], now=NOW, fault=stop)
    return (root / STATE).read_bytes()


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_finish_refuses_to_replace_a_state_file_it_cant_read(tmp_path, damage):
    root = _workspace(tmp_path / "ws", "junk")
    good = _snoozed_and_interrupted(root)
    bad = DAMAGE[damage](good)
    (root / STATE).write_bytes(bad)
    out = finish(root)
    assert not out.ok
    assert STATE in out.message
    assert (root / STATE).read_bytes() == bad  # every hide in it kept
    assert [b.batch_id for b in batches(root) if not b.committed]  # still to finish


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_unhide_refuses_to_replace_a_state_file_it_cant_read(tmp_path, damage, monkeypatch):
    """The state file turns unreadable between the listing and the write (an agent's write):
    unhide writes nothing rather than a state holding nothing but the rest."""
    from memreview.decisions import hidden as hidden_module

    root = _workspace(tmp_path / "ws", "junk")
    out, _ = _decide(root, "dormant", "snooze")
    assert out.ok
    [h] = hidden_items(root, TODAY)
    bad = DAMAGE[damage]((root / STATE).read_bytes())
    listed = hidden_module.hidden_items

    def then_damaged(*args, **kw):
        found = listed(*args, **kw)
        (root / STATE).write_bytes(bad)
        return found

    monkeypatch.setattr(hidden_module, "hidden_items", then_damaged)
    back = unhide(root, h.id, today=TODAY, now=NOW)
    assert not back.ok
    assert STATE in back.message
    assert (root / STATE).read_bytes() == bad
    assert not [b for b in batches(root) if b.kind == "unhide"]


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_undo_refuses_when_the_state_file_cant_be_read(tmp_path, damage):
    root = _workspace(tmp_path / "ws", "junk")
    out, _ = _decide(root, "dormant", "snooze")
    assert out.ok
    diary = (root / "memory/projects/diary.md").read_bytes()
    bad = DAMAGE[damage]((root / STATE).read_bytes())
    (root / STATE).write_bytes(bad)
    back = undo(root)
    assert not back.ok
    assert STATE in back.message
    assert (root / STATE).read_bytes() == bad
    assert (root / "memory/projects/diary.md").read_bytes() == diary
    assert not [b for b in batches(root) if b.undone_by]


def test_an_entry_memreview_cant_use_is_written_back_as_it_was(tmp_path):
    """One forged entry (a list, an impossible date) is not dropped when another decision
    writes state.yaml again: it was the owner's file before it was the agent's."""
    import yaml

    root = _workspace(tmp_path / "ws", "junk")
    (root / ".memreview").mkdir()
    forged = {
        "forged": [1, 2],
        "feb30": {"until": "2026-02-30", "reason": "snoozed", "batch": None},
    }
    (root / STATE).write_text(yaml.safe_dump({"hidden": forged}))
    out, diary = _decide(root, "dormant", "snooze")
    assert out.ok, out.messages
    doc = yaml.safe_load((root / STATE).read_text())
    assert doc["hidden"]["forged"] == [1, 2]
    assert doc["hidden"]["feb30"]["until"] == "2026-02-30"
    assert diary in doc["hidden"]
