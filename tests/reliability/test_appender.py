"""An agent appending without the lock while a batch writes: its lines are never lost."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from reliability_helpers import MIXED

from memreview.decisions import apply
from memreview.scan import scan_workspace

TODAY = "2026-11-29"
NOW = "NOW.md"  # written by the revive in MIXED

APPEND = "import sys; open(sys.argv[1], 'ab').write(sys.argv[2].encode())"
# Opens the file, says "ready", waits for a line on stdin, then appends through the old fd.
HOLD = (
    "import sys\n"
    "f = open(sys.argv[1], 'ab')\n"
    "print('ready', flush=True)\n"
    "sys.stdin.readline()\n"
    "f.write(sys.argv[2].encode()); f.flush()\n"
    "print('done', flush=True)\n"
)


def _apply(ws: Path, fault):
    from datetime import date

    result = scan_workspace(ws, today=date.fromisoformat(TODAY))
    return apply(result, MIXED, fault=fault)


def test_an_append_between_the_last_check_and_the_rename_is_carried_into_the_new_file(
    ws: Path,
) -> None:
    line = "- [ ] appended by the agent at the race window\n"

    def fault(step: str) -> None:
        if step == "checked" and not fault.done and _writing(ws) == NOW:
            subprocess.run([sys.executable, "-c", APPEND, str(ws / NOW), line], check=True)
            fault.done = True

    fault.done = False
    outcome = _apply(ws, fault)
    assert fault.done, "the race window was never reached"
    text = (ws / NOW).read_text()
    assert line in text
    assert "回顾 zora-airdrop" in text
    assert any("changed while writing" in m and NOW in m for m in outcome.messages)


def test_an_append_through_an_fd_opened_before_the_rename_is_carried_and_reported(
    ws: Path,
) -> None:
    line = "- [ ] written through the old inode\n"
    procs: list[subprocess.Popen] = []

    def fault(step: str) -> None:
        if step == "checked" and not procs and _writing(ws) == NOW:
            p = subprocess.Popen(
                [sys.executable, "-c", HOLD, str(ws / NOW), line],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert p.stdout.readline().strip() == "ready"
            procs.append(p)
        elif step == "dir-fsynced" and procs and procs[0].returncode is None:
            p = procs[0]
            p.stdin.write("go\n")
            p.stdin.flush()
            assert p.stdout.readline().strip() == "done"
            p.wait()

    outcome = _apply(ws, fault)
    assert procs and procs[0].returncode == 0, "the appender never ran"
    text = (ws / NOW).read_text()
    assert line in text and "回顾 zora-airdrop" in text
    assert any("written through the old inode" in m for m in outcome.messages)


def _writing(ws: Path) -> str | None:
    """The file whose temp file exists now (the one being written)."""
    for p in ws.rglob(".*.tmp"):
        m = re.match(r"^\.(.+)\.[0-9a-f]{8}\.tmp$", p.name)
        if m:
            return (p.parent / m.group(1)).relative_to(ws).as_posix()
    return None
