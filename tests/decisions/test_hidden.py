"""Hidden items: listed with why and since when; unhide puts one back in its queue as a
journaled batch that undo takes back (the item is hidden again)."""

from __future__ import annotations

from datetime import date

import pytest
from decisions_helpers import NOW, TODAY, decide, scan
from test_decisions_anchors import OLD_NEW

from memreview.cli import main
from memreview.decisions import undo
from memreview.decisions.hidden import hidden_items, unhide
from memreview.decisions.state import load_state
from memreview.store import batches

PROJECT = {"memory/projects/diary.md": "# Diary\nAdded: 2026-01-01\n"}


def test_a_rejected_supersede_is_listed_with_why_and_since(make_ws):
    root = make_ws(OLD_NEW)
    out = decide(root, "supersede", "reject")
    [h] = hidden_items(root, TODAY)
    assert (h.reason, h.until, h.batch, h.queue, h.action) == (
        "rejected",
        None,
        out.batch,
        "supersede",
        "reject",
    )
    assert h.title == "new-fact supersedes old-fact"
    assert h.since == next(b for b in batches(root) if b.batch_id == out.batch).ts[:10]
    assert h.why() == "rejected"


def test_a_snooze_says_until_when_and_is_gone_from_the_list_after(make_ws):
    root = make_ws(PROJECT)
    assert decide(root, "dormant", "snooze").ok
    [h] = hidden_items(root, TODAY)
    assert h.why() == "snoozed, hidden until 2026-12-27"
    assert hidden_items(root, date(2026, 12, 27)) == []


def test_unhide_shows_the_item_again_and_undo_hides_it_again(make_ws):
    root = make_ws(OLD_NEW)
    item_id = scan(root).all_queues["supersede"][0]["id"]
    first = decide(root, "supersede", "reject").batch
    assert scan(root).queues["supersede"] == []
    out = unhide(root, item_id, today=TODAY, now=NOW)
    assert out.ok, out.message
    assert [i["id"] for i in scan(root).queues["supersede"]] == [item_id]
    record = batches(root)[-1]
    assert record.kind == "unhide" and record.batch_id == out.batch and record.committed
    assert record.decisions[0]["hidden"] == {"until": None, "reason": "rejected", "batch": first}
    back = undo(root)
    assert back.ok and back.rehidden == [item_id]
    assert load_state(root).hidden[item_id].batch == first
    assert scan(root).queues["supersede"] == []
    assert not unhide(root, "nope", today=TODAY).ok


def test_cli_hidden_and_unhide(make_ws, capsys):
    root = make_ws(OLD_NEW)
    item_id = scan(root).all_queues["supersede"][0]["id"]
    decide(root, "supersede", "reject")
    assert main(["hidden", str(root), "--today", "2026-11-29"]) == 0
    out = capsys.readouterr().out
    assert f"{item_id}  supersede" in out and "rejected; since" in out
    assert main(["hidden", str(root), "--json", "--today", "2026-11-29"]) == 0
    assert f'"id": "{item_id}"' in capsys.readouterr().out
    assert main(["unhide", str(root), item_id, "--today", "2026-11-29"]) == 0
    assert "shows again in supersede" in capsys.readouterr().err
    assert main(["hidden", str(root), "--today", "2026-11-29"]) == 0
    assert "nothing hidden" in capsys.readouterr().out
    assert main(["unhide", str(root), item_id]) == 1
    assert "is not hidden" in capsys.readouterr().err


def test_undo_of_an_unhide_leaves_a_broken_state_file_alone(make_ws):
    root = make_ws(OLD_NEW)
    item_id = scan(root).all_queues["supersede"][0]["id"]
    decide(root, "supersede", "reject")
    assert unhide(root, item_id, today=TODAY, now=NOW).ok
    state = root / ".memreview/state.yaml"
    state.write_bytes(b"hidden: [broken\n")
    back = undo(root)  # refused: hiding the item again would need the file it can't read
    assert not back.ok and back.rehidden == []
    assert ".memreview/state.yaml can't be read" in back.message
    assert state.read_bytes() == b"hidden: [broken\n"
    assert not [b for b in batches(root) if b.undone_by]


SKILLS = {
    "memory/skill_candidates.json": (
        "{\n"
        '  "updated_at": "2026-11-28T03:06:02+08:00",\n'
        '  "candidates": [\n'
        '    {"theme": "Daily digest", "content": "one screen", "count": 6, "first_seen": "x"},\n'
        '    {"theme": "UTF-8 first", "content": "set PYTHONUTF8=1", "count": 4},\n'
        '    {"theme": "Deadline check", "content": "read the deadline", "count": 3}\n'
        "  ]\n"
        "}\n"
    )
}


def test_a_skipped_skill_is_listed_and_unhide_puts_the_candidate_back_where_it_was(make_ws):
    root = make_ws(SKILLS)
    before = (root / "memory/skill_candidates.json").read_bytes()
    skipped = decide(root, "skills", "skip", {"title": "Daily digest"})
    assert skipped.ok
    assert b"Daily digest" not in (root / "memory/skill_candidates.json").read_bytes()
    [h] = hidden_items(root, TODAY)
    assert (h.queue, h.reason, h.batch, h.action) == ("skills", "skipped", skipped.batch, "skip")
    assert h.to_json()["restores"] == "memory/skill_candidates.json"
    # the app's hidden toggle: the skipped candidate is a hidden item of the skills queue
    result = scan(root)
    assert result.hidden["skills"] == 1
    [back] = [i for i in result.all_queues["skills"] if i.get("skipped")]
    assert (back["id"], back["theme"], back["count"]) == (h.id, "Daily digest", 6)
    out = unhide(root, h.id, today=TODAY, now=NOW)
    assert out.ok, out.message
    assert (root / "memory/skill_candidates.json").read_bytes() == before  # every field, in place
    assert hidden_items(root, TODAY) == []
    assert [i["id"] for i in scan(root).queues["skills"]][0] == h.id
    assert batches(root)[-1].kind == "unhide"
    taken = undo(root)  # the unhide taken back: hidden again, out of the file again
    assert taken.ok and taken.rehidden == [h.id]
    assert b"Daily digest" not in (root / "memory/skill_candidates.json").read_bytes()
    [again] = hidden_items(root, TODAY)
    assert again.removed == h.removed
    assert unhide(root, h.id, today=TODAY, now=NOW).ok
    assert (root / "memory/skill_candidates.json").read_bytes() == before


def test_a_skipped_candidate_the_pipeline_proposed_again_is_unhidden_without_a_copy(make_ws):
    root = make_ws(SKILLS)
    before = (root / "memory/skill_candidates.json").read_bytes()
    assert decide(root, "skills", "skip", {"title": "UTF-8 first"}).ok
    (root / "memory/skill_candidates.json").write_bytes(before)  # proposed again
    [h] = hidden_items(root, TODAY)
    assert scan(root).hidden["skills"] == 1  # the file's copy, hidden; no second one
    assert unhide(root, h.id, today=TODAY, now=NOW).ok
    assert (root / "memory/skill_candidates.json").read_bytes() == before


def test_a_candidate_goes_back_in_the_files_own_layout():
    import json
    from pathlib import Path

    from memreview.decisions.plan import RemoveCandidate
    from memreview.decisions.rewrite.whole import insert_candidate, remove_candidates
    from memreview.workspace.textfile import decode_bytes

    sample = Path(__file__).parents[2] / "sample_workspace/memory/skill_candidates.json"
    pretty = sample.read_bytes()  # indented, Chinese kept as is
    escaped = json.dumps(json.loads(pretty)).encode()  # one line, \uXXXX escapes
    for data in (pretty, escaped):
        cands = json.loads(data)["candidates"]
        for k, c in enumerate(cands):
            op = RemoveCandidate("d", c["theme"], c["content"])
            cut = remove_candidates("f.json", decode_bytes("f.json", data), [op]).new_bytes
            assert insert_candidate("f.json", decode_bytes("f.json", cut), k, c) == data


def test_a_skipped_candidate_is_unhidden_before_it_is_decided_again(make_ws):
    from memreview.decisions import apply

    root = make_ws(SKILLS)
    assert decide(root, "skills", "skip", {"title": "UTF-8 first"}).ok
    result = scan(root)
    [back] = [i for i in result.all_queues["skills"] if i.get("skipped")]
    out = apply(result, [{"item": back["id"], "action": "solidify"}], now=NOW)
    assert not out.ok
    assert "unhide it first" in str(out.failures[0].reason)
    assert b"UTF-8 first" not in (root / "MEMORY.md").read_bytes()


def test_a_candidate_holding_a_key_is_journaled_masked_and_still_goes_back_whole(make_ws):
    key = "sk-or-v1-3f9a1c0e7b2d4a6f8e1c3b5d7f9a2c4e6b8d0f1a3c5e7b9d"
    files = {
        "memory/skill_candidates.json": (
            '{"candidates": [\n  {"theme": "Night jobs", "content": "use key '
            + key
            + '"},\n  {"theme": "Other", "content": "x"}\n]}\n'
        )
    }
    root = make_ws(files)
    before = (root / "memory/skill_candidates.json").read_bytes()
    assert decide(root, "skills", "skip", {"theme": "Night jobs"}).ok
    [h] = hidden_items(root, TODAY)
    assert unhide(root, h.id, today=TODAY, now=NOW).ok
    assert key.encode() not in (root / ".memreview/journal.jsonl").read_bytes()
    assert undo(root).ok  # hidden again: the candidate kept whole, from the batch's copy
    assert unhide(root, h.id, today=TODAY, now=NOW).ok
    assert (root / "memory/skill_candidates.json").read_bytes() == before


def _skipped(root):
    assert decide(root, "skills", "skip", {"title": "Daily digest"}).ok
    [h] = hidden_items(root, TODAY)
    return h


def _unhide_batches(root) -> int:
    return sum(b.kind == "unhide" for b in batches(root))


def test_unhide_refuses_a_candidates_file_it_cant_parse_and_changes_nothing(make_ws):
    """A trailing comma the agent left: the file is not rewritten as just the candidate
    (three candidates down to one); the item stays hidden; nothing is journaled."""
    root = make_ws(SKILLS)
    h = _skipped(root)
    cands = root / "memory/skill_candidates.json"
    broken = cands.read_bytes().replace(b'"count": 3}\n', b'"count": 3},\n  {"theme": "New"},\n')
    cands.write_bytes(broken)
    state = (root / ".memreview/state.yaml").read_bytes()
    out = unhide(root, h.id, today=TODAY, now=NOW)
    assert not out.ok
    assert "not valid JSON" in out.message and "memory/skill_candidates.json" in out.message
    assert cands.read_bytes() == broken
    assert (root / ".memreview/state.yaml").read_bytes() == state
    assert [x.id for x in hidden_items(root, TODAY)] == [h.id]
    assert _unhide_batches(root) == 0
    # once the agent's file parses again, the candidate goes back among the others
    fixed = broken.replace(b'{"theme": "New"},\n', b'{"theme": "New"}\n')
    cands.write_bytes(fixed)
    assert unhide(root, h.id, today=TODAY, now=NOW).ok
    import json

    themes = [c["theme"] for c in json.loads(cands.read_bytes())["candidates"]]
    assert themes == ["Daily digest", "UTF-8 first", "Deadline check", "New"]


@pytest.mark.parametrize("target", ["MEMORY.md", "memory/other.json", "../outside.json"])
def test_unhide_refuses_a_file_state_yaml_names_that_is_not_the_candidates_file(make_ws, target):
    """state.yaml is writable by the agent: ``removed.file: MEMORY.md`` must not turn the
    owner's MEMORY.md into a JSON document."""
    import yaml

    root = make_ws(SKILLS)
    h = _skipped(root)
    (root / "memory/other.json").write_text('{"candidates": []}\n')
    path = root / ".memreview/state.yaml"
    doc = yaml.safe_load(path.read_text())
    doc["hidden"][h.id]["removed"]["file"] = target
    path.write_text(yaml.safe_dump(doc, allow_unicode=True))
    memory = (root / "MEMORY.md").read_bytes()
    state = path.read_bytes()
    out = unhide(root, h.id, today=TODAY, now=NOW)
    assert (root / "MEMORY.md").read_bytes() == memory
    assert (root / "memory/other.json").read_text() == '{"candidates": []}\n'
    assert path.read_bytes() == state
    assert not (root.parent / "outside.json").exists()
    assert not out.ok, target
    assert "only writes the skill candidates file" in out.message
    assert _unhide_batches(root) == 0


def test_unhide_shows_its_diff_and_a_dry_run_writes_nothing(make_ws, capsys):
    root = make_ws(SKILLS)
    h = _skipped(root)
    cands = root / "memory/skill_candidates.json"
    cut = cands.read_bytes()
    state = (root / ".memreview/state.yaml").read_bytes()
    assert main(["unhide", str(root), h.id, "--dry-run", "--today", "2026-11-29"]) == 0
    shown = capsys.readouterr()
    assert "+++ b/memory/skill_candidates.json" in shown.out
    added = [x for x in shown.out.splitlines() if x.startswith("+") and not x.startswith("+++")]
    assert len(added) == 1 and "Daily digest" in added[0]  # only what unhide puts there
    assert "would show again" in shown.err
    assert cands.read_bytes() == cut
    assert (root / ".memreview/state.yaml").read_bytes() == state
    assert _unhide_batches(root) == 0
    assert main(["unhide", str(root), h.id, "--today", "2026-11-29"]) == 0
    assert "Daily digest" in capsys.readouterr().out  # the diff of what it wrote
    assert b"Daily digest" in cands.read_bytes()


def test_cli_unhide_refusal_is_one_clear_line(make_ws, capsys):
    root = make_ws(SKILLS)
    h = _skipped(root)
    cands = root / "memory/skill_candidates.json"
    cands.write_bytes(cands.read_bytes().replace(b"]", b",]"))
    assert main(["unhide", str(root), h.id, "--today", "2026-11-29"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("memreview: nothing unhidden:") and err.count("\n") == 1
    assert "Traceback" not in err


def test_unhide_and_its_undo_change_state_yaml_under_memreviews_lock(make_ws, monkeypatch):
    import fcntl
    import os

    from memreview.decisions import hidden as hidden_module
    from memreview.decisions import undo_finish

    root = make_ws(OLD_NEW)
    item_id = scan(root).all_queues["supersede"][0]["id"]
    decide(root, "supersede", "reject")
    held: list[bool] = []

    def lock_is_held() -> bool:
        fd = os.open(root / ".memreview" / "lock", os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False

    real_load, real_parse = hidden_module.load_state, hidden_module.state_for_change

    def load_state_watched(*args, **kwargs):
        held.append(lock_is_held())
        return real_load(*args, **kwargs)

    def parse_state_watched(*args, **kwargs):
        held.append(lock_is_held())
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(hidden_module, "load_state", load_state_watched)
    monkeypatch.setattr(hidden_module, "state_for_change", parse_state_watched)
    monkeypatch.setattr(undo_finish, "state_for_change", parse_state_watched)
    assert unhide(root, item_id, today=TODAY, now=NOW).ok
    assert undo(root, now=NOW).rehidden == [item_id]
    # the first read only lists the hidden items; every read that leads to a write is locked
    assert len(held) >= 3 and all(held[1:]), held
