"""The shape of each queue's items, as ``scan --json`` prints them and the app and the
decisions read them (docs/cli.md lists the same fields for owners' scripts).

Items stay plain dicts on the wire (JSON, the scan cache); these types say which keys each
queue's items have and what they hold, and ``tests/queues/test_item_types.py`` holds every
queue's items on the sample and the realistic cases to them.
"""

from typing import NotRequired, TypedDict


class Ref(TypedDict):
    """An entry or anchor in a file: an anchor's ref points at its header line."""

    file: str
    line: int
    end_line: int
    text: str
    anchor: str | None
    lines: NotRequired[list[int]]  # a run of entries: each entry's line (a block)
    headings: NotRequired[list[int]]  # a block's copy: the lines of the headings it carries


class ScoredRef(Ref):
    score: float


class SourceLines(TypedDict):
    """The daily-log lines a promotion or a short-term candidate came from."""

    file: str
    start: int
    end: int
    missing: bool
    lines: list[list[int | str]]  # [line number, text]


class Flag(TypedDict):
    flag: str
    reason: str
    label: NotRequired[str]


class ContradictionItem(TypedDict):
    id: str
    title: str
    a: Ref
    b: Ref
    source: str  # marker | judge | both
    confidence: float | None
    reason: str | None
    proposals: list[str]


class SupersedeItem(TypedDict):
    id: str
    title: str
    new: Ref
    old: Ref
    confidence: float | None
    reason: str | None
    proposal: str


class SkillItem(TypedDict):
    id: str
    title: str
    theme: str
    slug: str
    content: str
    count: int
    reason: str | None


class Fragment(TypedDict):
    id: str
    content: str
    status: str
    last_seen: str | None


class ArchivedItem(TypedDict):
    id: str
    title: str
    fragment: Fragment
    days_since_last_seen: int
    matches: list[ScoredRef]


class Evidence(TypedDict):
    """Why the entries of a duplicates item are one fact."""

    shared: list[str]  # the substance they have in common, rarest first
    differs: list[list[str]]  # [one side's value, the other's]


class DuplicateItem(TypedDict):
    id: str
    title: str
    kind: str
    refs: list[Ref]
    merged: str | None
    score: float | None
    evidence: NotRequired[Evidence]
    # the ids a rule the substance measure took over gave the same pair (state.yaml may
    # still hide it under one of them)
    former_ids: NotRequired[list[str]]


class PartialMention(TypedDict):
    file: str
    line: int
    date: str
    text: str
    words: list[str]


class DormantItem(TypedDict):
    id: str
    title: str
    project: str
    ref: Ref
    last_mentioned: str | None
    days_dormant: int | None
    source: str
    partial_mentions: list[PartialMention]


class DemotionItem(TypedDict):
    id: str
    title: str
    anchor: Ref
    recalls_90d: int
    age_days: int
    promoted: NotRequired[str]
    marker: NotRequired[str]


class StoreFigures(TypedDict):
    recall_days: int | None
    last_recalled: str | None
    promoted_at: str | None


class PromotionItem(TypedDict):
    id: str
    title: str
    origin: str
    key: str
    ref: Ref
    marker_line: int | None
    promoted: str
    group: str | None
    text: str
    tail: str
    score: float | None
    signals: int | None
    recalls: int | None
    avg: float | None
    importance: int | None
    trigger: str | None
    source: SourceLines | None
    store: StoreFigures | None
    recalled_since: int | None
    flags: list[Flag]


class StoreRef(TypedDict):
    """A secret in the recall store: no line of a file to point at."""

    file: str
    line: None
    end_line: None
    text: str
    anchor: None


class SecretItem(TypedDict):
    id: str
    title: str
    kinds: list[str]
    source: str
    writable: bool
    ref: Ref | StoreRef
    masked: list[str]
    text: str
    not_written: NotRequired[str]


class DroppingItem(TypedDict):
    id: str
    title: str
    origin: str
    key: str
    text: str
    days_left: int
    age_days: int
    evicted_next: bool
    score: float
    recalls: int
    queries: int | None
    last_recalled: str | None
    fails: list[str]
    source: SourceLines
    secret: bool
    flags: list[Flag]
    evidence: NotRequired[str]


ITEM_TYPES: dict[str, type] = {
    "contradictions": ContradictionItem,
    "supersede": SupersedeItem,
    "skills": SkillItem,
    "archived": ArchivedItem,
    "duplicates": DuplicateItem,
    "dormant": DormantItem,
    "demotion": DemotionItem,
    "promotions": PromotionItem,
    "secrets": SecretItem,
    "dropping": DroppingItem,
}
