"""The workspace being built: anchors, bullets in sections, and the ``Builder`` that holds
everything the planting stages add before the writers turn it into files.

One ``random.Random`` (``Builder.rng``) drives every choice, so the output depends only on
the scale and the seed, and on the order in which ``generate`` runs the stages.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from memreview.synth.dates import REVIEW_DATE, grown_date, iso
from memreview.synth.vocabulary import (
    AGENTS,
    CJK_IDS,
    CODENAMES,
    ID_ASPECTS,
    ID_QUALIFIERS,
    ID_TOPICS,
    INCIDENT_WORDS,
    PROJECT_THINGS,
    sentence,
)

# Top-scale sizes (scale 1.0).
TOP_ENTRIES = 25_000
TOP_LOGS = 90
TOP_LOG_LINES = 2_000
TOP_FRAGMENTS = 20_000
TOP_RECALLS = 50_000
TOP_PROJECTS = 600

ANCHORS_PER_FILE = 250


@dataclass
class AnchorSpec:
    """One anchor block (docs/design.md §1.2) as it will be written."""

    type: str
    id: str
    added: str | None
    summary: str
    meta: list[tuple[str, str]] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    level: int = 2
    planted: str = ""  # why it exists, for the manifest

    def lines(self) -> list[str]:
        """The block's lines, heading to the closing ``---``."""
        out = [f"{'#' * self.level} [{self.type}:{self.id}]"]
        if self.added is not None:
            out.append(f"Added: {self.added}")
        out.append(f"Summary: {self.summary}")
        out.extend(f"{k}: {v}" for k, v in self.meta)
        out.extend(self.body)
        out.append("---")
        return out

    def add_ref(self, key: str, target: str) -> None:
        """Cite ``[[target]]`` on the ``key`` line (SEE-ALSO, ...), adding the line if needed."""
        for k, (name, value) in enumerate(self.meta):
            if name == key:
                self.meta[k] = (name, f"{value}, [[{target}]]")
                return
        self.meta.append((key, f"[[{target}]]"))


@dataclass
class Bullet:
    """One bullet entry of a memory file."""

    text: str  # the whole line, with its "- "
    planted: bool = False


@dataclass
class Section:
    """A heading of a memory file and the bullets under it."""

    heading: str  # the heading line, or "" for a file's top section
    bullets: list[Bullet] = field(default_factory=list)
    raw_before: list[str] = field(default_factory=list)  # lines between heading and bullets

    def insert(self, r: random.Random, bullet: Bullet) -> None:
        """Insert ``bullet`` at a random place."""
        self.bullets.insert(r.randint(0, len(self.bullets)), bullet)


class Builder:
    """Everything planted so far, and the manifest of it (returned by ``generate``)."""

    def __init__(self, out: Path, scale: float, seed: int):
        self.out = out
        self.scale = scale
        self.rng = random.Random(seed)
        self.total_entries = max(200, round(TOP_ENTRIES * scale))
        self.manifest: dict = {
            "scale": scale,
            "seed": seed,
            "review_date": iso(REVIEW_DATE),
            "contradictions": [],
            "supersede": [],
            "supersede_excluded": [],
            "skills": [],
            "archived": [],
            "archived_excluded": [],
            "duplicates": {"chronicle": [], "fingerprint": [], "near": []},
            "dormant": [],
            "active_projects": [],
            "closed_projects": [],
            "demotion": [],
            "not_demoted": [],
            "counts": {},
            "files": {},
        }
        self.used_ids: set[str] = set()
        self.used_keys: set[str] = set()
        self.anchors: list[AnchorSpec] = []
        self.anchor_files: dict[str, list[AnchorSpec]] = {}
        self.archive_anchors: list[AnchorSpec] = []  # superseded earlier, in memory/archive/
        self.bullet_files: dict[str, list[Section]] = {}
        self.protected_ids: set[str] = set()  # never cited / recalled at random
        self.boot_ids: list[str] = []  # listed in a *.boot.md
        self.recalls: list[tuple[str, str, str, str]] = []  # (ts, id, channel, query)
        self.proposals: list[dict] = []  # judge lines, in file order
        self.proposal_serial = 0
        # daily logs (plant.logs)
        self.log_dates: list[date] = []
        self.empty_log: date | None = None
        self.log_lines = 0  # lines per log
        self.mentions: dict[str, list[str]] = {}  # log date -> texts that must appear
        # projects (plant.dormant)
        self.project_files: dict[str, list[str]] = {}  # memory/projects/*.md -> lines
        self.marker_keys: list[str] = []  # projects known only from a <!-- project: --> marker
        # knowledge files and the Lingxi MEMORY.md (plant.bullets, plant.archived)
        self.knowledge_files: list[str] = []
        self.gbk_rel = ""  # the one knowledge file written in GBK with CRLF
        self.lingxi_module_of: dict[str, str] = {}  # Lingxi section -> its module heading
        self.fragment_rows: list[tuple] = []  # dreams.db rows
        self.chronicle: list[str] = []  # rows of the Lingxi chronicle table
        self.promotion_rows: list[dict] = []  # short-term store rows of plant.promotions

    def k(self, top: float, minimum: int = 2) -> int:
        """``top`` scaled, at least ``minimum``."""
        return max(minimum, round(top * self.scale))

    # -- ids ---------------------------------------------------------------------------

    def new_id(self) -> str:
        """An anchor id not used yet."""
        r = self.rng
        for _ in range(50):
            if r.random() < 0.03:
                cand = f"{r.choice(CJK_IDS)}-{r.randint(2, 999)}"
            else:
                cand = f"{r.choice(ID_TOPICS)}-{r.choice(ID_ASPECTS)}-{r.choice(ID_QUALIFIERS)}"
            if cand not in self.used_ids:
                self.used_ids.add(cand)
                return cand
        n = 2
        while f"{cand}-{n}" in self.used_ids:
            n += 1
        self.used_ids.add(f"{cand}-{n}")
        return f"{cand}-{n}"

    def new_key(self) -> tuple[str, str]:
        """A project key and title; no title is a substring of another (titles count as
        mentions in daily logs), and keys never collide with random anchor ids (disjoint
        vocabularies)."""
        r = self.rng
        for attempt in range(200):
            code, thing = r.choice(CODENAMES), r.choice(list(PROJECT_THINGS))
            extra = r.choice(CODENAMES) if attempt >= 60 else ""
            key = f"{code}-{thing}-{extra}" if extra else f"{code}-{thing}"
            if key not in self.used_keys:
                break
        else:
            n = 2
            while f"{key}-{n}" in self.used_keys:
                n += 1
            extra = str(n)
            key = f"{key}-{n}"
        self.used_keys.add(key)
        words = [code.capitalize(), PROJECT_THINGS[thing]] + ([extra.capitalize()] if extra else [])
        return key, f"「{' '.join(words)}」"

    # -- anchors -----------------------------------------------------------------------

    def random_anchor(self, type_: str | None = None, added: date | None = None) -> AnchorSpec:
        """A new anchor of ``type_`` (random if None) with random meta lines; not added yet."""
        r = self.rng
        t = (
            type_
            or r.choices(
                ["KNOWLEDGE", "FACT", "LESSON", "DECISION", "PREFERENCE", "RULE", "INFRA"],
                weights=[30, 25, 15, 10, 8, 6, 6],
            )[0]
        )
        summary = sentence(r)
        while any(w in summary.lower() for w in INCIDENT_WORDS):
            summary = sentence(r)
        meta: list[tuple[str, str]] = []
        x = r.random()
        if x < 0.15:
            meta.append(("Importance", r.choice(["low", "medium", "2", "3", "中"])))
        elif x < 0.22:
            meta.append(("Importance", r.choice(["high", "4", "5", "高"])))
        y = r.random()
        if y < 0.5:
            meta.append(("Source", r.choice(["dreaming", "extractor", "session", "heartbeat"])))
        elif y < 0.58:
            meta.append(("Source", r.choice(["owner", "主人"])))
        body = []
        if r.random() < 0.6:
            body.append(sentence(r))
        return AnchorSpec(
            t,
            self.new_id(),
            iso(added or grown_date(r)),
            summary,
            meta,
            body,
            level=3 if r.random() < 0.1 else 2,
        )

    def add_anchor(self, a: AnchorSpec, agent: str | None = None) -> AnchorSpec:
        """File ``a`` under an agent (random if None), at most ANCHORS_PER_FILE a file."""
        agent = agent or self.rng.choice(AGENTS)
        kind = {"RULE": "rules", "INFRA": "infra", "PROJECT": "projects"}.get(a.type, "knowledge")
        base = f"memory/agents/{agent}/{kind}"
        n = 1
        while True:
            rel = f"{base}.md" if n == 1 else f"{base}-{n}.md"
            lst = self.anchor_files.setdefault(rel, [])
            if len(lst) < ANCHORS_PER_FILE:
                lst.append(a)
                break
            n += 1
        self.anchors.append(a)
        return a

    # -- bullets and logs --------------------------------------------------------------

    def section(self, rel: str, heading: str) -> Section:
        """The section ``heading`` of memory file ``rel``, created at its end if missing."""
        secs = self.bullet_files.setdefault(rel, [])
        for s in secs:
            if s.heading == heading:
                return s
        s = Section(heading)
        secs.append(s)
        return s

    def mention(self, day: date, text: str) -> None:
        """Make the daily log of ``day`` contain the line ``text``."""
        self.mentions.setdefault(iso(day), []).append(text)

    def log_days(self, lo: int, hi: int) -> list[date]:
        """Existing, non-empty log dates between lo and hi days before the review date."""
        return [
            d for d in self.log_dates if lo <= (REVIEW_DATE - d).days <= hi and d != self.empty_log
        ]
