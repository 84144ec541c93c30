"""Fragments (the rows of dreams.db), the Lingxi memory/MEMORY.md that confirmed fragments
settle into, with its chronicle, and the archived queue: archived fragments whose content is
still in a memory file (some edited since, a fuzzy match), and ones the queue leaves out."""

from __future__ import annotations

import hashlib
import random
import re
from datetime import date

from memreview.synth.dates import REVIEW_DATE, START_DATE, days_ago, grown_date, iso
from memreview.synth.model import TOP_FRAGMENTS, Builder, Bullet, Section
from memreview.synth.plant.duplicates import near_variant
from memreview.synth.vocabulary import (
    EMOTIONS,
    THINGS_CN,
    chat_sentence,
    chronicle_event,
    sentence,
)
from memreview.workspace.normalize import normalize

LINGXI = "memory/MEMORY.md"
# Lingxi sections, the fragment category of each, and the module heading each sits under.
CATEGORY = {
    "### 偏好": "preference",
    "### 事实": "fact",
    "### 规则": "rule",
    "### 习惯": "fact",
    "### 人际": "fact",
}
MODULE = {
    "### 偏好": "## 模块一：主人画像",
    "### 事实": "## 模块一：主人画像",
    "### 习惯": "## 模块一：主人画像",
    "### 规则": "## 模块二：工作记忆",
    "### 人际": "## 模块二：工作记忆",
}
_PAREN_START = re.compile(r"[（(]")


class FragmentRows:
    """The dreams.db rows being built, in id order."""

    def __init__(self, r: random.Random):
        self.r = r
        self.rows: list[tuple] = []

    def add(
        self,
        content: str,
        status: str,
        last_seen: str,
        first_seen: str,
        category: str,
        emotion: str,
        skill: int = 0,
        mentions: int | None = None,
    ) -> int:
        """Add a row; returns its id."""
        r = self.r
        fid = len(self.rows) + 1
        day = first_seen[:10]
        self.rows.append(
            (
                fid,
                day,
                category,
                r.choice(THINGS_CN),
                content,
                sentence(r)[:30],
                emotion,
                day,
                hashlib.sha256(f"{fid}:{content}".encode()).hexdigest()[:16],
                f"{day}T03:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}+08:00",
                status,
                mentions if mentions is not None else r.randint(1, 9),
                first_seen,
                last_seen,
                round(r.uniform(0.3, 0.97), 2),
                skill,
            )
        )
        return fid

    def add_archived(self, content: str, day: date) -> int:
        """Add a fragment archived on ``day``, mentioned once; returns its id."""
        r = self.r
        return self.add(
            content,
            "archived",
            self.seen(day),
            iso(grown_date(r, hi=day)),
            "fact",
            r.choice(EMOTIONS),
            mentions=1,
        )

    def seen(self, day: date) -> str:
        """last_seen written as a date, a timestamp or a space-separated timestamp."""
        r = self.r
        x = r.random()
        if x < 0.5:
            return iso(day)
        if x < 0.8:
            return f"{iso(day)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:00+08:00"
        return f"{iso(day)} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"


def plant_fragments(b: Builder) -> None:
    """All fragments and the Lingxi file, in this order (one random stream): settled ones,
    archived ones, the rest; then the chronicle."""
    rows = FragmentRows(b.rng)
    secs = {h: b.section(LINGXI, h) for h in CATEGORY}
    b.lingxi_module_of = dict(MODULE)
    _settled(b, rows, secs)
    _archived(b, rows)
    _other_fragments(b, rows)
    b.fragment_rows = rows.rows
    _chronicle(b)


def _settled(b: Builder, rows: FragmentRows, secs: dict[str, Section]) -> None:
    """Confirmed fragments settle into the Lingxi file; a few are written there twice."""
    r = b.rng
    sections = list(CATEGORY)
    for _ in range(max(10, round(b.total_entries * 0.04))):
        h = r.choice(sections)
        content = sentence(r)
        emotion = r.choice(EMOTIONS)
        first = grown_date(r)
        rows.add(
            content, "confirmed", rows.seen(grown_date(r, first)), iso(first), CATEGORY[h], emotion
        )
        secs[h].bullets.append(Bullet(f"- {content}（{emotion}）（{iso(first)} 自动沉淀）"))
    # planted fingerprint duplicates among the settled fragments (written twice)
    for _ in range(max(1, b.k(40) // 2)):
        h = r.choice(sections)
        content = sentence(r)
        emotion = r.choice(EMOTIONS)
        texts = [f"- {content}（{emotion}）（{iso(grown_date(r))} 自动沉淀）" for _ in range(2)]
        if texts[0] == texts[1]:
            texts[1] = texts[1].replace("自动沉淀", " 自动沉淀")
        for t in texts:
            secs[h].insert(r, Bullet(t, planted=True))
        b.manifest["duplicates"]["fingerprint"].append(
            {"file": LINGXI, "section": h, "texts": texts}
        )


def _archived(b: Builder, rows: FragmentRows) -> None:
    """Archived fragments of unplanted one-line bullets: in the queue (archived 30 days ago
    or more), and archived too recently (left out)."""
    r = b.rng
    m = b.manifest
    pool = [
        (rel_, s, bl)
        for rel_, ss in b.bullet_files.items()
        for s in ss
        if s.heading != "## 身份与协作"
        for bl in s.bullets
        if not bl.planted and "\n" not in bl.text
    ]
    picks = r.sample(pool, min(len(pool), b.k(300)))
    for i, (frel, _s, bl) in enumerate(picks):
        core = _PAREN_START.split(normalize(bl.text), 1)[0].strip()
        if len(core) < 16:
            continue
        content = core
        if i % 3 == 2 and len(core) >= 18:  # the entry was edited since: a fuzzy match
            for _ in range(5):
                v = near_variant(r, core)
                if len(v) <= len(core):  # never longer than the entry it is found in
                    content = v
                    break
        day = days_ago(r.randint(30, 200))
        fid = rows.add_archived(content, day)
        m["archived"].append(
            {"fragment": fid, "file": frel, "entry": bl.text, "days": (REVIEW_DATE - day).days}
        )
        bl.planted = True
    picks = r.sample(pool, min(len(pool), b.k(60)))
    for _frel, _s, bl in picks:
        if bl.planted:
            continue
        day = days_ago(r.randint(1, 29))
        fid = rows.add_archived(normalize(bl.text), day)
        m["archived_excluded"].append({"fragment": fid, "why": "recent"})
        bl.planted = True


def _other_fragments(b: Builder, rows: FragmentRows) -> None:
    """Up to the scale's count: chit-chat that aged out, fresh candidates (a few flagged as
    skill candidates), confirmed ones."""
    r = b.rng
    n_frag = max(40, round(TOP_FRAGMENTS * b.scale))
    while len(rows.rows) < n_frag:
        x = r.random()
        if x < 0.15:
            day = days_ago(r.randint(30, 250))
            rows.add_archived(chat_sentence(r), day)
            continue
        fresh = x < 0.60  # a candidate first seen in the last 60 days, else confirmed
        first = grown_date(r, days_ago(60)) if fresh else grown_date(r)
        skill = 1 if fresh and r.random() < 0.03 else 0
        rows.add(
            sentence(r),
            "candidate" if fresh else "confirmed",
            rows.seen(grown_date(r, first)),
            iso(first),
            r.choice(["fact", "preference", "rule"]),
            r.choice(EMOTIONS),
            skill,
        )


def _chronicle(b: Builder) -> None:
    """Chronicle rows of the Lingxi file; some dates two or three times."""
    r = b.rng
    n_days = max(6, round(300 * b.scale))
    days = sorted({grown_date(r, START_DATE, days_ago(1)) for _ in range(n_days * 2)})
    days = days[:n_days] if len(days) > n_days else days
    dup_days = set(r.sample(days, min(len(days), b.k(30))))
    for d in days:
        events = [chronicle_event(r) for _ in range(r.randint(1, 3))]
        note = r.choice(["", "", "", "主人在场", "断线恢复", "补跑"])
        b.chronicle.append(f"| {iso(d)} | {'；'.join(events)} | {note} |")
        if d in dup_days:
            for _ in range(r.randint(1, 2)):
                extra = [r.choice(events)] + [chronicle_event(r) for _ in range(r.randint(0, 2))]
                b.chronicle.append(f"| {iso(d)} | {'；'.join(extra)} | |")
            b.manifest["duplicates"]["chronicle"].append({"file": LINGXI, "date": iso(d)})
