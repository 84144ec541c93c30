"""A small workspace whose entries and anchors are each in several queues: the promoted
entries are duplicates, an archived fragment, credentials; the anchors are in a contradiction,
a supersede proposal, the demotion queue and the dormant projects. Every queue has items."""

from __future__ import annotations

import json
from pathlib import Path

from shared_helpers import write_dreams_db

KEY = "sk-or-v1-3f9a1c0e7b2d4a6f8e1c3b5d7f9a2c4e6b8d0f1a3c5e7b9d"

MEMORY = f"""# Memory

## Facts
- The owner wants the daily digest before 07:00, one screen at most (2026-05-01 自动沉淀)
- The owner wants the daily digest before 07:00, one screen at most (2026-05-09 自动沉淀)
- Backups run nightly at 03:00 from the pi cron job (2026-06-01 自动沉淀)
- The summaries use the OpenRouter key {KEY} (2026-06-02 自动沉淀)
- The summaries use the OpenRouter key {KEY} (2026-06-12 自动沉淀)
- Zora was registered with wallet number 2 (2026-04-09 自动沉淀) <!-- project: zora-airdrop -->
"""

KNOWLEDGE = """# Knowledge

## [KNOWLEDGE:win11-gbk]
Added: 2026-06-22
Summary: Windows Python uses the GBK code page by default
CONFLICTS-WITH: [[win11-utf8]]
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

## [PROJECT:zora-airdrop]
Added: 2026-03-01
Status: active
Summary: Register for the Zora airdrop with wallet 2
---
"""

PROPOSAL = {
    "id": "p-0001",
    "ts": "2026-11-20T03:00:00Z",
    "relation": "supersedes",
    "new": "new-port",
    "old": "old-port",
    "confidence": 0.91,
    "reason": "the port moved",
}
RECALL = {"ts": "2026-11-01T03:00:00Z", "id": "win11-gbk", "channel": "search", "query": "gbk"}
CANDIDATES = {
    "updated_at": "2026-11-28T00:00:00Z",
    "candidates": [
        {
            "theme": "deploy checklist",
            "content": "Run the smoke test after deploys",
            "count": 4,
            "reason": "seen in 4 sessions",
        }
    ],
}
FRAGMENT = {
    "id": 1,
    "content": "Backups run nightly at 03:00 from the pi cron",
    "status": "archived",
    "last_seen": "2026-09-01",
    "date": "2026-08-01",
}


def write_shared(root: Path) -> Path:
    """Write the workspace under ``root`` (review date 2026-11-29) and return ``root``."""
    files = {
        "MEMORY.md": MEMORY,
        "memory/knowledge.md": KNOWLEDGE,
        "memory/2026-11-27.md": "# 2026-11-27\n\n- quiet\n",
        "memory/review/proposals.jsonl": json.dumps(PROPOSAL) + "\n",
        "memory/recall_log.jsonl": json.dumps(RECALL) + "\n",
        "memory/skill_candidates.json": json.dumps(CANDIDATES, indent=2) + "\n",
        "memreview.yaml": "review_date: 2026-11-29\n",
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    (root / "memory/knowledge").mkdir()
    write_dreams_db(root / "memory/knowledge/dreams.db", [FRAGMENT])
    return root
