"""The loaded workspace: plain dataclasses, no I/O."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import date
from datetime import date as _date  # the type, where a field named `date` hides it
from pathlib import Path
from types import MethodType
from typing import Any, ClassVar, Self

from memreview.i18n import Message, shown
from memreview.workspace.config import Config
from memreview.workspace.dates import parse_date_prefix
from memreview.workspace.normalize import normalize
from memreview.workspace.openclaw import Usage
from memreview.workspace.textfile import TextFile

REF_RE = re.compile(r"\[\[([^\[\]\s]+)\]\]")  # an [[id]] reference
CLOSED_WORDS = (
    "done",
    "completed",
    "archived",
    "cancelled",
    "canceled",
    "已完成",
    "完成",
    "归档",
    "已归档",
    "取消",
    "已取消",
)
_LEADING_MARKS = re.compile(r"^[^\w\u3400-\u9fff]+")
VERDICTS = ("approved", "rejected", "kept-both")  # a verdict line may also say "undone"
PROMOTION_VERDICTS = ("kept", "archived", "edited", "stripped")  # relation "promotion"


def is_closed_status(status: str | None) -> bool:
    """Whether a ``Status:`` value says the thing is finished: done, completed, archived,
    cancelled, 已完成, 完成, 归档, 取消 (a leading emoji or mark such as ``✅`` is ignored)."""
    if not status:
        return False
    first = _LEADING_MARKS.sub("", status.strip().lower())
    return any(first.startswith(w) for w in CLOSED_WORDS)


@dataclass(frozen=True)
class LoadWarning:
    """Something wrong with an input file: shown to the user, never raised.

    The message is English with its untranslated form kept (a `Message`: the scan cache
    keeps warnings for the next run, whatever language that one speaks): `text` is it in
    the interface's language, `to_json` in English."""

    file: str | None
    line: int | None
    message: str

    @property
    def text(self) -> str:
        return shown(self.message)

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "message": str(self.message)}

    def shown(self) -> dict[str, Any]:
        """The JSON's fields, the message in the interface's language."""
        return {"file": self.file, "line": self.line, "message": self.text}


@dataclass(slots=True)
class Entry:
    """A unit of memory: a bullet, a numbered item, a table row, an anchor block or a promoted
    entry.

    ``norm`` is the normalized text (:func:`memreview.workspace.normalize.normalize`); an
    anchor block's is made when first asked for, since few queues read it and a block can
    hold thousands of references."""

    file: str
    line: int  # 1-based, inclusive
    end_line: int
    kind: str  # bullet | numbered | row | anchor | promoted
    text: str  # the raw lines joined with "\n"
    heading_path: tuple[str, ...]
    section: str
    section_line: int  # 0 for the file's top section
    anchor: str | None = None  # the id, when the entry is an anchor block
    in_anchor: str | None = None  # the enclosing anchor's id, for lines inside a block
    in_chronicle: bool = False
    projects: tuple[str, ...] = ()
    marker: str | None = None  # a promoted entry's promotion marker key
    known_norm: str | None = field(default=None, repr=False)  # see ``norm``

    @property
    def norm(self) -> str:
        norm = self.known_norm
        if norm is None:
            kind = self.kind if self.kind in ("row", "numbered") else "bullet"
            norm = self.known_norm = normalize(self.text, kind)
        return norm

    @property
    def first_line(self) -> str:
        return _first_line(self.text)

    def ref(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "end_line": self.end_line,
            "text": self.first_line,
            "anchor": self.anchor,
        }


@dataclass
class Anchor:
    """A ``## [TYPE:id]`` block (docs/design.md §1.2)."""

    type: str
    id: str
    file: str
    line: int
    end_line: int
    level: int
    # first value of each key, keys as written; a long value as its (start, end) in ``text``
    meta: dict[str, str | tuple[int, int]]
    meta_end: int  # the last metadata line (== line when there is none)
    text: str  # the whole block
    refs: tuple[str, ...]  # every [[id]] in the block
    archived: bool = False  # lives under memory/archive/

    def get(self, key: str) -> str | None:
        """The first value of ``key`` (whatever its case)."""
        by_low = self.__dict__.get("_by_low")
        if type(by_low) is not dict:
            # the keys lower-cased, each to the first of its values (made at the first
            # question: an anchor is asked a few times by each queue)
            by_low = {}
            for k, v in self.meta.items():
                by_low.setdefault(k.lower(), v)
            self.__dict__["_by_low"] = by_low
        found = by_low.get(key.lower())
        if found is None:
            return None
        return found if isinstance(found, str) else self.text[found[0] : found[1]]

    def __getstate__(self) -> dict[str, Any]:
        """The fields, without the index ``get`` makes (the scan cache stores the fields)."""
        state = dict(self.__dict__)
        state.pop("_by_low", None)
        return state

    def ref_list(self, key: str) -> list[str]:
        value = self.get(key)
        return _refs(value) if value else []

    @property
    def first_line(self) -> str:
        return _first_line(self.text)

    def ref(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "end_line": self.end_line,
            "text": self.first_line,
            "anchor": self.id,
        }


def _first_line(text: str) -> str:
    """The text up to its first newline, without copying the rest (an anchor block can hold
    thousands of references)."""
    end = text.find("\n")
    return text if end < 0 else text[:end]


def _refs(value: str) -> list[str]:
    return REF_RE.findall(value)


@dataclass
class ChronicleRow:
    file: str
    line: int
    date: str
    cells: tuple[str, ...]  # every cell, date first
    text: str
    entry: Entry

    @property
    def events(self) -> str:
        return self.cells[1] if len(self.cells) > 1 else ""


# one field given later is worked out by one thread at a time: another thread asking for it
# meanwhile waits for that value (a part read later is read once, its warnings given once)
_LATER = threading.RLock()


class Deferred:
    """A part of the workspace read when it is first used (or when the workspace is
    ``settle``d). ``resolve()`` reads it and gives (value, lazy): with ``lazy`` the value is
    a handle of the scan cache, called for the value when the field is used."""

    __slots__ = ("resolve",)

    def __init__(self, resolve: Callable[[], tuple[Any, bool]]):
        self.resolve = resolve

    def __call__(self) -> Any:
        value, lazy = self.resolve()
        return value() if lazy else value


class LoadsLater:
    """A parsed file the scan cache hands out before unpickling it: its instance holds only
    a few fields (its name) and ``_lazy``, which gives the rest on first use (see
    :mod:`memreview.workspace.cache`); an instance made the usual way is never lazy."""

    def __getattr__(self, name: str) -> Any:
        later = self.__dict__.get("_later")
        if later is not None and name in later:  # one field given later (``set_later``)
            with _LATER:
                load = later.get(name)
                if load is not None and name not in self.__dict__:
                    value = load()
                    self.__dict__.setdefault(name, value)  # unless the load set it itself
                later.pop(name, None)
            return self.__dict__[name]
        load = self.__dict__.get("_lazy")
        if load is None or name.startswith("__"):
            if name in self.__dict__:  # another thread loaded it meanwhile
                return self.__dict__[name]
            raise AttributeError(name)
        with _LATER:  # one thread unpickles it (the rescan's, or ``ready_rescan``'s)
            load = self.__dict__.get("_lazy")
            if load is not None:
                state = load()
                for key, value in state.items():
                    self.__dict__.setdefault(key, value)
                self.__dict__.pop("_lazy", None)
        if name not in self.__dict__:
            raise AttributeError(name)
        return self.__dict__[name]

    def __getstate__(self) -> dict[str, Any]:
        if "_lazy" in self.__dict__:
            self.__getattr__("rel")  # every field, before it is pickled
            self.__dict__.pop("_lazy", None)
        for name in list(self.__dict__.get("_later") or ()):
            self.__getattr__(name)
        self.__dict__.pop("_later", None)
        return self.__dict__

    def loaded(self) -> Self:
        """This object with every field loaded (what ``__dict__`` holds is then all of it)."""
        if "_lazy" in self.__dict__:
            self.__getattr__("rel")
        return self

    def given(self, name: str) -> bool:
        """Whether field ``name`` is not None (a field given later is: its value is not
        loaded to tell)."""
        load = (self.__dict__.get("_later") or {}).get(name)
        if load is not None and not isinstance(load, Deferred):  # the cache's: never None
            return True
        return getattr(self, name) is not None

    def deferred(self, name: str) -> bool:
        """Whether field ``name`` is a part not read yet (:class:`Deferred`)."""
        load = (self.__dict__.get("_later") or {}).get(name)
        return isinstance(load, Deferred) and name not in self.__dict__

    def set_later(self, name: str, load: Callable[[], Any]) -> None:
        """Field ``name`` is ``load()``, called when the field is first used."""
        self.__dict__.pop(name, None)
        self.__dict__.setdefault("_later", {})[name] = load

    def settle(self) -> None:
        """Read every part deferred (:class:`Deferred`) and not read yet: its warnings are
        then given (a value the scan cache hands out stays a handle until it is used)."""
        later: dict[str, Any] = self.__dict__.get("_later") or {}
        for name in list(later):
            with _LATER:  # another thread may have read it meanwhile
                load = later.get(name)
                if not isinstance(load, Deferred):
                    continue
                if name in self.__dict__:  # set by the read of another field
                    later.pop(name, None)
                    continue
                value, lazy = load.resolve()
                if lazy:
                    later[name] = value
                else:
                    self.__dict__.setdefault(name, value)  # unless the read set it itself
                    later.pop(name, None)


@dataclass
class MemoryFile(LoadsLater):
    rel: str
    source: TextFile
    entries: list[Entry]
    anchors: list[Anchor]
    chronicle: list[ChronicleRow]
    archived: bool = False
    headings: list[tuple[int, int, str]] = field(default_factory=list)  # (line, level, text)
    # lines of prose at least PARAGRAPH_WIDTH wide (``**Label:** text``): compared as
    # duplicates, never entries of the other queues
    paragraphs: list[Entry] = field(default_factory=list)


@dataclass
class DailyLog(LoadsLater):
    rel: str
    date: date
    text_lower: str
    empty: bool
    lines: int
    text: str = ""  # as written (the source lines a promotion names are shown from it)


def _no_class_defaults(cls: type) -> None:
    """A field's default kept only in ``__init__`` (a lazy instance without that field asks
    ``__getattr__`` for it instead of finding the class's default)."""
    for f in fields(cls):
        if f.name in cls.__dict__ and not callable(cls.__dict__[f.name]):
            delattr(cls, f.name)


@dataclass
class Fragment:
    id: str
    content: str
    status: str
    last_seen: str | None
    theme: str | None = None
    category: str | None = None
    date: str | None = None
    mention_count: int | None = None

    def last_seen_date(self) -> _date | None:
        return parse_date_prefix(self.last_seen)


@dataclass
class SkillCandidate:
    index: int
    theme: str
    content: str
    count: int | None
    reason: str | None


@dataclass(slots=True)
class Recall:
    """One recall of an anchor (a line of the recall log): a million of them for 100 MB."""

    day: date
    id: str
    channel: str
    query: str


@dataclass
class Proposal:
    id: str
    ts: str | None
    relation: str
    new: str
    old: str
    confidence: float | None
    reason: str | None
    line: int


@dataclass(frozen=True)
class Verdict:
    """One line of ``verdicts.jsonl``: the human's ruling on a judge proposal."""

    line: int
    proposal: str  # the proposal's id
    verdict: str  # approved | rejected | kept-both | undone (takes back the one before)
    relation: str | None
    flags: tuple[str, ...] = ()  # a promotion's junk flags when it was decided


@dataclass
class Project:
    key: str
    title: str
    source: str  # file | front-matter | item | row | heading | anchor | marker
    ref: dict[str, Any]
    status: str | None
    added: date | None
    anchor: str | None = None
    file: str | None = None
    aliases: tuple[str, ...] = ()  # other names from an ``Aliases:`` line
    status_cell: int | None = None  # a table row's status column (a project kept as a row)

    @property
    def closed(self) -> bool:
        return is_closed_status(self.status)


class WorkspaceView:
    """A workspace as one reader sees it: each field it asks for goes through ``asked``
    first (the workspace's methods run on this view too, so the fields they read do)."""

    def __init__(self, ws: Workspace):
        object.__setattr__(self, "_ws", ws)

    def asked(self, name: str) -> None:
        """Field ``name`` is asked for (a view of its own notes it, or refuses it)."""

    def __getattr__(self, name: str) -> Any:
        self.asked(name)
        attr = getattr(type(self._ws), name, None)
        if callable(attr):
            return MethodType(attr, self)
        return getattr(self._ws, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a detector does not change the workspace")


@dataclass
class Workspace(LoadsLater):
    root: Path
    config: Config
    files: dict[str, MemoryFile] = field(default_factory=dict)
    archive_files: dict[str, MemoryFile] = field(default_factory=dict)
    daily_logs: list[DailyLog] = field(default_factory=list)
    fragments: list[Fragment] | None = None  # None: no dreams.db
    skills: list[SkillCandidate] | None = None  # None: no skill_candidates.json
    recalls: list[Recall] | None = None  # None: no recall log (and no OpenClaw usage data)
    openclaw: Usage | None = None  # OpenClaw's recall events and store, where no recall log
    short_term: dict[str, Any] | None = (
        None  # OpenClaw's short-term store by key, whatever else is read
    )
    dreaming_runs: list[tuple[date, str]] = field(default_factory=list)  # dated run files
    proposals: list[Proposal] | None = None  # None: no proposals.jsonl
    verdicts: list[Verdict] | None = None  # None: no verdicts.jsonl
    projects: dict[str, Project] = field(default_factory=dict)
    boot_ids: set[str] = field(default_factory=set)
    other_files: dict[str, TextFile] = field(default_factory=dict)  # NOW.md, HEARTBEAT.md, …
    boot_texts: dict[str, list[str]] = field(default_factory=dict)  # AGENTS.md, SOUL.md, …
    mtimes: dict[str, float] = field(default_factory=dict)
    warnings: list[LoadWarning] = field(default_factory=list)
    # detector results kept per memory file by the scan cache (``memreview.workspace.cache.
    # PerFile``): None without the cache; never an input, never compared
    per_file: ClassVar[Any] = None

    def warn(self, file: str | None, line: int | None, message: str, /, **fields: object) -> None:
        """Warn about ``file``: ``message`` is a text marked with ``N_()`` and its named
        ``fields``, or a `Message` made before."""
        if not isinstance(message, Message):
            message = Message(message, **fields)
        self.warnings.append(LoadWarning(file, line, message))

    def all_anchors(self) -> list[Anchor]:
        out: list[Anchor] = []
        for mf in self.files.values():
            out.extend(mf.anchors)
        for mf in self.archive_files.values():
            out.extend(mf.anchors)
        return out

    def anchor_index(self) -> dict[str, Anchor]:
        """Anchors by id; the first in file order wins (duplicates are warned about)."""
        index: dict[str, Anchor] = {}
        for a in self.all_anchors():
            index.setdefault(a.id, a)
        return index

    def main_memory(self) -> str | None:
        if "MEMORY.md" in self.files:
            return "MEMORY.md"
        if "memory/MEMORY.md" in self.files:
            return "memory/MEMORY.md"
        return None


_no_class_defaults(MemoryFile)
_no_class_defaults(DailyLog)
_no_class_defaults(Workspace)
