"""A thin adapter between the app and the decisions/store packages.

The app stages :class:`Decision` objects and asks for previews, applies and undos through
this module only. Each call looks its function up in ``memreview.decisions`` (then
``memreview.store``) and, when it is not there, says so instead of failing: staging then
works on an in-memory list.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True, kw_only=True)
class StagedDecision:
    """The app's own decision record, used when ``memreview.decisions.Decision`` is absent."""

    item: str
    action: str
    keep: int | None = None
    text: str | None = None
    queue: str


def _module(name: str):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _lookup(name: str) -> Callable | None:
    for mod_name in ("memreview.decisions", "memreview.store"):
        mod = _module(mod_name)
        fn = getattr(mod, name, None) if mod is not None else None
        if callable(fn):
            return fn
    return None


def make_decision(
    item: str, action: str, queue: str, keep: int | None = None, text: str | None = None
):
    """A Decision of the decisions package when it exists, else a :class:`StagedDecision`."""
    cls = None
    for mod_name in ("memreview.decisions", "memreview.decisions.model"):
        mod = _module(mod_name)
        cls = getattr(mod, "Decision", None) if mod is not None else None
        if cls is not None:
            break
    if cls is not None:
        return cls(item=item, action=action, keep=keep, text=text, queue=queue)
    return StagedDecision(item=item, action=action, keep=keep, text=text, queue=queue)


class BackendMissing(Exception):
    """The decisions backend does not offer this operation (yet)."""


@dataclass
class Outcome:
    """What an apply did, normalised for display: the rest stays pending."""

    written: list[str] = field(default_factory=list)
    conflicts: list[tuple[Any, str]] = field(default_factory=list)  # (decision, why)
    failures: list[tuple[Any, str]] = field(default_factory=list)
    keep_pending: list[Any] = field(default_factory=list)
    batch: str | None = None


class Backend:
    """The decisions backend of one workspace."""

    def __init__(self, root: Path):
        self.root = Path(root)

    # -- pending -----------------------------------------------------------------------------
    def load_pending(self) -> list:
        fn = _lookup("load_pending")
        if fn is None:
            return []
        loaded = fn(self.root)
        # some backends answer (decisions, problems)
        if isinstance(loaded, tuple) and len(loaded) == 2 and isinstance(loaded[0], list):
            loaded = loaded[0]
        return list(loaded or [])

    def save_pending(self, decisions: Iterable) -> bool:
        """Save at once; False when there is no backend to save to (kept in memory)."""
        fn = _lookup("save_pending")
        if fn is None:
            return False
        fn(self.root, list(decisions))
        return True

    @property
    def can_save(self) -> bool:
        return _lookup("save_pending") is not None

    # -- preview / apply / undo --------------------------------------------------------------
    def preview(self, result, decisions: list) -> dict[str, str]:
        """{relative path: unified diff} of what ``decisions`` would write."""
        fn = _lookup("preview")
        if fn is None:
            raise BackendMissing("previews need the decisions backend")
        out = fn(result, list(decisions))
        return dict(out or {})

    def apply(self, result, decisions: list) -> Outcome:
        fn = _lookup("apply")
        if fn is None:
            raise BackendMissing("writing needs the decisions backend")
        batch = fn(result, list(decisions))
        return outcome_of(batch, decisions)

    def undo_last(self) -> str:
        """Undo the last applied batch; a one-line summary."""
        fn = _lookup("undo_last")
        if fn is None:
            raise BackendMissing("undo needs the decisions backend")
        res = fn(self.root)
        return summary_of(res)


def _decision_of(obj: Any) -> Any:
    return getattr(obj, "decision", None) or (
        obj.get("decision") if isinstance(obj, dict) else None
    )


def _reason_of(obj: Any) -> str:
    for name in ("reason", "message", "why", "error"):
        val = getattr(obj, name, None)
        if val is None and isinstance(obj, dict):
            val = obj.get(name)
        if val:
            return str(val)
    return str(obj)


def outcome_of(batch: Any, decisions: list) -> Outcome:
    """Read a BatchResult (``.conflicts``, ``.failures``, ``.files``) defensively."""
    out = Outcome(batch=getattr(batch, "batch", None) or getattr(batch, "id", None))
    for f in getattr(batch, "files", None) or []:
        path = getattr(f, "path", None) or getattr(f, "file", None) or getattr(f, "rel", None)
        out.written.append(str(path if path is not None else f))
    for c in getattr(batch, "conflicts", None) or []:
        out.conflicts.append((_decision_of(c), _reason_of(c)))
    for c in getattr(batch, "failures", None) or []:
        out.failures.append((_decision_of(c), _reason_of(c)))
    failed_items = {
        getattr(d, "item", None) for d, _ in out.conflicts + out.failures if d is not None
    }
    unknown = [1 for d, _ in out.conflicts + out.failures if d is None]
    if unknown:
        # the backend did not say which decision: keep them all pending rather than lose one
        out.keep_pending = list(decisions)
    else:
        out.keep_pending = [d for d in decisions if d.item in failed_items]
    return out


def summary_of(res: Any) -> str:
    if res is None:
        return "nothing to undo"
    if isinstance(res, str):
        return res
    for name in ("summary", "message"):
        val = getattr(res, name, None)
        if isinstance(val, str) and val:
            return val
    files = getattr(res, "files", None) or getattr(res, "restored", None)
    if files is not None:
        return f"undone: {len(files)} file(s) restored"
    return "undone"
