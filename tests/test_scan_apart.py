"""A command that ends with its scan computes some queues in a forked process
(memreview.scan.apart): what it prints and what it leaves in the scan cache are what one
process makes, whatever becomes of the child; it never forks beside another thread.

Each scan runs in a fresh interpreter, as the command does (a test's process has threads).
"""

from __future__ import annotations

import io
import json
import os
import pickle
import select
import textwrap
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from shared_helpers import fresh_interpreter

from memreview.scan import apart
from memreview.synth import generate

TODAY = "2026-12-07"

# the command in a fresh interpreter: the fork's size and memory checks passed, forks
# counted; {patch} is run first, {cache} is the cache's folder (None: no cache)
COMMAND = """
import contextlib, io, json, os, sys, threading
from memreview.process import ends_with_its_command
import memreview.scan.apart as apart
ends_with_its_command({one_shot})
apart.MIN_FILES = 1
apart.memory_to_spare = lambda: True
forks = []
real_fork = os.fork
def fork():
    pid = real_fork()
    if pid:
        forks.append(pid)
    return pid
os.fork = fork
{patch}
if {cache!r} is None:
    os.environ["MEMREVIEW_NO_CACHE"] = "1"
else:
    os.environ.pop("MEMREVIEW_NO_CACHE", None)
    os.environ["MEMREVIEW_CACHE_DIR"] = {cache!r}
out, failed, code = io.StringIO(), None, None
from memreview.cli import main
try:
    with contextlib.redirect_stdout(out):
        code = main(["scan", {ws!r}, "--json", "--today", "{today}"])
except SystemExit as exc:
    code = exc.code
except Exception as exc:
    failed = type(exc).__name__
try:
    os.waitpid(-1, os.WNOHANG)
    children_left = True
except ChildProcessError:
    children_left = False
print(json.dumps({{"forks": len(forks), "out": out.getvalue(), "failed": failed,
                   "code": code, "children_left": children_left}}))
"""


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("apart") / "ws"
    generate(out, 0.01, seed=4)
    return out


def scan(ws: Path, patch: str = "", cache: Path | None = None, **env) -> dict:
    one_shot = env.pop("one_shot", True)
    code = COMMAND.format(
        ws=str(ws),
        today=TODAY,
        patch=textwrap.dedent(patch),
        cache=str(cache) if cache else None,
        one_shot=one_shot,
    )
    return fresh_interpreter(code, env)


@pytest.fixture(scope="module")
def one_process(ws) -> dict:
    got = scan(ws, MEMREVIEW_NO_FORK="1")
    assert got["forks"] == 0 and got["failed"] is None
    return got


def test_a_forked_scan_prints_what_one_process_prints(ws, one_process):
    got = scan(ws)
    assert got["forks"] == 1
    assert got["out"] == one_process["out"]  # printed once: the child writes no buffer
    counts = json.loads(got["out"])["counts"]
    assert counts["duplicates"] > 0 and counts["promotions"] > 0  # the child's queues
    assert got["children_left"] is False


def _cache(folder: Path) -> dict[str, object]:
    """Every file of a scan cache (a header, then the document), as plain data."""
    out = {}
    for path in sorted(folder.rglob("*.pickle")):
        stream = io.BytesIO(path.read_bytes())
        head, doc = pickle.load(stream), pickle.load(stream)
        out[path.name] = (head, _plain(doc))
    return out


def _plain(value: object) -> object:
    """``value`` with each object made of its type's name and every attribute it holds
    (what a parsed file keeps besides its fields too), a parsed file a shard keeps
    (``cache.Packed``) unpickled; dicts compare whatever their order."""
    if type(value).__name__ == "Packed":
        blob = value.blob  # type: ignore[attr-defined]
        return ("Packed", _plain(pickle.loads(blob)), _plain(value.eager))  # type: ignore[attr-defined]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, str | bytes | int | float | bool | type(None) | set | frozenset):
        return value
    fields = dict(getattr(value, "__dict__", {}))
    for name in getattr(type(value), "__slots__", ()):
        fields[name] = getattr(value, name, None)
    return (type(value).__name__, _plain(fields))


def test_a_forked_scan_leaves_the_cache_one_process_leaves(ws, tmp_path, one_process):
    forked, single = tmp_path / "forked", tmp_path / "single"
    # every file stored, however new (the workspace was just written)
    stored = "import memreview.workspace.cache as c; c.RACY_SECONDS = -1"
    got = scan(ws, patch=stored, cache=forked)
    plain = scan(ws, patch=stored, cache=single, MEMREVIEW_NO_FORK="1")
    assert (got["forks"], plain["forks"]) == (1, 0)
    assert got["out"] == plain["out"] == one_process["out"]
    left, right = _cache(forked), _cache(single)
    assert left.keys() == right.keys(), (sorted(left), sorted(right))
    assert any(k.startswith("files-") for k in left), sorted(left)
    # the parsed files hold what the child's queues kept with them (duplicates' forms)
    assert left == right
    again = scan(ws, patch=stored, cache=forked)
    assert again["out"] == one_process["out"]


# the child ends after sending its first queue (killed, as by the kernel's OOM killer), or
# before sending anything (an error): the parent computes what it did not send
DIES_AFTER_ONE = """
real_send = apart.send
def send(fd, message):
    real_send(fd, message)
    if message[0] == "queue":
        os.kill(os.getpid(), 9)
apart.send = send
"""
FAILS_AT_ONCE = """
def send(fd, message):
    raise OSError("no room left on the pipe")
apart.send = send
"""


# the child stops (SIGSTOP) before sending: the parent waits a while, then kills it
STOPS = """
import signal
apart.WAIT_AT_LEAST, apart.WAIT_TIMES = 0.5, 1
def send(fd, message):
    os.kill(os.getpid(), signal.SIGSTOP)
apart.send = send
"""


# a queue's message arrives whole but damaged (bytes in its middle overwritten): the parent
# takes nothing more from the child (a damaged pickle failed the command: "unexpected error")
DAMAGED = """
import pickle
def send(fd, message):
    data = bytearray(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))
    if message[0] == "queue":
        data[len(data) // 2 : len(data) // 2 + 8] = b"\\xff" * 8
    os.write(fd, apart._HEADER.pack(len(data)) + bytes(data))
apart.send = send
"""


@pytest.mark.parametrize(
    "patch",
    [DIES_AFTER_ONE, FAILS_AT_ONCE, STOPS, DAMAGED],
    ids=["killed", "fails", "stopped", "damaged"],
)
def test_what_the_child_does_not_send_the_parent_computes(ws, one_process, patch):
    got = scan(ws, patch=patch)
    assert got["forks"] == 1
    assert got["failed"] is None
    assert got["out"] == one_process["out"]
    assert got["children_left"] is False


def test_a_scan_that_fails_in_the_parent_ends_the_child(ws):
    # a queue the parent computes fails: the scan stops, and the child is killed and reaped
    patch = """
import dataclasses
from memreview.decisions import registry
def boom(ws, today):
    raise RuntimeError("a detector failed")
registry.UNITS = tuple(
    dataclasses.replace(u, detect=boom) if u.name == "secrets" else u for u in registry.UNITS
)
"""
    got = scan(ws, patch=patch)
    assert got["forks"] == 1
    assert got["code"] not in (None, 0) and got["out"] == ""  # the command failed…
    assert got["children_left"] is False  # …and the child is gone


THREAD = """
stop = threading.Event()
threading.Thread(target=stop.wait, daemon=True).start()
"""


@pytest.mark.parametrize(
    ("patch", "env"),
    [(THREAD, {}), ("", {"one_shot": False}), ("", {"MEMREVIEW_NO_FORK": "1"})],
    ids=["another-thread", "process-goes-on", "asked-not-to"],
)
def test_no_fork_beside_a_thread_in_a_lasting_process_or_when_asked(ws, one_process, patch, env):
    got = scan(ws, patch=patch, **env)
    assert got["forks"] == 0
    assert got["out"] == one_process["out"]


def test_a_small_workspace_is_scanned_in_one_process(ws, one_process):
    got = scan(ws, patch="apart.MIN_FILES = 10_000")
    assert got["forks"] == 0
    assert got["out"] == one_process["out"]


@pytest.mark.parametrize(
    ("rss", "available", "group_left", "spare"),
    [
        (300_000, 700_000, None, True),
        (300_000, 500_000, None, False),  # the child could copy every page it reads
        (300_000, 700_000, 400 * 1024 * 1024, False),  # the control group's limit is near
        (300_000, 700_000, 900 * 1024 * 1024, True),
    ],
)
def test_a_fork_needs_twice_the_process_in_free_memory(
    monkeypatch, rss, available, group_left, spare
):
    fields = {"VmRSS:": rss, "MemAvailable:": available}  # kB, as /proc gives them
    monkeypatch.setattr(apart, "_number", lambda _path, key=None: fields[key])
    monkeypatch.setattr(apart, "_group_left", lambda: group_left)
    assert apart.memory_to_spare() is spare


def test_no_fork_where_proc_does_not_tell(monkeypatch):
    monkeypatch.setattr(apart, "_number", lambda _path, key=None: None)  # no /proc here
    assert apart.memory_to_spare() is False


# the child's queue takes long; the fork's pid is printed as soon as it is made
SLOW_CHILD = """
import os, sys, time, dataclasses
from memreview.process import ends_with_its_command
import memreview.scan.apart as apart
from memreview.decisions import registry
ends_with_its_command()
apart.MIN_FILES = 1
apart.memory_to_spare = lambda: True
os.environ["MEMREVIEW_NO_CACHE"] = "1"
real_fork = os.fork
def fork():
    pid = real_fork()
    if pid:
        print(pid, flush=True)
    return pid
os.fork = fork
def slow(ws, today):
    time.sleep(60)
    return []
registry.UNITS = tuple(
    dataclasses.replace(u, detect=slow) if u.name == "duplicates" else u for u in registry.UNITS
)
from memreview.cli import main
main(["scan", sys.argv[1], "--json", "--today", "2026-12-07"])
"""


def _ended(pid: int) -> bool:
    """Whether process ``pid`` is gone (or ended, not yet reaped by whoever took it)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "\nState:\tZ" in status


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_child_ends_when_its_parent_is_killed(ws, tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    root = Path(__file__).resolve().parents[1]
    script = tmp_path / "slow_child.py"
    script.write_text(SLOW_CHILD, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script), str(ws)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    try:
        child = int(proc.stdout.readline())
        assert not _ended(child)
        proc.send_signal(signal.SIGKILL)  # no clean-up of the parent's runs
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while not _ended(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _ended(child)
    finally:
        proc.kill()
        proc.wait()


def test_a_ctrl_c_during_the_fork_stops_the_command(ws):
    # ^C delivered while the interpreter runs its after-fork handlers: held back until the
    # fork is done, then it stops the command as anywhere else (never dropped, rc 0)
    patch = """
import signal
os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGINT))
"""
    got = scan(ws, patch=patch)
    assert got["forks"] == 1
    assert (got["code"], got["out"]) == (130, "")
    assert got["children_left"] is False


def _groups(tmp_path, monkeypatch, self_line: str, files: dict[str, str]) -> None:
    """A /proc/self/cgroup of one line and control group files under a folder of the test's."""
    (tmp_path / "self").write_text(self_line + "\n")
    for rel, text in files.items():
        (tmp_path / "fs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "fs" / rel).write_text(text + "\n")
    monkeypatch.setattr(apart, "SELF_CGROUP", str(tmp_path / "self"))
    monkeypatch.setattr(apart, "CGROUPS", str(tmp_path / "fs"))


def test_a_limit_above_the_process_group_counts_v2(tmp_path, monkeypatch):
    _groups(
        tmp_path,
        monkeypatch,
        "0::/user.slice/job",
        {
            "user.slice/job/memory.max": "max",  # none on the process's own group…
            "user.slice/job/memory.current": "100",
            "user.slice/memory.max": "1000",  # …but the slice above has one
            "user.slice/memory.current": "700",
        },
    )
    assert apart._group_left() == 300


@pytest.mark.parametrize(
    ("stat", "left"),
    [
        ("cache 5\nhierarchical_memory_limit 5000\nrss 7", 3800),  # the limit with those above
        (f"hierarchical_memory_limit {2**63 - 4096}", None),  # no limit anywhere
    ],
)
def test_a_limit_above_the_process_group_counts_v1(tmp_path, monkeypatch, stat, left):
    _groups(
        tmp_path,
        monkeypatch,
        "4:memory:/docker/abc",
        {
            "memory/docker/abc/memory.stat": stat,
            "memory/docker/abc/memory.usage_in_bytes": "1200",
        },
    )
    assert apart._group_left() == left


def _reader(units: list[str]) -> tuple[apart.Apart, int]:
    """A parent's side of the pipe, reading for ``units``, with no child forked; the write end."""
    read_end, write_end = os.pipe()
    got = apart.Apart.__new__(apart.Apart)
    got._setup(None, [SimpleNamespace(name=n) for n in units], None)
    got._attach(None, read_end, time.monotonic())
    return got, write_end


def test_a_message_the_child_has_begun_is_read_to_its_end():
    """The pipe holds 64 KB: a queue read a pipeful at a time between the scan's own queues
    came late (at scale 1, the promotions queue 0.8 s after the child had sent it)."""
    got, write_end = _reader(["big"])
    items = [{"id": f"p-{k}", "text": "x" * 200} for k in range(2000)]  # about 450 KB
    data = pickle.dumps(("queue", "big", items, None), protocol=pickle.HIGHEST_PROTOCOL)
    message = apart._HEADER.pack(len(data)) + data

    def child() -> None:  # the first 64 KB, then (as a child scheduled late) the rest
        os.write(write_end, message[: 1 << 16])
        time.sleep(0.02)
        view = memoryview(message)[1 << 16 :]
        while view:
            view = view[os.write(write_end, view) :]

    writer = threading.Thread(target=child)
    writer.start()
    try:
        select.select([got._fd], [], [], 10)
        time.sleep(0.005)
        assert dict(got.ready()) == {"big": items}
        assert got.sending()  # (the child has not ended)
    finally:
        writer.join()
        os.close(write_end)
        os.close(got._fd)


def test_nothing_begun_is_not_waited_for_and_the_end_is_seen():
    got, write_end = _reader(["q"])
    try:
        t0 = time.monotonic()
        assert list(got.ready()) == []
        assert list(got.ready(wait=0.05)) == []
        assert time.monotonic() - t0 < 5
        apart.send(write_end, ("queue", "q", [{"id": "a"}], None))
        os.close(write_end)
        assert list(got.ready(wait=5)) == [("q", [{"id": "a"}])]
        assert not got.sending()
    finally:
        os.close(got._fd)


def test_a_child_collects_no_garbage():
    """A full collection after the child's scan walked every object of the model (0.1 s at
    scale 1) just before it sent its queues; its end frees what is garbage."""
    code = """
    import gc, json, os, signal
    from memreview.forked import fork_child
    from memreview.scan import apart
    gc.enable()
    def child(fd, parent, mask):
        apart.child_run(fd, parent, mask, lambda: os.write(fd, b"1" if gc.isenabled() else b"0"))
    pid, fd = fork_child(child)
    said = os.read(fd, 1)
    os.waitpid(pid, 0)
    print(json.dumps({"collects": said == b"1", "parent_collects": gc.isenabled()}))
    """
    assert fresh_interpreter(code) == {"collects": False, "parent_collects": True}
