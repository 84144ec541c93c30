"""Where a promotion already stands in memory: the curated entries outside promotion sections,
their comparison forms and a ``NearIndex`` over them, built once per workspace (while its
curated files stay the same objects) and asked for every promotion at once."""

from __future__ import annotations

from memreview.queues.duplicates.index import NearIndex
from memreview.queues.duplicates.scope import comparable, curated_files
from memreview.queues.sameness import comparison_form, same_fact
from memreview.workspace.memo import per_file
from memreview.workspace.model import Entry, Workspace

STANDING_TOP = 5  # the best-scoring curated forms looked at for the same fact


class CuratedIndex:
    """The comparable entries of the curated files (name order, then file order) that are not
    promotions, their comparison forms and the index over the forms."""

    def __init__(self, files: tuple, promoted: frozenset[int], cutoff: float):
        self.files = files  # (rel, parsed file): what the index was built from
        self.entries: list[Entry] = [
            e for _rel, mf in files for e in mf.entries if id(e) not in promoted and comparable(e)
        ]
        self.forms = [comparison_form(e.norm) for e in self.entries]
        self.index = NearIndex(self.forms, cutoff)


def curated_index(ws: Workspace, promoted: frozenset[int]) -> CuratedIndex:
    """The index for ``ws`` without the ``promoted`` entries (ids), kept with the workspace."""
    files = tuple((rel, ws.files[rel]) for rel in sorted(curated_files(ws)) if rel in ws.files)
    cutoff = ws.config.near_ratio
    ix = _kept(ws, cutoff, tuple(id(mf) for _rel, mf in files), promoted)
    if any(a[1] is not b[1] for a, b in zip(ix.files, files, strict=True)):
        ix = CuratedIndex(files, promoted, cutoff)  # another object under a kept id
    return ix


@per_file
def _kept(ws: Workspace, cutoff: float, _ids: tuple, promoted: frozenset[int]) -> CuratedIndex:
    files = tuple((rel, ws.files[rel]) for rel in sorted(curated_files(ws)) if rel in ws.files)
    return CuratedIndex(files, promoted, cutoff)


def standing(ws: Workspace, forms: set[str], promoted: frozenset[int]) -> dict[str, Entry | None]:
    """For each form (8 characters or more), the curated entry it already stands as: among
    its ``STANDING_TOP`` best matches at ≥ near_ratio (best first, ties in file order), the
    first identical or the same fact."""
    ix = curated_index(ws, promoted)
    asked = sorted(f for f in forms if len(f) >= 8)
    out: dict[str, Entry | None] = {}
    for form, hits in zip(asked, ix.index.matches(asked), strict=True):
        out[form] = next(
            (
                ix.entries[k]
                for s, k in hits[:STANDING_TOP]
                if s >= 100 or same_fact(form, ix.forms[k])
            ),
            None,
        )
    return out
