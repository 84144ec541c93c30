"""state.yaml is never silently reset (docs/design.md §4): one memreview can't read is kept as it is
and the batch's hides stay pending; one it could not read back is never written."""

from __future__ import annotations

from pathlib import Path

from refusal_helpers import TODAY, WS, item_ids, run, write_tree

import memreview.decisions.state as state_module
from memreview.decisions.pending import load_pending

STATE = ".memreview/state.yaml"


def _snooze(tmp_path: Path, capsys, ws: Path, item: str):
    decisions = tmp_path / "d.yaml"
    decisions.write_text(f"- {{item: {item}, action: snooze}}\n")
    return run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)


def test_a_state_file_that_cannot_be_read_is_kept_and_the_hide_stays_pending(tmp_path, capsys):
    ws = write_tree(tmp_path / "ws", WS)
    diary, garden = item_ids(capsys, ws)["dormant"][:2]
    code, _out, err = _snooze(tmp_path, capsys, ws, diary)
    assert code == 0, err
    broken = (ws / STATE).read_bytes() + b"  oops: [unclosed\n"  # a hand edit with a typo
    (ws / STATE).write_bytes(broken)
    code, _out, err = _snooze(tmp_path, capsys, ws, garden)
    assert code == 1
    assert "can't be read" in err and "left as it is" in err
    assert (ws / STATE).read_bytes() == broken  # the owner's hides are all still there
    assert [d.item for d in load_pending(ws)[0]] == [garden]


def test_a_state_file_it_could_not_read_back_is_never_written(tmp_path, capsys, monkeypatch):
    ws = write_tree(tmp_path / "ws", WS)
    diary, garden = item_ids(capsys, ws)["dormant"][:2]
    code, _out, err = _snooze(tmp_path, capsys, ws, diary)
    assert code == 0, err
    before = (ws / STATE).read_bytes()
    # the next state is larger than this limit
    monkeypatch.setattr(state_module, "STATE_LIMIT", len(before) + 10)
    code, _out, err = _snooze(tmp_path, capsys, ws, garden)
    assert code == 1
    assert "more than memreview reads back" in err
    assert (ws / STATE).read_bytes() == before
    assert [d.item for d in load_pending(ws)[0]] == [garden]
