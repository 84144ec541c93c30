"""Themes: YAML files in ``themes/`` turned into Textual ``Theme`` objects (docs/design.md §7)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

from textual.color import Color, ColorParseError
from textual.theme import Theme

from memreview.i18n import _, ngettext
from memreview.shipped import shipped_dir

DEFAULT_THEME = "memreview-dark"

# The app's own colours, used from memreview.tcss; every theme may override them.
ACTION_VARIABLES: dict[str, str] = {
    "action-approve": "#4EBF71",
    "action-reject": "#E0605B",
    "action-keep": "#5AA9E6",
    "action-defer": "#A0A0A0",
    "action-edit": "#D6A640",
    "diff-add": "#4EBF71",
    "diff-remove": "#E0605B",
    "diff-hunk": "#5AA9E6",
    "budget-ok": "#4EBF71",
    "budget-over": "#E0605B",
}

BUILTIN = (
    Theme(
        name="memreview-dark",
        primary="#5AA9E6",
        secondary="#7F8C9A",
        accent="#D6A640",
        warning="#D6A640",
        error="#E0605B",
        success="#4EBF71",
        foreground="#D8DEE4",
        background="#161B22",
        surface="#1E242C",
        panel="#2A323C",
        dark=True,
        variables={**ACTION_VARIABLES, "footer-key-foreground": "#5AA9E6"},
    ),
    Theme(
        name="memreview-light",
        primary="#1F6FB2",
        secondary="#56626E",
        accent="#9A6A00",
        warning="#9A6A00",
        error="#B3261E",
        success="#1E7B3A",
        foreground="#1F2328",
        background="#F6F8FA",
        surface="#FFFFFF",
        panel="#E4E8EC",
        dark=False,
        variables={
            **ACTION_VARIABLES,
            "action-approve": "#1E7B3A",
            "action-reject": "#B3261E",
            "action-keep": "#1F6FB2",
            "action-defer": "#6E7781",
            "action-edit": "#9A6A00",
            "diff-add": "#1E7B3A",
            "diff-remove": "#B3261E",
            "diff-hunk": "#1F6FB2",
            "budget-ok": "#1E7B3A",
            "budget-over": "#B3261E",
            "footer-key-foreground": "#1A62A0",
        },
    ),
)


def themes_dir() -> Path:
    """The themes shipped with the package (memreview.shipped)."""
    return shipped_dir("themes")


_THEME_FIELDS = {f.name for f in fields(Theme)}


def theme_from_mapping(doc: object, fallback_name: str) -> Theme:
    """A Theme from a parsed YAML mapping; ValueError with a short reason when it can't be."""
    if not isinstance(doc, dict):
        raise ValueError(_("expected a mapping of Theme fields"))
    unknown = sorted(str(k) for k in doc if k not in _THEME_FIELDS)
    if unknown:
        raise ValueError(
            ngettext("unknown field: {fields}", "unknown fields: {fields}", len(unknown)).format(
                fields=", ".join(unknown)
            )
        )
    if not doc.get("primary"):
        raise ValueError(_("'primary' is required"))
    variables = doc.get("variables") or {}
    if not isinstance(variables, dict):
        raise ValueError(_("'variables' must be a mapping"))
    kwargs = {k: v for k, v in doc.items() if k != "variables"}
    kwargs.setdefault("name", fallback_name)
    kwargs = {k: (str(v) if isinstance(v, str) else v) for k, v in kwargs.items()}
    theme = Theme(
        **kwargs,
        variables={**ACTION_VARIABLES, **{str(k): str(v) for k, v in variables.items()}},
    )
    # Textual only finds a bad colour when the theme is applied: check now, report once
    try:
        theme.to_color_system().generate()
        for name, value in theme.variables.items():
            if name.startswith(("action-", "diff-", "budget-")):
                Color.parse(value)
    except ColorParseError as exc:
        raise ValueError(_("bad colour: {error}").format(error=exc)) from None
    return theme


@dataclass
class ThemeSet:
    themes: list[Theme] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)  # file stem -> theme name
    files_read: bool = True  # False: the built-in themes only, the theme files read later

    def resolve(self, name: str | None) -> str | None:
        if not name:
            return None
        return self.aliases.get(name, name)


def builtin_themes() -> ThemeSet:
    """The built-in themes alone (``files_read`` False: the app reads the theme files after
    its first frame, and takes what they change)."""
    aliases = {"dark": "memreview-dark", "light": "memreview-light"}
    return ThemeSet(themes=list(BUILTIN), aliases=aliases, files_read=False)


def first_frame_themes(wanted: str | None, directory: Path | None) -> ThemeSet:
    """The themes to start with: the built-in ones alone when the theme asked for is one of
    them (the YAML reader and the theme files wait for the first frame), else every one."""
    if directory is None and (not wanted or wanted in {t.name for t in BUILTIN}):
        return builtin_themes()
    return load_themes(directory)


def load_themes(directory: Path | None = None) -> ThemeSet:
    """The built-in themes overlaid by every ``*.yaml`` in ``directory``; broken files are
    listed in ``problems`` and skipped."""
    directory = themes_dir() if directory is None else directory
    out = builtin_themes()
    out.files_read = True
    try:
        paths = sorted(directory.glob("*.yaml")) if directory.is_dir() else []
    except OSError:
        paths = []
    if paths:  # the YAML reader is imported only for a theme file (most have none)
        from memreview.workspace.yamlcap import CONFIG_LIMIT, read_yaml_file
    for path in paths:
        try:
            doc = read_yaml_file(path, limit=CONFIG_LIMIT)
            theme = theme_from_mapping(doc, f"memreview-{path.stem}")
        except Exception as exc:  # YAML, decoding and colour errors all mean "skip it"
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            out.problems.append(_("theme {file}: {reason}").format(file=path.name, reason=reason))
            continue
        out.themes = [t for t in out.themes if t.name != theme.name] + [theme]
        out.aliases[path.stem] = theme.name
    return out
