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
  queue depends on (the settings, the review date, memreview's own code, the environment);
- ``shown.pickle``: the counts the last scan ended with, and its health figures, under one
  key over every input (see :meth:`ScanCache.whole_key`): an open of an unchanged workspace
  shows them before reading;
- ``derived.pickle``: what is made of every memory file (the projects, the warnings across
  files), under a key over those files;
- ``perfile-<queue>.pickle``: a queue's results per memory file (:class:`PerFile`);
- ``memo-<name>.pickle``: the values of a function of one text, by text (:class:`TextMemo`);
- ``hashes.pickle``: the hashes of the files changed too recently to trust their keys.

Invalidation: a file whose key differs is parsed again, and only it; a queue is computed
again when a file of a group it read changed (see ``memreview.scan``). A file changed less
than :data:`RACY_SECONDS` before it was read (a same-size edit inside the file system's
timestamp tick would keep its key) is trusted by the hash of its bytes, checked again at the
next scan while its key is the same (see :meth:`ScanCache.key`).

Read when used: a parsed memory file or daily log from the cache is an instance holding its
name, unpickled when first used; the fragments and the recall log are unpickled when first
used too. A part that is not what memreview writes is ignored (said once) and computed again.

Never a secret: a file, or a queue's items, in which the secret finder sees a credential is
not stored (it is read or computed again each time); the secrets queue's items are masked by
construction. How the files are written, checked and read: :mod:`memreview.workspace.cachefile`.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import pickle
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from memreview.i18n import _
from memreview.secrets import holds_secret
from memreview.workspace.cachefile import (
    ENV_VARS,
    FORMAT,
    RACY_SECONDS,
    CacheDir,
    Key,
    _code_stamp,
    cache_enabled,
    cache_home,
    file_key,
    restricted_loads,
    snapshot,
)
from memreview.workspace.memo import forget_before, set_before
from memreview.workspace.model import DailyLog, MemoryFile

__all__ = ["ScanCache", "cache_enabled", "cache_home", "forget_live", "snapshot"]

SHARDS = 16  # parsed files are kept in this many files: a change rewrites one or a few

# The parsed files of the last workspace scanned in this process (by cache directory and
# root): the app's rescan after a write takes the unchanged ones from here.
_LIVE: dict[tuple[str, str], dict[int, dict[tuple[str, str], tuple[Any, ...]]]] = {}
# …and the queues it kept (what queues.pickle holds), so a rescan does not read them back
_LIVE_QUEUES: dict[tuple[str, str], dict[str, Any]] = {}


log = logging.getLogger("memreview.cache")
_BAD = object()  # what a shard holds is not what memreview writes there


_PROTOCOL = pickle.HIGHEST_PROTOCOL


class Packed:
    """A parsed file as a shard keeps it: pickled on its own (``blob``), so that reading the
    shard unpickles none of its files; ``cls`` names a class a lazy instance is made of
    (:data:`_LAZY`; "" for any other value), ``eager`` the fields that instance holds from
    the start; ``obj``, the value in this process (``blob`` is None for a value parsed in
    this process: it is pickled when its shard is written)."""

    __slots__ = ("blob", "cls", "eager", "obj")

    def __init__(self, blob: bytes | None, cls: str, eager: dict[str, Any], obj: Any = None):
        self.blob, self.cls, self.eager, self.obj = blob, cls, eager, obj

    def __getstate__(self) -> tuple[Any, ...]:
        # a value parsed in this process is pickled only as its shard is written (its bytes
        # are not kept beside it)
        blob = self.blob if self.blob is not None else pickle.dumps(self.obj, _PROTOCOL)
        return (blob, self.cls, self.eager)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.blob, self.cls, self.eager = state
        self.obj = None


class Later:
    """A value from the cache not unpickled yet: ``later()`` gives it."""

    __slots__ = ("load",)

    def __init__(self, load: Callable[[], Any]):
        self.load = load

    def __call__(self) -> Any:
        return self.load()


# the kinds of parsed file the secrets queue searches whole (its finding stands for them)
SEARCHED_KINDS = ("md:", "daily:")

_LAZY: dict[str, type] = {"MemoryFile": MemoryFile, "DailyLog": DailyLog}
_EAGER = {"MemoryFile": ("rel", "archived"), "DailyLog": ("rel", "date")}


def _pack(value: Any) -> Packed:
    name = type(value).__name__ if type(value) in _LAZY.values() else ""
    eager = (
        {f: value.__dict__[f] for f in _EAGER.get(name, ())} if name else {"none": value is None}
    )
    return Packed(None, name, eager, value)


def _unpacked(stored: Packed, cls: type | None, rel: str) -> Any:
    """The value in ``stored.blob`` (the fields of an instance of ``cls`` when it is given,
    checked to be one for file ``rel``), or :data:`_BAD`."""
    if stored.blob is None:
        return _BAD
    try:
        value = restricted_loads(stored.blob)
    except Exception:  # any damage: never trusted
        return _BAD
    if cls is None:
        return value
    if type(value) is not cls or value.__dict__.get("rel") != rel:
        return _BAD
    return dict(value.__dict__)


def _earlier(stored: Any, cls: type, rel: str) -> Any:
    """The parse of file ``rel`` a shard held (an instance of ``cls``), or None."""
    if not isinstance(stored, Packed) or _LAZY.get(stored.cls) is not cls:
        return None
    if stored.obj is not None:
        return stored.obj
    state = _unpacked(stored, cls, rel)
    if state is _BAD:
        return None
    obj: Any = object.__new__(cls)
    obj.__dict__.update(state)
    return obj


def _empty_state(cls: type, eager: dict[str, Any]) -> dict[str, Any]:
    """The fields of a file gone unreadable between the scan's start and its first use."""
    from memreview.workspace.textfile import UTF8, TextFile

    if cls is DailyLog:
        return {"text_lower": "", "empty": True, "lines": 0, "text": "", **eager}
    return {
        "source": TextFile(eager["rel"], b"", UTF8, [], hashlib.sha256(b"").hexdigest()),
        "entries": [],
        "anchors": [],
        "chronicle": [],
        "headings": [],
        "paragraphs": [],
        **eager,
    }


class PerFile:
    """Detector results kept per memory file, for the queues whose result is made of each
    file's on its own: a queue asks for a file's record under the parameters it was made
    with (``get``) and gives the records it made (``put``); a file whose key changed has
    none. Kept in ``perfile-<queue>.pickle``; a record is checked by the queue that reads
    it (``check``: one not well made is ignored, said once in the notes); the records of
    files that hold a credential are not kept."""

    def __init__(self, sc: ScanCache):
        self.sc = sc
        self._old: dict[str, dict[str, Any]] = {}
        self._new: dict[str, dict[str, tuple[Any, ...]]] = {}
        self._memos: dict[str, TextMemo] = {}

    def memo(self, name: str) -> TextMemo:
        """The values kept of the function ``name`` of one text (see :class:`TextMemo`)."""
        if name not in self._memos:
            doc = self.sc._load(f"memo-{name}.pickle") or {}
            found = doc.get("values")
            good = isinstance(found, dict) and all(
                type(k) is str and type(v) is str for k, v in found.items()
            )
            self._memos[name] = TextMemo(found if good and isinstance(found, dict) else {})
        return self._memos[name]

    def _records(self, queue: str) -> dict[str, Any]:
        if queue not in self._old:
            doc = self.sc._load(f"perfile-{queue}.pickle") or {}
            files = doc.get("files")
            self._old[queue] = files if isinstance(files, dict) else {}
        return self._old[queue]

    def get(self, queue: str, rel: str, params: str, check: Callable[[Any], bool]) -> Any:
        """The record of file ``rel`` for ``queue`` made under ``params``, or None."""
        key = self.sc.key(rel)
        hit = self._records(queue).get(rel)
        if key is None or not (isinstance(hit, tuple) and len(hit) == 3):
            return None
        if hit[0] != key or hit[1] != params or not self.sc._trusted(rel):
            return None
        if not check(hit[2]):
            self.rejected(queue, rel)
            return None
        return hit[2]

    def stale(self, queue: str, rel: str, params: str, check: Callable[[Any], bool]) -> Any:
        """The record of file ``rel`` for ``queue`` made under ``params`` whatever the file
        held then (for what in it is known by content, not by the file: an entry's text), or
        None; one not well made is ignored, said once in the notes."""
        hit = self._records(queue).get(rel)
        if not (isinstance(hit, tuple) and len(hit) == 3) or hit[1] != params:
            return None
        if not check(hit[2]):
            self.rejected(queue, rel)
            return None
        return hit[2]

    def rejected(self, queue: str, rel: str) -> None:
        """Say that the record of ``rel`` is not one memreview made (it is made again)."""
        log.debug("scan cache: the stored %s result of %s is not one memreview wrote", queue, rel)
        self.sc._problem(
            _("ignored the cache {path} ({why}); the workspace is read instead").format(
                path=self.sc.dir / f"perfile-{queue}.pickle",
                why=_("not a result memreview stored for {file}").format(file=rel[:200]),
            )
        )

    def put(self, queue: str, rel: str, params: str, record: Any) -> None:
        key = self.sc.key(rel)
        if key is not None and self.sc._trusted(rel):
            self._new.setdefault(queue, {})[rel] = (key, params, record)

    def save(self, secret_files: set[str] | None) -> None:
        for queue, records in self._new.items():
            keep = {
                rel: rec
                for rel, rec in records.items()
                if (
                    rel not in secret_files
                    if secret_files is not None
                    else not holds_secret(_strings(rec[2]))
                )
            }
            if keep != self._records(queue):
                self.sc._write(f"perfile-{queue}.pickle", {"files": keep})
                self._old[queue] = keep
        self._new.clear()
        for name, memo in self._memos.items():
            values = memo.used
            if holds_secret([*values, *values.values()]):
                values = {k: v for k, v in values.items() if not holds_secret([k, v])}
            if values != memo.old:
                self.sc._write(f"memo-{name}.pickle", {"values": values})
            memo.old, memo.used = values, {}


class TextMemo:
    """The values of a pure function of one text (a str each), kept across scans: those a
    scan used are kept for the next (never one holding a credential, nor its text). Valid
    while memreview's code is the same (the cache's files are, see ``cachefile``)."""

    def __init__(self, old: dict[str, str]):
        self.old = old
        self.used: dict[str, str] = {}

    def get(self, text: str, compute: Callable[[str], str], check: Callable[[str], bool]) -> str:
        """``compute(text)``, or its value kept (when ``check`` finds it well made)."""
        value = self.used.get(text)
        if value is None:
            value = self.old.get(text)
            if value is None or not check(value):
                value = compute(text)
            self.used[text] = value
        return value


def _strings(value: Any) -> Iterable[str]:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list | tuple[Any, ...] | set | frozenset):
            stack.extend(v)


# held while a scan saves the shards it shares with the other scans of its workspace
_SAVING = threading.Lock()


def forget_live() -> None:
    """Drop the parsed files kept in this process (the next scan reads the cache's files)."""
    _LIVE.clear()
    _LIVE_QUEUES.clear()


class ScanCache(CacheDir):
    """The cache of one workspace: read when first needed, written by :meth:`save_files` and
    :meth:`save_queues`."""

    def __init__(self, root: Path, home: Path | None = None):
        super().__init__(root, home)
        self.snap = snapshot(root)
        self.now = time.time()
        # parsed files by shard (read when first used): shared with the last scan of this
        # workspace in this process, so a rescan reads neither the files nor the cache
        live = (str(self.dir), str(root))
        if live not in _LIVE:
            forget_live()  # one workspace at a time: a fleet's scans don't pile up
        self._live = live
        self._shards: dict[int, dict[tuple[str, str], tuple[Any, ...]]] = _LIVE.setdefault(live, {})
        self._used: set[tuple[str, str]] = set()
        self._new: dict[
            tuple[str, str], tuple[Any, ...]
        ] = {}  # parsed now: (entry, texts), not checked
        self._dirty: set[int] = set()
        self._queues: dict[str, Any] | None = _LIVE_QUEUES.get(live)
        self._shown: dict[str, Any] | None = None
        # content hashes: of the files changed too recently to trust their keys, kept so the
        # next scan trusts them once their bytes are as they were (see :meth:`key`)
        self._hashes_old: dict[str, tuple[Key, str]] | None = None
        self._hashes: dict[str, tuple[Key, str]] = {}
        self._keys: dict[str, Key] = {}  # each file's key as this scan trusts it
        self._untrusted: set[str] = set()  # changed too recently and not hashed
        self._derived: dict[str, Any] | None = None
        # name -> (key, value, its texts) to store once checked, or None: drop what is stored
        self._derived_new: dict[str, tuple[str, Any, Callable[[Any], Iterable[str]]] | None] = {}
        self._per_file: PerFile | None = None
        forget_before()  # the last scan's links to the parses before its own

    def _shard(
        self, slot: tuple[str, str], k: int | None = None
    ) -> dict[tuple[str, str], tuple[Any, ...]]:
        k = self._index(slot) if k is None else k
        shard = self._shards.get(k)
        if shard is None:
            doc = self._load(f"files-{k:02d}.pickle")
            files = (doc or {}).get("files")
            shard = self._shards[k] = files if isinstance(files, dict) else {}
        return shard

    # -- keys --------------------------------------------------------------------------------
    def key(self, rel: str) -> Key:
        """The key of workspace file ``rel`` (None: not a regular file, or not there).

        A file changed less than :data:`RACY_SECONDS` ago (an edit of the same size within
        the file system's timestamp tick would keep its key) is trusted by the hash of its
        bytes: hashed now and the hash kept, and at the next scan, if its key is the same,
        hashed again — the same bytes, the same key; other bytes, a key of their own."""
        if rel in self._keys:
            return self._keys[rel]
        if rel in self.snap:
            key = self.snap[rel]
        else:
            try:
                key = file_key(os.stat(self.root / rel, follow_symlinks=False))
            except OSError:
                key = None
        if key is not None:
            old = self._old_hashes().get(rel)
            racy = self._racy(key)
            if racy or (old is not None and old[0] == key):
                digest = self._content_hash(rel)
                if digest is None:
                    self._untrusted.add(rel)
                elif old is not None and old[0] == key and old[1] != digest:
                    self._hashes[rel] = (key, digest)
                    key = (*key, digest)  # other bytes under the same key
                elif racy:
                    self._hashes[rel] = (key, digest)
        self._keys[rel] = key
        return key

    def _content_hash(self, rel: str) -> str | None:
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        try:
            fd = os.open(self.root / rel, flags)
        except OSError:
            return None
        h = hashlib.blake2b(digest_size=20)
        with os.fdopen(fd, "rb") as f:
            try:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            except OSError:
                return None
        return h.hexdigest()

    def _old_hashes(self) -> dict[str, tuple[Key, str]]:
        if self._hashes_old is None:
            doc = self._load("hashes.pickle") or {}
            found = doc.get("hashes")
            good = isinstance(found, dict) and all(
                isinstance(rel, str)
                and isinstance(v, tuple)
                and len(v) == 2
                and isinstance(v[0], tuple)
                and isinstance(v[1], str)
                for rel, v in found.items()
            )
            self._hashes_old = found if good else {}
        return self._hashes_old or {}

    def _trusted(self, rel: str) -> bool:
        self.key(rel)
        return rel not in self._untrusted

    def _racy(self, key: Key) -> bool:
        """Whether the file was modified or changed (its inode: a write, a ``utime``) less
        than RACY_SECONDS ago: an edit within one tick of the clock would keep its key."""
        return key is None or self.now - max(key[1], key[3]) / 1e9 < RACY_SECONDS

    # -- parsed files ----------------------------------------------------------------------
    def memo(
        self,
        kind: str,
        rels: tuple[str, ...],
        warnings: list[Any],
        compute: Callable[[], Any],
        texts: Callable[[Any], Iterable[str]],
        later: bool = False,
    ) -> Any:
        """``compute()``'s value for the files ``rels`` (the first is the one parsed; the others
        are read with it, such as a database's ``-wal``), from the cache when their keys are
        unchanged. The warnings ``compute`` appends to ``warnings`` are kept and given again
        on a hit. The value is stored (by :meth:`save_files`) only when every file's key is
        trusted (see :meth:`key`), none is a symlink and the value's ``texts`` hold no
        credential.

        A memory file or daily log from the cache is handed out unread: an instance holding
        its name, unpickled when a field of it is first used (a warm open whose queues all
        come from the cache never unpickles it). ``later``: any other value from the cache
        is handed out as a :class:`Later` (to be called for the value when it is used)."""
        keys = tuple(self.key(r) for r in rels)
        slot = (kind, rels[0])
        self._used.add(slot)
        shard = self._shard(slot)
        hit = shard.get(slot)
        if isinstance(hit, tuple) and len(hit) == 3 and hit[0] == keys and keys[0] is not None:
            stored = hit[1]
            lazy = isinstance(stored, Packed) and stored.obj is None
            if later and lazy and stored.eager == {"none": False}:
                warnings.extend(hit[2])
                return Later(functools.partial(self._unpack_value, slot, stored, compute, warnings))
            value = self._value(slot, stored, compute, warnings)
            if value is not _BAD:
                warnings.extend(hit[2])
                return value
        before = len(warnings)
        value = compute()
        if isinstance(hit, tuple) and len(hit) == 3 and type(value) in _LAZY.values():
            # the file changed: what was made of its entries still there can be taken
            set_before(value, functools.partial(_earlier, hit[1], type(value), rels[0]))
        if shard.pop(slot, None) is not None:
            self._dirty.add(self._index(slot))
        if keys[0] is not None and all(self._trusted(r) for r in rels if self.key(r) is not None):
            # kept once it is known to hold no credential (at save_files)
            self._new[slot] = ((keys, value, list(warnings[before:])), texts)
        return value

    def _value(
        self, slot: tuple[str, str], stored: Any, compute: Callable[[], Any], warnings: list[Any]
    ) -> Any:
        """The value a shard holds for ``slot``: the object itself (parsed in this process), or
        a lazy instance of its class for a :class:`Packed` one (:data:`_BAD` when it is not
        what memreview writes there)."""
        if not isinstance(stored, Packed):
            return stored
        if stored.obj is not None:
            return stored.obj
        cls = _LAZY.get(stored.cls)
        eager = stored.eager
        if cls is None:
            state = _unpacked(stored, None, slot[1])
            return _BAD if state is _BAD else state
        if not (isinstance(eager, dict) and eager.get("rel") == slot[1]):
            self._rejected(slot)
            return _BAD
        obj: Any = object.__new__(cls)
        obj.__dict__.update(eager)
        obj.__dict__["_lazy"] = functools.partial(self._unpack, slot, stored, compute, warnings)
        stored.obj = obj
        return obj

    def _unpack(
        self, slot: tuple[str, str], stored: Packed, compute: Callable[[], Any], warnings: list[Any]
    ) -> dict[str, Any]:
        """The fields of a lazy memory file or daily log; when its bytes in the cache are
        not one (damaged, forged), the file parsed again (its warnings were given already)."""
        state = _unpacked(stored, _LAZY[stored.cls], slot[1])
        if state is not _BAD:
            return dict(state)
        self._rejected(slot)
        before = len(warnings)
        value = compute()
        del warnings[before:]
        if value is None:
            return _empty_state(_LAZY[stored.cls], stored.eager)
        return dict(value.__getstate__())

    def _unpack_value(
        self, slot: tuple[str, str], stored: Packed, compute: Callable[[], Any], warnings: list[Any]
    ) -> Any:
        value = _unpacked(stored, None, slot[1])
        if value is _BAD:
            self._rejected(slot)
            before = len(warnings)
            value = compute()
            del warnings[before:]
        stored.obj = value
        return value

    def _rejected(self, slot: tuple[str, str]) -> None:
        log.debug("scan cache: the stored %s of %s is not one memreview wrote", *slot)
        self._problem(
            _("ignored the cache {path} ({why}); the workspace is read instead").format(
                path=self.dir / f"files-{self._index(slot):02d}.pickle",
                why=_("not a parsed file of {file}").format(file=slot[1][:200]),
            )
        )

    @staticmethod
    def _index(slot: tuple[str, str]) -> int:
        return zlib.crc32(slot[1].encode("utf-8", "surrogateescape")) % SHARDS

    def save_files(self, secret_files: set[str] | None = None) -> None:
        """Write the parsed files (those of this scan: files gone are dropped), the shards
        that changed only. A file parsed now is kept unless it holds a credential: memory
        files and daily logs (kinds ``md:…``, ``daily:…``) named in ``secret_files`` when it
        is given (the secrets queue's finding: it searched each of them whole, and a log is
        not searched twice), any file whose texts the secret finder flags otherwise.

        One scan's save at a time in a process: the shards are shared with every scan of
        the workspace here (the app may run a second scan before the first is over)."""
        with _SAVING:
            self._save_files(secret_files)

    def _save_files(self, secret_files: set[str] | None) -> None:
        for slot, (entry, texts) in self._new.items():
            if slot[0].startswith(SEARCHED_KINDS) and secret_files is not None:
                secret = slot[1] in secret_files
            else:  # its warnings too: a warning may quote what the file holds
                secret = holds_secret([*texts(entry[1]), *(str(w.message) for w in entry[2])])
            if not secret:
                self._shard(slot)[slot] = (entry[0], _pack(entry[1]), entry[2])
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
        forget_before()  # the earlier parses are needed no more
        self._save_derived()
        if self._per_file is not None:
            self._per_file.save(secret_files)
        if self._hashes != self._old_hashes():
            self._write("hashes.pickle", {"hashes": self._hashes})
            self._hashes_old = dict(self._hashes)

    # -- detector results kept per memory file ---------------------------------------------
    def per_file(self) -> PerFile:
        """The store of detector results kept per memory file (see :class:`PerFile`)."""
        if self._per_file is None:
            self._per_file = PerFile(self)
        return self._per_file

    # -- what is made of many parsed files -------------------------------------------------
    def files_key(self, rels: Iterable[str], extra: str) -> str | None:
        """One key over the files ``rels`` (their keys), the names of every file of the
        workspace and ``extra``; None when a file's key is not to be trusted."""
        h = hashlib.blake2b(f"{FORMAT}|{extra}".encode("utf-8", "surrogateescape"), digest_size=20)
        for rel in sorted(self.snap):
            h.update(f"{rel};".encode("utf-8", "surrogateescape"))
        for rel in rels:
            if not self._trusted(rel):
                return None
            h.update(f"{rel}:{self.key(rel)};".encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    def derive(
        self,
        name: str,
        key: str | None,
        compute: Callable[[], Any],
        check: Callable[[Any], bool],
        texts: Callable[[Any], Iterable[str]],
    ) -> Any:
        """``compute()``, or its value stored under ``key`` by a scan before (when ``check``
        finds it well made: else computed, and said in a note). Stored when ``key`` is not
        None and the value's ``texts`` hold no credential."""
        if self._derived is None:
            doc = self._load("derived.pickle") or {}
            found = doc.get("derived")
            self._derived = found if isinstance(found, dict) else {}
        hit = self._derived.get(name)
        if key is not None and isinstance(hit, tuple) and len(hit) == 2 and hit[0] == key:
            if check(hit[1]):
                return hit[1]
            log.debug("scan cache: the stored %s is not one memreview wrote", name)
            self._problem(
                _("ignored the cache {path} ({why}); the workspace is read instead").format(
                    path=self.dir / "derived.pickle", why=_("not a scan's {name}").format(name=name)
                )
            )
        value = compute()
        # checked for a credential when stored, once the queues are out (``_save_derived``)
        self._derived_new[name] = None if key is None else (key, value, texts)
        return value

    def _save_derived(self) -> None:
        if not self._derived_new:
            return
        doc = dict(self._derived or {})
        for name, entry in self._derived_new.items():
            if entry is None or holds_secret(entry[2](entry[1])):
                doc.pop(name, None)
            else:
                doc[name] = entry[:2]
        self._derived_new.clear()
        self._derived = doc
        self._write("derived.pickle", {"derived": doc})

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

        def add(group: str, text: str, key: Key, trusted: bool | None = None) -> None:
            h = hashes.get(group)
            if h is None:
                h = hashes[group] = hashlib.blake2b(group.encode(), digest_size=20)
            h.update(f"{text}:{key};".encode("utf-8", "surrogateescape"))
            racy[group] = racy.get(group, False) or trusted is False

        add("base", f"{FORMAT}|{today}|{_code_stamp()}|{code}", None)
        for var in ENV_VARS:
            add("base", f"{var}={environ.get(var, '')}", None)
        for rel in sorted(self.snap):
            add(classify(rel), rel, self.key(rel), self._trusted(rel))
        for p in outside:
            try:
                k = file_key(os.stat(p))
            except OSError:
                k = None
            add("data", f"@{p}", k, k is None or not self._racy(k))
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

    def _queue_doc(self) -> dict[str, Any]:
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
            self._queues = _LIVE_QUEUES[self._live] = doc
        return self._queues

    def queues(
        self, digests: dict[str, tuple[str, bool]]
    ) -> dict[str, tuple[list[dict[str, Any]], list[str]]]:
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
        queues: dict[str, tuple[list[dict[str, Any]], list[str]]],
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
            doc = {"outside": outside, "queues": entries}
            self._write("queues.pickle", doc)
            self._queues = _LIVE_QUEUES[self._live] = doc

    # -- the counts shown at the end of the last scan ----------------------------------------
    def shown(self) -> dict[str, Any]:
        """The last scan's record: ``key`` (see :meth:`whole_key`; None: not to be trusted),
        ``outside`` (the files outside the workspace it read) and ``counts`` (the counts it
        showed); {} when there is none."""
        if self._shown is None:
            doc = self._load("shown.pickle") or {}
            counts, outside = doc.get("counts"), doc.get("outside")
            good = (
                isinstance(doc.get("key"), str | None)
                and isinstance(outside, list)
                and all(isinstance(p, str) for p in outside)
                and isinstance(counts, dict)
                and all(isinstance(k, str) and type(v) is int for k, v in counts.items())
                and isinstance(doc.get("health"), dict | None)
            )
            self._shown = doc if good else {}
        return self._shown

    def whole_key(
        self, outside: list[str], private: list[str], extra: str, environ: Mapping[str, str]
    ) -> str | None:
        """One key over every input of a scan: each file of the workspace, the files
        ``outside`` it, memreview's files ``private`` (under ``.memreview/``), memreview's own
        code, the environment and ``extra`` (the review date asked for, the options, the
        queues); None when one of them changed too recently to be trusted."""
        h = hashlib.blake2b(f"{FORMAT}|{_code_stamp()}|{extra}".encode(), digest_size=20)
        for var in ENV_VARS:
            h.update(f"{var}={environ.get(var, '')};".encode("utf-8", "surrogateescape"))
        files = [(rel, self.key(rel), self._trusted(rel)) for rel in sorted(self.snap)]
        files += [(f"@{rel}", self.key(rel), self._trusted(rel)) for rel in private]
        for p in outside:
            try:
                k = file_key(os.stat(p))
            except OSError:
                k = None
            files.append((f"@{p}", k, k is None or not self._racy(k)))
        for name, key, trusted in files:
            if not trusted:
                return None
            h.update(f"{name}:{key};".encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    def save_shown(
        self,
        key: str | None,
        outside: list[str],
        counts: dict[str, int],
        health: dict[str, Any] | None,
    ) -> None:
        """Keep the counts a scan showed and its health figures under ``key`` (None keeps
        only ``outside``, the files the next scan's key must cover)."""
        doc = {
            "key": key,
            "outside": outside,
            "counts": counts if key is not None else {},
            "health": health if key is not None else None,
        }
        if doc != self.shown():
            self._write("shown.pickle", doc)
            self._shown = doc
