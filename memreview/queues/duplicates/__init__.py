"""Duplicates: chronicle dates, fingerprint groups, near duplicates, copies (docs/design.md §1.5, §2).

What an owner merges is one fact stored twice; what real workspaces are full of is parallel
records and parallel facts. So, besides the chronicle and seed 002's fingerprint groups:

- only entries that are facts on their own are compared: a field line (``**Email:** …``
  under each account, ``| 体感 | - | - |`` in each weekly table) belongs to its record, and
  records are compared whole (``record`` items);
- a near pair (ratio ≥ ``near_ratio`` on the comparison forms, ``queues.sameness``) must
  also differ only in filler — never in a number, path, code span, name or content word —
  and both sides must be ``duplicates_min_width`` wide (a CJK character counts two);
- a fingerprint group of long entries (OpenClaw prefixes snippets with their source
  heading) holds only the members that agree beyond the shared prefix;
- a duplicate matters when one side is in a curated file (``MEMORY.md``, an anchor file,
  a ``curated:`` glob); other files are compared only with ``duplicates: {scope: all}``;
- the same text in two files (``copy``) and a run of lines copied elsewhere (``block``,
  reported once);
- the same fact in other dress or other words, by one measure (``substance``): two entries
  that share most of their weighted substance (numbers, dates, paths, names, content words;
  each weighed by its rarity) and disagree on none of it — the same value under two labels,
  a table row restated as a bullet, the same dated row in two tables (``restructured``),
  the same entities in other words (``paraphrase``). Every item of two or more places
  carries ``evidence``: the substance they share and where their words differ.

The near search is bounded (issue 18): identical comparison forms are grouped first, each
text keeps at most ``duplicates_candidates`` partners, and above ``EXACT_PAIRS`` comparisons
only neighbours in prefix and suffix order are scored, so time and memory stay linear.

The package, by seam:
- ``scope``: which entries are compared and in which files a duplicate matters;
- ``chronicle``: rows of one day in a chronicle table, and seed 002's merge of them;
- ``near``: the bounded near search, fingerprint groups, union-find;
- ``runs``: runs of lines and whole records copied elsewhere;
- ``substance``: substance tokens, their weights, disagreement, the index, the evidence;
- ``detect``: ``duplicates``, the detector, gathering them all into items.
"""

from memreview.queues.duplicates.chronicle import chronicle_merge
from memreview.queues.duplicates.detect import duplicates
from memreview.queues.duplicates.near import connected_groups, near_candidates
from memreview.queues.duplicates.scope import comparable, curated_files

__all__ = [
    "chronicle_merge",
    "comparable",
    "connected_groups",
    "curated_files",
    "duplicates",
    "near_candidates",
]
