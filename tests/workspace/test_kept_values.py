"""Values a detector keeps with a parsed file (``memo.kept_with_file``)."""

from __future__ import annotations

from types import SimpleNamespace

from memreview.workspace.memo import kept_store, kept_with_file


@kept_with_file
def _counted(obj, word: str) -> int:
    # as another thread would meanwhile: the scan taking in what its second process kept
    # with this file (``apart.Apart._merge``)
    if "_kept" not in obj.__dict__:
        kept_store(obj)["from the second process"] = ("digest", 7)
    return len(word)


def test_a_value_kept_adds_to_a_table_made_meanwhile_and_never_replaces_it():
    obj = SimpleNamespace()
    assert _counted(obj, "fourteen chars") == 14
    kept = obj.__dict__["_kept"]
    assert kept["from the second process"] == ("digest", 7)
    assert len(kept) == 2
    assert _counted(obj, "fourteen chars") == 14  # (its own value found the second time)


def test_a_kept_table_that_is_not_one_is_replaced():
    obj = SimpleNamespace(_kept=["not a table"])
    assert kept_store(obj) == {}
    assert _counted(obj, "ab") == 2 and len(obj.__dict__["_kept"]) == 1
