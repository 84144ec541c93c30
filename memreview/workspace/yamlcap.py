"""Every YAML input is read through here, with caps (docs/design.md §4, last paragraph).

Decisions, ``.memreview/pending.yaml`` and ``state.yaml``, ``memreview.yaml``, the user
config and the theme files are written by people and by other programs, so they are
untrusted: a document is refused before it is built when it is larger than its cap, holds
more than ``MAX_ALIASES`` aliases or aliases that stand for more than ``MAX_EXPANDED``
values (an "alias bomb" expands a few hundred bytes into billions of nodes), nests deeper than ``MAX_DEPTH``, or refers to itself (``&a [*a]``). Tags such as
``!!python/object`` stay inert: only the safe and round-trip loaders are used. Files are read
only when they are regular files (a FIFO or a device would block or never end).
"""

from __future__ import annotations

import errno
import io
import os
import stat
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    MappingStartEvent,
    NodeEvent,
    SequenceStartEvent,
)

from memreview.i18n import _, ngettext

MIB = 1 << 20
CONFIG_LIMIT = 1 * MIB  # memreview.yaml, the user config, themes, state.yaml, pending.yaml
DECISIONS_LIMIT = 16 * MIB  # a decisions file given to ``apply``
MAX_ALIASES = 300
MAX_DEPTH = 64
MAX_EXPANDED = 100_000  # values the aliases of one document may stand for


class YAMLRefused(ValueError):
    """A YAML input refused before it was built; the message is one line for the user.

    ``problem`` and ``problem_mark`` mirror ruamel's errors, so a caller that reports
    ``broken YAML at line N (problem)`` reports these the same way.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.problem = message
        self.problem_mark = _Mark(line - 1) if line is not None else None


class _Mark:
    def __init__(self, line: int) -> None:
        self.line = line


def size_text(n: int) -> str:
    """``n`` bytes in the unit a person would say."""
    if n >= MIB:
        return f"{n / MIB:.0f} MiB" if n % MIB == 0 else f"{n / MIB:.1f} MiB"
    if n >= 1024:
        return f"{n // 1024} KiB"
    return ngettext("{count} byte", "{count} bytes", n).format(count=n)


def read_capped(path: Path | str, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    Opened with ``O_NONBLOCK`` and checked with ``fstat`` before any read, so a FIFO or a
    device is refused at once instead of blocking or reading forever. Raises
    FileNotFoundError and other OSErrors as ``open`` does, and YAMLRefused for a file that
    is not regular or is too large.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(st.st_mode):
            raise YAMLRefused(
                _("not a regular file ({kind}); not read").format(kind=_file_kind(st.st_mode))
            )
        if st.st_size > limit:
            raise YAMLRefused(
                _("{size}, more than the {limit} allowed; not read").format(
                    size=size_text(st.st_size), limit=size_text(limit)
                )
            )
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total) or 1)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # it grew while we read
                raise YAMLRefused(
                    _("more than the {limit} allowed; not read").format(limit=size_text(limit))
                )
        return b"".join(chunks)
    finally:
        os.close(fd)


def _file_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return _("a FIFO")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    return _("not a file")


def check_yaml(data: bytes | str, limit: int) -> None:  # noqa: C901
    """Raise YAMLRefused if ``data`` is over ``limit`` bytes, has too many aliases (or aliases
    that expand to too many values), nests too deep or refers to itself. Only the parser's events are looked at (no nodes are built), so
    an alias bomb is refused in the time it takes to read its first few hundred aliases.
    Errors of the YAML itself are left to the loader that follows."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > limit:
        raise YAMLRefused(
            _("{size}, more than the {limit} allowed").format(
                size=size_text(size), limit=size_text(limit)
            )
        )
    stream = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data)
    aliases = 0
    expanded = 0  # nodes the aliases stand for, once expanded
    sizes: dict[str, int] = {}  # anchor -> nodes in its (expanded) value
    # per open collection: its anchor and the nodes counted in it so far
    open_nodes: list[list[Any]] = []
    try:
        for event in YAML(typ="safe", pure=True).parse(stream):
            if isinstance(event, AliasEvent):
                aliases += 1
                if aliases > MAX_ALIASES:
                    raise YAMLRefused(
                        _("more than {count} aliases (a document that expands itself)").format(
                            count=MAX_ALIASES
                        ),
                        _line(event),
                    )
                if any(node[0] == event.anchor for node in open_nodes):
                    raise YAMLRefused(
                        _("the alias *{name} refers to itself").format(name=event.anchor),
                        _line(event),
                    )
                size = sizes.get(event.anchor, 1)
                expanded += size
                if expanded > MAX_EXPANDED:
                    raise YAMLRefused(
                        _("its aliases expand to more than {count} values").format(
                            count=f"{MAX_EXPANDED:,}"
                        ),
                        _line(event),
                    )
                if open_nodes:
                    open_nodes[-1][1] += size
            elif isinstance(event, MappingStartEvent | SequenceStartEvent):
                if len(open_nodes) >= MAX_DEPTH:
                    raise YAMLRefused(
                        _("nested deeper than {count} levels").format(count=MAX_DEPTH),
                        _line(event),
                    )
                open_nodes.append([event.anchor, 1])
            elif isinstance(event, CollectionEndEvent):
                anchor, size = open_nodes.pop() if open_nodes else (None, 1)
                if anchor is not None:
                    sizes[anchor] = size
                if open_nodes:
                    open_nodes[-1][1] += size
            elif isinstance(event, NodeEvent):  # a scalar
                if event.anchor is not None:
                    sizes[event.anchor] = 1
                if open_nodes:
                    open_nodes[-1][1] += 1
    except YAMLRefused:
        raise
    except Exception:  # a syntax error: the loader reports it with its own words
        return


def _line(event: Any) -> int | None:
    mark = getattr(event, "start_mark", None)
    return mark.line + 1 if mark is not None else None


def load_yaml(
    data: bytes | str, *, limit: int = CONFIG_LIMIT, typ: str = "safe", constructor: Any = None
) -> Any:
    """The document in ``data``, built by ruamel's safe (``typ="safe"``) or round-trip
    (``typ="rt"``) loader after ``check_yaml``. Raises YAMLRefused, or ruamel's own errors for
    YAML that doesn't parse."""
    check_yaml(data, limit)
    yaml = YAML(typ="safe", pure=True) if typ == "safe" else YAML(typ="rt")
    if constructor is not None:
        yaml.Constructor = constructor
    stream = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data)
    return yaml.load(stream)


def read_yaml_file(path: Path | str, *, limit: int = CONFIG_LIMIT, typ: str = "safe") -> Any:
    """``load_yaml`` of a regular file of at most ``limit`` bytes (``read_capped``)."""
    return load_yaml(read_capped(path, limit), limit=limit, typ=typ)


__all__ = [
    "CONFIG_LIMIT",
    "DECISIONS_LIMIT",
    "MAX_ALIASES",
    "MAX_DEPTH",
    "MAX_EXPANDED",
    "YAMLRefused",
    "check_yaml",
    "load_yaml",
    "read_capped",
    "read_yaml_file",
    "size_text",
]
