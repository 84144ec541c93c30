"""The key bar is readable in every shipped theme: WCAG contrast of at least 4.5:1 for key
letters, labels and disabled keys, computed from the themes' colours and the app's CSS."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.color import Color

from memreview.app.themes import BUILTIN, load_themes

TCSS = (Path(__file__).resolve().parents[2] / "memreview/app/memreview.tcss").read_text()
PARTS = ("key", "label", "disabled", "more")


def luminance(c: Color) -> float:
    def channel(v: int) -> float:
        v = v / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)


def contrast(a: Color, b: Color) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def rule(selector: str, prop: str) -> str:
    m = re.search(re.escape(selector) + r"\s*\{[^}]*?\b" + prop + r":\s*([^;]+);", TCSS)
    assert m, (selector, prop)
    return m.group(1).strip()


def resolve(value: str, variables: dict[str, str], under: Color | None = None) -> Color:
    """``$name`` or ``$name N%`` (that colour at N% opacity over ``under``)."""
    m = re.fullmatch(r"\$([a-z0-9-]+)(?:\s+(\d+)%)?", value)
    assert m, value
    colour = Color.parse(variables[m.group(1)])
    if m.group(2):
        return under.blend(colour, int(m.group(2)) / 100)
    return colour


THEMES = {t.name: t for t in BUILTIN} | {f"{t.name} (themes/)": t for t in load_themes().themes}


def test_the_shipped_theme_files_load():
    assert load_themes().problems == []


@pytest.mark.parametrize("name", sorted(THEMES))
@pytest.mark.parametrize("part", PARTS)
def test_every_part_of_the_key_bar_has_at_least_4_5_to_1(name, part):
    theme = THEMES[name]
    variables = {**theme.to_color_system().generate(), **theme.variables}
    background = resolve(rule("KeyBar", "background"), variables)
    colour = resolve(rule(f"KeyBar > .keybar--{part}", "color"), variables, background)
    assert contrast(colour, background) >= 4.5, (name, part, round(contrast(colour, background), 2))
