"""A decisions file is read and checked whole before anything is written (docs/design.md §4): one bad
item -> exit 2, one line naming the file, the item and the reason, and not one byte written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from refusal_helpers import TODAY, WS, item_ids, run, snapshot, write_tree


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "ws", WS)


def _good(ids: dict[str, list[str]]) -> str:
    return f"- {{item: {ids['dormant'][0]}, action: done}}\n"


# the second entry of the file, as YAML, and what the one-line refusal must say
BAD_SECOND = {
    "id-is-a-list": ("- {item: [a, b], action: done}\n", "needs 'item'"),
    "id-is-a-number": ("- {item: 42, action: done}\n", "needs 'item'"),
    "id-is-a-mapping": ("- {item: {x: 1}, action: done}\n", "needs 'item'"),
    "action-is-a-list": ("- {item: DORMANT2, action: [done]}\n", "needs 'action'"),
    "not-a-mapping": ("- just some text\n", "must be a mapping"),
    "action-not-of-the-queue": ("- {item: DORMANT2, action: approve}\n", "not valid for a dormant"),
    "keep-out-of-range": ("- {item: DUP, action: keep, keep: 9}\n", "keep 9 is out of range"),
    "keep-zero": ("- {item: DUP, action: keep, keep: 0}\n", "keep 0 is out of range"),
    "keep-is-a-fraction": ("- {item: DUP, action: keep, keep: 1.5}\n", "whole number"),
    "keep-is-true": ("- {item: DUP, action: keep, keep: true}\n", "whole number"),
    "keep-without-n": ("- {item: DUP, action: keep}\n", "keep needs 'keep: N'"),
    "text-is-a-number": ("- {item: DUP, action: merge, keep: 1, text: 5}\n", "'text' must be"),
    "merge-text-not-a-bullet": (
        "- {item: DUP, action: merge, keep: 1, text: 'plain words'}\n",
        "starting with '- '",
    ),
    "text-on-another-action": ("- {item: DORMANT2, action: done, text: x}\n", "'text' only"),
    "unknown-key": ("- {item: DORMANT2, action: done, when: now}\n", "unknown key 'when'"),
    "queue-is-a-list": ("- {item: DORMANT2, action: done, queue: [a]}\n", "'queue' must"),
    "wrong-queue": ("- {item: DORMANT2, action: done, queue: duplicates}\n", "not duplicates"),
    "decided-twice": ("- {item: DORMANT1, action: snooze}\n", "decided twice"),
}


@pytest.mark.parametrize("case", sorted(BAD_SECOND))
def test_one_bad_item_refuses_the_whole_file_and_writes_nothing(ws, tmp_path, capsys, case):
    ids = item_ids(capsys, ws)
    second, reason = BAD_SECOND[case]
    second = (
        second.replace("DORMANT2", ids["dormant"][1])
        .replace("DORMANT1", ids["dormant"][0])
        .replace("DUP", ids["duplicates"][0])
    )
    decisions = tmp_path / "decisions.yaml"
    decisions.write_text(_good(ids) + second, encoding="utf-8")
    before = snapshot(ws)

    code, out, err = run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)

    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert str(decisions) in err and "item 2" in err and reason in err, err
    assert "nothing written" in err
    assert snapshot(ws) == before
    assert not (ws / ".memreview").exists()


def test_a_valid_file_with_an_unknown_id_still_applies_the_others(ws, tmp_path, capsys):
    # an id in no queue may be an item decided already: reported, not a broken file
    ids = item_ids(capsys, ws)
    decisions = tmp_path / "decisions.yaml"
    decisions.write_text(_good(ids) + "- {item: gone-already, action: done}\n")
    code, _out, err = run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)
    assert code == 1, err
    assert "unknown item id 'gone-already'" in err
    assert "Status: done" in (ws / "memory/projects/diary.md").read_text()


def test_apply_given_raw_entries_with_a_list_id_does_not_crash_after_writing(ws, capsys):
    # the library entry point (the app stages decisions through it) reports such an entry
    # as a failure instead of raising "unhashable type" after the first file was written
    from memreview.decisions import apply
    from memreview.scan import scan_workspace

    ids = item_ids(capsys, ws)
    result = scan_workspace(ws, today=None)
    outcome = apply(result, [{"item": ids["dormant"][0], "action": "done"}, {"item": ["a"]}])
    assert [p.reason for p in outcome.failures] == [
        "a decision needs 'item': the id of a queue item"
    ]
    assert len(outcome.applied) == 1


def _cli(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run(
        [sys.executable, "-m", "memreview", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def test_a_fifo_given_as_the_decisions_file_is_refused_not_read_forever(ws, tmp_path):
    fifo = tmp_path / "decisions.yaml"
    os.mkfifo(fifo)
    before = snapshot(ws)
    done = _cli("apply", str(ws), "--decisions", str(fifo), "--today", TODAY)
    assert done.returncode == 2, done.stderr
    assert "not a regular file (a FIFO)" in done.stderr and str(fifo) in done.stderr
    assert done.stderr.count("\n") == 1
    assert snapshot(ws) == before


def test_a_device_given_as_the_decisions_file_is_refused(ws):
    done = _cli("apply", str(ws), "--decisions", "/dev/zero", "--today", TODAY)
    assert done.returncode == 2
    assert "/dev/zero: refused: not a regular file (a device)" in done.stderr


def test_a_decisions_file_over_16_mib_is_refused_without_reading_it(ws, tmp_path, capsys):
    big = tmp_path / "decisions.yaml"
    with open(big, "wb") as fh:
        fh.truncate(17 << 20)  # sparse: its size is all that is looked at
    code, _out, err = run(capsys, "apply", ws, "--decisions", big, "--today", TODAY)
    assert code == 2
    assert "17 MiB, more than the 16 MiB allowed" in err
    assert not (ws / ".memreview").exists()
