"""Time the rescan after a batch of 7 decisions (run by bench.py on a throwaway copy).

    python bench/rescan_once.py WORKSPACE

Scans (the cache on, filled by an open before), makes ready what the rescan needs as the app
does once its scan is over (``scan.ready_rescan``: the detectors, the files left unread), writes one decision on the first item of each of 7 queues, then times the
scan that follows from the write's end: to the first queue computed, to every count, to the
end (wall and CPU seconds). Prints one JSON object.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def decisions_for(result, want: int = 7) -> list:
    from memreview.decisions import Decision, DecisionError, check_decision, registry

    out = []
    for unit in registry.units():
        items = result.queues.get(unit.name) or []
        for act in unit.acts:
            if act.action == "defer" or not items:
                continue
            d = Decision(item=items[0]["id"], action=act.action, keep=act.keep, queue=unit.name)
            try:
                check_decision(unit.name, items[0], d)
            except DecisionError:
                continue
            out.append(d)
            break
        if len(out) == want:
            break
    return out


def main() -> None:
    root = Path(sys.argv[1])
    from memreview.decisions import apply
    from memreview.scan import HealthDone, Loaded, QueueDone, ready_rescan, scan_workspace

    result = scan_workspace(root)
    ready_rescan(result.workspace)  # as the app does once its scan is over, while the owner reviews
    decisions = decisions_for(result)
    out = apply(result, decisions)
    t0, c0 = time.perf_counter(), time.process_time()
    marks: dict[str, float] = {}

    def emit(event) -> None:
        now, used = time.perf_counter() - t0, time.process_time() - c0
        if isinstance(event, Loaded):
            marks["loaded_s"] = now
        elif isinstance(event, QueueDone):
            marks.setdefault("first_queue_s", now)
            marks.setdefault("first_queue_cpu_s", used)
            marks["counts_s"], marks["counts_cpu_s"] = now, used
        elif isinstance(event, HealthDone):
            marks.setdefault("counts_s", now)

    scan_workspace(root, emit=emit)
    marks["all_s"], marks["all_cpu_s"] = time.perf_counter() - t0, time.process_time() - c0
    written = [f.rel for f in out.files if getattr(f, "written", True)]
    print(
        json.dumps(
            {
                **{k: round(v, 3) for k, v in marks.items()},
                "decisions": [f"{d.queue}:{d.action}" for d in decisions],
                "files_written": len(written),
                "conflicts": len(out.conflicts) + len(out.failures),
            }
        )
    )


if __name__ == "__main__":
    main()
