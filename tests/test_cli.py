"""Start-up of the command: ``--version`` and ``--help`` answer without loading the scan's
or the app's libraries (issue: every command paid ~0.3 s of imports)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import memreview

HEAVY = ("numpy", "rapidfuzz", "textual")


def _run_fresh(*args: str, env: dict | None = None) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run ``python -X importtime -m memreview ARGS`` in a fresh interpreter; the result and
    the names of the modules it imported."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memreview", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    imported = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s+(\S+)$", proc.stderr, re.M))
    return proc, imported


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_import_neither_numpy_rapidfuzz_nor_textual(flag):
    proc, imported = _run_fresh(flag)
    assert proc.returncode == 0
    assert "memreview.cli" in imported  # the import log is read right
    assert not {m.split(".")[0] for m in imported} & set(HEAVY)


def test_version_answers_before_the_parser_and_the_settings_are_read():
    proc, imported = _run_fresh("--version")
    assert proc.returncode == 0
    assert not {"argparse", "memreview.cli.parser", "memreview.app.config"} & imported


def test_doctor_imports_neither_the_scan_nor_its_libraries():
    """``doctor`` reads alarms and secrets: no queue, no numpy, rapidfuzz or Textual."""
    sample = Path(memreview.__file__).resolve().parent.parent / "sample_workspace"
    proc, imported = _run_fresh("doctor", str(sample), "--today", "2026-11-29")
    assert proc.returncode in (0, 1), proc.stderr[-500:]  # 1: an alarm fires
    assert "memreview.queues.secrets" in imported  # the import log is read right
    assert not {m.split(".")[0] for m in imported} & set(HEAVY)
    assert not {"memreview.scan", "memreview.decisions.registry"} & imported


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


def test_a_scan_that_takes_every_queue_from_the_cache_imports_no_detector_library(tmp_path):
    """``scan`` imports what it uses: on an unchanged workspace every queue comes from the
    scan cache, and neither numpy nor rapidfuzz (the detectors') is imported."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text("# Memory\n\n- one entry\n- [[nas]] again\n", encoding="utf-8")
    then = time.time() - 600  # past the window in which a file is not trusted to its key
    os.utime(ws / "MEMORY.md", (then, then))
    env = {**os.environ, "MEMREVIEW_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("MEMREVIEW_NO_CACHE", None)
    cold, imported = _run_fresh("scan", str(ws), "--json", env=env)
    assert cold.returncode == 0, cold.stderr[-500:]
    assert "numpy" in imported  # the first scan computes the queues
    warm, imported = _run_fresh("scan", str(ws), "--json", env=env)
    assert warm.returncode == 0 and warm.stdout == cold.stdout
    assert "memreview.scan.run" in imported  # the import log is read right
    assert not {m.split(".")[0] for m in imported} & set(HEAVY)
    # nor the detectors' own modules that a queue's unit names lazily
    assert not {"memreview.queues.demotion", "memreview.queues.promotions.flags"} & imported


def test_help_lists_every_command_and_the_settings_file(monkeypatch, tmp_path):
    from memreview.cli import COMMANDS

    settings = tmp_path / "my-settings.yaml"
    proc = subprocess.run(
        [sys.executable, "-m", "memreview", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "MEMREVIEW_CONFIG": str(settings)},
    )
    for name in COMMANDS:
        assert re.search(rf"^  {name} +\S", proc.stdout, re.M), name
    assert f"settings (theme, keys, editor): {settings}" in proc.stdout


@pytest.mark.parametrize("typo, meant", [("sacn", "scan"), ("docter", "doctor"), ("dmeo", "demo")])
def test_a_misspelt_command_gets_a_suggestion(capsys, monkeypatch, tmp_path, typo, meant):
    from memreview.cli import main

    monkeypatch.chdir(tmp_path)
    assert main([typo]) == 2
    err = capsys.readouterr().err
    assert f"did you mean `memreview {meant}`?" in err
    assert err.count("\n") == 1


def test_a_directory_named_like_a_command_is_still_opened_as_a_path(capsys, monkeypatch, tmp_path):
    from memreview.cli import main

    (tmp_path / "sacn").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["sacn"]) == 2
    err = capsys.readouterr().err
    assert "not a memory workspace" in err and "did you mean" not in err


def test_outside_a_workspace_the_message_names_the_variable_and_the_demo(
    capsys, monkeypatch, tmp_path
):
    from memreview.cli import main

    for var in ("OPENCLAW_WORKSPACE_DIR", "OPENCLAW_WORKSPACE", "OPENCLAW_PROFILE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "no-state"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "not a memory workspace" in err
    assert "OPENCLAW_WORKSPACE_DIR" in err and "`memreview demo`" in err
    assert "Traceback" not in err


def test_hidden_cuts_a_chinese_title_by_cells_and_ends_it_with_an_ellipsis(capsys):
    from rich.cells import cell_len

    from memreview.cli.history import print_hidden
    from memreview.decisions.hidden import HiddenItem

    title = "主人喜欢早上七点前收到日报摘要" * 6  # 90 characters, 180 cells
    print_hidden([HiddenItem("p-1", "rejected", None, "b1", queue="dormant", title=title)])
    first = capsys.readouterr().out.splitlines()[0]
    shown = first.split("dormant", 1)[1].strip()
    assert shown.endswith("…") and cell_len(shown) <= 80
    assert title.startswith(shown[:-1])


def test_a_markdown_report_cuts_a_chinese_name_by_cells():
    from rich.cells import cell_len

    from memreview.report_markdown import md_text

    shown = md_text("夜间对账代理" * 10, 30)
    assert shown.endswith("…") and cell_len(shown) <= 30


def test_the_usage_line_names_every_option_the_app_takes():
    from memreview.cli.parser import app_parser

    p = app_parser()
    usage = p.format_usage()
    longs = [
        s
        for a in p._actions
        for s in a.option_strings
        if s.startswith("--") and s not in ("--help", "--version")
    ]
    assert longs and all(s in usage for s in longs), (longs, usage)
