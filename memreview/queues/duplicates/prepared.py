"""What the duplicates detector makes of each memory file on its own, kept with the parsed
file (``memo.kept_with_file``): the comparison form of each entry and paragraph, and the
substance of each compared entry and of the list items nested in it. A file the last scan
parsed (the rescan's, or the next process's through the scan cache) gives them without
being worked on again; only the files changed since are.

Kept as plain data (the scan cache stores nothing but the workspace's model classes and
built-in values): a file's tokens once each, as (text, kind), and each bag as the places of
its tokens in that list.
"""

from __future__ import annotations

from sys import intern

from memreview.queues.duplicates.scope import comparable
from memreview.queues.duplicates.substance import Token, entry_substance, sub_entries
from memreview.queues.sameness import comparison_form
from memreview.workspace.memo import kept_with_file
from memreview.workspace.model import Entry, MemoryFile

# a file's substance as kept: its tokens' texts and kinds, and each bag as their places
Packed = tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[int, ...], ...]]


def units(mf: MemoryFile) -> list[Entry]:
    """The file's entries and paragraphs, in the order the kept forms follow."""
    return [*mf.entries, *mf.paragraphs]


@kept_with_file
def file_forms(mf: MemoryFile) -> tuple[str, ...]:
    """The comparison form of each of the file's ``units`` (see ``sameness``)."""
    return tuple(comparison_form(e.norm) for e in units(mf))


def forms(mf: MemoryFile, every: list[Entry]) -> tuple[str, ...]:
    """The comparison forms of ``every`` (the file's ``units``), from what is kept."""
    kept = file_forms(mf)
    if len(kept) == len(every) and all(type(f) is str for f in kept):
        return kept
    return tuple(comparison_form(e.norm) for e in every)  # not what this code keeps


def compared(mf: MemoryFile) -> list[tuple[Entry, Entry | None]]:
    """The file's compared entries, each followed by the list items nested in it, with the
    entry each of those is nested in (None for an entry of the file's own); new objects at
    each call: the caller keeps those it uses."""
    out: list[tuple[Entry, Entry | None]] = []
    for e in units(mf):
        if comparable(e):
            out.append((e, None))
            out.extend((sub, e) for sub in sub_entries(e))
    return out


@kept_with_file
def file_substance(mf: MemoryFile) -> Packed:
    """The substance of each of the file's ``compared`` entries, packed (see the module)."""
    # by text and kind: a token equals another of the same text whatever its kind
    places: dict[tuple[str, str], int] = {}
    bags = []
    for e, _parent in compared(mf):
        bag = entry_substance(e)
        bags.append(tuple(places.setdefault((str(t), t.kind), len(places)) for t in bag))
    # interned: a file's texts are plain strings (what the scan cache stores), and a token of
    # many files is then one string in memory, not one copy per file (about 14 MB of a cold
    # scan's peak at scale 1)
    return tuple(intern(t) for t, _k in places), tuple(k for _t, k in places), tuple(bags)


def substances(
    mf: MemoryFile, entries: list[Entry], made: dict[tuple[str, str], Token]
) -> list[tuple[Token, ...]]:
    """The substance of each of ``entries`` (the file's ``compared``, in order), from what
    is kept with the file; ``made``: the tokens made so far, shared across files."""
    try:
        texts, kinds, bags = file_substance(mf)
        if len(bags) != len(entries):  # not the file's entries: made again
            return [entry_substance(e) for e in entries]
        pairs = list(zip(texts, kinds, strict=True))
        tokens = list(map(made.get, pairs))
        for k, tok in enumerate(tokens):
            if tok is None:
                tokens[k] = made[pairs[k]] = Token(*pairs[k])
        at = tokens.__getitem__
        return [tuple(map(at, bag)) for bag in bags]
    except (ValueError, TypeError, IndexError):  # not what this code keeps: made again
        return [entry_substance(e) for e in entries]
