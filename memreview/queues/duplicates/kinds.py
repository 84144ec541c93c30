"""The ``kind`` an owner sees: the dress in which the same fact is stored twice (docs/design.md §2).

Each rule that finds a duplicate has a name of its own (``near``, ``copy``, ``value``…), and
the item's id is derived from that name: an owner's ``not-duplicate`` and its hidden items
name items by id, so the rule's name stays in the id whatever the item is called. What the
item shows is its dress:

- ``exact``: the members are the same text after normalization (§1.5), in one file or in
  several (the refs say which);
- ``near``: the same text but for filler (a function word, punctuation, emphasis);
- ``restructured``: the same fact in another shape (a value under another label, a table row
  and a bullet, the same dated row in two tables, a record repeated whole);
- ``block``: a run of entries copied elsewhere, one item for the whole run;
- ``paraphrase``: the same substance in other words;
- ``fingerprint`` and ``chronicle``: seed 002's two kinds.
"""

from __future__ import annotations

from collections.abc import Iterable

from memreview.workspace.model import Entry

KINDS = ("exact", "near", "restructured", "block", "paraphrase", "fingerprint", "chronicle")

# the rules whose items are always of one dress
_DRESS = {
    "value": "restructured",
    "row-bullet": "restructured",
    "dated-row": "restructured",
    "record": "restructured",
    "block": "block",
    "fingerprint": "fingerprint",
    "chronicle": "chronicle",
}


def shown_kind(rule: str, group: Iterable[Entry] = ()) -> str:
    """The kind shown for an item found by ``rule`` over the entries ``group``: a near or
    copy group whose members normalize to one text is ``exact``, one that holds a table row
    and a list item ``restructured``."""
    if rule in ("near", "copy"):
        group = list(group)
        if len({e.kind == "row" for e in group}) > 1:
            return "restructured"  # a table row and a list item
        return "exact" if len({e.norm for e in group}) == 1 else "near"
    return _DRESS.get(rule, rule)
