"""The app's widgets."""

from __future__ import annotations

from textual.color import Color, ColorParseError


def theme_colour(app, name: str, fallback: str = "") -> str:
    """A theme variable as a colour Rich understands (``#rrggbb``), or ``fallback``."""
    value = app.theme_variables.get(name)
    if not value:
        return fallback
    try:
        return Color.parse(value).hex
    except ColorParseError:
        return fallback
