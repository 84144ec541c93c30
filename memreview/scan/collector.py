"""No automatic garbage collection while a scan builds its model.

A scan makes millions of objects that live on (the workspace's entries, lines, items) and
almost no garbage in cycles: Python's collector, triggered every 700 new objects, scans
them again and again for nothing (a fifth of the time to read a 25,000-entry workspace).
With the first generation collected every 100,000 objects instead, the collections still
took 0.39 s of a cold scan at scale 1 (30 of them, each walking the objects made since the
last), for no garbage: while a scan runs the collector does not run by itself at all
(``SCAN_THRESHOLD``), and the thresholds are put back when the last scan ends. What a scan
lets go of in cycles waits for the next collection after it, unless it breaks the cycles
itself (the skills queue empties pypinyin's modules: a collection would walk every object
the scan made).

The first collection after a scan still walks every object the scan made (0.18 s at scale
1). In a process that ends with its command (``memreview scan``, ``apply``…: not the app;
``memreview.process``), once its scans are done their objects are moved out of the
collector's reach instead (``gc.freeze``, which takes no time). They are freed as ever
when nothing refers to them any more; only garbage in cycles, which the process's end
frees, waits for it. That is done once, after the first scan: a command scanning a fleet
would otherwise strand each workspace's garbage in cycles (about 28,000 objects a
cold-cache scan of scale 0.1), where the collector frees the later ones as before.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from memreview.process import one_shot

SCAN_THRESHOLD = (0, 20, 100)  # a first threshold of 0: no automatic collection

_lock = threading.Lock()
_running = 0
_saved: tuple[int, ...] = ()
_frozen = False  # this process froze a scan's objects (see the module)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """No automatic collection inside the block (scans in two threads at once: the
    thresholds are put back when both are done)."""
    global _running, _saved, _frozen
    with _lock:
        if _running == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(*SCAN_THRESHOLD)
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                if one_shot() and not _frozen:
                    gc.freeze()
                    _frozen = True
                gc.set_threshold(*_saved)


def set_aside() -> None:
    """In a process that lives on after its scans (the app), once a scan is over: its
    garbage in cycles collected, the last model's with it (let go when the scan's result
    took its place), then every object still alive frozen (``gc.freeze``), out of the
    collector's reach, until the next scan (``gc.unfreeze`` when it starts).

    One full collection per scan (about 0.15 s at scale 1): frozen at the scan's start
    instead, every reload froze the garbage of the model before it, which no collection
    then reached (about 27,000 objects a write at scale 1), and what the scan made after
    its start was left to the collector's full collections, each walking it again."""
    gc.collect()
    gc.freeze()
