"""A small hand-made workspace that fills every queue, for the app's tests."""

from __future__ import annotations

import json
from pathlib import Path

from shared_helpers import write_dreams_db

HOSTILE = "Evil [@click=app.quit] click [/bold] \x1b]0;title\x07 and \u202ereversed"

MEMORY = f"""# Memory

## Rules

- Always ask the owner before restarting the gateway

## Notes

- Backups run nightly at 03:00 from the pi cron job
- The gateway listens on port 18789 for local clients
- The gateway listens on port 18789 for local clients (2026-10-01)
- {HOSTILE} one
- {HOSTILE} one!

### Chronicle
| Date | Events |
|---|---|
| 2026-10-01 | gateway upgraded; cron fixed |
| 2026-10-01 | gateway upgraded |
| 2026-10-02 | quiet day |
"""

ANCHORS = """# Knowledge

## [KNOWLEDGE:win11-gbk]
Added: 2026-06-22
Summary: Windows Python uses the GBK code page by default
CONFLICTS-WITH: [[win11-utf8]]
Windows consoles still need chcp 65001.
---

## [KNOWLEDGE:win11-utf8]
Added: 2026-08-01
Summary: Windows Python uses UTF-8 by default
---

## [FACT:old-port]
Added: 2026-01-10
Summary: The gateway port was 8080
---

## [FACT:new-port]
Added: 2026-09-10
Summary: The gateway port is 18789
---

## [PREFERENCE:coffee]
Added: 2026-03-01
Summary: The owner drinks coffee at nine
---
"""

PROJECT = """# Gateway upgrade
Added: 2026-05-01
Status: active

Move the gateway to the new host.
"""


def write_sample(root: Path, skills: int = 2) -> Path:
    """Write the workspace under ``root`` (review date 2026-11-29) and return ``root``."""
    files = {
        "MEMORY.md": MEMORY,
        "memory/knowledge.md": ANCHORS,
        "memory/projects/gateway-upgrade.md": PROJECT,
        "memory/2026-11-27.md": "# 2026-11-27\n\n- quiet\n",
    }
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode("utf-8"))
    review = root / "memory/review"
    review.mkdir(parents=True, exist_ok=True)
    proposal = {
        "id": "p-0001",
        "ts": "2026-11-20T03:00:00Z",
        "relation": "supersedes",
        "new": "new-port",
        "old": "old-port",
        "confidence": 0.91,
        "reason": "the port moved",
    }
    (review / "proposals.jsonl").write_text(json.dumps(proposal) + "\n")
    recall = {"ts": "2026-11-01T03:00:00Z", "id": "win11-gbk", "channel": "search", "query": "gbk"}
    (root / "memory/recall_log.jsonl").write_text(json.dumps(recall) + "\n")
    candidates = [
        {
            "theme": "deploy checklist",
            "content": "Run the smoke test after deploys",
            "count": 4,
            "reason": "seen in 4 sessions",
        },
        {"theme": HOSTILE, "content": HOSTILE, "count": 2, "reason": "hostile"},
    ][:skills]
    (root / "memory/skill_candidates.json").write_text(
        json.dumps({"updated_at": "2026-11-28T00:00:00Z", "candidates": candidates})
    )
    db = root / "memory/knowledge/dreams.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    write_dreams_db(
        db,
        [
            {
                "id": 1,
                "content": "Backups run nightly at 03:00 from the pi cron",
                "status": "archived",
                "last_seen": "2026-09-01",
                "date": "2026-08-01",
            }
        ],
    )
    return root
