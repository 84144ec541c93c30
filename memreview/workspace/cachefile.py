"""The scan cache's files: where they live, how a file of the workspace is keyed, and how a
cache file is read and written (see :mod:`memreview.workspace.cache` for what is in them).

A cache file is two pickles: a header (the format, the workspace's path, a stamp of
memreview's own code) and the document. A cache that can't be read, or that was written for
another workspace or by another format, is ignored with one warning (``problems``), never
trusted; only the classes of :mod:`memreview.workspace` and a few builtins are unpickled
from it. A cache written by other code (memreview changed since) is dropped quietly.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import pickle
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memreview.i18n import _

FORMAT = 1
RACY_SECONDS = 2.0
ENV_VARS = ("OPENCLAW_STATE_DIR", "OPENCLAW_PROFILE", "HOME")
SKIP_DIRS = {".git", ".memreview"}

# (size, mtime_ns, inode, ctime_ns[, digest]); None: not a regular file. The change time is
# in it because the modification time is not proof: anyone who can write a file can set its
# mtime back (``os.utime``), and a rewrite of the same size would keep the key; the change
# time moves on at every write and every ``utime`` and cannot be set.
Key = tuple[int, int, int, int] | tuple[int, int, int, int, str] | None

_ALLOWED = {
    "builtins": {"set", "frozenset", "dict", "list", "tuple", "int", "float", "str", "bytes"},
    "datetime": {"date", "datetime", "timedelta"},
    "pathlib": {"PosixPath", "WindowsPath", "Path", "PurePosixPath"},
    "memreview.i18n": {"Message"},  # a warning's untranslated text and its fields
}
_ALLOWED_PREFIX = "memreview.workspace."


class CacheRejected(Exception):
    """The cache file is not one this memreview wrote for this workspace."""


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if name in _ALLOWED.get(module, ()):
            return super().find_class(module, name)
        if module.startswith(_ALLOWED_PREFIX):
            found = super().find_class(module, name)
            if isinstance(found, type):  # a model class, never a function
                return found
        raise CacheRejected(
            _("it holds what memreview never writes there ({name})").format(
                name=f"{module}.{name}"[:100]
            )
        )


def restricted_loads(data: bytes) -> Any:
    """One pickle read as a cache file's are: only the classes memreview writes there."""
    return _Unpickler(io.BytesIO(data)).load()


def cache_enabled(environ: Mapping[str, str] | None = None) -> bool:
    """False when ``$MEMREVIEW_NO_CACHE`` is set (``--no-cache`` sets it)."""
    env = os.environ if environ is None else environ
    return not env.get("MEMREVIEW_NO_CACHE")


def cache_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$MEMREVIEW_CACHE_DIR``, else the user cache directory (platformdirs)."""
    env = os.environ if environ is None else environ
    if env.get("MEMREVIEW_CACHE_DIR"):
        return Path(env["MEMREVIEW_CACHE_DIR"]).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("memreview", appauthor=False))


@functools.cache
def _code_stamp() -> str:
    """What memreview's own code is: its version and every module's size and mtime (an
    editable install changes without a new version)."""
    import memreview

    h = hashlib.blake2b(memreview.__version__.encode(), digest_size=16)
    top = Path(memreview.__file__).parent
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(".py"):
                st = os.stat(os.path.join(dirpath, name))
                h.update(f"{dirpath}/{name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


def file_key(st: os.stat_result) -> Key:
    if not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def snapshot(root: Path) -> dict[str, Key]:
    """The key of every file under ``root`` (``.git/`` and ``.memreview/`` left out;
    symlinks are listed with key None and not followed)."""
    out: dict[str, Key] = {}
    stack = [("", str(root))]
    while stack:
        prefix, path = stack.pop()
        try:
            it = os.scandir(path)
        except OSError:
            out[prefix or "."] = None
            continue
        with it:
            for e in it:
                rel = prefix + e.name
                try:
                    if e.is_symlink():
                        out[rel] = None
                    elif e.is_dir():
                        if e.name not in SKIP_DIRS or prefix:
                            stack.append((rel + "/", e.path))
                    else:
                        out[rel] = file_key(e.stat(follow_symlinks=False))
                except OSError:
                    out[rel] = None
    return out


class CacheDir:
    """The cache directory of one workspace: its files read and written whole, each checked
    on reading (one warning for the lot in ``problems``)."""

    def __init__(self, root: Path, home: Path | None = None):
        self.root = root
        self.dir = (home or cache_home()) / hashlib.sha256(str(root).encode()).hexdigest()[:24]
        self.problems: list[str] = []
        self._warned = False

    def _load(self, name: str) -> dict[str, Any] | None:
        path = self.dir / name
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._problem(
                _("cache not used: cannot read {path}: {why}").format(
                    path=path, why=exc.strerror or exc
                )
            )
            return None
        try:
            stream = io.BytesIO(data)
            head = _Unpickler(stream).load()
            if not isinstance(head, dict) or head.get("format") != FORMAT:
                raise CacheRejected(_("written by another version of memreview"))
            if head.get("root") != str(self.root):
                raise CacheRejected(_("written for another workspace"))
            if head.get("code") != _code_stamp():
                return None  # memreview changed since: parsed again, quietly
            doc = _Unpickler(stream).load()
            if not isinstance(doc, dict):
                raise CacheRejected(_("not a scan cache"))
        except Exception as exc:  # any damage: ignored, never trusted
            why = str(exc) if isinstance(exc, CacheRejected) else _("damaged: not readable")
            self._problem(
                _("ignored the cache {path} ({why}); the workspace is read instead").format(
                    path=path, why=why[:200]
                )
            )
            return None
        return doc

    def _problem(self, message: str) -> None:
        if not self._warned:  # one warning is enough: the rest is the same cache
            self._warned = True
            self.problems.append(message)

    def _write(self, name: str, doc: dict[str, Any]) -> None:
        head = {"format": FORMAT, "root": str(self.root), "code": _code_stamp()}
        try:
            self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=f".{name}.")
            try:
                with os.fdopen(fd, "wb") as f:
                    pickle.dump(head, f, protocol=pickle.HIGHEST_PROTOCOL)
                    pickle.dump(doc, f, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, self.dir / name)
            except BaseException:
                os.unlink(tmp)
                raise
        except (OSError, pickle.PicklingError, RecursionError) as exc:
            self._problem(_("cache not saved: {why}").format(why=exc))
