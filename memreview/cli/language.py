"""The interface language of one run: ``--lang``, else the workspace's ``memreview.yaml``
``lang:``, else the user config's ``lang:``, else the locale, else English
(``memreview.i18n.choose_language``).

It is chosen twice: before the arguments are read (their help is text too), from ``--lang``,
the user config and the locale; then, once the workspace is known, again with its
``memreview.yaml``, unless ``--lang`` was given.
"""

from __future__ import annotations

import os
import stat
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
    paths = [p for p in paths if p is not None and Path(p).is_dir() and _may_name_lang(Path(p))]
    if not paths:  # no settings file names a language: the YAML reader isn't imported
        return None
    from memreview.workspace.config import Config, load_config
    from memreview.workspace.model import Workspace
    from memreview.workspace.reader import Reader
    from memreview.workspace.yamlcap import CONFIG_LIMIT

    for path in paths:
        root = Path(path).resolve()
        data = Reader(root, Workspace(root=root, config=Config())).read(
            "memreview.yaml", CONFIG_LIMIT
        )
        cfg, _problems = load_config(data)  # the scan reports the problems
        if cfg.lang:
            return cfg.lang
    return None


QUICK_LOOK = 1 << 20  # a settings file up to this size is looked at before it is parsed


def _may_name_lang(root: Path) -> bool:
    """Whether ``root/memreview.yaml`` may say ``lang:``: False for none at all, or for a
    plain file holding neither the word nor a backslash (with which a quoted key could spell
    it) nor a NUL; a symlink or a large file is left to the reader."""
    try:
        st = os.lstat(root / "memreview.yaml")
    except OSError:
        return False  # no settings file (or one that can't be read: the reader says so)
    if not stat.S_ISREG(st.st_mode) or st.st_size > QUICK_LOOK:
        return True
    try:
        data = (root / "memreview.yaml").read_bytes()
    except OSError:
        return True
    # (a NUL byte: UTF-16 or -32, which spell the word otherwise)
    return b"lang" in data or b"\\" in data or b"\x00" in data


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
