"""The scan cache: what a scan read and computed, kept in the user's cache directory so the
next open of an unchanged workspace reads almost nothing.

Where: ``$MEMREVIEW_CACHE_DIR`` or the platform's user cache directory
(``~/.cache/memreview`` on Linux), one folder per workspace named by a hash of its path,
never inside the workspace. In it:

- ``files-NN.pickle`` (16 shards, by a hash of the file's name): each parsed file (memory
  file, daily log, recall log, fragments) with the key of the file it was parsed from —
  (size, mtime in ns, inode), the ``-wal`` file's too for a database — and the warnings its
  reading raised;
- ``queues.pickle``: each queue's items, with the groups of inputs it read (memory files,
  daily logs, the pipeline's data) and one key over those groups' files and the inputs every
  queue depends on (the settings, the review date, memreview's own code, the environment).

Invalidation: a file whose key differs is parsed again, and only it; a queue is computed
again when a file of a group it read changed (see ``memreview.scan``). A file changed less
than :data:`RACY_SECONDS` before it was read is never stored (a same-size edit inside the
file system's timestamp tick would otherwise go unseen); it is read again next time.

Never a secret: a file, or a queue's items, in which the secret finder sees a credential is
not stored (it is read or computed again each time); the secrets queue's items are masked by
construction. A cache that can't be read, or that was written for another workspace or by
another format, is ignored with one warning (``problems``), never trusted; only the classes
of :mod:`memreview.workspace.model` and a few builtins are unpickled from it.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import pickle
import stat
import tempfile
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from memreview.i18n import _
from memreview.secrets import holds_secret

FORMAT = 1
RACY_SECONDS = 2.0
SHARDS = 16  # parsed files are kept in this many files: a change rewrites one or a few
ENV_VARS = ("OPENCLAW_STATE_DIR", "OPENCLAW_PROFILE", "HOME")
SKIP_DIRS = {".git", ".memreview"}

Key = tuple[int, int, int] | None  # (size, mtime_ns, inode); None: not a regular file

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


# The parsed files of the last workspace scanned in this process (by cache directory and
# root): the app's rescan after a write takes the unchanged ones from here.
_LIVE: dict[tuple[str, str], dict[int, dict[tuple[str, str], tuple]]] = {}


def forget_live() -> None:
    """Drop the parsed files kept in this process (the next scan reads the cache's files)."""
    _LIVE.clear()


class ScanCache:
    """The cache of one workspace: read when first needed, written by :meth:`save_files` and
    :meth:`save_queues`."""

    def __init__(self, root: Path, home: Path | None = None):
        self.root = root
        self.dir = (home or cache_home()) / hashlib.sha256(str(root).encode()).hexdigest()[:24]
        self.problems: list[str] = []
        self.snap = snapshot(root)
        self.now = time.time()
        # parsed files by shard (read when first used): shared with the last scan of this
        # workspace in this process, so a rescan reads neither the files nor the cache
        live = (str(self.dir), str(root))
        if live not in _LIVE:
            _LIVE.clear()  # one workspace at a time: a fleet's scans don't pile up
        self._shards: dict[int, dict[tuple[str, str], tuple]] = _LIVE.setdefault(live, {})
        self._used: set[tuple[str, str]] = set()
        self._new: dict[tuple[str, str], tuple] = {}  # parsed now: (entry, texts), not checked
        self._dirty: set[int] = set()
        self._queues: dict | None = None

    def _shard(self, slot: tuple[str, str], k: int | None = None) -> dict[tuple[str, str], tuple]:
        k = self._index(slot) if k is None else k
        shard = self._shards.get(k)
        if shard is None:
            doc = self._load(f"files-{k:02d}.pickle")
            files = (doc or {}).get("files")
            shard = self._shards[k] = files if isinstance(files, dict) else {}
        return shard

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
        if not self.problems:  # one warning is enough: the rest is the same cache
            self.problems.append(message)

    def _write(self, name: str, doc: dict) -> None:
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
        on a hit. The value is stored (by :meth:`save_files`) only when no file is racy or a
        symlink and the value's ``texts`` hold no credential."""
        keys = tuple(self.key(r) for r in rels)
        slot = (kind, rels[0])
        self._used.add(slot)
        shard = self._shard(slot)
        hit = shard.get(slot)
        if isinstance(hit, tuple) and len(hit) == 3 and hit[0] == keys and keys[0] is not None:
            warnings.extend(hit[2])
            return hit[1]
        before = len(warnings)
        value = compute()
        if shard.pop(slot, None) is not None:
            self._dirty.add(self._index(slot))
        if keys[0] is not None and not any(k is not None and self._racy(k) for k in keys):
            # kept once it is known to hold no credential (at save_files)
            self._new[slot] = ((keys, value, list(warnings[before:])), texts)
        return value

    @staticmethod
    def _index(slot: tuple[str, str]) -> int:
        return zlib.crc32(slot[1].encode("utf-8", "surrogateescape")) % SHARDS

    def save_files(self, secret_files: set[str] | None = None) -> None:
        """Write the parsed files (those of this scan: files gone are dropped), the shards
        that changed only. A file parsed now is kept unless it holds a credential: memory
        files (kinds ``md:…``) named in ``secret_files`` when it is given (the secrets
        queue's finding), any file whose texts the secret finder flags otherwise."""
        for slot, (entry, texts) in self._new.items():
            if slot[0].startswith("md:") and secret_files is not None:
                secret = slot[1] in secret_files
            else:
                secret = holds_secret(texts(entry[1]))
            if not secret:
                self._shard(slot)[slot] = entry
                self._dirty.add(self._index(slot))
        self._new.clear()
        for k in range(SHARDS):
            shard = self._shards.get(k)
            if shard is None:
                if not any(self._index(slot) == k for slot in self._used):
                    shard = self._shard(("", ""), k)  # a shard no file of this scan uses
                else:
                    continue
            stale = [slot for slot in shard if slot not in self._used]
            for slot in stale:
                del shard[slot]
            if stale:
                self._dirty.add(k)
        for k in sorted(self._dirty):
            self._write(f"files-{k:02d}.pickle", {"files": self._shards.get(k, {})})
        self._dirty.clear()

    # -- queues ------------------------------------------------------------------------------
    def digests(
        self,
        classify: Callable[[str], str],
        today: str,
        outside: list[str],
        environ: Mapping[str, str],
        code: str = "",
    ) -> dict[str, tuple[str, bool]]:
        """Per group of inputs, one hash of them all and whether one changed too recently
        to trust its key: ``base`` (the review date, memreview's code, ``code`` — the
        detectors —, the environment, and the files ``classify`` puts there such as the
        settings), and each group ``classify`` names for a workspace file (files outside the
        workspace, ``outside``, go to ``data``)."""
        hashes: dict[str, hashlib.blake2b] = {}
        racy: dict[str, bool] = {}

        def add(group: str, text: str, key: Key) -> None:
            h = hashes.get(group)
            if h is None:
                h = hashes[group] = hashlib.blake2b(group.encode(), digest_size=20)
            h.update(f"{text}:{key};".encode("utf-8", "surrogateescape"))
            racy[group] = racy.get(group, False) or (key is not None and self._racy(key))

        add("base", f"{FORMAT}|{today}|{_code_stamp()}|{code}", None)
        for var in ENV_VARS:
            add("base", f"{var}={environ.get(var, '')}", None)
        for rel in sorted(self.snap):
            add(classify(rel), rel, self.snap[rel])
        for p in outside:
            try:
                k = file_key(os.stat(p))
            except OSError:
                k = None
            add("data", f"@{p}", k)
        return {g: (h.hexdigest(), racy[g]) for g, h in hashes.items()}

    @staticmethod
    def queue_key(digests: dict[str, tuple[str, bool]], groups: Iterable[str]) -> str | None:
        """One queue's key: the digests of ``base`` and of the ``groups`` it reads; None
        when one of them changed too recently to be trusted."""
        parts = []
        for g in ("base", *sorted(set(groups) - {"base"})):
            digest, racy = digests.get(g, ("", False))
            if racy:
                return None
            parts.append(f"{g}={digest}")
        return hashlib.blake2b("|".join(parts).encode(), digest_size=20).hexdigest()

    def _queue_doc(self) -> dict:
        if self._queues is None:
            doc = self._load("queues.pickle") or {}
            entries = doc.get("queues")
            if not isinstance(entries, dict) or not all(
                isinstance(e, dict)
                and isinstance(e.get("key"), str)
                and isinstance(e.get("groups"), list)
                and isinstance(e.get("items"), list)
                and all(isinstance(it, dict) and "id" in it for it in e["items"])
                for e in entries.values()
            ):
                if entries is not None:
                    self._problem(
                        _("ignored the cache {path} ({why}); the workspace is read instead").format(
                            path=self.dir / "queues.pickle", why=_("not a scan's queues")
                        )
                    )
                doc = {}
            self._queues = doc
        return self._queues

    def queues(
        self, digests: dict[str, tuple[str, bool]]
    ) -> dict[str, tuple[list[dict], list[str]]]:
        """(items, groups read) of each queue stored whose inputs are as they were."""
        out = {}
        for name, e in (self._queue_doc().get("queues") or {}).items():
            key = self.queue_key(digests, e["groups"])
            if key is not None and key == e["key"]:
                out[name] = (e["items"], e["groups"])
        return out

    def outside(self) -> list[str]:
        """The files outside the workspace the last stored scan depended on."""
        return list(self._queue_doc().get("outside") or [])

    def save_queues(
        self,
        digests: dict[str, tuple[str, bool]],
        outside: list[str],
        queues: dict[str, tuple[list[dict], list[str]]],
    ) -> None:
        """Keep each queue's (items, groups read), under the key of those groups now (a queue
        one of whose groups changed too recently is not kept)."""
        entries = {}
        for name, (items, groups) in queues.items():
            key = self.queue_key(digests, groups)
            if key is not None:
                entries[name] = {"key": key, "groups": list(groups), "items": items}
        old = self._queue_doc()
        if entries != old.get("queues") or outside != old.get("outside"):
            self._write("queues.pickle", {"outside": outside, "queues": entries})
