"""Putting an archived entry back where it came from (``memreview restore``).

What can be restored:
- an anchor block in the superseded or demoted archive, and a promoted entry (with its
  marker) in the demoted or rejected-promotions archive: the block leaves the archive;
- an entry a batch deleted without archiving it (an archived fragment ``remove``, the other
  copies of a duplicate ``keep``): found in the batch's backups, it has no archive block.

Where it goes back: archive blocks written since memreview records it have a ``From: <file> §
<heading>`` line (an anchor's metadata; after a promoted entry's ``Rejected:``/``Demoted:``
line). For older blocks the origin is looked up in the journal: the batch whose archive copy
gained the block, and the file of that batch that lost its first line. Else the owner says
(``to``). The block goes back at the end of its heading's section (the end of the file when
the heading is gone), without the archive's own lines (``Superseded-By:``, ``Demoted:``,
``Rejected:``, ``From:``); a promoted entry's marker leaves the ``Removed promotions``
section it was kept in.

A restore is a batch like an apply, through the one writer: journaled (kind ``restore``),
backed up, undoable. The file that receives the entry is written before the archive that
loses it, so a kill leaves the entry in both, never in none; ``verdicts.jsonl`` gets a
``restored`` line.
"""

from memreview.decisions.restore.batch import RestoreOutcome, restore
from memreview.decisions.restore.found import archived_entries, find_archived
from memreview.decisions.restore.item import Archived

__all__ = ["Archived", "RestoreOutcome", "archived_entries", "find_archived", "restore"]
