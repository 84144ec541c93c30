"""The one atomic whole-file write: old or new, never half, never a stray temp file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memreview.app.config import load_user_config
from memreview.store import atomic_write


def test_atomic_write_replaces_whole_and_keeps_the_given_mode(tmp_path: Path) -> None:
    target = tmp_path / "f.md"
    target.write_bytes(b"old\n")
    os.chmod(target, 0o640)
    assert atomic_write(target, b"new\n", mode=0o640)
    assert target.read_bytes() == b"new\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["f.md"]


def test_atomic_write_that_is_told_the_file_changed_replaces_nothing(tmp_path: Path) -> None:
    target = tmp_path / "f.md"
    target.write_bytes(b"old\n")
    assert atomic_write(target, b"new\n", unchanged=lambda: False) is False
    assert target.read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.md"]


def test_atomic_write_that_fails_midway_leaves_the_old_file_and_no_temp_file(
    tmp_path: Path,
) -> None:
    target = tmp_path / "f.md"
    target.write_bytes(b"old\n")
    steps: list[str] = []

    def crash(step: str) -> None:
        steps.append(step)
        if step == "temp-fsynced":
            raise OSError("disk gone")

    with pytest.raises(OSError, match="disk gone"):
        atomic_write(target, b"new\n", fault=crash)
    assert steps == ["temp-written", "temp-fsynced"]
    assert target.read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.md"]


def test_saving_the_theme_writes_through_a_symlinked_config_and_keeps_the_link(
    tmp_path: Path,
) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "memreview.yaml"
    real.write_text("editor: nvim  # mine\n")
    os.chmod(real, 0o600)
    link = tmp_path / "config" / "config.yaml"
    link.parent.mkdir()
    link.symlink_to(real)
    cfg = load_user_config(link)
    assert cfg.save_theme("memreview-light") is None
    assert link.is_symlink() and link.resolve() == real
    assert "theme: memreview-light" in real.read_text() and "# mine" in real.read_text()
    assert real.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in dotfiles.iterdir()) == ["memreview.yaml"]
    assert sorted(p.name for p in link.parent.iterdir()) == ["config.yaml"]
