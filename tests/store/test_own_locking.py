"""Every read-modify-write of memreview's own files under the workspace lock (docs/design.md
§4, locks): two stagers saving pending.yaml at once (two apps, an app and an undo) keep each
other's decisions; pending.yaml and the reviewed promotions are not written while another
memreview holds the lock."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import pytest

from memreview import store
from memreview.decisions.model import Decision
from memreview.decisions.pending import load_pending, save_pending
from memreview.decisions.staging import PendingFile, Staging

ROUNDS = 8


def _d(item: str, action: str = "keep") -> Decision:
    return Decision(item=item, action=action, queue="dormant")


def _stager(root: str, tag: str, start) -> None:
    """One app: loads pending.yaml, then stages ROUNDS decisions, saving after each; the disk
    is slow between reading the file and writing it."""
    import time

    import memreview.decisions.pending as pending

    real = pending.load_pending

    def slow(*args, **kw):
        got = real(*args, **kw)
        time.sleep(0.02)
        return got

    pending.load_pending = slow
    staging = Staging(PendingFile(root))
    staging.load()
    start.wait()
    for k in range(ROUNDS):
        staging.stage(_d(f"{tag}-{k}"))
        if not staging.saved:
            os._exit(3)
    os._exit(0)


def test_two_apps_staging_at_once_keep_every_decision(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "MEMORY.md").write_text("# Memory\n")
    save_pending(root, [_d("before")])
    ctx = multiprocessing.get_context("fork")
    start = ctx.Barrier(2)
    procs = [ctx.Process(target=_stager, args=(str(root), tag, start)) for tag in "ab"]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0]
    items = {d.item for d in load_pending(root)[0]}
    want = {"before"} | {f"{t}-{k}" for t in "ab" for k in range(ROUNDS)}
    assert items == want, sorted(want - items)


def test_an_apps_save_keeps_what_an_undo_staged_and_leaves_out_what_an_apply_took(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    save_pending(root, [_d("applied"), _d("mine")])
    staging = Staging(PendingFile(root))
    staging.load()
    # meanwhile, another memreview: an apply writes "applied" and an undo stages "restaged"
    save_pending(root, [_d("restaged"), _d("mine")])
    staging.stage(_d("new"))
    staging.stage(_d("mine", "done"))  # changed here: the app's version wins
    assert staging.saved
    got = {d.item: d.action for d in load_pending(root)[0]}
    assert got == {"restaged": "keep", "new": "keep", "mine": "done"}
    staging.unstage("new")
    assert {d.item for d in load_pending(root)[0]} == {"restaged", "mine"}


@contextmanager
def _lock_held_elsewhere(root: Path):
    """memreview's lock held by another open of the lock file (as another process would)."""
    (root / ".memreview").mkdir(exist_ok=True)
    fd = os.open(root / ".memreview/lock", os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        os.close(fd)


def test_pending_yaml_is_not_written_while_another_memreview_holds_the_lock(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    save_pending(root, [_d("a")])
    before = (root / ".memreview/pending.yaml").read_bytes()
    with _lock_held_elsewhere(root), pytest.raises(store.LockHeld):
        save_pending(root, [_d("b")], lock_wait=0.1)
    assert (root / ".memreview/pending.yaml").read_bytes() == before
    staging = Staging(PendingFile(root))
    staging.load()
    with _lock_held_elsewhere(root):
        staging.stage(_d("c"))  # said, kept in memory, written with the next save
    assert not staging.saved and "not saved" in str(staging.save_error)
    assert (root / ".memreview/pending.yaml").read_bytes() == before


def test_the_reviewed_promotions_are_not_written_while_another_memreview_holds_the_lock(
    tmp_path,
):
    root = tmp_path / "ws"
    root.mkdir()
    today = date(2026, 11, 29)
    present = {"k1": ("MEMORY.md", "- a promoted rule")}
    store.remember_promotions(root, present, today)
    seen = root / ".memreview" / store.SEEN_FILE
    before = seen.read_bytes()
    with _lock_held_elsewhere(root), pytest.raises(store.LockHeld):
        store.remember_promotions(root, {}, today, lock_wait=0.1)
    assert seen.read_bytes() == before
