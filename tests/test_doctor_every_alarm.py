"""One realistic OpenClaw workspace where every alarm fires at once (the doctor's whole
output), and the quiet sample's alarms: each alarm's id is listed exactly once."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
import time
from pathlib import Path

from memreview.cli import main

TODAY = "2026-11-30"
EVERY_ALARM = {
    "dreaming-silent",
    "dreaming-promoted-none",
    "recall-store-legacy",
    "recall-store-full",
    "recall-store-over-cap",
    "promotion-starved",
    "memory-over-bootstrap",
    "promotion-budget",
    "promotions-deleted",
    "runaway-write",
    "stale-lock",
}


def _state_db(db: Path, ws: Path) -> None:
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE plugin_state_entries (plugin_id TEXT, namespace TEXT, entry_key TEXT, "
        "value_json TEXT, created_at INTEGER, expires_at INTEGER)"
    )
    real = str(ws.resolve())
    wkey = hashlib.sha256(real.encode()).hexdigest()
    rows = []
    for k in range(512):  # at the cap, and every entry recalled once by one query
        key = f"memory:memory/2026-11-{1 + k % 28:02d}.md:{k + 1}:{k + 1}"
        value = {
            "key": key,
            "snippet": f"a fact {k}",
            "recallCount": 1,
            "totalScore": 0.6,
            "queryHashes": ["q"],
            "dailyCount": 1,
        }
        doc = {"version": 1, "workspaceKey": wkey, "workspaceDir": real, "key": key, "value": value}
        rows.append(("memory-core", "short-term-recall", f"{wkey}:{k}", json.dumps(doc), 0, None))
    taken = int(time.time() * 1000) - 6 * 3_600_000  # six hours ago, by a process long gone
    lock = {
        "version": 1,
        "workspaceKey": wkey,
        "workspaceDir": real,
        "key": "promotion",
        "value": {"owner": f"999999999:{taken}", "acquiredAt": taken},
    }
    rows.append(("memory-core", "short-term-locks", wkey, json.dumps(lock), taken, None))
    con.executemany("INSERT INTO plugin_state_entries VALUES (?, ?, ?, ?, ?, ?)", rows)
    con.commit()
    con.close()


def build_every_alarm(root: Path) -> Path:
    """A workspace built so that each alarm fires (see the comments)."""
    files: dict[str, str | bytes] = {}
    # promotions: 9 dated sections, 60 bullets; MEMORY.md past 20,000 characters (bootstrap)
    # and so past the promotion budget
    body = "# Memory\n\n## Rules\n- API keys never go into memory files\n\n"
    for d in range(1, 10):
        body += f"## Promoted From Short-Term Memory (2026-11-{d:02d})\n\n"
        for k in range(7):
            key = f"memory:memory/2026-11-{d:02d}.md:{k + 1}:{k + 1}"
            body += (
                f"<!-- openclaw-memory-promotion:{key} -->\n- On 2026-11-{d:02d} the nightly "
                f"sync step {k} moved the photo archive to the NAS and checked its hashes "
                "against the manifest before deleting anything from the laptop, as agreed "
                f"[score=0.812 signals=4 recalls=3 avg=0.790 source=memory/2026-11-{d:02d}.md:"
                f"{k + 1}-{k + 1}] <!-- importance: 8 -->\n"
            )
        body += "\n"
    files["MEMORY.md"] = body + "## Notes\n" + "- a note about the garden and the roses\n" * 280
    # the owner reviewed on 2026-11-22, when two more sections stood (OpenClaw's budget
    # compaction deleted them since: promotions-deleted)
    keys = {
        f"memory:memory/2026-10-{d}.md:2:2": {
            "file": "MEMORY.md",
            "hash": "0",
            "seen": "2026-11-22",
            "text": f"- The router's admin page moved to port 8443 on 2026-10-{d} [score=0.8…",
        }
        for d in (20, 21)
    }
    seen = {"schema": 1, "reviewed": "2026-11-22", "keys": keys, "gone": {}}
    files[".memreview/promotions-seen.json"] = json.dumps(seen)
    # daily logs every day of November; the 29th is a runaway night
    for d in range(1, 30):
        files[f"memory/2026-11-{d:02d}.md"] = f"# 2026-11-{d:02d}\n" + "- worked on the NAS\n" * 12
    files["memory/2026-11-29.md"] = "# 2026-11-29\n" + "- dream fragment: the NAS hums\n" * 400
    # deep sleep ran until the 22nd, ranking candidates and promoting none (promoted-none);
    # nothing since (dreaming-silent)
    for d in (19, 20, 21, 22):
        files[f"memory/dreaming/deep/2026-11-{d}.md"] = (
            "# Deep Sleep\n\n- Ranked 6 candidate(s) for durable promotion.\n"
            "- Promoted 0 candidate(s) into MEMORY.md.\n"
        )
    # the legacy store, past 90 % of its limit (1 MiB here, set below)
    entries = {
        f"memory:memory/2026-10-{1 + k % 28:02d}.md:{k}:{k}": {"snippet": "x" * 900}
        for k in range(1100)
    }
    files["memory/.dreams/short-term-recall.json"] = json.dumps({"version": 1, "entries": entries})
    files["memreview.yaml"] = (
        "openclaw_state_db: state/openclaw.sqlite\nalarms:\n  legacy_store_mib: 1\n"
    )
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    (root / "state").mkdir()
    _state_db(root / "state/openclaw.sqlite", root)
    return root


def test_every_alarm_fires_once_on_the_workspace_built_for_it(tmp_path, capsys):
    root = build_every_alarm(tmp_path / "workspace")
    rc = main(["doctor", str(root), "--json", "--today", TODAY])
    doc = json.loads(capsys.readouterr().out)
    ids = [a["id"] for a in doc["workspaces"][0]["alarms"]]
    assert rc == 1 and set(ids) == EVERY_ALARM
    assert len(ids) == len(set(ids))  # each once


if __name__ == "__main__":  # python tests/test_doctor_every_alarm.py DIR: build it and stop
    print(build_every_alarm(Path(sys.argv[1])))
