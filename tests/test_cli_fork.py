"""The tests' fast ``python -m memreview`` (tests/cli_fork.py) gives what a fresh interpreter
gives: the same exit status, the same bytes on stdout and stderr, the environment and the
working directory asked for, a process of its own that a SIGKILL ends alone."""

from __future__ import annotations

import os
import shutil

import pytest
from cli_fork import REPO, run_fresh, run_memreview

SAMPLE = REPO / "sample_workspace"


@pytest.mark.parametrize(
    "argv",
    [
        ["scan", str(SAMPLE), "--json", "--today", "2026-11-29"],
        ["scan", "no-such-workspace", "--today", "2026-11-29"],
        ["--lang", "zh", "scan", str(SAMPLE), "--today", "2026-11-29"],
        ["no-such-command"],
    ],
)
def test_a_forked_command_gives_what_a_fresh_interpreter_gives(argv, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    fresh, forked = run_fresh(argv, env, tmp_path), run_memreview(argv, env=env, cwd=tmp_path)
    assert (forked.returncode, forked.stdout, forked.stderr) == (
        fresh.returncode,
        fresh.stdout,
        fresh.stderr,
    )


def test_the_environment_and_directory_asked_for_are_the_commands(tmp_path):
    ws = shutil.copytree(SAMPLE, tmp_path / "ws", symlinks=True)
    before = (ws / "memory/MEMORY.md").read_bytes()
    (tmp_path / "d.yaml").write_text("- {item: a-5d3185fd20df, action: remove}\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    apply = ["apply", "ws", "--decisions", "d.yaml", "--today", "2026-11-29"]  # relative
    killed = run_memreview(apply, env=dict(env, MEMREVIEW_FAILPOINT="1"), cwd=tmp_path)
    assert killed.returncode == -9, killed.stderr
    assert (ws / "memory/MEMORY.md").read_bytes() == before
    # the next command, from the same server, is not touched by the kill nor the failpoint
    finished = run_memreview(["recover", "ws", "--finish"], env=env, cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    done = run_memreview(apply, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (ws / "memory/MEMORY.md").read_bytes() != before
