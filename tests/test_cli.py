"""Start-up of the command: ``--version`` and ``--help`` answer without loading the scan's
or the app's libraries (issue: every command paid ~0.3 s of imports)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import memreview

HEAVY = ("numpy", "rapidfuzz", "textual")


def _run_fresh(*args: str) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run ``python -X importtime -m memreview ARGS`` in a fresh interpreter; the result and
    the names of the modules it imported."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memreview", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    imported = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s+(\S+)$", proc.stderr, re.M))
    return proc, imported


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_import_neither_numpy_rapidfuzz_nor_textual(flag):
    proc, imported = _run_fresh(flag)
    assert proc.returncode == 0
    assert "memreview.cli" in imported  # the import log is read right
    assert not {m.split(".")[0] for m in imported} & set(HEAVY)


def test_version_prints_the_package_version():
    proc, _imported = _run_fresh("--version")
    assert proc.stdout == f"memreview {memreview.__version__}\n"


def test_help_prints_the_usage():
    proc, _imported = _run_fresh("--help")
    assert proc.stdout.startswith("usage: memreview ")
    assert "--version" in proc.stdout


def test_a_command_still_loads_what_it_uses(tmp_path):
    """The check above can fail: a scan in the same kind of run imports numpy."""
    (tmp_path / "MEMORY.md").write_text("# Memory\n\n- one entry\n", encoding="utf-8")
    proc, imported = _run_fresh("scan", str(tmp_path), "--json")
    assert proc.returncode == 0, proc.stderr[-500:]
    assert "numpy" in imported and "rapidfuzz" in imported
