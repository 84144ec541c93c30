"""memreview's own state: ``.memreview/state.yaml`` (hidden items and snoozes, docs/design.md §4)."""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import SafeConstructor

from memreview import store
from memreview.i18n import N_, Message, _
from memreview.queues.common import former_id
from memreview.store import PathEscape, safe_read_bytes
from memreview.workspace.config import Config, load_config
from memreview.workspace.dates import parse_date
from memreview.workspace.model import Workspace
from memreview.workspace.yamlcap import CONFIG_LIMIT, MIB, YAMLRefused, load_yaml, size_text

STATE_FILE = ".memreview/state.yaml"
STATE_NAME = STATE_FILE.split("/", 1)[1]
STATE_LIMIT = CONFIG_LIMIT  # what parse_state reads
# A skipped candidate's text longer than INLINE_LIMIT bytes is kept beside state.yaml, in
# .memreview/skipped/<its sha256>.json, and state.yaml holds its digest: state.yaml stays
# under the size memreview reads back, whatever an agent put in a candidate.
KEPT_DIR = "skipped"
INLINE_LIMIT = 4096
KEPT_LIMIT = 32 * MIB  # what a kept candidate may hold (read back with this cap)
KEPT_NAME = re.compile(r"[0-9a-f]{64}\.json")


class StateUnreadable(Exception):
    """state.yaml is there but can't be read: it is never replaced by a fresh one (every
    hidden item in it would be lost). ``problem`` says why; the message says what to do."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(
            _(
                "{file} can't be read ({problem}); it was left as it is and nothing was "
                "changed: fix the file or move it aside, then run this again"
            ).format(file=STATE_FILE, problem=problem)
        )


def _kept_text(removed: dict[str, Any] | None) -> str | None:
    """The candidate text of ``removed`` when it is too long to stay in state.yaml."""
    text = (removed or {}).get("candidate")
    if isinstance(text, str) and len(text.encode("utf-8", "surrogatepass")) > INLINE_LIMIT:
        return text
    return None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def kept_name(digest: str) -> str:
    """The name under .memreview/ of the kept candidate whose sha256 is ``digest``."""
    return f"{KEPT_DIR}/{digest}.json"


SECRET_KEPT = "kept"  # the reason a kept secret is hidden under (decisions/units/secrets.py)


@dataclass
class Hidden:
    """Why an item is hidden, until when (None: for good), and the batch that hid it."""

    until: date | None  # None: for good
    reason: str
    batch: str | None = None
    removed: dict[str, Any] | None = None  # what the decision took out of a file (a skipped skill)

    def to_json(self) -> dict[str, Any]:
        """The entry as state.yaml (and an unhide's journal line) keeps it."""
        out: dict[str, Any] = {
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
    # entries memreview can't use (a forged type, an impossible date): written back as read
    other: dict[str, object] = field(default_factory=dict)

    def entry(self, item_id: str) -> Hidden | None:
        """The entry hiding ``item_id``: kept under its id, or under the id it had before
        its queue's prefix changed (a secret hidden as ``s-…``)."""
        h = self.hidden.get(item_id)
        if h is None and (old := former_id(item_id)) is not None:
            h = self.hidden.get(old)
            # an old ``s-`` id is also a supersede proposal's: only a secret's own entry (a
            # keep) stands for the secret, never a rejected proposal with the same digits
            if h is not None and h.reason != SECRET_KEPT:
                h = None
        return h

    def is_hidden(self, item_id: str, today: date) -> bool:
        """Whether the item is hidden on ``today`` (for good, or until a later day)."""
        h = self.entry(item_id)
        return h is not None and (h.until is None or today < h.until)

    def _stored(self, h: Hidden) -> dict[str, Any]:
        """The entry as state.yaml keeps it: a long candidate by its digest."""
        out = h.to_json()
        text = _kept_text(h.removed)
        if text is not None:
            removed = {k: v for k, v in out["removed"].items() if k != "candidate"}
            out["removed"] = {**removed, "candidate_sha256": _digest(text)}
        return out

    def kept_files(self) -> dict[str, bytes]:
        """{name under .memreview/: bytes} of the long candidates kept beside state.yaml."""
        out = {}
        for h in self.hidden.values():
            text = _kept_text(h.removed)
            if text is not None:
                out[kept_name(_digest(text))] = text.encode("utf-8", "surrogatepass")
        return out

    def kept_digests(self) -> set[str]:
        """The digests of every kept candidate state.yaml refers to (also one not found)."""
        out = set()
        for h in self.hidden.values():
            text = _kept_text(h.removed)
            digest = (
                _digest(text) if text is not None else (h.removed or {}).get("candidate_sha256")
            )
            if isinstance(digest, str):
                out.add(digest)
        return out

    def to_bytes(self) -> bytes:
        """state.yaml's bytes."""
        entries = {**self.other, **{k: self._stored(h) for k, h in self.hidden.items()}}
        doc = {"hidden": dict(sorted(entries.items()))}
        yaml = YAML(typ="safe", pure=True)
        yaml.default_flow_style = False
        buf = io.StringIO()
        buf.write("# memreview's own state: items hidden by a decision, and until when.\n")
        yaml.dump(doc, buf)
        return buf.getvalue().encode("utf-8")


class _DatesAsText(SafeConstructor):
    """Dates stay text, so one impossible date (2026-02-30) doesn't lose the whole file."""


_DatesAsText.add_constructor("tag:yaml.org,2002:timestamp", SafeConstructor.construct_yaml_str)


def parse_state(data: bytes | None, root: Path | None = None) -> tuple[State, str | None]:
    """A State from bytes, or an empty one and a one-line problem; with ``root``, the long
    candidates kept beside state.yaml are read back (one that is missing or changed stays
    a digest: the item stays hidden, and unhide says it can't put it back)."""
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
        if found is None:
            state.other[str(key)] = val
            continue
        state.hidden[str(key)] = found
        if root is not None:
            _read_kept(root, found)
    return state, None


def _read_kept(root: Path, h: Hidden) -> None:
    """The candidate text of ``h`` from its kept file, when state.yaml holds its digest and
    the file holds exactly that text."""
    removed = h.removed or {}
    digest = removed.get("candidate_sha256")
    if "candidate" in removed or not isinstance(digest, str):
        return
    if not KEPT_NAME.fullmatch(f"{digest}.json"):
        return
    try:
        data = store.read_private_within(root, kept_name(digest), KEPT_LIMIT)
    except (OSError, PathEscape):
        return
    if data is None or hashlib.sha256(data).hexdigest() != digest:
        return
    text = data.decode("utf-8", "surrogatepass")
    h.removed = {**{k: v for k, v in removed.items() if k != "candidate_sha256"}, "candidate": text}


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


def load_state(root: Path, ws: Workspace | None = None) -> State:
    """The workspace's state.yaml; an empty State when missing or unusable (with a warning
    on ``ws`` when it is given)."""
    try:
        # refuses a state file (or a .memreview/ directory) that links outside the workspace,
        # and one larger than parse_state reads (never read whole)
        data = store.read_private_within(root, STATE_NAME, STATE_LIMIT)
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
    state, problem = parse_state(data, root)
    if problem and ws is not None:
        ws.warn(STATE_FILE, None, problem)
    stale = _of_undone_batches(root, state)
    if stale:
        for item in stale:
            del state.hidden[item]
        if ws is not None:
            text = N_(
                "{count} item(s) hidden by a batch that was undone (the undo was cut short "
                "before it showed them again): shown again"
            )
            ws.warn(STATE_FILE, None, text, count=len(stale))
    return state


def _of_undone_batches(root: Path, state: State) -> list[str]:
    """The items ``state`` hides by a batch the journal says was undone: an undo killed
    after it wrote its files, before state.yaml. A completed undo leaves none."""
    ids = {h.batch for h in state.hidden.values() if h.batch}
    if not ids:
        return []
    try:
        undone = store.undone_among(root, ids)
    except (OSError, ValueError, PathEscape):
        return []
    return sorted(k for k, h in state.hidden.items() if h.batch in undone)


def state_for_change(root: Path) -> tuple[State, bytes | None]:
    """state.yaml read to be changed and written again, and its bytes now (None: there is
    none). Raises StateUnreadable when there is one memreview can't read: it is never
    replaced by a state that forgot what it held."""
    try:
        data = store.read_private_within(root, STATE_NAME, STATE_LIMIT)
    except PathEscape as exc:
        raise StateUnreadable(str(exc)) from None
    except OSError as exc:
        raise StateUnreadable(str(exc.strerror or exc)) from None
    state, problem = parse_state(data, root)
    if problem:
        raise StateUnreadable(str(problem))
    return state, data


def unwritable(state: State) -> str | None:
    """Why ``state`` must not be written (memreview could not read it back), or None."""
    data = state.to_bytes()
    if len(data) > STATE_LIMIT or parse_state(data)[1]:
        return _("{file} would be {size}, more than memreview reads back ({limit})").format(
            file=STATE_FILE, size=size_text(len(data)), limit=size_text(STATE_LIMIT)
        )
    for name, kept in state.kept_files().items():
        if len(kept) > KEPT_LIMIT:
            return _(
                "a skipped candidate of {size} is more than memreview keeps ({limit}) in {file}"
            ).format(
                size=size_text(len(kept)), limit=size_text(KEPT_LIMIT), file=f".memreview/{name}"
            )
    return None


def write_state(root: Path, state: State) -> None:
    """Write ``state``: its long candidates first (each beside state.yaml, by its digest),
    then state.yaml; the kept candidates it no longer refers to are removed. Under
    memreview's lock, like every read-modify-write of its files."""
    kept = state.kept_files()
    for name, data in kept.items():
        try:
            same = store.read_private_within(root, name, KEPT_LIMIT) == data
        except (OSError, PathEscape):
            same = False
        if not same:
            store.write_private(root, name, data)
    store.write_private(root, STATE_NAME, state.to_bytes())
    refs = {f"{d}.json" for d in state.kept_digests()}
    store.remove_private_unlisted(root, KEPT_DIR, KEPT_NAME, refs)


def config_of(root: Path) -> Config:
    """The workspace's settings (memreview.yaml; the defaults when it is missing or can't
    be read)."""
    try:
        data = safe_read_bytes(root, "memreview.yaml")
    except (OSError, PathEscape):
        data = None
    return load_config(data)[0]
