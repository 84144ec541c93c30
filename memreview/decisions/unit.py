"""What a queue declares about itself: its keys, its actions, its evidence, its plan.

A :class:`QueueUnit` is one queue as a whole: the detector that finds its items, the actions
a human may take on them (with the key of each and what each writes), the evidence the app
and the report show, and the function that turns a decision into edit operations. Each
queue's unit lives in ``memreview/decisions/units/<name>.py``; the table in
``memreview/decisions/registry.py`` lists them, and everything else reads that table.

Plain data only: nothing here imports Textual or Rich. Evidence is a list of blocks
(:class:`Facts`, :class:`RefBlock`, :class:`Pair`, :class:`Passage`, :class:`Caption`,
:class:`Differs`) with neutral style names; ``app/render.py`` turns each kind of block into
Rich text.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from memreview.i18n import N_, _

if TYPE_CHECKING:
    from memreview.decisions.model import Decision
    from memreview.decisions.plan import PlanBuilder, PlannedDecision
    from memreview.workspace.config import Config
    from memreview.workspace.model import Workspace


@dataclass(frozen=True)
class Verb:
    """A decision key: the same key means the same kind of thing in every queue."""

    name: str  # the binding id is "decide.<name>"
    key: str
    label: str  # footer text when the queue gives no better one
    tooltip: str


# The keys every queue shares. A queue that needs a key of its own declares it in its unit's
# ``verbs``. Two pseudo-verbs are bound by the app itself: "member" (digits 1-9: keep that
# member of a group) and "merge" (m: edit the merged text, then stage it).
VERBS: tuple[Verb, ...] = (
    Verb(
        "approve",
        "a",
        N_("approve"),
        N_("Approve the proposal: keep A, solidify, remove, keep the first"),
    ),
    Verb("keep_b", "b", N_("keep-b"), N_("Keep the newer side (B) of a contradiction")),
    Verb("keep", "k", N_("keep"), N_("Keep both sides / keep the archived fragment's entries")),
    Verb("reject", "r", N_("reject"), N_("Reject the proposal: reject, skip, not a duplicate")),
    Verb("defer", "d", N_("defer"), N_("Decide later: nothing is written")),
    Verb("snooze", "s", N_("snooze"), N_("Hide the dormant project for 28 days")),
    Verb("archive", "x", N_("archive"), N_("Mark the dormant project archived")),
    Verb("done", "D", N_("done"), N_("Mark the dormant project done")),
    Verb("pin", "p", N_("pin"), N_("Pin the anchor: set Importance: high")),
    Verb(
        "skill",
        "c",
        N_("create-skill"),
        N_("Write the candidate as SKILL.md in its own folder under skills/"),
    ),
    Verb("revive", "v", N_("revive"), N_("Add a todo for the project to NOW.md")),
)
MEMBER, MERGE = "member", "merge"

TONES = ("approve", "reject", "keep", "defer", "edit")


@dataclass(frozen=True)
class Act:
    """What a verb does in one queue: the decision's action, how it reads, what it writes.

    ``takes`` names the options a decision with this action may carry ("keep": which member
    stays, "text": the merged entry); ``keep`` is the one the key stages by itself;
    ``staged`` is how a staged decision reads when that differs from ``label``
    (``{keep}`` is replaced by its member number); ``lasting``: an undo of its batch does not
    take it back (a redaction: the value is gone from the backups too)."""

    verb: str
    action: str
    label: str
    tone: str  # approve | reject | keep | defer | edit: the colour (theme variable action-<tone>)
    effect: str
    keep: int | None = None
    takes: tuple[str, ...] = ()
    staged: str | None = None
    lasting: bool = False


DEFER = Act(
    "defer", "defer", N_("defer"), "defer", N_("nothing is written; the item stays in the queue")
)


# -- evidence: plain blocks the app renders ------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """``name value · name value``; pairs whose value is None or empty are left out."""

    pairs: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class RefBlock:
    """``label  file:line`` and the numbered lines of a ref (with ``before`` lines of context)."""

    ref: dict[str, Any]
    label: str
    before: int = 1
    marks: tuple[str, ...] = ()  # words to highlight in the entry's lines (shared substance)


@dataclass(frozen=True)
class Pair:
    """Two refs side by side."""

    left: RefBlock
    right: RefBlock


@dataclass(frozen=True)
class Passage:
    """A label on its own line, then a text from memory in ``style`` (tabs expanded when
    ``tabs``)."""

    label: str
    text: str
    style: str = "span"
    tabs: bool = False


@dataclass(frozen=True)
class Caption:
    """One line of memreview's own words."""

    text: str
    style: str = "label"


@dataclass(frozen=True)
class Differs:
    """A label, then each pair of texts from memory where two entries differ: ``a → b``
    (an empty side: nothing there)."""

    label: str
    pairs: tuple[tuple[str, str], ...]


Block = Facts | RefBlock | Pair | Passage | Caption | Differs

Detector = Callable[["Workspace", date], list[dict[str, Any]]]


# held while a detector's modules are imported (one thread at a time, see ImportedOnUse), and
# by the scan while it computes its first queue, whose detector may import numpy itself
IMPORTING = threading.RLock()


class ImportedOnUse:
    """The function ``name`` of module ``module``, imported when first called: the detectors
    bring numpy and rapidfuzz, which a scan that takes every queue from the cache never
    needs. It names itself as the function does (``__module__``, ``__qualname__``), so the
    scan cache keys a queue's result alike either way."""

    def __init__(self, module: str, name: str):
        self.__module__ = module
        self.__qualname__ = self.__name__ = name
        self._function: Callable[..., Any] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def resolve(self) -> Callable[..., Any]:
        """The function itself, imported now if it was not yet. The imports are made one at a
        time: numpy and rapidfuzz imported by two threads at once can fail half-way
        ("partially initialized module"), so the scan resolves its detectors before it starts
        the thread of the slow queues, and every other first call waits for the lock."""
        if self._function is None:
            with IMPORTING:
                if self._function is None:
                    module = importlib.import_module(self.__module__)
                    self._function = getattr(module, self.__name__)
        return self._function

    def __repr__(self) -> str:
        return f"<{self.__module__}.{self.__qualname__}, imported on use>"


Builder = Callable[["PlanBuilder", "PlannedDecision", "Decision", dict[str, Any]], None]


@dataclass(frozen=True)
class QueueUnit:
    """One queue: everything the scan, the planner, the app and the report know of it.

    - ``detect(workspace, today)`` lists the items (docs/design.md §6's JSON shape);
    - ``acts`` are the actions offered, in the app's order, each bound to a verb;
    - ``plan(builder, planned, decision, item)`` adds the decision's edit operations;
    - ``evidence(item)`` the blocks the app shows, ``note(item)`` the report's one-liner;
    - ``check(item, decision)`` raises DecisionError for option values the queue refuses;
    - ``missing(workspace)`` says why the queue can't have items (None when it can);
    - ``limit(config)`` caps the items shown (unless every item is asked for);
    - ``editor_file(config)`` the file ``o`` opens for an item without a ref;
    - ``slow``: computed in a thread beside the other queues;
    - ``apart``: computed in a second process beside the others when a command that ends
      with its scan may fork (``memreview.scan.apart``);
    - ``ahead``: computed too by the app's second process, which starts at launch and reads
      the workspace itself (``memreview.ahead``), so has the time for more than a
      command's, forked once the workspace is read;
    - ``verbs``: keys of this queue's own, besides the shared :data:`VERBS`;
    - ``health(workspace, items, today)``: figures of the queue's own in the scan's health,
      under its name (from every item, hidden ones too); ``health_view(figures)``: the
      heading's number and the lines of plain text the report and the app's health view show
      of them (None: nothing to show);
    - ``unhide``: the scan option (``all_promotions``) that shows the items decisions hide;
      ``unlimit``: the one (``all_dormant``) that lifts ``limit``;
    - ``deletes``: its decisions may delete entries with no archive copy (``memreview
      restore`` looks for them in the batch's backups);
    - ``secret_files(items)``: for a queue whose items are credentials found in memory (and
      masked): the memory files they are in. The scan cache keeps those files' parse out,
      and keeps out another queue's items holding a credential (this queue's are stored).
    """

    name: str
    title: str
    detect: Detector
    acts: tuple[Act, ...]
    plan: Builder
    evidence: Callable[[dict[str, Any]], list[Block]]
    note: Callable[[dict[str, Any]], str] = lambda item: ""
    check: Callable[[dict[str, Any], Decision], None] | None = None
    missing: Callable[[Workspace], str | None] | None = None
    limit: Callable[[Config], int] | None = None
    editor_file: Callable[[Config], str] | None = None
    slow: bool = False
    apart: bool = False
    ahead: bool = False
    verbs: tuple[Verb, ...] = ()
    health: Callable[[Workspace, list[dict[str, Any]], date], dict[str, Any]] | None = None
    health_view: Callable[[dict[str, Any]], tuple[int, list[str]] | None] | None = None
    unhide: str | None = None
    unlimit: str | None = None
    deletes: bool = False
    secret_files: Callable[[list[dict[str, Any]]], set[str]] | None = None

    @property
    def actions(self) -> tuple[str, ...]:
        """The action names a decision on this queue may carry, in the app's order."""
        return tuple(dict.fromkeys(a.action for a in self.acts))

    def act(self, verb: str) -> Act | None:
        """What ``verb`` does here, or None when it means nothing in this queue."""
        return next((a for a in self.acts if a.verb == verb), None)

    def act_by_action(self, action: str) -> Act | None:
        """The first act staging ``action`` (to label and colour a staged decision)."""
        return next((a for a in self.acts if a.action == action), None)


# -- helpers the units share -----------------------------------------------------------------


def in_words(table: dict[str, str], code: object) -> str | None:
    """A scan's code (``marker``, ``openclaw``…) as the owner reads it: its entry of ``table``
    (texts marked with ``N_``) translated, else the code itself."""
    if isinstance(code, str) and code in table:
        return _(table[code])
    return None if code is None else str(code)


def judge_note(item: dict[str, Any]) -> str:
    """The report's note on an item the judge scored: its confidence."""
    conf = item.get("confidence")
    if isinstance(conf, int | float) and not isinstance(conf, bool):
        return _(" — judge confidence {confidence}").format(confidence=f"{conf:.2f}")
    return ""


def judge_pair(
    item: dict[str, Any], first: tuple[str, object], left: RefBlock, right: RefBlock
) -> list[Any]:
    """Two anchors side by side under the judge's facts (contradictions, supersede)."""
    conf = item.get("confidence")
    shown = f"{conf:.2f}" if isinstance(conf, float) else conf
    return [
        Facts((first, (_("confidence"), shown), (_("reason"), item.get("reason")))),
        Pair(left, right),
    ]


def source_block(src: dict[str, Any] | None) -> Block | None:
    """A pipeline candidate's source lines in its daily log (``{file, start, end, missing,
    lines}``, the promotions and dropping queues' shape): the lines with the source marked,
    or a caption saying they are gone."""
    if not src:
        return None
    label = _("source {file}:{start}-{end}").format(
        file=src["file"], start=src["start"], end=src["end"]
    )
    if src.get("missing"):
        return Caption(_("{label}: source missing").format(label=label))
    text = "\n".join(
        f"{'>' if src['start'] <= n <= src['end'] else ' '} {n:>4}  {t}"
        for n, t in src.get("lines") or []
    )
    return Passage(label, text, tabs=True)
