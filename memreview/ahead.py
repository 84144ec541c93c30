"""The app's second process, started ahead of its first thread.

The app scans in a thread beside Textual's own, where a process must not fork
(:mod:`memreview.scan.apart`). So the app forks once before Textual starts: the child reads
the workspace itself, as the app's scan will, and computes the queues marked ``apart``
(duplicates and promotions) or ``ahead`` (dormant: it starts at launch, so it has the time a
command's child, forked once the workspace is read, lacks) that the scan cache does not
hold, while the app draws its first frame and its own scan reads the workspace and computes
the rest.

The two processes read the workspace at two moments, and an agent may write between them.
So each queue the child sends comes with the scan cache's key of the groups of files it
read (``ScanCache.queue_key``: their sizes, times and content hashes, the day, the
settings, the code), and the app takes it only when its own scan finds the same key: the
same files, so the same items. A queue it does not take, and every queue the child does not
send (it failed, died, or is stuck), the app computes itself, as it would have without it.
What the child's queues left besides their items (the values kept with each parsed file,
the cache's per-file records, the notes) is taken in only when every queue it sent was.

Only when it pays: a workspace of ``apart.MIN_FILES`` memory files or more (counted
without reading them), two cores, the scan cache on, memory to spare for a second model.
``$MEMREVIEW_NO_FORK`` keeps every queue in the app. Nothing is run: the child is this
program, writes nothing but its pipe (its standard streams are the null device: the
terminal is the app's), and ends with ``os._exit`` once its queues are sent; the kernel
ends it with the app. Only the app's first scan of the workspace takes it; the app's end
ends it if no scan did (``memreview.forked`` keeps it until then).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from datetime import date
from pathlib import Path

from memreview import forked
from memreview.process import cores

# the files counted to know whether the workspace is large enough (a bound on the walk)
COUNT_AT_MOST = 20_000
# a parsed workspace's memory, per byte of its memory files (about 8 at scale 1)
MODEL_BYTES_PER_BYTE = 10


def start_ahead(root: Path, today: date | None) -> bool:
    """Fork the child for the app about to open ``root`` (see the module) when it may;
    whether it was forked. Imports nothing of the scan: the app's first frame does not wait
    for it."""
    if not _may_fork():
        return False
    try:
        pid, fd = forked.fork_child(
            lambda out, parent, mask: _child(out, root, today, parent, mask)
        )
    except OSError:  # no process or pipe to be had: the app computes every queue
        return False
    forked.keep(forked.Started(os.path.realpath(root), pid, fd, time.monotonic()))
    return True


def _may_fork() -> bool:
    """Whether the app may fork its child: no thread yet, two cores, the scan cache on (not
    ``$MEMREVIEW_NO_CACHE``: ``cachefile.cache_enabled``, not imported here) and
    ``$MEMREVIEW_NO_FORK`` not set. The child sees for itself whether it pays (``_pays``)."""
    if not hasattr(os, "fork") or os.environ.get("MEMREVIEW_NO_FORK"):
        return False
    if os.environ.get("MEMREVIEW_NO_CACHE") or threading.active_count() != 1:
        return False
    return cores() >= 2


# -- the child's side ----------------------------------------------------------------------


def _child(fd: int, root: Path, today: date | None, parent: int, mask: set[signal.Signals]) -> None:
    """Compute the queues (``scan.run.ahead_messages``), send them, and end; any failure
    ends the child at once (the app computes them)."""
    try:
        from memreview.scan import apart
    except BaseException:  # noqa: BLE001 (the app computes them)
        os._exit(1)

    def work() -> None:
        _quiet()
        if _pays(Path(root)):  # else it ends sending nothing: the app computes every queue
            from memreview.scan.run import ahead_messages

            for message in ahead_messages(Path(root), today):
                apart.send(fd, message)

    apart.child_run(fd, parent, mask, work)


def _quiet() -> None:
    """Standard input and output and error the null device: the terminal is the app's."""
    null = os.open(os.devnull, os.O_RDWR)
    for k in (0, 1, 2):
        os.dup2(null, k)
    if null > 2:
        os.close(null)


def _pays(root: Path) -> bool:
    """Whether the workspace is large enough for a second process to pay, and the machine
    has memory to spare for a second model of it (seen by the child: the app's first frame
    does not wait for it)."""
    from memreview.scan import apart

    count, size = _memory_files(root)
    return count >= apart.MIN_FILES and apart.memory_to_spare(MODEL_BYTES_PER_BYTE * size)


def _memory_files(root: Path) -> tuple[int, int]:
    """How many Markdown files the workspace's root and its ``memory`` folder hold, and their
    bytes (links not followed; at most ``COUNT_AT_MOST`` entries looked at)."""
    count = size = seen = 0
    folders = [str(root)]
    while folders and seen < COUNT_AT_MOST:
        top = folders.pop()
        try:
            with os.scandir(top) as it:
                for entry in it:
                    seen += 1
                    if entry.is_symlink():
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        if top != str(root) or entry.name == "memory":
                            folders.append(entry.path)
                    elif entry.name.endswith(".md"):
                        count += 1
                        try:
                            size += entry.stat(follow_symlinks=False).st_size
                        except OSError:
                            pass
        except OSError:
            continue
    return count, size
