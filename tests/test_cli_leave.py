"""The program leaves without the interpreter's teardown only when nothing is lost by it:
its output flushed, the exit handlers run, no thread that is not a daemon still running; and
only a command's scans (not the app's, not a test's) keep their objects out of the
collector's reach."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from memreview import process

REPO = Path(__file__).resolve().parents[1]


def _python(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


def test_everything_written_to_stdout_and_stderr_arrives_and_the_code_is_kept(tmp_path):
    code = (
        "import sys\n"
        "sys.stdout.write('x' * 200000)\n"
        "sys.stderr.write('the end')\n"
        "from memreview.cli.leave import leave\n"
        "leave(3)\n"
    )
    done = _python(code, tmp_path)
    assert done.returncode == 3
    assert done.stdout == "x" * 200000
    assert done.stderr == "the end"


def test_the_exit_handlers_run(tmp_path):
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write('handler ran'))\n"
        "from memreview.cli.leave import leave\n"
        "leave(0)\n"
    )
    done = _python(code, tmp_path)
    assert done.returncode == 0
    assert done.stderr == "handler ran"


def test_a_thread_still_writing_is_waited_for(tmp_path):
    """A thread that is not a daemon (a write still going) finishes: the usual exit."""
    out = tmp_path / "written"
    code = (
        "import threading, time\n"
        "from pathlib import Path\n"
        "def write():\n"
        "    time.sleep(0.5)\n"
        f"    Path({str(out)!r}).write_text('every byte')\n"
        "threading.Thread(target=write).start()\n"
        "from memreview.cli.leave import leave\n"
        "leave(4)\n"
    )
    done = _python(code, tmp_path)
    assert done.returncode == 4
    assert out.read_text() == "every byte"


def test_output_a_closed_pipe_did_not_take_is_the_usual_exit(tmp_path):
    """Output the reader never took is not passed over in silence: the usual exit, whose
    status says so (120: Python could not flush stdout), as without ``leave``."""
    code = (
        "import os, sys\n"
        "r, w = os.pipe()\n"
        "os.close(r)\n"
        "sys.stdout = open(w, 'w', buffering=1 << 16)\n"
        "sys.stdout.write('x' * 100)\n"
        "from memreview.cli.leave import leave\n"
        "leave(5)\n"
    )
    done = _python(code, tmp_path)
    assert done.returncode == 120


def _tiny(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text("# Memory\n\n- the NAS backs up at 02:00\n- use pnpm\n")
    return ws


def test_a_command_run_by_main_leaves_the_collector_alone(tmp_path, capsys, monkeypatch):
    """main() is what tests and other programs call: their process goes on, so a scan's
    objects stay the collector's."""
    from memreview.cli import main

    monkeypatch.setenv("MEMREVIEW_NO_CACHE", "1")
    frozen = gc.get_freeze_count()
    assert main(["scan", str(_tiny(tmp_path)), "--json"]) == 0
    assert process.one_shot() is False
    assert gc.get_freeze_count() == frozen


def test_a_command_that_ends_the_process_puts_its_scans_objects_out_of_reach(
    tmp_path, capsys, monkeypatch
):
    from memreview.cli import main

    monkeypatch.setenv("MEMREVIEW_NO_CACHE", "1")
    monkeypatch.setattr(process, "_ends_with_command", False)
    before = gc.get_freeze_count()
    try:
        assert main(["scan", str(_tiny(tmp_path)), "--json"], one_shot=True) == 0
        assert process.one_shot() is True
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()  # this test's process goes on


def test_the_app_keeps_its_collector(monkeypatch):
    """``demo`` opens the app, which lives on: its scans' objects are never frozen."""
    from memreview import cli

    monkeypatch.setattr(process, "_ends_with_command", False)
    opened = []
    monkeypatch.setattr(cli, "command", lambda name: lambda args: opened.append(name) or 0)
    assert cli.main(["demo"], one_shot=True) == 0
    assert opened == ["demo"]
    assert process.one_shot() is False


def test_only_the_first_scan_of_a_command_is_frozen(tmp_path, monkeypatch):
    """A command scanning a fleet freezes the first scan's objects only: the later ones are
    the collector's, so no workspace's garbage in cycles is stranded but the first's."""
    from memreview.scan import collector, scan_workspace

    monkeypatch.setenv("MEMREVIEW_NO_CACHE", "1")
    monkeypatch.setattr(process, "_ends_with_command", True)
    monkeypatch.setattr(collector, "_frozen", False, raising=False)
    ws = _tiny(tmp_path)
    try:
        first = scan_workspace(ws, cache=False)
        after_first = gc.get_freeze_count()
        assert after_first > 0
        second = scan_workspace(ws, cache=False)  # both kept: frozen, it would add its own
        assert gc.get_freeze_count() <= after_first
        assert first.workspace is not second.workspace
    finally:
        gc.unfreeze()  # this test's process goes on


def test_a_stream_closed_before_the_start_is_the_null_device(tmp_path):
    """``memreview scan … >&-`` (or ``2>&-``): nothing printed, the scan done, never an
    error on the first line printed ('NoneType' object has no attribute 'write')."""
    ws = _tiny(tmp_path)
    for closed in (1, 2):
        done = subprocess.run(
            [sys.executable, "-m", "memreview", "scan", str(ws), "--today", "2026-12-07"],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=60,
            preexec_fn=lambda fd=closed: os.close(fd),  # noqa: PLW1509 (the child's own)
        )
        assert done.returncode == 0, (closed, done.stderr)
        assert done.stderr == ""
        assert ("workspace" in done.stdout) is (closed == 2)  # printed where it is open


def test_the_report_takes_no_cache(tmp_path, capsys):
    from memreview.cli import main

    ws = _tiny(tmp_path)
    assert main(["report", str(ws), "--no-cache", "--today", "2026-12-07"]) == 0
    assert "# Weekly memory review" in capsys.readouterr().out
