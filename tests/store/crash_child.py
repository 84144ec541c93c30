"""Run one batch and die (``os._exit(137)``) at a chosen write step; used by the fault tests.

Usage: python crash_child.py ROOT STEP OCCURRENCE
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from memreview.store import Conflict, FileOutcome, FunctionJob, apply_batch
from memreview.workspace.textfile import TextFile


def edit_memory(current: TextFile | None) -> FileOutcome:
    if current is None or current.texts.count("- beta") != 1:
        return FileOutcome(None, conflicts=[Conflict("edit", "MEMORY.md", "target is gone")])
    lines = list(current.lines)
    i = current.texts.index("- beta")
    lines[i] = current.make_line("- beta (superseded)", lines[i].ending)
    return FileOutcome(current.render(lines), applied=["edit"])


def create_archive(current: TextFile | None) -> FileOutcome:
    return FileOutcome(b"# Superseded\n\n- beta\n", applied=["archive"])


def main() -> None:
    root, step, occurrence = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    seen: dict[str, int] = {}

    def fault(name: str) -> None:
        seen[name] = seen.get(name, 0) + 1
        if name == step and seen[name] == occurrence:
            os._exit(137)

    jobs = [
        FunctionJob("MEMORY.md", edit_memory, ["edit"]),
        FunctionJob("memory/archive/superseded.md", create_archive, ["archive"]),
    ]
    apply_batch(root, jobs, [{"item": "s-1", "action": "approve"}], fault=fault)


if __name__ == "__main__":
    main()
