"""Two applies at once (docs/design.md §4, locks): state.yaml and pending.yaml are read, changed and
written under memreview's own lock, so neither loses the other's hides."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

from refusal_helpers import TODAY, WS, item_ids, write_tree

from memreview.cli import main
from memreview.decisions.state import load_state

ROUNDS = 12


def _apply(ws: str, decisions: str, start) -> None:
    import time

    import memreview.decisions.bookkeeping as bookkeeping

    real = bookkeeping.state_for_change

    def slow_state_for_change(*args):  # a slow disk: state.yaml read, a pause, then written
        got = real(*args)
        time.sleep(0.15)
        return got

    bookkeeping.state_for_change = slow_state_for_change
    start.wait()
    code = main(["apply", ws, "--decisions", decisions, "--today", TODAY])
    os._exit(code)


def test_two_concurrent_applies_keep_every_hide(tmp_path: Path, capsys) -> None:
    ctx = multiprocessing.get_context("fork")
    lost = []
    for n in range(ROUNDS):
        ws = write_tree(tmp_path / f"ws{n}", WS)
        diary, garden = item_ids(capsys, ws)["dormant"][:2]
        files = []
        for item in (diary, garden):
            path = tmp_path / f"{n}-{item}.yaml"
            path.write_text(f"- {{item: {item}, action: snooze}}\n")
            files.append(str(path))
        start = ctx.Barrier(2)
        procs = [ctx.Process(target=_apply, args=(str(ws), f, start)) for f in files]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        codes = [p.exitcode for p in procs]
        hidden = set(load_state(ws).hidden)
        for item, code in zip((diary, garden), codes, strict=True):
            if code == 0 and item not in hidden:
                lost.append((n, item))
        assert codes == [0, 0], codes  # the second waits for the first, then applies
    assert lost == []
