"""Time one open of a workspace in a fresh process, the scan cache on (run by bench.py).

    python bench/open_once.py WORKSPACE T0

``T0`` is the parent's ``time.time()`` just before starting this process, so the figures
include the interpreter's start and the imports. Prints one JSON object: seconds from T0 to
every queue's count known (from the cache, or the last queue computed), to the first counts
shown, to the workspace read (``loaded_s``: every queue the cache knows has its items), and
to the whole scan (health included; the cache saved); the CPU seconds the process had used
at each (interpreter start included: about what an idle machine's wall time would be); and
its peak resident memory (``rss_mb``).
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path


def cpu() -> float:
    """CPU seconds this process has used since it started (interpreter start included):
    about the wall time an idle machine would take, whatever the load."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    root, t0 = Path(sys.argv[1]), float(sys.argv[2])
    from memreview.scan import Counts, HealthDone, Loaded, QueueDone, scan_workspace

    marks: dict[str, float] = {}
    told: list[tuple[float, float, set[str]]] = []  # (s, CPU s, queues whose count is known)

    def emit(event) -> None:
        now, used = time.time() - t0, cpu()
        if isinstance(event, Counts):
            told.append((now, used, set(event.counts)))
            marks.setdefault("first_counts_s", now)
        elif isinstance(event, Loaded):
            marks["loaded_s"], marks["loaded_cpu_s"] = now, used
            told.append((now, used, set(event.result.all_queues)))
        elif isinstance(event, QueueDone):
            told.append((now, used, {event.name}))
        elif isinstance(event, HealthDone):
            told.append((now, used, set()))

    result = scan_workspace(root, emit=emit)
    marks["all_s"], marks["all_cpu_s"] = time.time() - t0, cpu()
    # every count known: the first moment the counts told so far cover every queue
    every, known = set(result.all_queues), set()
    for now, used, names in told:
        known |= names
        if known >= every:
            marks["counts_s"], marks["counts_cpu_s"] = now, used
            break
    marks["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
    marks = {k: round(v, 3) for k, v in marks.items()}
    print(json.dumps({**marks, "notes": result.notes}))


if __name__ == "__main__":
    main()
