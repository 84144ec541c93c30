"""Synthetic workspaces for tests and benchmarks (docs/design.md §8).

    python -m memreview.synth OUT --scale N [--seed S] [--manifest FILE.json]

Scale 1.0 is the top scale of docs/design.md §8: about 25,000 memory entries and anchors, 90 daily
logs of 2,000 lines, 20,000 fragments in ``dreams.db`` and 50,000 recall-log lines. Every
dialect of docs/design.md §1 is written, and every queue of §2 gets planted work at any scale
(``generate`` returns a manifest of what was planted). The output depends only on
``scale`` and ``seed``.

Layout: ``vocabulary`` (word lists and sentence templates), ``dates``, ``model`` (the
``Builder`` and what it holds), ``plant/`` (one module per queue or file kind, adding to
the builder), ``write/`` (one module per kind of file), ``generator`` (the stages in
order) and ``cli``.
"""

from memreview.synth.cli import main
from memreview.synth.generator import generate

__all__ = ["generate", "main"]
