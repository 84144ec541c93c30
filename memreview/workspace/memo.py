"""What a detector computed from one parsed file, kept while that file's object lives.

The scan cache hands a rescan the very objects of the files that did not change (the parsed
files of the last scan stay in memory, see :mod:`memreview.workspace.cache`), so a function
of one such object and a few hashable arguments need not run again: after a write, only the
files the batch wrote — new objects — are worked on afresh. The memo holds its objects
weakly: when a file is parsed again and its old object goes, so does what was kept for it.

Only for pure functions of the object and the arguments, whose result nobody changes.

:func:`kept_with_file` goes further for a value made of plain data (numbers, strings, tuples,
lists): it is kept on the object itself, so the scan cache stores it with the parsed file
and the next process has it too — the rescan after the first write of a session then skips
the unchanged files as well. Never for a value that may hold a credential (the cache must
not).
"""

from __future__ import annotations

import functools
import hashlib
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

# (function, id of the object, the other arguments) -> (a weak reference to the object, value)
_KEPT: dict[tuple[Any, ...], tuple[weakref.ref[Any], Any]] = {}


def _forget(key: tuple[Any, ...], _ref: object) -> None:
    """A kept object is gone: its values go too."""
    _KEPT.pop(key, None)


def per_file(fn: F) -> F:
    """``fn(obj, *args)`` kept per object ``obj`` (by identity) and ``args`` (by value)."""
    name = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def kept(obj: Any, *args: Any) -> Any:
        key = (name, id(obj), args)
        hit = _KEPT.get(key)
        if hit is not None and hit[0]() is obj:
            return hit[1]
        value = fn(obj, *args)
        try:
            ref = weakref.ref(obj, functools.partial(_forget, key))
        except TypeError:  # an object that can't be weakly referred to: not kept
            return value
        _KEPT[key] = (ref, value)
        return value

    return kept  # type: ignore[return-value]


def _args_digest(args: tuple[Any, ...]) -> str:
    """What ``kept_with_file`` keeps of the arguments: a digest, never their text (they may
    come from another file, one holding a credential: the project names a log is searched
    for, say, while the log itself is clean and stored)."""
    return hashlib.blake2b(
        repr(args).encode("utf-8", "backslashreplace"), digest_size=16
    ).hexdigest()


def kept_with_file(fn: F) -> F:
    """``fn(obj, *args)`` kept on ``obj`` (in its ``__dict__``, pickled with it), for the last
    ``args`` it was called with (known by their digest)."""
    name = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def kept(obj: Any, *args: Any) -> Any:
        loaded = getattr(type(obj), "loaded", None)
        if loaded is not None:  # a file the scan cache handed out unread: what it kept too
            loaded(obj)
        store = obj.__dict__.get("_kept")
        hit = store.get(name) if isinstance(store, dict) else None
        digest = _args_digest(args)
        if isinstance(hit, tuple) and len(hit) == 2 and hit[0] == digest:
            return hit[1]
        value = fn(obj, *args)
        kept_store(obj)[name] = (digest, value)
        if _written is not None:
            _written.append((obj, name))
        return value

    return kept  # type: ignore[return-value]


def kept_store(obj: Any) -> dict[str, Any]:
    """The values kept with ``obj``, an empty table made when it has none: made as it is
    stored into, by ``setdefault``, so that a table another thread made meanwhile (a second
    process's values taken in, ``scan.apart``) is added to, never replaced."""
    store = obj.__dict__.setdefault("_kept", {})
    if isinstance(store, dict):
        return store
    fresh: dict[str, Any] = {}  # (not a table: never one memreview kept)
    obj.__dict__["_kept"] = fresh
    return fresh


# (object, name) of each value ``kept_with_file`` stored since ``note_kept`` (None: not noted)
_written: list[tuple[Any, str]] | None = None


def note_kept() -> list[tuple[Any, str]]:
    """From now on, each value ``kept_with_file`` stores is noted in the list returned, as
    (object, the function's name): what a process forked to compute some queues sends back
    (``memreview.scan.apart``)."""
    global _written
    _written = []
    return _written


class ByObject:
    """Values kept for objects by their identity, each while its object lives (the object
    is held weakly: when it goes, so does its value)."""

    def __init__(self) -> None:
        self._values: dict[int, tuple[weakref.ref[Any], Any]] = {}

    def set(self, obj: Any, value: Any) -> None:
        """Keep ``value`` for ``obj`` (nothing for an object that can't be weakly held)."""
        try:
            ref = weakref.ref(obj, functools.partial(self._gone, id(obj)))
        except TypeError:
            return
        self._values[id(obj)] = (ref, value)

    def get(self, obj: Any) -> Any:
        """The value kept for ``obj``, or None."""
        hit = self._values.get(id(obj))
        return hit[1] if hit is not None and hit[0]() is obj else None

    def pop(self, obj: Any) -> None:
        hit = self._values.get(id(obj))
        if hit is not None and hit[0]() is obj:
            self._values.pop(id(obj), None)  # (another scan may have cleared the table)

    def clear(self) -> None:
        self._values.clear()

    def _gone(self, key: int, _ref: object) -> None:
        self._values.pop(key, None)


# a file parsed afresh -> how to get the parse it replaces (the last scan's parse of the same
# file, which held other bytes), then that parse itself once it is had
_BEFORE = ByObject()


def set_before(obj: Any, load: Callable[[], Any]) -> None:
    """Say that ``obj``, a file parsed afresh, replaces an earlier parse of the same file,
    which ``load()`` gives (None when it can't be had). Kept until the scan ends
    (``forget_before``)."""
    _BEFORE.set(obj, load)


def before(obj: Any) -> Any:
    """The parse ``obj`` replaces (the same file as the last scan had it, of the same
    class), or None: a function of a file's entries can take what it made of those still
    there (``kept_before``). Loaded once, whoever asks."""
    load = _BEFORE.get(obj)
    if load is None:
        return None
    try:
        old = load()
        loaded = getattr(type(old), "loaded", None)
        if loaded is not None:  # handed out unread by the last scan: read now
            loaded(old)
    except Exception:  # the earlier parse is gone or damaged: nothing to take from it
        old = None
    if type(old) is not type(obj):
        _BEFORE.pop(obj)
        return None
    _BEFORE.set(obj, lambda: old)  # the next asker takes it as it is (not unpickled again)
    return old


def kept_before(obj: Any, fn: Callable[..., Any]) -> tuple[Any, Any] | None:
    """The parse ``obj`` replaces and what ``kept_with_file`` kept of ``fn`` (the function
    so decorated, called with ``obj`` alone) on it, or None."""
    old = before(obj)
    store = old.__dict__.get("_kept") if old is not None else None
    hit = store.get(f"{fn.__module__}.{fn.__qualname__}") if isinstance(store, dict) else None
    if isinstance(hit, tuple) and len(hit) == 2 and hit[0] == _args_digest(()):
        return old, hit[1]
    return None


def forget_before() -> None:
    """Drop every link to an earlier parse (a scan is over or begins)."""
    _BEFORE.clear()


def forget() -> None:
    """Drop everything kept (the next scan computes from scratch)."""
    _KEPT.clear()
    _BEFORE.clear()
