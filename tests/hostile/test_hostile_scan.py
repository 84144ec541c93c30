"""`memreview scan` and `memreview report` on every broken and hostile workspace of the corpus:
exit 0 with a warning that names the file and line (2 with one line when the path is not a
workspace), no traceback, valid JSON, no raw control character on a terminal, no secret from
outside the workspace, and not one byte changed anywhere."""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import hostile_corpus as hc
import pytest
from hostile_helpers import assert_no_traceback, assert_one_line, deny_reading, run_cli, run_main

USABLE = [name for name, c in hc.CASES.items() if c.unusable is None]
UNUSABLE = [name for name, c in hc.CASES.items() if c.unusable is not None]


class Scanned:
    """One case, built and scanned once (as a subprocess) for the whole module."""

    def __init__(self, name: str, tmp: Path) -> None:
        self.name = name
        self.case = hc.CASES[name]
        self.ws, self.outside = hc.build(name, tmp)
        self.before = hc.snapshot(tmp)
        self.tmp = tmp
        self.run = None

    def scan(self) -> Scanned:
        self.run = run_cli("scan", str(self.ws), "--json", "--today", hc.TODAY)
        self.after = hc.snapshot(self.tmp)
        return self


@pytest.fixture(scope="module")
def scanned(tmp_path_factory) -> dict[str, Scanned]:
    """Every case scanned in parallel subprocesses (each is mostly interpreter start-up)."""
    cases = [Scanned(name, tmp_path_factory.mktemp(name)) for name in hc.CASES]
    with ThreadPoolExecutor(max_workers=(os.cpu_count() or 2) + 1) as pool:
        return {s.name: s for s in pool.map(Scanned.scan, cases)}


def _has_warning(warnings: list[dict], file: str | None, line: int | None, text: str) -> bool:
    return any(
        (file is None or w["file"] == file)
        and (line is None or w["line"] == line)
        and text in w["message"]
        for w in warnings
    )


@pytest.mark.parametrize("name", USABLE)
def test_scan_json_exits_0_and_names_the_file_and_line(scanned, name):
    s = scanned[name]
    run = s.run
    assert run.code == 0, run.err
    assert_no_traceback(run)
    assert run.err == ""
    doc = run.json()
    assert doc["schema"] == 1 and set(doc["counts"]) == set(doc["queues"])
    for file, line, text in s.case.warnings:
        assert _has_warning(doc["warnings"], file, line, text), (file, line, text, doc["warnings"])
    for w in doc["warnings"]:  # every warning says where
        assert w["file"] and w["message"]
    assert hc.SECRET not in run.out
    assert s.after == s.before


@pytest.mark.parametrize("name", UNUSABLE)
def test_scan_of_something_that_is_not_a_workspace_exits_2_with_one_line(scanned, name):
    s = scanned[name]
    assert s.run.code == 2
    assert_one_line(s.run)
    assert s.case.unusable in s.run.err
    assert_no_traceback(s.run)
    assert s.run.out == ""
    assert s.after == s.before


@pytest.mark.parametrize("name", list(hc.CASES))
@pytest.mark.parametrize("command", ["scan", "report"])
def test_terminal_output_shows_controls_as_visible_escapes(tmp_path, name, command):
    ws, outside = hc.build(name, tmp_path)
    before = hc.snapshot(tmp_path)
    run = run_main(command, str(ws), "--today", hc.TODAY)
    assert run.code == (2 if hc.CASES[name].unusable else 0), run.err
    assert_no_traceback(run)
    for text in (run.out, run.err):
        bad = hc.RAW_CONTROL_RE.search(text)
        assert bad is None, f"raw {bad.group()!r} at {bad.start()} in {command} output"
        assert hc.SECRET not in text
    assert hc.snapshot(tmp_path) == before


@pytest.mark.parametrize("command", ["scan", "report"])
def test_escape_sequences_reach_a_real_stdout_only_as_visible_escapes(tmp_path, command):
    ws, _ = hc.build("markup-and-escapes", tmp_path)
    run = run_cli(command, str(ws), "--today", hc.TODAY)
    assert run.code == 0, run.err
    assert hc.RAW_CONTROL_RE.search(run.out + run.err) is None
    # the report is Markdown, so its brackets are escaped: ␛\]0;… there
    assert "␛" in run.out and "owned-title␇" in run.out
    assert "@click=app.quit" in run.out


def test_file_names_with_escapes_and_newlines_are_named_visibly_in_the_table(tmp_path):
    ws, _ = hc.build("odd-file-names", tmp_path)
    run = run_cli("scan", str(ws), "--today", hc.TODAY)
    assert run.code == 0, run.err
    assert "memory/esc␛[31mred.md:3: table row has no closing '|'" in run.out
    assert hc.RAW_CONTROL_RE.search(run.out) is None
    doc = run_cli("scan", str(ws), "--json", "--today", hc.TODAY).json()
    files = {ref["file"] for it in doc["queues"]["duplicates"] for ref in it["refs"]}
    assert "memory/esc\x1b[31mred.md" not in files  # the JSON keeps names exact…
    assert '"memory/esc\\u001b[31mred.md"' in json.dumps(doc["warnings"])  # …escaped as JSON


def test_secret_behind_symlinks_never_appears_in_any_output(tmp_path):
    ws, outside = hc.build("symlinks-out", tmp_path)
    outputs = [
        run_cli("scan", str(ws), "--json", "--today", hc.TODAY),
        run_cli("report", str(ws), "--today", hc.TODAY),
    ]
    for run in outputs:
        assert run.code == 0, run.err
        assert hc.SECRET not in run.out + run.err
    doc = outputs[0].json()
    assert doc["counts"]["supersede"] == 0  # the linked memory/review/ was not read
    assert doc["health"]["totals"]["fragments"] is None
    assert doc["health"]["totals"]["recalls"] is None
    assert doc["today"] == hc.TODAY  # the linked memreview.yaml's review_date was not used


AUDIT = r"""
import os, runpy, sys
outside = os.path.realpath(sys.argv[1])
log = open(sys.argv[2], "w")
busy = []
def hook(event, args):
    if busy or event not in ("open", "os.listdir", "os.scandir", "sqlite3.connect"):
        return
    path = args[0] if args else None
    if not isinstance(path, (str, bytes, os.PathLike)):
        return
    busy.append(1)
    try:
        real = os.path.realpath(os.fsdecode(path))
        if real == outside or real.startswith(outside + os.sep):
            log.write(f"{event} {os.fsdecode(path)!r}\n"); log.flush()
    finally:
        busy.pop()
sys.addaudithook(hook)
sys.argv = ["memreview", *sys.argv[3:]]
runpy.run_module("memreview", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("name", ["symlinks-out", "config-paths-out", "memory-md-outside"])
def test_no_file_outside_the_workspace_is_even_opened(tmp_path, name):
    """An audit hook logs every open, directory listing and SQLite connection that lands
    outside the workspace: there must be none (not just no secret in the output)."""
    import subprocess
    import sys

    from hostile_helpers import REPO

    ws, outside = hc.build(name, tmp_path)
    log = tmp_path / "opened.log"
    for argv in (["scan", str(ws), "--json"], ["report", str(ws)]):
        p = subprocess.run(
            [sys.executable, "-c", AUDIT, str(outside), str(log), *argv, "--today", hc.TODAY],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
            cwd=REPO,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
        )
        assert p.returncode == 0, p.stderr
        assert log.read_text() == "", f"{argv[0]} opened files outside: {log.read_text()}"


def test_an_impossible_review_date_on_the_command_line_is_one_line_exit_2(tmp_path):
    ws, _ = hc.build("impossible-dates", tmp_path)
    run = run_cli("scan", str(ws), "--json", "--today", "2026-02-30")
    assert run.code == 2
    assert_one_line(run)
    assert "not a date" in run.err


def test_an_impossible_review_date_in_the_config_keeps_the_other_settings(tmp_path):
    ws, _ = hc.build("impossible-dates", tmp_path)
    (ws / "memreview.yaml").write_text("review_date: 2026-02-30\ndormant_limit: 0\n")
    doc = run_main("scan", str(ws), "--json").json()
    assert {
        "file": "memreview.yaml",
        "line": 1,
        "message": "review_date '2026-02-30' is not a date",
    } in doc["warnings"]
    assert doc["counts"]["dormant"] == 0  # dormant_limit still counted


def test_unreadable_directory_and_file_are_warnings(tmp_path, monkeypatch):
    """CI runs as root, where chmod doesn't stop reads: the denial is simulated."""
    ws, _ = hc.build("binary-md", tmp_path)
    hc.put(ws, "memory/private/secret-notes.md", "- private entry of the owner\n")
    hc.put(ws, "memory/locked.md", "- an entry nobody may read\n")
    deny_reading(monkeypatch, ws / "memory/private", ws / "memory/locked.md")
    before = hc.snapshot(tmp_path)
    run = run_main("scan", str(ws), "--json", "--today", hc.TODAY)
    assert run.code == 0, run.err
    doc = run.json()
    assert _has_warning(doc["warnings"], "memory/private", None, "Permission denied")
    assert _has_warning(doc["warnings"], "memory/locked.md", None, "Permission denied")
    assert "private entry" not in run.out and "nobody may read" not in run.out
    assert hc.snapshot(tmp_path) == before


@pytest.mark.big
def test_a_50_mb_daily_log_is_read_without_hanging(tmp_path):
    # a hang guard only (the timeout); how fast is measured by bench/, not asserted here
    ws, _ = hc.build("zero-length", tmp_path)
    hc.make_big_log(ws)
    before = hc.snapshot(tmp_path)
    run = run_cli("scan", str(ws), "--json", "--today", hc.TODAY, timeout=120)
    assert run.code == 0, run.err
    doc = run.json()
    assert doc["health"]["daily_logs"]["count"] == 2
    assert [it["project"] for it in doc["queues"]["dormant"]] == []  # mentioned in the log
    assert hc.snapshot(tmp_path) == before
