"""The sequences the random ones (test_decision_sequences.py) found wrong, each written out:
an undo leaves state.yaml hiding what the batches still standing decided, an undo never
loses an entry a later batch depends on, and what an undo stages again is only what can
still be written."""

from __future__ import annotations

from pathlib import Path

import pytest
from decisions_helpers import NOW, TODAY
from shared_ws import write_shared

from memreview.decisions import apply, batch_history, load_pending, save_pending, undo
from memreview.decisions.hidden import unhide
from memreview.decisions.model import Decision
from memreview.decisions.restore import archived_entries, restore
from memreview.decisions.state import load_state
from memreview.scan import scan_workspace

DIGEST = "d-6b333b01af74"  # MEMORY.md:4 and :5


@pytest.fixture
def ws(tmp_path) -> Path:
    return write_shared(tmp_path / "ws")


def _decide(root: Path, decisions: list[dict]):
    out = apply(scan_workspace(root, today=TODAY), decisions, now=NOW)
    assert out.batch and not out.failures and not out.conflicts, out.messages
    return out


def _hidden_by(root: Path, item: str) -> str | None:
    entry = load_state(root).hidden.get(item)
    return entry.batch if entry is not None else None


def _unhide(root: Path, item: str) -> str:
    out = unhide(root, item, today=TODAY, now=NOW)
    assert out.ok and out.batch, out.message
    return out.batch


def test_undoing_an_unhide_then_the_batch_that_hid_the_item_again_leaves_the_first_hiding(ws):
    first = _decide(ws, [{"item": DIGEST, "action": "not-duplicate"}])
    shown = _unhide(ws, DIGEST)
    again = _decide(ws, [{"item": DIGEST, "action": "not-duplicate"}])  # hidden anew
    assert undo(ws, batch_id=shown, now=NOW).ok  # the first batch's hiding stands again
    assert undo(ws, batch_id=again.batch, now=NOW).ok
    # the first batch is not undone: its hiding is what the journal says stands
    assert _hidden_by(ws, DIGEST) == first.batch


def test_undoing_an_older_unhide_leaves_an_item_a_later_unhide_showed_shown(ws):
    _decide(ws, [{"item": DIGEST, "action": "not-duplicate"}])
    older = _unhide(ws, DIGEST)
    _decide(ws, [{"item": DIGEST, "action": "not-duplicate"}])
    _unhide(ws, DIGEST)  # the last word: shown
    out = undo(ws, batch_id=older, now=NOW)
    assert out.ok, out.message
    assert _hidden_by(ws, DIGEST) is None
    assert DIGEST not in out.rehidden


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memreview" not in p.parts
    }


def test_a_batch_whose_deleted_entry_a_restore_put_back_waits_for_that_restores_undo(ws):
    second = "(2026-05-09 自动沉淀)"  # the copy a keep of #1 deletes, kept only in backups
    kept = _decide(ws, [{"item": DIGEST, "action": "keep", "keep": 1}])
    [entry] = [a for a in archived_entries(ws) if second in "\n".join(a.lines)]
    put_back = restore(ws, entry.id, now=NOW)
    assert put_back.ok, put_back.message
    before = _files(ws)
    out = undo(ws, batch_id=kept.batch, now=NOW)
    # undone first, the keep would leave the restore's undo taking the entry out of
    # MEMORY.md for a backup no longer offered: it waits, and says for what
    assert not out.ok
    assert f"batch {put_back.batch} put back {entry.id}, which this batch took out" in out.message
    assert f"memreview undo --batch {put_back.batch}" in out.message
    assert _files(ws) == before
    [entry] = [e for e in batch_history(ws) if e.batch_id == kept.batch]  # the log says so
    assert not entry.undoable and f"batch {put_back.batch} put back" in entry.why_not
    # in that order both go, and the entry is back where it was, once
    assert undo(ws, batch_id=put_back.batch, now=NOW).ok
    assert undo(ws, batch_id=kept.batch, now=NOW).ok
    assert (ws / "MEMORY.md").read_text(encoding="utf-8").count(second) == 1
    assert not [a for a in archived_entries(ws) if second in "\n".join(a.lines)]


PROMO_4, PROMO_8 = "pm-04f328fb2129", "pm-5147136af5c2"  # MEMORY.md:4 and :8
KEYS = "d-f8495d10a0cb"  # MEMORY.md:7 and :8


def _scan(root: Path):
    return scan_workspace(root, today=TODAY)


def test_an_undo_leaves_out_a_decision_that_clashes_with_one_staged_since(ws):
    kept = _decide(ws, [{"item": DIGEST, "action": "keep", "keep": 1}])  # MEMORY.md:5 goes
    staged = [Decision(PROMO_4, "archive")]  # MEMORY.md:4 to the archive: valid now
    save_pending(ws, staged)
    out = undo(ws, now=NOW, scan=_scan)
    assert out.ok and out.result.undone_batch == kept.batch
    # staged again, the keep of MEMORY.md:4 would contradict the archive of that line
    assert [d.item for d, _why in out.left_out] == [DIGEST]
    assert f"{DIGEST} (Duplicates: keep #1) is not staged again: conflicts with {PROMO_4}" in (
        out.message
    )
    assert load_pending(ws)[0] == staged and not out.restaged
    again = apply(_scan(ws), load_pending(ws)[0], now=NOW)
    assert not again.refused and [d.item for d in again.applied] == [PROMO_4]


def test_an_undo_leaves_out_a_decision_whose_item_is_gone_since(ws):
    kept = _decide(ws, [{"item": PROMO_8, "action": "keep"}])  # state only
    _decide(ws, [{"item": KEYS, "action": "keep", "keep": 1}])  # MEMORY.md:8 goes
    out = undo(ws, batch_id=kept.batch, now=NOW, scan=_scan)
    assert out.ok, out.message
    assert f"{PROMO_8} (Promotions: keep) is not staged again: its item is in no queue" in (
        out.message
    )
    assert load_pending(ws)[0] == [] and not out.restaged
    assert _scan(ws).item(PROMO_8) is None


SKILL = "k-4768d525e4d6"  # the one candidate of memory/skill_candidates.json


def test_a_skip_whose_candidate_an_unhide_put_back_waits_for_that_unhides_undo(ws):
    cands = ws / "memory/skill_candidates.json"
    start = cands.read_bytes()
    skipped = _decide(ws, [{"item": SKILL, "action": "skip"}])  # the candidate leaves the file
    shown = _unhide(ws, SKILL)  # and comes back, from the skip's state entry
    before = _files(ws)
    out = undo(ws, batch_id=skipped.batch, now=NOW)
    # undone first, the skip would leave the unhide's undo taking the candidate out of the
    # file again with no skip to put it back: it waits, and says for what
    assert not out.ok
    assert f"batch {shown} put back {SKILL}, which this batch took out" in out.message
    assert _files(ws) == before
    assert undo(ws, batch_id=shown, now=NOW).ok
    assert undo(ws, batch_id=skipped.batch, now=NOW).ok
    assert cands.read_bytes() == start and _hidden_by(ws, SKILL) is None


PROMO_5 = "pm-02440390e6a1"  # MEMORY.md:5


def test_an_undo_unstages_a_decision_whose_item_it_took_out_of_every_queue(ws):
    _decide(ws, [{"item": DIGEST, "action": "keep", "keep": 1}])  # MEMORY.md:5 goes
    [entry] = [a for a in archived_entries(ws) if "(2026-05-09 " in "\n".join(a.lines)]
    assert restore(ws, entry.id, now=NOW).ok  # and comes back
    assert _scan(ws).item(PROMO_5) is not None
    save_pending(ws, [Decision(PROMO_5, "keep"), Decision(PROMO_4, "archive")])
    out = undo(ws, now=NOW, scan=_scan)  # the restore: the line leaves MEMORY.md again
    assert out.ok, out.message
    assert f"{PROMO_5} (keep) is no longer staged: its item is in no queue any more" in (
        out.message
    )
    assert load_pending(ws)[0] == [Decision(PROMO_4, "archive")]


def test_memreview_undo_says_which_decision_it_did_not_stage_again(ws, capsys):
    from memreview.cli import main

    _decide(ws, [{"item": DIGEST, "action": "keep", "keep": 1}])
    save_pending(ws, [Decision(PROMO_4, "archive")])
    assert main(["undo", str(ws)]) == 0
    err = capsys.readouterr().err
    assert f"{DIGEST} (Duplicates: keep #1) is not staged again: conflicts with" in err
    assert load_pending(ws)[0] == [Decision(PROMO_4, "archive")]


def test_a_restore_journaled_without_its_batch_is_still_found_standing_on_it(ws, monkeypatch):
    from memreview import store

    real = store.apply_batch

    def as_before(root, jobs, records, **kw):  # a restore as journaled before from_batch
        return real(
            root, jobs, [{k: v for k, v in r.items() if k != "from_batch"} for r in records], **kw
        )

    kept = _decide(ws, [{"item": DIGEST, "action": "keep", "keep": 1}])
    [entry] = [a for a in archived_entries(ws) if "(2026-05-09 " in "\n".join(a.lines)]
    monkeypatch.setattr(store, "apply_batch", as_before)
    put_back = restore(ws, entry.id, now=NOW)
    monkeypatch.undo()
    assert put_back.ok and "from_batch" not in store.batches(ws)[-1].decisions[0]
    out = undo(ws, batch_id=kept.batch, now=NOW)
    assert not out.ok and f"batch {put_back.batch} put back {entry.id}" in out.message


PROMO_7 = "pm-96c2252d4d29"  # MEMORY.md:7, holding the credential (and :8, PROMO_8)


def test_undoing_a_restore_after_a_redaction_scrubbed_its_copies_takes_the_entry_back(ws):
    stamp = "(2026-06-02 自动沉淀)"
    _decide(ws, [{"item": PROMO_7, "action": "archive"}, {"item": PROMO_8, "action": "archive"}])
    [entry] = [a for a in archived_entries(ws) if stamp in "\n".join(a.lines)]
    put_back = restore(ws, entry.id, now=NOW)
    assert put_back.ok, put_back.message
    with (ws / "MEMORY.md").open("a", encoding="utf-8") as f:  # the agent writes on
        f.write("- the agent noted the backup window at 23:10\n")
    # the other copy of the key, still in the archive, is redacted: every backup is
    # scrubbed of the value, the restore's copy of MEMORY.md too (MEMORY.md still has it)
    [secret] = [
        it for it in _scan(ws).all_queues["secrets"] if it["ref"]["file"].startswith("memory/")
    ]
    _decide(ws, [{"item": secret["id"], "action": "redact"}])
    out = undo(ws, batch_id=put_back.batch, now=NOW)
    assert out.ok, out.message
    live = (ws / "MEMORY.md").read_text(encoding="utf-8")
    archive = (ws / "memory/archive/rejected-promotions.md").read_text(encoding="utf-8")
    assert stamp not in live and archive.count(stamp) == 1


ZORA, ZORA_DEMOTE = "p-02a946511cb7", "m-02a946511cb7"  # one PROJECT anchor, two queues


def test_undoing_a_restore_whose_lines_a_later_batch_changed_is_refused_whole(ws):
    header = "## [PROJECT:zora-airdrop]"
    _decide(ws, [{"item": ZORA_DEMOTE, "action": "approve"}])  # to the demoted archive
    [entry] = [a for a in archived_entries(ws) if header in a.lines]
    put_back = restore(ws, entry.id, now=NOW)
    assert put_back.ok, put_back.message
    done = _decide(ws, [{"item": ZORA, "action": "done"}])  # its block changes in place
    before = _files(ws)
    out = undo(ws, batch_id=put_back.batch, now=NOW)
    # the restore's lines in knowledge.md are not as it left them: taking back only its
    # archive would put the block in two places; nothing is written, the later batch named
    assert not out.ok and f"batch {done.batch} changed memory/knowledge.md" in out.message
    assert _files(ws) == before


SECRET_7 = "s-0c574f4e3b29"  # the credential on MEMORY.md:7


def test_an_entry_put_back_is_not_offered_again_after_a_redaction_scrubbed_its_backup(ws):
    stamp = "(2026-06-12 自动沉淀)"  # MEMORY.md:8, the copy a keep of #1 deletes
    _decide(ws, [{"item": KEYS, "action": "keep", "keep": 1}])
    [entry] = [a for a in archived_entries(ws) if stamp in "\n".join(a.lines)]
    assert restore(ws, entry.id, now=NOW).ok  # live again, with its credential
    _decide(ws, [{"item": SECRET_7, "action": "redact"}])  # the other line: backups scrubbed
    assert stamp in (ws / "MEMORY.md").read_text(encoding="utf-8")
    assert not [a for a in archived_entries(ws) if stamp in "\n".join(a.lines)]


def test_a_batch_whose_archived_entry_a_restore_put_back_waits_for_that_restores_undo(ws):
    stamp = "(2026-06-12 自动沉淀)"
    _decide(ws, [{"item": PROMO_7, "action": "archive"}])  # the archive holds another entry
    archived = _decide(ws, [{"item": PROMO_8, "action": "archive"}])
    [entry] = [a for a in archived_entries(ws) if stamp in "\n".join(a.lines)]
    put_back = restore(ws, entry.id, now=NOW)
    assert put_back.ok, put_back.message
    before = _files(ws)
    out = undo(ws, batch_id=archived.batch, now=NOW)
    # undone first, the archive would put the entry back a second time in MEMORY.md (its
    # archive file is as before it: nothing to take back there)
    assert not out.ok and f"batch {put_back.batch} put back {entry.id}" in out.message
    assert _files(ws) == before
    assert undo(ws, batch_id=put_back.batch, now=NOW).ok
    assert undo(ws, batch_id=archived.batch, now=NOW).ok
    assert (ws / "MEMORY.md").read_text(encoding="utf-8").count(stamp) == 1
