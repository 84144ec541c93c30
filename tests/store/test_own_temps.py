"""Temp files of memreview's own writes under ``.memreview/`` (state.yaml, pending.yaml, the
reviewed promotions, a kept skipped candidate…) that a kill left: the next run removes those
it can prove it made — the temp name of one of its own files, a regular file of
``.memreview/`` or ``.memreview/skipped/`` — and names each; any other file is left alone."""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path

from memreview import store
from memreview.cli import main

TMP = "0123abcd"
SKIPPED = "a" * 64


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory\n\n- a rule\n")
    (root / "memory/infra.md").write_text("# Infra\n\n- the NAS is at 10.0.0.5\n")
    return root


def _killed_mid_write(root: str, name: str) -> None:
    """A memreview killed (SIGKILL) while it writes .memreview/<name>: the temp file is
    there, half written, and never renamed."""
    import memreview.store.atomic as atomic

    real = atomic.write_all
    payload = f"{name}\n".encode() * 50

    def write_then_die(fd: int, data: bytes) -> None:
        if data != payload:
            return real(fd, data)
        real(fd, data[: len(data) // 2])
        os.kill(os.getpid(), signal.SIGKILL)

    atomic.write_all = write_then_die
    with store.own_lock(root, 2.0):
        store.write_private(root, name, payload)
    os._exit(0)


def _scan(root: Path, capsys) -> str:
    assert main(["scan", str(root), "--today", "2026-11-29"]) == 0
    return capsys.readouterr().err


def test_a_kill_in_the_middle_of_writing_state_yaml_leaves_a_temp_the_next_run_removes(
    tmp_path, capsys
):
    root = _workspace(tmp_path)
    ctx = multiprocessing.get_context("fork")
    for name in ("state.yaml", "pending.yaml", f"skipped/{SKIPPED}.json"):
        proc = ctx.Process(target=_killed_mid_write, args=(str(root), name))
        proc.start()
        proc.join(30)
        assert proc.exitcode == -signal.SIGKILL
    left = sorted(p.relative_to(root).as_posix() for p in (root / ".memreview").rglob(".*.tmp"))
    assert [rel.rsplit(".", 3)[0] for rel in left] == [
        ".memreview/.pending",
        ".memreview/.state",
        f".memreview/skipped/.{SKIPPED}",
    ], left
    err = _scan(root, capsys)
    assert list((root / ".memreview").rglob(".*.tmp")) == []
    for rel in left:
        assert f"removed {rel}, a temp file a stopped memreview left" in err


def test_files_of_that_shape_memreview_cant_prove_it_made_are_left_alone(tmp_path, capsys):
    root = _workspace(tmp_path)
    own = root / ".memreview"
    (own / "skipped").mkdir(parents=True)
    (own / f".state.yaml.{TMP}.tmp").write_text("stray\n")  # the one that goes
    link = own / f".pending.yaml.{TMP}.tmp"
    link.symlink_to(root / "memory/infra.md")  # a link to a live file: never followed
    (own / f".promotions-seen.json.{TMP}.tmp").mkdir()  # a directory
    os.mkfifo(own / f"..gitignore.{TMP}.tmp")  # a pipe
    others = [
        own / f".notes.md.{TMP}.tmp",  # not a file of memreview's own
        own / f".state.yaml.{TMP}.tmp.bak",
        own / f".state.yaml.{TMP.upper()}.tmp",
        root / f".state.yaml.{TMP}.tmp",  # outside .memreview: no journal names it
        own / "backups" / f".state.yaml.{TMP}.tmp",  # not where state.yaml is written
        own / "skipped" / f".{'b' * 63}.json.{TMP}.tmp",
    ]
    for p in others:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("an agent's\n")
    infra = (root / "memory/infra.md").read_bytes()
    err = _scan(root, capsys)
    assert not (own / f".state.yaml.{TMP}.tmp").exists()
    assert f"removed .memreview/.state.yaml.{TMP}.tmp" in err
    assert link.is_symlink() and (root / "memory/infra.md").read_bytes() == infra
    assert (own / f".promotions-seen.json.{TMP}.tmp").is_dir()
    assert (own / f"..gitignore.{TMP}.tmp").exists()
    assert all(p.read_text() == "an agent's\n" for p in others)
    assert err.count("removed ") == 1, err


def test_nothing_is_removed_while_another_memreview_holds_the_lock(tmp_path):
    """Its own write may be under way: its temp file is not a stray."""
    import fcntl

    root = _workspace(tmp_path)
    (root / ".memreview").mkdir()
    temp = root / ".memreview" / f".state.yaml.{TMP}.tmp"
    temp.write_text("being written\n")
    fd = os.open(root / ".memreview/lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert store.clean_temp_files(root) == []
        assert temp.exists()
    finally:
        os.close(fd)
    assert store.clean_temp_files(root) == [f".memreview/.state.yaml.{TMP}.tmp"]
    assert not temp.exists()
