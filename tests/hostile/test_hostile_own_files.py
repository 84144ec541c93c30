"""memreview's own files under ``.memreview/`` as an agent leaves them: the folder of the
long skipped candidates swapped for a link, a pending.yaml grown past what memreview reads
back. What memreview says it wrote is what it wrote, and it never writes a file of its own
it can't read back."""

from __future__ import annotations

import errno
import json
import os
import tracemalloc
from datetime import UTC, date, datetime
from pathlib import Path

from memreview.decisions import apply
from memreview.decisions import state as state_module
from memreview.decisions.hidden import unhide
from memreview.decisions.model import Decision
from memreview.decisions.pending import load_pending, save_pending
from memreview.decisions.staging import PendingFile, Staging
from memreview.decisions.state import load_state
from memreview.scan import scan_workspace
from memreview.store.temps import clean_temp_files
from memreview.workspace.yamlcap import CONFIG_LIMIT

TODAY = date(2026, 11, 29)
NOW = datetime(2026, 11, 29, 10, 0, 0, tzinfo=UTC)


def _workspace(root: Path) -> Path:
    cands = [
        {"theme": "Daily digest", "content": "send the digest at 07:00", "count": 6},
        {"theme": "Junk", "content": "x" * 10_000, "count": 1},
    ]
    (root / "memory/projects").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory\n\n- a rule\n")
    text = json.dumps({"candidates": cands}, indent=2) + "\n"
    (root / "memory/skill_candidates.json").write_text(text)
    (root / "memory/projects/diary.md").write_text("# Diary\nAdded: 2026-01-01\n")
    return root


def _decide(root: Path, queue: str, action: str, **match):
    result = scan_workspace(root, today=TODAY)
    [it] = [i for i in result.all_queues[queue] if all(i.get(k) == v for k, v in match.items())]
    return apply(result, [{"item": it["id"], "action": action}], now=NOW), it["id"]


def _skipped_folder_linked(root: Path) -> None:
    """The agent moves .memreview/skipped/ into memory/ and leaves a link in its place."""
    folder = root / ".memreview/skipped"
    os.rename(folder, root / "memory/moved")
    os.symlink("../memory/moved", folder)


def test_a_hide_written_with_the_skipped_folder_a_link_is_reported_as_written(tmp_path):
    """state.yaml is written, then the clean-up of the kept candidates meets the link: the
    hide stands, and apply says so (not "could not record hidden items")."""
    root = _workspace(tmp_path / "ws")
    assert _decide(root, "skills", "skip", theme="Junk")[0].ok
    _skipped_folder_linked(root)
    out, diary = _decide(root, "dormant", "snooze")
    assert diary in load_state(root).hidden
    assert out.hidden == [diary], out.messages
    assert not any("could not record" in m for m in out.messages), out.messages
    assert os.listdir(root / "memory/moved")  # the link's folder is left as it was


def test_an_unhide_with_the_skipped_folder_a_link_says_what_it_did(tmp_path):
    """The unhide's state.yaml is written: it reports the item shown again, never
    "nothing unhidden" (and never a traceback)."""
    root = _workspace(tmp_path / "ws")
    assert _decide(root, "skills", "skip", theme="Junk")[0].ok
    out, diary = _decide(root, "dormant", "snooze")
    assert out.ok
    _skipped_folder_linked(root)
    back = unhide(root, diary, today=TODAY, now=NOW)
    assert diary not in load_state(root).hidden
    assert back.ok, back.message


def test_an_unhide_whose_state_cant_be_written_says_the_file_changed(tmp_path, monkeypatch):
    """The disk fills as state.yaml is written — after the unhide's batch put the candidate
    back in its file. The outcome names that file and the batch (undo takes it out again),
    never a traceback or "nothing unhidden" over a changed file."""
    root = _workspace(tmp_path / "ws")
    out, digest_id = _decide(root, "skills", "skip", theme="Daily digest")
    assert out.ok
    before = (root / "memory/skill_candidates.json").read_bytes()
    real_write = state_module.store.write_private

    def full(where, name, data):
        if name == "state.yaml":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(where, name, data)

    monkeypatch.setattr(state_module.store, "write_private", full)
    back = unhide(root, digest_id, today=TODAY, now=NOW)
    assert (root / "memory/skill_candidates.json").read_bytes() != before  # written back
    assert digest_id in load_state(root).hidden
    assert not back.ok
    assert "nothing unhidden" not in back.message
    assert "memory/skill_candidates.json" in back.message and back.batch, back.message


def _edits(n: int, size: int) -> list[Decision]:
    return [
        Decision.from_dict({"item": f"e-{k:012x}", "action": "edit", "text": "t" * size})
        for k in range(n)
    ]


def test_pending_is_never_written_larger_than_it_is_read_back(tmp_path):
    """Long edits staged past the size pending.yaml is read back with: the save is refused
    (the decisions stay staged in memory, and the app says they are not saved), and the
    file on disk still holds what was last saved and can be read."""
    root = tmp_path / "ws"
    root.mkdir()
    save_pending(root, _edits(2, 100))
    staging = Staging(PendingFile(root))
    staging.load()
    for d in _edits(30, CONFIG_LIMIT // 20):
        staging.stage(d)
    assert (root / ".memreview/pending.yaml").stat().st_size <= CONFIG_LIMIT
    decisions, warnings = load_pending(root)
    assert not warnings
    assert decisions  # what was saved last is still there
    assert not staging.saved and staging.save_error
    assert len(staging) == 30


HUGE = 128 * 1024 * 1024  # a sparse file: no disk used, but far past any cap


def _sparse(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        f.truncate(HUGE)


def _peak(run) -> tuple[object, int]:
    tracemalloc.start()
    try:
        out = run()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_huge_state_file_is_refused_without_being_read(tmp_path):
    """A 128 MiB sparse state.yaml: scan warns and goes on, a hide refuses to replace it;
    neither reads it into memory (a bigger one would stop the review)."""
    root = _workspace(tmp_path / "ws")
    _sparse(root / ".memreview/state.yaml")
    result, peak = _peak(lambda: scan_workspace(root, today=TODAY))
    assert any("state.yaml" in w.file for w in result.workspace.warnings)
    assert peak < 32 * 1024 * 1024, peak
    (out, _id), peak = _peak(lambda: _decide(root, "dormant", "snooze"))
    assert peak < 32 * 1024 * 1024, peak
    assert (root / ".memreview/state.yaml").stat().st_size == HUGE  # left as it was
    assert not out.hidden


def test_a_huge_pending_file_is_set_aside_without_being_read_or_copied(tmp_path):
    """A 128 MiB sparse pending.yaml: the app's first save keeps it aside as it is (renamed,
    not read whole nor written out again) and saves the new decision."""
    root = tmp_path / "ws"
    root.mkdir()
    _sparse(root / ".memreview/pending.yaml")
    staging = Staging(PendingFile(root))
    _warnings, peak = _peak(staging.load)
    assert peak < 32 * 1024 * 1024, peak
    _none, peak = _peak(lambda: staging.stage(_edits(1, 10)[0]))
    assert peak < 32 * 1024 * 1024, peak
    assert staging.saved, staging.save_error
    [aside] = (root / ".memreview").glob("pending.yaml.broken-*")
    assert aside.stat().st_size == HUGE
    assert aside.stat().st_blocks * 512 < 1024 * 1024  # the same sparse file, not a copy
    assert [d.item for d in load_pending(root)[0]] == ["e-000000000000"]


def test_a_hard_link_named_as_an_own_temp_file_is_not_taken_for_one(tmp_path):
    """A second name of MEMORY.md, planted in .memreview/ as the temp file of state.yaml, is
    not removed nor reported as a temp file memreview made; MEMORY.md is untouched."""
    root = _workspace(tmp_path / "ws")
    (root / ".memreview").mkdir()
    planted = root / ".memreview/.state.yaml.0123abcd.tmp"
    os.link(root / "MEMORY.md", planted)
    stray = root / ".memreview/.pending.yaml.89abcdef.tmp"
    stray.write_text("- {item: x, action: defer}\n")
    assert clean_temp_files(root) == [".memreview/.pending.yaml.89abcdef.tmp"]
    assert planted.exists() and (root / "MEMORY.md").read_text() == "# Memory\n\n- a rule\n"
