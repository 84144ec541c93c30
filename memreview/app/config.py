"""The user's own settings: theme, keymap, editor (docs/design.md §7).

``<user config dir>/memreview/config.yaml`` (platformdirs), or the file named by
``$MEMREVIEW_CONFIG``. Read and written with ruamel.yaml so the user's comments survive.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from pathlib import Path

from memreview.i18n import LANGUAGES, _, language_of
from memreview.shipped import user_config_file

# ruamel.yaml and the store are imported when a file is there to read, or a setting to save:
# ``memreview --help`` reads the config (its language) and most have none


def default_config_path() -> Path:
    """``$MEMREVIEW_CONFIG``, else ``config.yaml`` in the user's config directory."""
    return user_config_file()


@dataclass
class UserConfig:
    path: Path
    theme: str | None = None
    keymap: dict[str, str] = field(default_factory=dict)
    editor: str | None = None
    lang: str | None = None  # the interface language (`en`, `zh`): the command line's and the app's
    app_lang: str | None = None  # the app's own, chosen in its palette (the command line's stays)
    problem: str | None = None  # a one-line reason when the file could not be read
    _doc: object = None

    def save_theme(self, name: str) -> str | None:
        """Store the theme choice; a one-line problem, or None."""
        self.theme = name
        return self._save("theme", name, _("cannot save the theme to {path}: {reason}"))

    def save_app_lang(self, lang: str) -> str | None:
        """Store the app's language (``app_lang:``; the command line keeps ``lang:``, else
        the locale); a one-line problem, or None."""
        self.app_lang = lang
        return self._save("app_lang", lang, _("cannot save the language to {path}: {reason}"))

    def _save(self, key: str, value: str, problem: str) -> str | None:
        """Write ``key: value`` into the file, keeping the rest of it and its comments."""
        from ruamel.yaml import YAML

        from memreview.store import atomic_write

        yaml = YAML(typ="rt")
        doc = self._doc if isinstance(self._doc, dict) else None
        if doc is None:
            doc = {}
        doc[key] = value
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            buf = io.StringIO()
            yaml.dump(doc, buf)
            # a symlinked config file (dotfiles repositories do this) stays a symlink: the
            # file it points to is the one replaced
            real = self.path.resolve()
            try:
                mode = real.stat().st_mode & 0o7777
            except FileNotFoundError:
                mode = None
            atomic_write(real, buf.getvalue().encode("utf-8"), mode=mode, new_mode=0o666)
        except (OSError, RuntimeError) as exc:
            return problem.format(path=self.path, reason=getattr(exc, "strerror", None) or exc)
        self._doc = doc
        return None


def load_user_config(path: Path | None = None) -> UserConfig:  # noqa: C901
    """The user config; a missing file is an empty config, a broken one is reported."""
    path = Path(path) if path is not None else default_config_path()
    cfg = UserConfig(path=path)
    if not os.path.lexists(path):
        return cfg
    from memreview.workspace.yamlcap import CONFIG_LIMIT, YAMLRefused, load_yaml, read_capped

    try:
        data = read_capped(path, CONFIG_LIMIT).decode("utf-8")
    except FileNotFoundError:
        return cfg
    except YAMLRefused as exc:
        cfg.problem = _("{path}: {reason}; using defaults").format(path=path, reason=exc)
        return cfg
    except (OSError, UnicodeDecodeError) as exc:
        cfg.problem = _("cannot read {path}: {reason}").format(path=path, reason=exc)
        return cfg
    try:
        doc = load_yaml(data, limit=CONFIG_LIMIT, typ="rt")
    except YAMLRefused as exc:
        cfg.problem = _("{path}: refused: {reason}; using defaults").format(path=path, reason=exc)
        return cfg
    except Exception as exc:  # ruamel raises several unrelated types for broken YAML
        cfg.problem = _("{path}: broken YAML ({kind}); using defaults").format(
            path=path, kind=type(exc).__name__
        )
        return cfg
    if doc is None:
        return cfg
    if not isinstance(doc, dict):
        cfg.problem = _("{path}: expected a mapping; using defaults").format(path=path)
        return cfg
    cfg._doc = doc
    # each setting has a type: a value of another type is reported by name and not used
    bad: list[str] = []
    for name in ("theme", "editor"):
        value = doc.get(name)
        if isinstance(value, str) and value.strip():
            setattr(cfg, name, value)
        elif value is not None:
            bad.append(_("'{name}' should be a name").format(name=name))
    for name in ("lang", "app_lang"):
        lang = doc.get(name)
        if lang is not None and language_of(str(lang)) is None:
            names = ", ".join(sorted(LANGUAGES))
            bad.append(_("'{name}' should be one of {names}").format(name=name, names=names))
        elif lang is not None:
            setattr(cfg, name, language_of(str(lang)))
    keymap = doc.get("keymap") or {}
    if isinstance(keymap, dict):
        cfg.keymap = {str(k): v for k, v in keymap.items() if isinstance(v, str) and v}
        if len(cfg.keymap) != len([v for v in keymap.values() if v]):
            bad.append(_("'keymap' keys should be text like 'ctrl+s'"))
    else:
        bad.append(_("'keymap' should map binding ids to keys"))
    if bad:
        cfg.problem = _("{path}: {problems}; ignored").format(path=path, problems="; ".join(bad))
    return cfg
