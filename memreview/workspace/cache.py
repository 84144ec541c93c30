"""The scan cache: what a scan read and computed, kept in the user's cache directory so the
next open of an unchanged workspace reads almost nothing.

Where: ``$MEMREVIEW_CACHE_DIR`` or the platform's user cache directory
(``~/.cache/memreview`` on Linux), one folder per workspace named by a hash of its path,
never inside the workspace. Two files in it:

- ``files.pickle``: each parsed file (memory file, daily log, recall log, fragments) with
  the key of the file it was parsed from — (size, mtime in ns, inode), the ``-wal`` file's
  too for a database — and the warnings its reading raised;
- ``queues.pickle``: every queue's items, with the fingerprint of all the scan's inputs (the
  key of every file in the workspace, outside ``.memreview/`` and ``.git/``; OpenClaw's state
  database; the review date; memreview's own code; the environment it reads).

Invalidation: a file whose key differs is parsed again, and only it; queues are reused only
when the whole fingerprint is equal. A file changed less than :data:`RACY_SECONDS` before it
was read is never stored (a same-size edit inside the file system's timestamp tick would
otherwise go unseen); it is read again next time.

Never a secret: a file, or a queue's items, in which the secret finder sees a credential is
not stored (it is read or computed again each time); the secrets queue's items are masked by
construction. A cache that can't be read, or that was written for another workspace or by
another format, is ignored with one warning (``problems``), never trusted; only the classes
of :mod:`memreview.workspace.model` and a few builtins are unpickled from it.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from memreview.i18n import _

FORMAT = 1
RACY_SECONDS = 2.0
ENV_VARS = ("OPENCLAW_STATE_DIR", "OPENCLAW_PROFILE", "HOME")
SKIP_DIRS = {".git", ".memreview"}

Key = tuple[int, int, int] | None  # (size, mtime_ns, inode); None: not a regular file

_ALLOWED = {
    "builtins": {"set", "frozenset", "dict", "list", "tuple", "int", "float", "str", "bytes"},
    "datetime": {"date", "datetime", "timedelta"},
    "pathlib": {"PosixPath", "WindowsPath", "Path", "PurePosixPath"},
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


def holds_secret(texts: Iterable[str]) -> bool:
    """Whether the secret finder sees a credential (or the start of a key block) in any of
    ``texts`` (gated: most texts cost one regex pass)."""
    from memreview.secrets import LOWER_GATES, WHOLE_TEXT_GATES, find_secrets

    for text in texts:
        if not text:
            continue
        if not any(rx.search(text) for rx in WHOLE_TEXT_GATES):
            low = text.lower()
            if not any(rx.search(low) for rx in LOWER_GATES):
                continue
        if "-----BEGIN" in text:
            return True
        for line in text.split("\n"):
            if find_secrets(line):
                return True
    return False


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
    return (st.st_size, st.st_mtime_ns, st.st_ino)


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


class ScanCache:
    """The cache of one workspace: read when first needed, written by :meth:`save_files` and
    :meth:`save_queues`."""

    def __init__(self, root: Path, home: Path | None = None):
        self.root = root
        self.dir = (home or cache_home()) / hashlib.sha256(str(root).encode()).hexdigest()[:24]
        self.problems: list[str] = []
        self.snap = snapshot(root)
        self.now = time.time()
        self._files_doc: dict[tuple[str, str], tuple] | None = None  # read when first used
        self._used: set[tuple[str, str]] = set()
        self._dirty = False
        self._queues: dict | None = None

    @property
    def _files(self) -> dict[tuple[str, str], tuple]:
        if self._files_doc is None:
            doc = self._load("files.pickle")
            files = (doc or {}).get("files")
            self._files_doc = files if isinstance(files, dict) else {}
        return self._files_doc

    # -- reading and writing the cache files -----------------------------------------------
    def _load(self, name: str) -> dict | None:
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
            doc = _Unpickler(io.BytesIO(data)).load()
            if not isinstance(doc, dict) or doc.get("format") != FORMAT:
                raise CacheRejected(_("written by another version of memreview"))
            if doc.get("root") != str(self.root):
                raise CacheRejected(_("written for another workspace"))
        except Exception as exc:  # any damage: ignored, never trusted
            self._problem(
                _("ignored the cache {path} ({why}); the workspace is read instead").format(
                    path=path, why=str(exc)[:200]
                )
            )
            return None
        return doc

    def _problem(self, message: str) -> None:
        if not self.problems:  # one warning is enough: the rest is the same cache
            self.problems.append(message)

    def _write(self, name: str, doc: dict) -> None:
        doc = {"format": FORMAT, "root": str(self.root), **doc}
        try:
            self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=f".{name}.")
            try:
                with os.fdopen(fd, "wb") as f:
                    pickle.dump(doc, f, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, self.dir / name)
            except BaseException:
                os.unlink(tmp)
                raise
        except (OSError, pickle.PicklingError, RecursionError) as exc:
            print(_("memreview: cache not saved: {why}").format(why=exc), file=sys.stderr)

    # -- keys --------------------------------------------------------------------------------
    def key(self, rel: str) -> Key:
        """The key of workspace file ``rel`` (None: not a regular file, or not there)."""
        if rel in self.snap:
            return self.snap[rel]
        try:
            return file_key(os.stat(self.root / rel, follow_symlinks=False))
        except OSError:
            return None

    def _racy(self, key: Key) -> bool:
        return key is None or self.now - key[1] / 1e9 < RACY_SECONDS

    # -- parsed files ----------------------------------------------------------------------
    def memo(
        self,
        kind: str,
        rels: tuple[str, ...],
        warnings: list,
        compute: Callable[[], Any],
        texts: Callable[[Any], Iterable[str]],
    ) -> Any:
        """``compute()``'s value for the files ``rels`` (the first is the one parsed; the others
        are read with it, such as a database's ``-wal``), from the cache when their keys are
        unchanged. The warnings ``compute`` appends to ``warnings`` are kept and given again
        on a hit. The value is stored only when no file is racy or a symlink and ``texts``
        (the value's texts) hold no credential."""
        keys = tuple(self.key(r) for r in rels)
        slot = (kind, rels[0])
        self._used.add(slot)
        hit = self._files.get(slot)
        if isinstance(hit, tuple) and len(hit) == 3 and hit[0] == keys and keys[0] is not None:
            warnings.extend(hit[2])
            return hit[1]
        before = len(warnings)
        value = compute()
        if keys[0] is None or any(k is not None and self._racy(k) for k in keys):
            self._files.pop(slot, None)
        elif holds_secret(texts(value)):
            self._files.pop(slot, None)
        else:
            self._files[slot] = (keys, value, list(warnings[before:]))
        self._dirty = True
        return value

    def save_files(self) -> None:
        """Write the parsed files (those of this scan: files gone are dropped)."""
        stale = set(self._files) - self._used
        for slot in stale:
            del self._files[slot]
        if self._dirty or stale:
            self._write("files.pickle", {"files": self._files})
            self._dirty = False

    # -- queues ------------------------------------------------------------------------------
    def fingerprint(
        self, today: str, outside: list[str], environ: Mapping[str, str], code: str = ""
    ) -> str:
        """One hash of every input of the queues (see the module's docstring); ``code``
        names the detectors that computed them."""
        h = hashlib.blake2b(digest_size=20)
        h.update(f"{FORMAT}|{today}|{_code_stamp()}|{code}|".encode())
        for var in ENV_VARS:
            h.update(f"{var}={environ.get(var, '')}|".encode())
        for rel in sorted(self.snap):
            h.update(f"{rel}:{self.snap[rel]};".encode("utf-8", "surrogateescape"))
        for p in outside:
            try:
                k = file_key(os.stat(p))
            except OSError:
                k = None
            h.update(f"@{p}:{k};".encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    def racy_inputs(self) -> bool:
        """Whether a file of the workspace changed too recently to trust its key."""
        return any(k is not None and self._racy(k) for k in self.snap.values())

    def queues(self, fingerprint: str) -> dict | None:
        """The document stored with ``fingerprint`` (queues, missing…), or None."""
        if self._queues is None:
            self._queues = self._load("queues.pickle") or {}
        doc = self._queues
        if doc.get("fingerprint") != fingerprint:
            return None
        queues = doc.get("queues")
        if not isinstance(queues, dict) or not all(
            isinstance(items, list) and all(isinstance(it, dict) and "id" in it for it in items)
            for items in queues.values()
        ):
            self._problem(
                _("ignored the cache {path} ({why}); the workspace is read instead").format(
                    path=self.dir / "queues.pickle", why=_("not a scan's queues")
                )
            )
            self._queues = {}
            return None
        return doc

    def outside(self) -> list[str]:
        """The files outside the workspace the last stored scan depended on."""
        if self._queues is None:
            self._queues = self._load("queues.pickle") or {}
        return list(self._queues.get("outside") or [])

    def save_queues(self, fingerprint: str, outside: list[str], doc: dict) -> None:
        self._write("queues.pickle", {"fingerprint": fingerprint, "outside": outside, **doc})
