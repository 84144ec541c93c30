"""Every queue's items have the shape memreview/queues/items.py gives them: each key the
type declares required is there, no undeclared key, each value of its declared type — on the
sample and on every realistic case, so a field added or renamed in one queue without its type
(and docs/cli.md) fails here."""

from __future__ import annotations

import shutil
import types
import typing
from datetime import date
from pathlib import Path

import pytest

from memreview.cli.launch import sample_workspace
from memreview.decisions import registry
from memreview.queues.items import ITEM_TYPES, DuplicateItem, Ref
from memreview.scan import scan_workspace

CASES = Path(__file__).resolve().parents[1] / "realistic" / "cases"
TODAY = date(2026, 11, 29)


def problems(value: object, hint: object, where: str) -> list[str]:
    """Where ``value`` is not of type ``hint``, one line each."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [problems(value, h, where) for h in typing.get_args(hint)]
        return [] if any(not p for p in options) else [f"{where}: {value!r} is not {hint}"]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not an object"]
        hints = typing.get_type_hints(hint)
        out = [f"{where}: lacks {k!r}" for k in sorted(hint.__required_keys__ - value.keys())]
        out += [f"{where}: undeclared {k!r}" for k in sorted(value.keys() - hints.keys())]
        for k in value.keys() & hints.keys():
            out += problems(value[k], hints[k], f"{where}.{k}")
        return out
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} is not a list"]
        (inner,) = typing.get_args(hint)
        return [p for i, v in enumerate(value) for p in problems(v, inner, f"{where}[{i}]")]
    if hint is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, hint)  # type: ignore[arg-type]
    return [] if ok else [f"{where}: {value!r} is not {getattr(hint, '__name__', hint)}"]


def test_every_queue_of_the_registry_has_an_item_type():
    assert set(ITEM_TYPES) == set(registry.queue_names())


def test_the_check_finds_a_missing_key_an_extra_key_and_a_wrong_type():
    ref = {"file": "MEMORY.md", "line": 3, "end_line": 3, "text": "- x", "anchor": None}
    good = {"id": "d-1", "title": "x", "kind": "near", "refs": [ref], "merged": None, "score": 90}
    assert problems(good, DuplicateItem, "item") == []
    bad = dict(good, refs=[dict(ref, line="3")], extra=1)
    del bad["merged"]
    found = problems(bad, DuplicateItem, "item")
    assert "item: lacks 'merged'" in found
    assert "item: undeclared 'extra'" in found
    assert any(p.startswith("item.refs[0].line:") for p in found)
    assert problems(dict(ref, anchor=True), Ref, "ref") == ["ref.anchor: True is not str | None"]


WORKSPACES = [sample_workspace(), *sorted(p / "ws" for p in CASES.iterdir() if (p / "ws").is_dir())]


@pytest.mark.parametrize(
    "root", WORKSPACES, ids=lambda p: p.parent.name if p.name == "ws" else p.name
)
def test_every_item_has_its_queues_shape(root, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(root, ws)
    result = scan_workspace(ws, today=TODAY, cache=False)
    found = []
    for queue, items in result.queues.items():
        for n, item in enumerate(items):
            found += problems(item, ITEM_TYPES[queue], f"{queue}[{n}]")
    assert not found, "\n".join(found[:20])
