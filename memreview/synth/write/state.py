"""Usage and dreaming state: the recall log, dreams.db, the judge's proposals, the skill
candidates and OpenClaw's short-term recall store (docs/design.md §1.3, §1.4)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from datetime import timedelta

from memreview.synth.dates import days_ago, iso
from memreview.synth.model import Builder
from memreview.synth.vocabulary import ID_TOPICS, PLATFORMS, TASKS_CN, THINGS_CN, TOOLS, sentence
from memreview.synth.write.files import write, write_data

DREAMS_TABLE = (
    "CREATE TABLE dreams (id INTEGER PRIMARY KEY, date TEXT NOT NULL, category TEXT, "
    "theme TEXT, content TEXT NOT NULL, context TEXT, emotion TEXT, source_date TEXT, "
    "content_hash TEXT, created_at TEXT, status TEXT NOT NULL DEFAULT 'candidate', "
    "mention_count INTEGER NOT NULL DEFAULT 1, first_seen TEXT, last_seen TEXT, "
    "confidence REAL, skill_candidate INTEGER NOT NULL DEFAULT 0)"
)


def write_recalls(b: Builder) -> None:
    """memory/recall_log.jsonl, sorted by time."""
    recalls = sorted(b.recalls)
    dumps = json.dumps
    data = "".join(
        dumps({"ts": ts, "id": i, "channel": ch, "query": q}, ensure_ascii=False) + "\n"
        for ts, i, ch, q in recalls
    ).encode("utf-8")
    write_data(b, "memory/recall_log.jsonl", data)
    b.manifest["counts"]["recalls"] = len(recalls)


def write_dreams_db(b: Builder) -> None:
    """memory/knowledge/dreams.db, in one transaction."""
    db = b.out / "memory/knowledge/dreams.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    if db.exists():
        db.unlink()
    con = sqlite3.connect(db)
    try:
        con.execute(DREAMS_TABLE)
        con.executemany(f"INSERT INTO dreams VALUES ({', '.join('?' * 16)})", b.fragment_rows)
        con.execute("CREATE INDEX idx_dreams_status ON dreams(status)")
        con.commit()
    finally:
        con.close()
    b.manifest["files"]["memory/knowledge/dreams.db"] = db.stat().st_size
    b.manifest["counts"]["fragments"] = len(b.fragment_rows)


def write_proposals(b: Builder) -> None:
    """memory/review/proposals.jsonl: one line per proposal, re-judged ids again later."""
    write(
        b, "memory/review/proposals.jsonl", [json.dumps(p, ensure_ascii=False) for p in b.proposals]
    )
    b.manifest["counts"]["proposals"] = len({p["id"] for p in b.proposals})
    b.manifest["counts"]["proposal_lines"] = len(b.proposals)


def write_skill_candidates(b: Builder) -> None:
    """memory/skill_candidates.json, with distinct themes."""
    r = b.rng
    cands: list[dict] = []
    for i in range(b.k(40)):
        theme = r.choice(
            [
                f"{r.choice(TASKS_CN)}自动化",
                f"{r.choice(PLATFORMS)} 截止检查",
                f"{r.choice(TOOLS)} 巡检",
                f"{r.choice(THINGS_CN)}推送",
            ]
        )
        theme = f"{theme} {i + 1}" if any(c["theme"] == theme for c in cands) else theme
        cands.append(
            {
                "theme": theme,
                "content": sentence(r),
                "count": r.randint(3, 12),
                "reason": f"最近 {r.randint(2, 4)} 周重复出现 {r.randint(3, 12)} 次",
            }
        )
    doc = {"updated_at": f"{iso(days_ago(1))}T03:06:02+08:00", "candidates": cands}
    data = (json.dumps(doc, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    write_data(b, "memory/skill_candidates.json", data)
    b.manifest["skills"] = [c["theme"] for c in cands]


def write_short_term_recall(b: Builder) -> None:
    """memory/.dreams/short-term-recall.json (OpenClaw's state; not in the manifest)."""
    r = b.rng
    entries = {}
    for day in b.log_dates[-min(len(b.log_dates), 30) :]:
        for _ in range(r.randint(1, 4)):
            s1 = r.randint(3, max(4, b.log_lines - 10))
            s2 = s1 + r.randint(0, 6)
            key = f"memory:memory/{iso(day)}.md:{s1}:{s2}"
            n = r.randint(1, 8)
            days = sorted({iso(day + timedelta(days=r.randint(0, 5))) for _ in range(n)})
            e = {
                "key": key,
                "path": f"memory/{iso(day)}.md",
                "startLine": s1,
                "endLine": s2,
                "snippet": sentence(r),
                "recallCount": n,
                "dailyCount": len(days),
                "totalScore": round(n * r.uniform(0.4, 0.8), 3),
                "maxScore": round(r.uniform(0.5, 0.95), 3),
                "firstRecalledAt": f"{days[0]}T03:00:00Z",
                "lastRecalledAt": f"{days[-1]}T03:00:00Z",
                "queryHashes": [
                    hashlib.sha1(f"{key}{k}".encode()).hexdigest()[:8] for k in range(min(n, 4))
                ],
                "recallDays": days,
                "conceptTags": r.sample(ID_TOPICS, 2),
            }
            if r.random() < 0.1:
                e["promotedAt"] = f"{days[-1]}T03:04:00Z"
            entries[key] = e
    for row in b.promotion_rows:
        entries[row["key"]] = row
    doc = {"version": 1, "updatedAt": f"{iso(days_ago(1))}T03:05:51Z", "entries": entries}
    p = b.out / "memory/.dreams/short-term-recall.json"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
