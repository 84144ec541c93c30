"""Fixtures for the hostile-workspace tests: the corpus, runs of the CLI, screen text."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import hostile_corpus as hc  # noqa: E402
from hostile_app_check import SIZE, screen_text  # noqa: E402,F401 (one copy, shared with the workers)

REPO = Path(__file__).resolve().parents[2]


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "big: builds a 50 MB file (kept to a few seconds: one repeated block)"
    )


@pytest.fixture(autouse=True)
def _private_user_config(tmp_path, monkeypatch):
    """Never read or write the real user config; never start a real editor."""
    monkeypatch.setenv("MEMREVIEW_CONFIG", str(tmp_path / "user-config" / "config.yaml"))
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "true")


@dataclass
class Run:
    """One run of the command line."""

    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)


def run_cli(*argv: str, timeout: float = 60) -> Run:
    """``python -m memreview ARGV`` in a process of its own (stdin closed: nothing may wait
    on it), forked from one that has memreview imported (tests/cli_fork.py)."""
    from cli_fork import run_memreview

    env = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1")
    env.pop("MEMREVIEW_DEBUG", None)
    p = run_memreview(argv, env=env, cwd=REPO, timeout=timeout)
    # strict: what memreview prints must be UTF-8, whatever bytes the workspace holds
    return Run(p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8"))


def run_main(*argv: str) -> Run:
    """``memreview.cli.main(ARGV)`` in this process (for monkeypatched faults), output caught."""
    from memreview.cli import main

    out, err = io.BytesIO(), io.StringIO()
    text_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    with contextlib.redirect_stdout(text_out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
        text_out.flush()
    return Run(code, out.getvalue().decode("utf-8"), err.getvalue())


@pytest.fixture
def build(tmp_path):
    """``build(name)`` -> (workspace root, outside directory) of a corpus case."""

    def make(name: str) -> tuple[Path, Path]:
        return hc.build(name, tmp_path)

    return make


async def loaded(app, pilot) -> None:
    """Wait for the scan worker and the messages it posted."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


def assert_no_traceback(run: Run) -> None:
    assert "Traceback" not in run.err, run.err
    assert "Traceback" not in run.out


def assert_one_line(run: Run) -> None:
    assert run.err.count("\n") == 1 and run.err.startswith("memreview: "), run.err


def deny_reading(monkeypatch, *paths: Path) -> None:
    """Make reading ``paths`` (a directory: listing it; a file: opening it) raise EACCES."""
    denied = [os.path.realpath(p) for p in paths]

    def refused(path) -> bool:
        try:
            real = os.path.realpath(os.fspath(path))
        except TypeError:
            return False
        return any(real == d or real.startswith(d + os.sep) for d in denied)

    def deny(path):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))

    real_scandir, real_open, real_read_bytes = os.scandir, os.open, Path.read_bytes

    def scandir(path="."):
        if refused(path):
            deny(path)
        return real_scandir(path)

    def os_open(path, flags, *args, **kw):
        if refused(path):
            deny(path)
        return real_open(path, flags, *args, **kw)

    def read_bytes(self):
        if refused(self):
            deny(self)
        return real_read_bytes(self)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(Path, "read_bytes", read_bytes)
