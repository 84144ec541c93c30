"""The app's second process, forked before its first thread (memreview.ahead): the app's
first scan takes its queues only when both read the same files, computes what it did not
take or get, leaves the scan cache one process leaves, and no child behind.

Each run is a fresh interpreter, as the app is (a test's process has threads): it forks the
child as ``memreview WORKSPACE`` does, then scans in a thread, as the app's screen does.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from shared_helpers import fresh_interpreter, fresh_process
from test_scan_apart import DIES_AFTER_ONE, _cache

from memreview import ahead
from memreview.synth import generate

TODAY = "2026-12-07"
CHILDS = ["dormant", "duplicates", "promotions"]  # the queues the child computes

# {patch} runs before the fork (the child has it too), {after} after it, in the app only;
# the queues of the child's (duplicates, dormant, promotions) the app computes itself are counted
APP = """
import datetime, json, os, threading, time
os.environ.pop("MEMREVIEW_NO_CACHE", None)
os.environ["MEMREVIEW_CACHE_DIR"] = {cache!r}
import memreview.workspace.cache as c
c.RACY_SECONDS = -1  # every file trusted however new (the workspace was just written)
import memreview.scan.apart as apart
import memreview.ahead as ahead
import memreview.forked as forked
apart.MIN_FILES = 1
apart.memory_to_spare = lambda more=0: True
root, today = {ws!r}, datetime.date.fromisoformat({today!r})
{patch}
started = ahead.start_ahead(root, today) if {fork} else False
import dataclasses
from memreview.decisions import registry
computed = []
def counted(unit):
    def detect(ws, day):
        computed.append(unit.name)
        return unit.detect(ws, day)
    # the same detector to the scan cache's key (which names each queue's function)
    detect.__module__ = getattr(unit.detect, "__module__", "")
    detect.__qualname__ = getattr(unit.detect, "__qualname__", "")
    return detect
registry.UNITS = tuple(
    dataclasses.replace(u, detect=counted(u)) if u.apart or u.ahead else u
    for u in registry.UNITS
)
{after}
out = {{}}
def scan():
    from memreview.scan import scan_workspace
    r = scan_workspace(root, today)
    out["queues"] = json.dumps(r.all_queues, sort_keys=True, default=str)
    out["notes"] = r.notes
t = threading.Thread(target=scan)
t.start()
t.join()
forked.stop_ahead()  # as the app's end does
try:
    os.waitpid(-1, os.WNOHANG)
    children_left = True
except ChildProcessError:
    children_left = False
print(json.dumps({{"forked": started, "computed": sorted(computed), "children_left": children_left,
                   **out}}))
"""


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ahead") / "ws"
    generate(out, 0.01, seed=4)
    return out


def app_scan(ws: Path, cache: Path, patch: str = "", after: str = "", fork=True, **env) -> dict:
    code = APP.format(
        ws=str(ws),
        today=TODAY,
        cache=str(cache),
        patch=textwrap.dedent(patch),
        after=textwrap.dedent(after),
        fork=fork,
    )
    return fresh_interpreter(code, env)


@pytest.fixture(scope="module")
def alone(ws, tmp_path_factory) -> dict:
    got = app_scan(ws, tmp_path_factory.mktemp("alone") / "cache", fork=False)
    assert got["forked"] is False and got["computed"] == CHILDS
    return got


def test_the_app_takes_the_queues_of_its_second_process(ws, alone, tmp_path):
    got = app_scan(ws, tmp_path / "cache")
    assert got["forked"] is True
    assert got["computed"] == []  # none computed in the app: all came from the child
    assert got["queues"] == alone["queues"]
    counts = {k: len(v) for k, v in json.loads(got["queues"]).items()}
    assert counts["duplicates"] > 0 and counts["promotions"] > 0 and counts["dormant"] > 0
    assert got["children_left"] is False


def test_it_leaves_the_scan_cache_one_process_leaves(ws, tmp_path):
    both, one = tmp_path / "both", tmp_path / "one"
    got = app_scan(ws, both)
    plain = app_scan(ws, one, fork=False)
    assert got["computed"] == [] and plain["computed"] == CHILDS
    left, right = _cache(both), _cache(one)
    assert any(k.startswith("files-") for k in left), sorted(left)
    # the parsed files hold what the child's queues kept with them (duplicates' forms)
    assert left == right


# the child writes a mark once it has read the workspace and computed its queues; the app
# waits for it, then an agent appends to a memory file before the app's scan reads it
MARKED = """
import memreview.scan.run as run
real = run.ahead_messages
def marked(root, today):
    out = real(root, today)
    open({mark!r}, "w").close()
    return out
run.ahead_messages = marked
"""
THEN_APPENDED = """
deadline = time.monotonic() + 60
while not os.path.exists({mark!r}) and time.monotonic() < deadline:
    time.sleep(0.02)
with open(os.path.join(root, "MEMORY.md"), "a", encoding="utf-8") as f:
    f.write("\\n- The staging database moved to the eu-west region in March.\\n")
"""


def test_files_changed_since_the_child_read_them_are_computed_in_the_app(ws, tmp_path):
    copy = tmp_path / "ws"
    generate(copy, 0.01, seed=4)
    mark = str(tmp_path / "read")
    got = app_scan(copy, tmp_path / "c1", MARKED.format(mark=mark), THEN_APPENDED.format(mark=mark))
    assert got["forked"] is True
    assert Path(mark).exists()  # the child had read the files before the agent wrote
    assert got["computed"] == CHILDS  # its queues refused
    # …and the items are those of the workspace as the app read it
    plain = app_scan(copy, tmp_path / "c2", fork=False)
    assert got["queues"] == plain["queues"]
    assert got["children_left"] is False


FAILS_AT_ONCE = """
import memreview.scan.run as run
def ahead_messages(root, today):
    raise MemoryError
run.ahead_messages = ahead_messages
"""


@pytest.mark.parametrize("patch", [DIES_AFTER_ONE, FAILS_AT_ONCE], ids=["killed", "fails"])
def test_what_the_child_does_not_send_the_app_computes(ws, alone, tmp_path, patch):
    got = app_scan(ws, tmp_path / "cache", patch)
    assert got["forked"] is True
    assert got["queues"] == alone["queues"]
    assert len(got["computed"]) == (len(CHILDS) - 1 if patch is DIES_AFTER_ONE else len(CHILDS))
    assert got["children_left"] is False


def test_a_small_workspace_child_sends_nothing(ws, alone, tmp_path):
    got = app_scan(ws, tmp_path / "cache", "apart.MIN_FILES = 10_000")
    assert got["forked"] is True  # (the app doesn't count the files: its first frame waits)
    assert got["computed"] == CHILDS
    assert got["queues"] == alone["queues"]
    assert got["children_left"] is False


# the child's standard streams are the null device, not the app's terminal
WRITES = """
import sys
import memreview.scan.run as run
real = run.ahead_messages
def loud(root, today):
    print("LEAKED to stdout")
    os.write(2, b"LEAKED to stderr")
    return real(root, today)
run.ahead_messages = loud
"""


def test_the_child_writes_nothing_to_the_terminal(ws, tmp_path):
    code = APP.format(
        ws=str(ws),
        today=TODAY,
        cache=str(tmp_path / "cache"),
        patch=textwrap.dedent(WRITES),
        after="",
        fork=True,
    )
    proc = fresh_process(code)
    assert proc.returncode == 0, proc.stderr
    assert "LEAKED" not in proc.stdout + proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1])["computed"] == []


THREAD = """
stop = threading.Event()
threading.Thread(target=stop.wait, daemon=True).start()
"""


@pytest.mark.parametrize(
    ("patch", "env"),
    [(THREAD, {}), ("", {"MEMREVIEW_NO_FORK": "1"})],
    ids=["another-thread", "asked-not-to"],
)
def test_no_fork_beside_a_thread_or_when_asked(ws, alone, tmp_path, patch, env):
    got = app_scan(ws, tmp_path / "cache", patch, **env)
    assert got["forked"] is False
    assert got["computed"] == CHILDS
    assert got["queues"] == alone["queues"]


def test_no_fork_without_the_scan_cache(monkeypatch):
    monkeypatch.setenv("MEMREVIEW_NO_CACHE", "1")
    monkeypatch.delenv("MEMREVIEW_NO_FORK", raising=False)
    assert ahead._may_fork() is False  # (no key to check the child's queues by)


# the app ends before any scan took the child (it quit at once): the child is ended, reaped
ENDS_FIRST = """
started = ahead.start_ahead(root, today)
forked.stop_ahead()
try:
    os.waitpid(-1, os.WNOHANG)
    left = True
except ChildProcessError:
    left = False
print(json.dumps({"forked": started, "children_left": left}))
raise SystemExit
"""


def test_an_app_that_quits_first_leaves_no_child(ws, tmp_path):
    got = app_scan(ws, tmp_path / "cache", ENDS_FIRST)
    assert got == {"forked": True, "children_left": False}


def test_the_workspace_is_counted_without_following_links(tmp_path):
    (tmp_path / "memory").mkdir()
    for k in range(3):
        (tmp_path / "memory" / f"2026-01-0{k + 1}.md").write_text("- a line\n")
    (tmp_path / "MEMORY.md").write_text("# Memory\n")
    (tmp_path / "notes").mkdir()  # not memory: not counted
    (tmp_path / "notes" / "a.md").write_text("x")
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "b.md").write_text("y" * 1000)
    (tmp_path / "memory" / "elsewhere").symlink_to(outside)
    assert ahead._memory_files(tmp_path) == (4, 3 * 9 + 9)


def test_a_queue_not_asked_for_is_checked_too_before_what_the_child_left():
    # the app's cache held duplicates; the child, reading other files, computed it: its key
    # differs, so what its detector kept with those files is not taken in
    from memreview.scan.ahead import Ahead

    class Unit:
        name = "promotions"

    merged = []
    got = Ahead.__new__(Ahead)
    got._setup(None, [Unit()], {})
    got._key = lambda groups: "key of the app's files"
    got._refused = False
    got._merge = merged.append
    got._take_in(("queue", "duplicates", [{"id": "x"}], ["memory"], "key of other files"))
    got._take_in(("queue", "promotions", [], ["memory"], "key of the app's files"))
    got._take_in(("left", {"kept": {}}))
    assert got._got == {"promotions": []}
    assert merged == []
