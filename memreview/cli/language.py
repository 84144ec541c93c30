"""The interface language of one run: ``--lang``, else the workspace's ``memreview.yaml``
``lang:``, else the user config's ``lang:``, else the locale, else English
(``memreview.i18n.choose_language``).

It is chosen twice: before the arguments are read (their help is text too), from ``--lang``,
the user config and the locale; then, once the workspace is known, again with its
``memreview.yaml``, unless ``--lang`` was given.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from memreview.i18n import choose_language, language_of, use_language


def lang_flag(argv: list[str]) -> str | None:
    """The language ``--lang`` names in ``argv`` (None: not given or not one memreview
    speaks; argparse reports the latter)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return language_of(argv[i + 1])
        if arg.startswith("--lang="):
            return language_of(arg.split("=", 1)[1])
    return None


def without_lang(argv: list[str]) -> list[str]:
    """``argv`` without ``--lang X`` before the command (``memreview --lang zh scan``): the
    language is chosen already, and the command is the first word left."""
    if argv[:1] == ["--lang"] and len(argv) > 1 and language_of(argv[1]):
        return argv[2:]
    if argv[:1] and argv[0].startswith("--lang=") and lang_flag(argv[:1]):
        return argv[1:]
    return argv


_flag: str | None = None  # the language ``--lang`` named in this run's arguments


def user_lang(app: bool = False) -> str | None:
    """The user config's ``lang:``; for the app, its ``app_lang:`` (the palette's choice)
    first. A broken config is reported by the app, not here."""
    from memreview.shipped import user_config_file

    if not os.path.lexists(user_config_file()):  # most have none: nothing more to import
        return None
    from memreview.app.config import load_user_config

    cfg = load_user_config()
    return (cfg.app_lang or cfg.lang) if app else cfg.lang


def workspace_lang(paths: Iterable[Path | None]) -> str | None:
    """The ``lang:`` of the first of ``paths`` that has a ``memreview.yaml`` saying one, read
    as the loader reads it (never through a symlink that leads out of the workspace)."""
    from memreview.workspace.config import Config, load_config
    from memreview.workspace.model import Workspace
    from memreview.workspace.reader import Reader
    from memreview.workspace.yamlcap import CONFIG_LIMIT

    for path in paths:
        if path is None or not Path(path).is_dir():
            continue
        root = Path(path).resolve()
        data = Reader(root, Workspace(root=root, config=Config())).read(
            "memreview.yaml", CONFIG_LIMIT
        )
        cfg, _problems = load_config(data)  # the scan reports the problems
        if cfg.lang:
            return cfg.lang
    return None


def choose_before_parsing(argv: list[str]) -> None:
    """Speak the language of ``--lang``, else the user config's, else the locale's."""
    global _flag
    flag = _flag = lang_flag(argv)
    user = None if flag else user_lang()
    use_language(choose_language(flag, None, user, os.environ))


def choose_for_app(root: Path) -> None:
    """The app's language, as the command line's but with the palette's choice (the user
    config's ``app_lang:``) before ``lang:``: ``--lang``, else the workspace's, else it."""
    if _flag:
        return
    use_language(choose_language(None, workspace_lang([root]), user_lang(app=True), os.environ))


def choose_for_workspace(argv: list[str], paths: Iterable[Path | None]) -> None:
    """With the workspace known: its ``memreview.yaml`` ``lang:`` wins unless ``--lang``."""
    if lang_flag(argv):
        return
    ws = workspace_lang(paths)
    if ws:
        use_language(choose_language(None, ws, None, os.environ))
