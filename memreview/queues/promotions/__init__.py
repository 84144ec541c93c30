"""Promotions: entries a nightly pipeline put into a memory file, and the junk among them
(docs/design.md §2, issue 13).

An item is one promoted entry the owner has not reviewed yet:
- OpenClaw: the bullet under an ``<!-- openclaw-memory-promotion:KEY -->`` marker in a
  ``## Promoted From Short-Term Memory (DATE)`` section (both tail generations:
  ``[score= recalls= avg= source=]`` and, since 2026.9, ``[score= signals= recalls= avg=
  source=]`` followed by ``<!-- trigger: … --> <!-- importance: N -->``), and the entries of
  ``## Consolidated Memory (DATE)`` sections (``Source: path#La-Lb``, an optional
  ``openclaw-memory-lineage`` marker); ``### Project: key`` / ``### Global`` group them;
- Lingxi: entries stamped ``（YYYY-MM-DD 自动沉淀）``.

Each item carries the junk flags that fire, each with its reason; flagged items come first,
then the newest promotions. The flags are deterministic text rules, tuned on the realistic
corpus so that a real lesson with a colon inside it, a command the owner saved under a
"Commands" heading and a short but complete rule are not flagged.

The package, by seam:
- ``found``: finding promoted entries (headings, markers, tails, stamps) as ``Promoted``;
- ``flags``: the junk flags, one function each, and ``stripped_body``;
- ``detect``: ``promotions``, the queue: flags, duplicates, came-back and evidence per item.
"""

from typing import TYPE_CHECKING

from memreview import names_imported_on_use

# ``promotions`` (and with it rapidfuzz and the duplicates queue) is imported on first use
__getattr__ = names_imported_on_use(
    __name__,
    {
        "REJECTED_FILE": "found",
        "has_promotions": "found",
        "promotions": "detect",
        "split_tail": "found",
        "stripped_body": "flags",
    },
)

if TYPE_CHECKING:
    from memreview.queues.promotions.detect import promotions
    from memreview.queues.promotions.flags import stripped_body
    from memreview.queues.promotions.found import REJECTED_FILE, has_promotions, split_tail

__all__ = [
    "REJECTED_FILE",
    "has_promotions",
    "promotions",
    "split_tail",
    "stripped_body",
]
