"""memreview's own state: ``.memreview/state.yaml`` (hidden items and snoozes, docs/design.md §4)."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.constructor import SafeConstructor

from memreview.i18n import N_, Message
from memreview.queues.common import former_id
from memreview.store import PathEscape, safe_read_bytes
from memreview.workspace.config import Config, load_config
from memreview.workspace.dates import parse_date
from memreview.workspace.yamlcap import CONFIG_LIMIT, YAMLRefused, load_yaml

STATE_FILE = ".memreview/state.yaml"


@dataclass
class Hidden:
    """Why an item is hidden, until when (None: for good), and the batch that hid it."""

    until: date | None  # None: for good
    reason: str
    batch: str | None = None
    removed: dict | None = None  # what the decision took out of a file (a skipped skill)

    def to_json(self) -> dict:
        """The entry as state.yaml (and an unhide's journal line) keeps it."""
        out = {
            "until": self.until.isoformat() if self.until else None,
            "reason": self.reason,
            "batch": self.batch,
        }
        if self.removed is not None:
            out["removed"] = self.removed
        return out


@dataclass
class State:
    """``.memreview/state.yaml`` as read: the hidden items by id."""

    hidden: dict[str, Hidden] = field(default_factory=dict)

    def entry(self, item_id: str) -> Hidden | None:
        """The entry hiding ``item_id``: kept under its id, or under the id it had before
        its queue's prefix changed (a secret hidden as ``s-…``)."""
        h = self.hidden.get(item_id)
        if h is None and (old := former_id(item_id)) is not None:
            h = self.hidden.get(old)
        return h

    def is_hidden(self, item_id: str, today: date) -> bool:
        """Whether the item is hidden on ``today`` (for good, or until a later day)."""
        h = self.entry(item_id)
        return h is not None and (h.until is None or today < h.until)

    def to_bytes(self) -> bytes:
        """state.yaml's bytes."""
        doc = {"hidden": {k: h.to_json() for k, h in sorted(self.hidden.items())}}
        yaml = YAML(typ="safe", pure=True)
        yaml.default_flow_style = False
        buf = io.StringIO()
        buf.write("# memreview's own state: items hidden by a decision, and until when.\n")
        yaml.dump(doc, buf)
        return buf.getvalue().encode("utf-8")


class _DatesAsText(SafeConstructor):
    """Dates stay text, so one impossible date (2026-02-30) doesn't lose the whole file."""


_DatesAsText.add_constructor("tag:yaml.org,2002:timestamp", SafeConstructor.construct_yaml_str)


def parse_state(data: bytes | None) -> tuple[State, str | None]:
    """A State from bytes, or an empty one and a one-line problem."""
    state = State()
    if not data:
        return state, None
    try:
        doc = load_yaml(data, limit=CONFIG_LIMIT, constructor=_DatesAsText)
    except YAMLRefused as exc:
        return state, Message(N_("refused: {reason}; hidden items ignored"), reason=str(exc))
    except Exception as exc:  # ruamel's error types vary with the damage
        mark = getattr(exc, "problem_mark", None)
        error = type(exc).__name__
        if mark is None:
            text = N_("broken YAML ({error}); hidden items ignored")
            return state, Message(text, error=error)
        text = N_("broken YAML at line {line} ({error}); hidden items ignored")
        return state, Message(text, line=mark.line + 1, error=error)
    if doc is None:
        return state, None
    if not isinstance(doc, dict) or not isinstance(doc.get("hidden", {}), dict):
        return state, Message(N_("expected a mapping with 'hidden'; hidden items ignored"))
    for key, val in (doc.get("hidden") or {}).items():
        found = hidden_from(val)
        if found is not None:
            state.hidden[str(key)] = found
    return state, None


def hidden_from(val: object) -> Hidden | None:
    """A state entry from its mapping (state.yaml's, or a journal line's), or None when it
    is not one (an impossible date: shown again rather than hidden for good)."""
    if not isinstance(val, dict):
        return None
    until = val.get("until")
    until_d = parse_date(str(until)) if until else None
    if until and until_d is None:
        return None
    batch, removed = val.get("batch"), val.get("removed")
    return Hidden(
        until_d,
        str(val.get("reason") or ""),
        batch if isinstance(batch, str) else None,
        removed if isinstance(removed, dict) else None,
    )


def load_state(root: Path, ws=None) -> State:
    """The workspace's state.yaml; an empty State when missing or unusable (with a warning
    on ``ws`` when it is given)."""
    try:
        # refuses a state file (or a .memreview/ directory) that links outside the workspace
        data = safe_read_bytes(root, STATE_FILE)
    except FileNotFoundError:
        data = None
    except PathEscape:
        if ws is not None:
            text = N_("skipped: leads outside the workspace; hidden items ignored")
            ws.warn(STATE_FILE, None, text)
        return State()
    except OSError as exc:
        if ws is not None:
            text = N_("cannot read: {error}; hidden items ignored")
            ws.warn(STATE_FILE, None, text, error=str(exc.strerror or exc))
        return State()
    state, problem = parse_state(data)
    if problem and ws is not None:
        ws.warn(STATE_FILE, None, problem)
    return state


def config_of(root: Path) -> Config:
    """The workspace's settings (memreview.yaml; the defaults when it is missing or can't
    be read)."""
    try:
        data = safe_read_bytes(root, "memreview.yaml")
    except (OSError, PathEscape):
        data = None
    return load_config(data)[0]
