"""The front matter of a new SKILL.md is written by ruamel.yaml: the name and description read
back as the same strings, whatever they hold."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from refusal_helpers import WS, write_tree
from ruamel.yaml import YAML

from memreview.decisions import apply, skill_slug
from memreview.scan import scan_workspace
from memreview.workspace.dates import parse_date

THEMES = [
    "true",
    "null",
    "2024",
    "2024-01-01",
    "0x1F",
    ".inf",
    "no",
    "tab\there",
    "carriage\rreturn",
    "bell\x07ring",
    "Deploy: step #1",
    "- a dash",
    "'quoted' \"both\"",
    "next\x85line and\u2028separator",
    "先设 PYTHONUTF8=1",
]


def _front_matter(text: str) -> dict:
    assert text.startswith("---\n")
    head, sep, _body = text[4:].partition("\n---\n")
    assert sep, text
    return YAML(typ="safe", pure=True).load(head)


@pytest.mark.parametrize("theme", THEMES)
def test_a_new_skill_md_reads_back_its_name_and_description_as_written(tmp_path, theme):
    skills = {"candidates": [{"theme": theme, "content": "do it this way"}]}
    ws = write_tree(tmp_path / "ws", {**WS, "memory/skill_candidates.json": json.dumps(skills)})
    result = scan_workspace(ws, today=parse_date("2026-11-29"))
    [item] = result.queues["skills"]
    outcome = apply(
        result,
        [{"item": item["id"], "action": "create-skill"}],
        now=datetime(2026, 11, 29, 10, tzinfo=UTC),
    )
    assert outcome.ok, outcome.failures + outcome.conflicts
    slug = skill_slug(theme)
    data = (ws / "skills" / slug / "SKILL.md").read_bytes().decode("utf-8")
    doc = _front_matter(data)
    assert doc == {"name": slug, "description": theme}
    assert all(type(v) is str for v in doc.values())
    assert data.endswith("\n---\n\ndo it this way\n")
