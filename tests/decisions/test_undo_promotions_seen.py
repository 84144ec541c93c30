"""An undo takes back the promotions its batch wrote: the promotion keys the batch's review
remembered and the undo took out of MEMORY.md are forgotten, not "deleted outside memreview"
(the promotions-deleted alarm stays for what OpenClaw deletes)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest
from decisions_helpers import write_files

from memreview import store
from memreview.cli import main
from memreview.decisions import apply, undo
from memreview.decisions.reviewed import remember_reviewed, removed_by, workspace_alarms
from memreview.scan import scan_workspace
from memreview.store import FileOutcome, FunctionJob, apply_batch, own_lock, read_seen

TODAY = date(2026, 12, 1)
LESSON = "The NAS fan gets loud above 60 °C; clean the filter every quarter"
DROPPING_KEY = "memory:memory/2026-11-05.md:4:4"
OLD_KEY = "memory:memory/2026-11-05.md:3:3"
OLD = (
    "## Promoted From Short-Term Memory (2026-11-07)\n\n"
    f"<!-- openclaw-memory-promotion:{OLD_KEY} -->\n"
    "- checked backups [score=0.800 recalls=3 avg=0.800 source=memory/2026-11-05.md:3-3]\n"
)


def _ws(root: Path) -> Path:
    row = {
        "key": DROPPING_KEY,
        "path": "memory/2026-11-05.md",
        "startLine": 4,
        "endLine": 4,
        "source": "memory",
        "snippet": LESSON,
        "recallCount": 1,
        "dailyCount": 0,
        "groundedCount": 0,
        "totalScore": 0.7,
        "maxScore": 0.7,
        "firstRecalledAt": "2026-11-06T03:00:00Z",
        "lastRecalledAt": "2026-11-06T03:00:00Z",
        "queryHashes": ["q1"],
        "recallDays": ["2026-11-06"],
    }
    recall = {"version": 1, "updatedAt": "2026-11-30T03:00:00Z", "entries": {row["key"]: row}}
    return write_files(
        root,
        {
            "MEMORY.md": f"# Long-Term Memory\n\n{OLD}",
            "memory/2026-11-05.md": f"# 2026-11-05\n\n- checked backups\n- {LESSON}\n",
            "memory/.dreams/short-term-recall.json": json.dumps(recall),
        },
    )


def _scan(root: Path):
    return scan_workspace(root, today=TODAY, cache=False)


def _deleted(root: Path) -> list[str]:
    """The evidence of the promotions-deleted alarm (none: no alarm)."""
    found = [
        a for a in workspace_alarms(_scan(root).workspace, TODAY) if a.id == "promotions-deleted"
    ]
    return [line for a in found for line in a.evidence]


def _promote_and_undo(root: Path) -> None:
    result = _scan(root)
    (item,) = result.queues["dropping"]
    out = apply(result, [{"item": item["id"], "action": "promote"}])
    assert out.applied and not out.failures, out.messages
    assert set(read_seen(root)["keys"]) == {OLD_KEY, DROPPING_KEY}
    res = undo(root, scan=_scan)
    assert res.ok, res.message
    assert DROPPING_KEY not in (root / "MEMORY.md").read_text()


def test_undoing_a_promotion_forgets_its_key_and_raises_no_alarm(tmp_path):
    root = _ws(tmp_path / "ws")
    _promote_and_undo(root)
    seen = read_seen(root)
    assert set(seen["keys"]) == {OLD_KEY} and seen["gone"] == {}
    assert _deleted(root) == []
    # the next review says nothing was deleted outside memreview
    (item,) = _scan(root).queues["dropping"]
    out = apply(_scan(root), [{"item": item["id"], "action": "defer"}])
    assert not [m for m in out.messages if "outside memreview" in m], out.messages


def test_a_promotion_openclaw_deletes_after_the_undo_is_still_an_alarm(tmp_path):
    root = _ws(tmp_path / "ws")
    _promote_and_undo(root)
    (root / "MEMORY.md").write_text("# Long-Term Memory\n")  # the budget's compaction
    evidence = _deleted(root)
    assert len(evidence) == 1 and OLD_KEY in evidence[0]


def test_doctor_after_memreview_undo_of_a_promote_has_no_deleted_promotions(tmp_path, capsys):
    root = _ws(tmp_path / "ws")
    (item,) = _scan(root).queues["dropping"]
    decisions = tmp_path / "d.yaml"
    decisions.write_text(f"- {{item: {item['id']}, action: promote}}\n")
    day = ["--today", TODAY.isoformat()]
    assert main(["apply", str(root), "--decisions", str(decisions), *day]) == 0
    assert main(["undo", str(root)]) == 0
    capsys.readouterr()
    main(["doctor", str(root), "--json", *day])
    doc = json.loads(capsys.readouterr().out)["workspaces"][0]
    assert "promotions-deleted" not in [a["id"] for a in doc["alarms"]]


def _take_out_the_old_promotion(root: Path) -> list[str]:
    """A batch of memreview's that takes the reviewed promotion out of MEMORY.md, recorded as
    ``apply`` records its review; the messages of that review."""
    ws = _scan(root).workspace
    job = FunctionJob("MEMORY.md", lambda _cur: FileOutcome(b"# Long-Term Memory\n", ["x"]))
    with own_lock(root, 2.0):
        batch = apply_batch(root, [job], [{"item": "x"}])
        written = {f.rel for f in batch.files if f.written}
        return remember_reviewed(root, ws, written, TODAY, forget=removed_by(root, batch.files))


def test_a_promotion_memreviews_own_batch_takes_out_is_not_deleted_outside(tmp_path):
    root = _ws(tmp_path / "ws")
    (item,) = _scan(root).queues["dropping"]
    apply(_scan(root), [{"item": item["id"], "action": "defer"}])
    assert set(read_seen(root)["keys"]) == {OLD_KEY}
    assert _take_out_the_old_promotion(root) == []
    assert read_seen(root)["keys"] == {} and read_seen(root)["gone"] == {}
    assert _deleted(root) == []
    # its undo puts the promotion back, remembered again: a deletion later is an alarm
    assert undo(root).ok
    assert set(read_seen(root)["keys"]) == {OLD_KEY}
    (root / "MEMORY.md").write_text("# Long-Term Memory\n")
    assert len(_deleted(root)) == 1


class Killed(BaseException):
    """The process dies here (nothing after runs, no handler catches it)."""


def _die(*_args, **_kwargs):
    raise Killed


def test_an_undo_killed_before_it_forgets_the_keys_raises_no_alarm(tmp_path, monkeypatch):
    root = _ws(tmp_path / "ws")
    result = _scan(root)
    (item,) = result.queues["dropping"]
    assert apply(result, [{"item": item["id"], "action": "promote"}]).applied
    assert set(read_seen(root)["keys"]) == {OLD_KEY, DROPPING_KEY}
    # the undo writes MEMORY.md back, then dies before the record of what was reviewed
    monkeypatch.setattr("memreview.decisions.undo_finish.forget_undone", _die)
    with pytest.raises(Killed):
        undo(root, scan=_scan)
    monkeypatch.undo()
    assert DROPPING_KEY not in (root / "MEMORY.md").read_text()
    assert DROPPING_KEY in read_seen(root)["keys"]  # the record still says it was reviewed
    assert _deleted(root) == []  # memreview's journal explains it: no alarm
    # the undone batch's hide is not obeyed: the dropping entry is back, and the scan says why
    said = [w["message"] for w in _scan(root).warnings if w["file"] == ".memreview/state.yaml"]
    assert said == [
        "1 item(s) hidden by a batch that was undone (the undo was cut short before it "
        "showed them again): shown again"
    ]
    (item,) = _scan(root).queues["dropping"]
    out = apply(_scan(root), [{"item": item["id"], "action": "defer"}])
    assert not [m for m in out.messages if "outside memreview" in m], out.messages
    seen = read_seen(root)
    assert set(seen["keys"]) == {OLD_KEY} and seen["gone"] == {}
    # what OpenClaw deletes afterwards is still an alarm
    (root / "MEMORY.md").write_text("# Long-Term Memory\n")
    evidence = _deleted(root)
    assert len(evidence) == 1 and OLD_KEY in evidence[0]


def test_a_batch_killed_before_it_records_the_review_raises_no_alarm(tmp_path, monkeypatch):
    root = _ws(tmp_path / "ws")
    (item,) = _scan(root).queues["dropping"]
    apply(_scan(root), [{"item": item["id"], "action": "defer"}])
    assert set(read_seen(root)["keys"]) == {OLD_KEY}
    # memreview's batch takes the reviewed promotion out, then dies before its record
    monkeypatch.setattr("memreview.store.remember_promotions", _die)
    with pytest.raises(Killed):
        _take_out_the_old_promotion(root)
    monkeypatch.undo()
    assert OLD_KEY in read_seen(root)["keys"]
    assert _deleted(root) == []
    # the same key deleted by something else than memreview is an alarm
    root2 = _ws(tmp_path / "ws2")
    (item,) = _scan(root2).queues["dropping"]
    apply(_scan(root2), [{"item": item["id"], "action": "defer"}])
    (root2 / "MEMORY.md").write_text("# Long-Term Memory\n")
    assert len(_deleted(root2)) == 1


def test_a_batch_late_in_the_owner_s_day_is_of_that_review_day_whatever_utc_says(
    tmp_path, monkeypatch
):
    """The review day is the owner's and a batch's time is UTC: a batch journaled the day
    before the review day (00:30 in UTC+1 is 23:30 UTC) still explains what it took out."""
    root = _ws(tmp_path / "ws")
    result = _scan(root)
    (item,) = result.queues["dropping"]
    assert apply(result, [{"item": item["id"], "action": "promote"}]).applied
    monkeypatch.setattr("memreview.decisions.undo_finish.forget_undone", _die)
    with pytest.raises(Killed):
        undo(root, scan=_scan)
    monkeypatch.undo()
    [*_, last] = store.batches(root)
    day = date.fromisoformat(last.ts[:10])
    path = root / ".memreview/promotions-seen.json"
    seen = json.loads(path.read_text(encoding="utf-8"))
    for after, alarm in ((1, False), (2, True)):
        seen["reviewed"] = (day + timedelta(days=after)).isoformat()
        path.write_text(json.dumps(seen), encoding="utf-8")
        assert bool(_deleted(root)) is alarm, after
