"""Some queues computed in a second process beside the others, for a command that ends with
its scan (``memreview scan``, ``report``, ``apply``…) on a workspace large enough to pay.

A queue is Python working on a model the scan already holds in memory, and one process runs
one queue at a time whatever the cores (the archived queue's thread overlaps the others only
through numpy and rapidfuzz). The process forks once the workspace is read and every
detector imported: the child computes the queues marked ``apart`` (duplicates and
promotions: about 1.5 s of a cold scan at scale 1) while the parent computes the rest, and
sends their items down a pipe once both are done. Both hold the same model
(the child's pages are the parent's until it writes them), so the results are what one
process would have made.

What the child leaves besides its items is sent back with them, so that the scan cache
stores what one process would have stored: the values kept with each parsed file
(``memo.kept_with_file``), the cache's per-file records and text memos, and the notes and
warnings the queues gave.

Never in a process with another Python thread (the app, or a test's): a fork copies only
the thread that calls it, and a lock another one held would never be let go in the child.
(numpy's OpenBLAS keeps native threads of its own, and readies them for a fork with its own
fork handlers.) A ^C is held back while the process forks, and comes right after.
Nothing is run: the child is this program, and ends with ``os._exit`` once its queues are
sent (no cleanup of the parent's runs in it, no buffer of the parent's is written twice).
It writes nothing but the pipe. When it fails or dies, or is still at work long after the
parent's own part (``WAIT_TIMES`` as long, ``WAIT_AT_LEAST`` seconds at least: stopped, or
stuck), the parent computes what it did not send, as it would have without it; the kernel
ends it with its parent. ``$MEMREVIEW_NO_FORK`` keeps every queue in one process.
"""

from __future__ import annotations

import gc
import os
import pickle
import select
import signal
import struct
import threading
import time
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any, NoReturn

from memreview.forked import fork_child
from memreview.process import cores, one_shot
from memreview.workspace.memo import kept_store, note_kept
from memreview.workspace.model import Workspace

# below this many memory files and daily logs a fork costs more than it saves
MIN_FILES = 60
# once its own part is done, the parent waits for the child this many times as long as that
# part took, and at least this many seconds; then it computes the child's queues itself
WAIT_TIMES = 4
WAIT_AT_LEAST = 30.0
FINISH_WAIT = 50  # ms: the child writing the rest of a message it has begun (``ready``)
SELF_CGROUP = "/proc/self/cgroup"  # this process's control groups
CGROUPS = "/sys/fs/cgroup"  # where they are mounted

_HEADER = struct.Struct("<Q")  # each message: its length, then the pickle


def may_fork(ws: Any, apart: list[Any], others: list[Any]) -> bool:
    """Whether the scan forks: queues on both sides, a command that ends with its scan, no
    other thread, two cores, a large workspace, and ``$MEMREVIEW_NO_FORK`` not set."""
    if not apart or not others or not hasattr(os, "fork"):
        return False
    if os.environ.get("MEMREVIEW_NO_FORK") or not one_shot():
        return False
    if threading.active_count() != 1:
        return False
    if not isinstance(ws, Workspace) or len(ws.files) + len(ws.daily_logs) < MIN_FILES:
        return False
    return cores() >= 2 and memory_to_spare()


def memory_to_spare(more: int = 0) -> bool:
    """Whether the machine (and this process's control group, when it has a limit) has
    twice this process's resident memory available, and twice ``more`` bytes besides: the
    child may come to copy every page it reads (about 70 MB more in all at scale 1, with
    pages shared). Never where /proc doesn't tell."""
    rss = _number("/proc/self/status", "VmRSS:")  # kB
    available = _number("/proc/meminfo", "MemAvailable:")
    if rss is None or available is None:
        return False
    rss, available = rss * 1024, available * 1024
    limit = _group_left()
    if limit is not None:
        available = min(available, limit)
    return available >= 2 * (rss + more)


def _group_left() -> int | None:
    """Bytes this process's control group may still take, the limits of the groups above
    it counted (cgroup v2: each one's ``memory.max``; v1: ``hierarchical_memory_limit``),
    or None: no limit, or none that can be read."""
    try:
        with open(SELF_CGROUP, encoding="ascii", errors="replace") as f:
            lines = [line.rstrip("\n").split(":", 2) for line in f]
    except OSError:
        return None
    left: list[int] = []
    for number, controllers, path in (x for x in lines if len(x) == 3):
        if number == "0" and not controllers:  # v2: every group from this one up
            parts = [p for p in path.split("/") if p]
            for k in range(len(parts), -1, -1):
                base = os.path.join(CGROUPS, *parts[:k])
                most = _number(os.path.join(base, "memory.max"))
                now = _number(os.path.join(base, "memory.current"))
                if most is not None and now is not None:
                    left.append(most - now)
        elif "memory" in controllers.split(","):  # v1: the limit with the ones above it
            base = os.path.join(CGROUPS, "memory", path.lstrip("/"))
            most = _number(os.path.join(base, "memory.stat"), "hierarchical_memory_limit")
            now = _number(os.path.join(base, "memory.usage_in_bytes"))
            if most is not None and most < 1 << 60 and now is not None:  # (2**63: none)
                left.append(most - now)
    return min(left) if left else None


def _number(path: str, key: str | None = None) -> int | None:
    """The number a file of /proc or of a control group holds (``key``: the one after it on
    its line, as ``VmRSS:  1234 kB``), or None: ``max``, or no such file or line, or not a
    number."""
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            text = f.read()
        if key is not None:
            text = next(x[1] for x in map(str.split, text.splitlines()) if x and x[0] == key)
        return int(text.strip())
    except (OSError, ValueError, StopIteration, IndexError):
        return None


def _holders(ws: Workspace) -> list[Any]:
    """The parsed files a queue keeps values with (``memo.kept_with_file``), in an order the
    child and the parent share (the child's model is the parent's, forked)."""
    return [*ws.files.values(), *ws.archive_files.values(), *ws.daily_logs]


class Apart:
    """The child computing the queues ``units`` (see the module), from the parent's side."""

    def __init__(
        self,
        ws: Workspace,
        today: date,
        units: list[Any],
        views: dict[str, Any],
        reads: dict[str, list[str]] | None,
    ):
        self._setup(ws, units, reads)
        reading = reads is not None
        pid, fd = fork_child(
            lambda out, parent, mask: _child(out, ws, today, units, views, reading, parent, mask)
        )
        self._attach(pid, fd, time.monotonic())

    def _attach(self, pid: int, fd: int, started: float) -> None:
        """Read from the child ``pid`` on ``fd``, the child started at ``started``."""
        self.started = started
        self.pid: int | None = pid
        self._fd: int | None = fd
        self._poll = select.poll()  # (not select.select: no limit on the descriptor's number)
        self._poll.register(fd, select.POLLIN)

    def _setup(self, ws: Workspace, units: list[Any], reads: dict[str, list[str]] | None) -> None:
        self.ws = ws
        self.names = [u.name for u in units]
        self.reads = reads
        self._units = {u.name: u for u in units}
        self._got: dict[str, list[dict]] = {}
        self._yielded: set[str] = set()
        self._buffer = bytearray()
        self._begun = False  # the child has begun to send (it sends all at once: the rest follows)
        self._ended = False  # the pipe's end was read, or a damaged message
        self._damaged = False

    def ready(self, wait: float = 0.0) -> Iterator[tuple[str, list[dict]]]:
        """The queues the child has sent so far, waiting ``wait`` seconds at most for it to
        begin. Once it has, everything is read to the end (``FINISH_WAIT`` at most between
        two reads): the child writes all its messages at once when its work is done, and the
        pipe holds only 64 KB of them, so a queue read a pipeful at a time between the
        scan's own queues would come late."""
        while self._fd is not None and not self._ended:
            if not self._poll.poll(FINISH_WAIT if self._begun else int(wait * 1000)):
                break
            if not self._read():
                break
        yield from self._take()

    def sending(self) -> bool:
        """Whether more may come from the child."""
        return self._fd is not None and not self._ended

    def rest(self, detect: Callable[[Any], list[dict]]) -> Iterator[tuple[str, list[dict]]]:
        """Every queue still to come: the child's, waited for, then the ones it did not send
        (it failed, died, or was still at work long after the parent's own part: stopped,
        or stuck), computed here by ``detect(unit)``."""
        mine = time.monotonic() - self.started  # the parent's own part
        deadline = time.monotonic() + max(WAIT_AT_LEAST, WAIT_TIMES * mine)
        at_end = self._ended  # (read to its end already, or a damaged message)
        while self._fd is not None and not at_end:
            left = deadline - time.monotonic()
            if left <= 0 or not self._poll.poll(int(left * 1000) + 1):
                if time.monotonic() >= deadline:
                    break  # given up on: killed below
                continue
            at_end = not self._read()
        self.close(kill=not at_end or self._damaged)
        yield from self._take()
        for name in self.names:
            if name not in self._yielded:
                self._yielded.add(name)
                yield name, detect(self._units[name])

    def close(self, kill: bool = True) -> None:
        """The pipe closed and the child ended: killed (``kill``: the scan stopped before
        it was done), else waited for (it sent everything)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if self.pid is not None:
            pid, self.pid = self.pid, None
            try:
                if kill:
                    os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ChildProcessError, ProcessLookupError):  # ended and reaped already
                pass

    def _holders(self) -> dict[Any, Any]:
        """The parsed files by the place the child's ``left`` names them by."""
        return dict(enumerate(_holders(self.ws)))

    def _take(self) -> Iterator[tuple[str, list[dict]]]:
        for name in [n for n in self.names if n in self._got and n not in self._yielded]:
            self._yielded.add(name)
            yield name, self._got.pop(name)

    def _read(self) -> bool:
        """Read what the pipe holds and take in each whole message; False at its end."""
        assert self._fd is not None
        chunk = os.read(self._fd, 1 << 20)
        if not chunk:
            self._ended = True
            return False
        self._begun = True
        self._buffer += chunk
        while len(self._buffer) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._buffer)
            if len(self._buffer) < _HEADER.size + size:
                break
            try:
                with memoryview(self._buffer) as whole:  # read in place, not copied out first
                    message = pickle.loads(whole[_HEADER.size : _HEADER.size + size])
            except Exception:  # noqa: BLE001 (a message damaged: nothing more is taken from it)
                self._buffer.clear()
                self._ended = self._damaged = True
                return False  # the child is ended (``rest``): the scan computes the rest
            del self._buffer[: _HEADER.size + size]
            self._take_in(message)
        return True

    def _take_in(self, message: tuple) -> None:
        if message[0] == "queue":
            _kind, name, items, groups = message
            self._got[name] = items
            if self.reads is not None and groups is not None:
                self.reads[name] = groups
        elif message[0] == "left":
            self._merge(message[1])

    def _merge(self, left: dict[str, Any]) -> None:
        """What the child left besides its items, taken in (see the module)."""
        holders = self._holders()
        for k, values in left["kept"].items():
            h = holders.get(k)
            if h is None:
                continue
            h = h.loaded()  # (a file the cache handed out unread: its values first)
            kept_store(h).update(values)
        per_file = self.ws.per_file
        if per_file is not None:
            for queue, records in left["records"].items():
                per_file._new.setdefault(queue, {}).update(records)
            for name, used in left["memos"].items():
                per_file.memo(name).used.update(used)
            notes = per_file.sc.problems
            notes.extend(p for p in left["notes"] if p not in notes)
        self.ws.warnings.extend(left["warnings"])


# -- the child's side ----------------------------------------------------------------------


def _child(
    fd: int,
    ws: Workspace,
    today: date,
    units: list[Any],
    views: dict[str, Any],
    reading: bool,
    parent: int,
    mask: set[signal.Signals],
) -> None:
    """Compute ``units`` and send each one's items, then what the scan cache keeps of the
    work, and end. Any failure ends the child at once: the parent computes the rest."""

    def work() -> None:
        since = noted(ws)
        done = []
        for u in units:  # all of them before any is sent: a message larger than the pipe
            # would wait for the parent to read it, and the parent reads between its queues
            items = u.detect(views[u.name], today)
            done.append(("queue", u.name, items, views[u.name].groups() if reading else None))
        for message in done:
            send(fd, message)
        send(fd, ("left", left_behind(ws, since)))

    child_run(fd, parent, mask, work)


def child_run(
    fd: int, parent: int, mask: set[signal.Signals], work: Callable[[], None]
) -> NoReturn:
    """In a child just forked: ^C as by default, the signal mask put back, the child ended
    with its ``parent``; then ``work()``, and the end (``os._exit``: nothing of the parent's
    cleans up or writes twice), at once on any failure (the parent computes the rest)."""
    code = 1
    # no collection at all: what is garbage in cycles is freed by the end, and a full
    # collection (the first after a scan: ``fewer_collections`` puts the thresholds back)
    # walked every object of the model for nothing, 0.1 s before the app's child sent
    gc.disable()
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # ^C ends it with the parent
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        end_with(parent)
        work()
        code = 0
    except BaseException:  # noqa: BLE001, S110 (whatever it was, the parent computes it again)
        pass
    finally:
        try:
            os.close(fd)
        finally:
            os._exit(code)


def end_with(parent: int) -> None:
    """Have the kernel end this child when its parent ends (Linux's ``PR_SET_PDEATHSIG``,
    through the C library: no program is run), and end now if it has already: a parent
    stopped by a signal leaves no child at work behind it."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: it ends at its next write to the pipe
        pass
    if os.getppid() != parent:
        os._exit(1)


_PR_SET_PDEATHSIG = 1


def send(fd: int, message: tuple) -> None:
    """Write ``message`` to the pipe ``fd``: its length, then its pickle (written from the
    pickle itself, never a copy of it with the length in front)."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    for view in (memoryview(_HEADER.pack(len(data))), memoryview(data)):
        while view:
            view = view[os.write(fd, view) :]


def noted(ws: Workspace) -> tuple[list[tuple[Any, str]], dict[str, set[str]], int, int]:
    """Where things stand before a child's queues run, for ``left_behind``: the values kept
    with files from now on, the per-file records, notes and warnings so far."""
    written = note_kept()
    per_file = ws.per_file
    records = {q: set(r) for q, r in per_file._new.items()} if per_file is not None else {}
    notes = len(per_file.sc.problems) if per_file is not None else 0
    return written, records, notes, len(ws.warnings)


def left_behind(
    ws: Workspace,
    since: tuple[list[tuple[Any, str]], dict[str, set[str]], int, int],
    place: dict[int, Any] | None = None,
) -> dict[str, Any]:
    """What the child's queues left besides their items (see the module), ``since`` what
    ``noted`` saw: the values kept with the files, the per-file records and memo values,
    the notes and warnings given. ``place``: each parsed file's name for the parent, by the
    file's ``id`` (by default its place in ``_holders``: the parent's model is the child's)."""
    written, records, notes, warnings = since
    at = place if place is not None else {id(h): k for k, h in enumerate(_holders(ws))}
    kept: dict[int, dict[str, Any]] = {}
    for obj, name in written:
        k = at.get(id(obj))
        store = obj.__dict__.get("_kept")
        if k is not None and isinstance(store, dict) and name in store:
            kept.setdefault(k, {})[name] = store[name]
    left: dict[str, Any] = {"kept": kept, "records": {}, "memos": {}, "notes": []}
    per_file = ws.per_file
    if per_file is not None:
        left["records"] = {
            q: {rel: rec for rel, rec in r.items() if rel not in records.get(q, ())}
            for q, r in per_file._new.items()
        }
        left["memos"] = {name: dict(m.used) for name, m in per_file._memos.items()}
        left["notes"] = per_file.sc.problems[notes:]
    left["warnings"] = ws.warnings[warnings:]
    return left


def fork_apart(
    ws: Workspace,
    today: date,
    apart: list[Any],
    others: list[Any],
    views: dict[str, Any],
    reads: dict[str, list[str]] | None,
) -> Apart | None:
    """The child computing ``apart`` when the scan may fork (``may_fork``), else None."""
    if not may_fork(ws, apart, others):
        return None
    try:
        return Apart(ws, today, apart, views, reads)
    except OSError:  # no process or pipe to be had (EAGAIN, ENOMEM, EMFILE): one process
        return None
