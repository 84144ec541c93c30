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
from memreview.workspace.memo import ByObject, kept_before, kept_with_file
from memreview.workspace.model import Entry, MemoryFile

# a file's substance as kept: its tokens' texts and kinds, and each bag as their places
Packed = tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[int, ...], ...]]


def units(mf: MemoryFile) -> list[Entry]:
    """The file's entries and paragraphs, in the order the kept forms follow."""
    return [*mf.entries, *mf.paragraphs]


@kept_with_file
def file_forms(mf: MemoryFile) -> tuple[str, ...]:
    """The comparison form of each of the file's ``units`` (see ``sameness``); an entry the
    file held before it changed (same text, same kind) gives the form it had then."""
    every = units(mf)
    earlier = _earlier_forms(mf)
    if not earlier:
        return tuple(comparison_form(e.norm) for e in every)
    return tuple(earlier.get((e.text, e.kind)) or comparison_form(e.norm) for e in every)


def _earlier_forms(mf: MemoryFile) -> dict[tuple[str, str], str]:
    """The forms the parse this one replaces had (see ``memo.kept_before``), by the text and
    kind of their entries; empty when there is none or it is not what this code keeps."""
    found = kept_before(mf, file_forms)
    if found is None:
        return {}
    old, kept = found
    try:
        every = units(old)
        if not (isinstance(kept, tuple) and len(kept) == len(every)):
            return {}
        if not all(type(f) is str for f in kept):
            return {}
        return {(e.text, e.kind): f for e, f in zip(every, kept, strict=True)}
    except Exception:  # the earlier parse is not one this code made (a damaged cache)
        return {}


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
    earlier = _earlier_substance(mf)  # an entry's substance is a function of its text
    made: list[tuple[Token, ...]] | None = [] if not earlier else None
    for e, _parent in compared(mf):
        bag = earlier.get(e.text) if earlier else None
        if bag is None:
            toks = entry_substance(e)
            if made is not None:
                made.append(toks)
            bags.append(tuple([places.setdefault((t, t.kind), len(places)) for t in toks]))
        else:
            bags.append(tuple([places.setdefault(t, len(places)) for t in bag]))
    if made is not None:
        _MADE.set(mf, made)
    # interned: a file's texts are plain strings (what the scan cache stores), and a token of
    # many files is then one string in memory, not one copy per file (about 14 MB of a cold
    # scan's peak at scale 1)
    texts = tuple([intern(str(t)) for t, _k in places])
    return texts, tuple([k for _t, k in places]), tuple(bags)


# the tokens of each compared entry of the files whose substance this process worked out or
# unpacked: ``substances`` takes them as they are (a cold scan unpacked what it had just
# packed, a rescan what the scan before had unpacked)
_MADE = ByObject()


def _earlier_substance(mf: MemoryFile) -> dict[str, tuple[tuple[str, str], ...]]:
    """The substance of each compared entry of the parse this one replaces (see
    ``memo.kept_before``), as (text, kind) pairs by the entry's text; empty when there is
    none or it is not what this code keeps."""
    found = kept_before(mf, file_substance)
    if found is None:
        return {}
    old, kept = found
    try:
        texts, kinds, bags = kept
        pairs = tuple(zip(texts, kinds, strict=True))
        if not all(type(t) is str and type(k) is str for t, k in pairs):
            return {}
        if not _places_within(bags, len(pairs)):
            return {}
        entries = [e for e, _p in compared(old)]
        if len(bags) != len(entries):
            return {}
        return {e.text: tuple(pairs[p] for p in bag) for e, bag in zip(entries, bags, strict=True)}
    except Exception:  # the earlier parse is not one this code made (a damaged cache)
        return {}


def _places_within(bags: object, n: int) -> bool:
    """Whether ``bags`` is a tuple of tuples of places among ``n`` tokens (whole numbers, not
    ``True``, not negative: each would pick another token)."""
    return isinstance(bags, tuple) and all(
        type(bag) is tuple and all(type(p) is int and 0 <= p < n for p in bag) for bag in bags
    )


def substances(
    mf: MemoryFile, entries: list[Entry], made: dict[tuple[str, str], Token]
) -> list[tuple[Token, ...]]:
    """The substance of each of ``entries`` (the file's ``compared``, in order), from what
    is kept with the file; ``made``: the tokens made so far, shared across files."""
    texts_kinds_bags = file_substance(mf)  # (sets ``_MADE`` when it works them out)
    here = _MADE.get(mf)
    if here is not None and len(here) == len(entries):
        return list(here)
    try:
        texts, kinds, bags = texts_kinds_bags
        if len(bags) != len(entries):  # not the file's entries: made again
            return [entry_substance(e) for e in entries]
        pairs = list(zip(texts, kinds, strict=True))
        tokens = list(map(made.get, pairs))
        for k, tok in enumerate(tokens):
            if tok is None:
                tokens[k] = made[pairs[k]] = Token(*pairs[k])
        at = tokens.__getitem__
        out = [tuple(map(at, bag)) for bag in bags]
        _MADE.set(mf, out)  # the next scan in this process takes them as they are
        return list(out)
    except (ValueError, TypeError, IndexError):  # not what this code keeps: made again
        return [entry_substance(e) for e in entries]
