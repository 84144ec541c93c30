"""OpenClaw usage data where there is no recall log: recall events, the short-term store as
JSON and in OpenClaw's state database; promotion sources (docs/design.md §1.3, §1.6)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from shared_helpers import write_openclaw_state_db

from memreview.workspace.loader import load_workspace
from memreview.workspace.openclaw import state_db_candidates

ANCHORS = (
    "# Memory\n"
    "\n"
    "## [KNOWLEDGE:gbk]\n"  # line 3
    "Added: 2026-06-01\n"
    "Summary: Windows Python defaults to GBK\n"
    "---\n"  # line 6
    "\n"
    "## [KNOWLEDGE:port]\n"  # line 8
    "Added: 2026-06-01\n"
    "---\n"
)
NO_STATE = {"HOME": "/nonexistent-home"}


def event(ts: str, path: str, start: int, end: int, query: str = "q") -> dict:
    return {
        "type": "memory.recall.recorded",
        "timestamp": ts,
        "query": query,
        "results": [{"path": path, "startLine": start, "endLine": end, "score": 0.7}],
    }


def load(root: Path, environ=NO_STATE):
    return load_workspace(root, environ=environ)


def recalls(ws) -> list[tuple]:
    return sorted((r.day.isoformat(), r.id, r.channel) for r in ws.recalls)


def test_a_recall_event_of_lines_holding_an_anchor_is_a_recall_of_that_anchor(
    tmp_path, write_files
):
    root = write_files(
        tmp_path / "ws",
        {
            "MEMORY.md": ANCHORS,
            "memory/.dreams/events.jsonl": [
                event("2026-11-20T10:00:00Z", "MEMORY.md", 4, 5),
                event("2026-11-21T10:00:00Z", "MEMORY.md", 6, 8),  # touches both blocks
                event("2026-11-22T10:00:00Z", "MEMORY.md", 1, 2),  # the title only
                event("2026-11-23T10:00:00Z", "memory/2026-11-20.md", 4, 5),
                {"type": "memory.dreaming.completed", "timestamp": "2026-11-24T03:00:00Z"},
            ],
        },
    )
    ws = load(root)
    assert recalls(ws) == [
        ("2026-11-20", "gbk", "openclaw"),
        ("2026-11-21", "gbk", "openclaw"),
        ("2026-11-21", "port", "openclaw"),
    ]
    assert len(ws.openclaw.recalls) == 4


def test_with_a_recall_log_openclaw_usage_is_not_read(tmp_path, write_files):
    root = write_files(
        tmp_path / "ws",
        {
            "MEMORY.md": ANCHORS,
            "memory/recall_log.jsonl": [{"ts": "2026-11-01T00:00:00Z", "id": "port"}],
            "memory/.dreams/events.jsonl": [event("2026-11-20T10:00:00Z", "MEMORY.md", 4, 5)],
        },
    )
    ws = load(root)
    assert ws.openclaw is None
    assert [r.id for r in ws.recalls] == ["port"]


def test_no_usage_data_at_all_leaves_recalls_unknown(tmp_path, write_files):
    ws = load(write_files(tmp_path / "ws", {"MEMORY.md": ANCHORS}))
    assert ws.recalls is None and ws.openclaw is None


def store_entry(path: str, start: int, end: int, days: list[str], promoted=None) -> dict:
    e = {
        "key": f"memory:{path}:{start}:{end}",
        "path": path,
        "startLine": start,
        "endLine": end,
        "snippet": "x",
        "recallCount": len(days),
        "lastRecalledAt": f"{days[-1]}T03:00:00Z" if days else None,
        "recallDays": days,
    }
    if promoted:
        e["promotedAt"] = promoted
    return e


def test_the_legacy_json_store_counts_each_recall_day_once_beside_the_events(tmp_path, write_files):
    entry = store_entry("MEMORY.md", 8, 9, ["2026-11-02", "2026-11-20"])
    root = write_files(
        tmp_path / "ws",
        {
            "MEMORY.md": ANCHORS,
            "memory/.dreams/events.jsonl": [event("2026-11-20T01:00:00Z", "MEMORY.md", 8, 9)],
            "memory/.dreams/short-term-recall.json": {
                "version": 1,
                "entries": {entry["key"]: entry},
            },
        },
    )
    assert recalls(load(root)) == [
        ("2026-11-02", "port", "openclaw"),
        ("2026-11-20", "port", "openclaw"),
    ]


def test_the_state_database_rows_of_this_workspace_are_read_read_only(tmp_path, write_files):
    root = write_files(tmp_path / "state" / "workspace", {"MEMORY.md": ANCHORS}).resolve()
    db = tmp_path / "state" / "state" / "openclaw.sqlite"
    write_openclaw_state_db(
        db,
        root,
        [store_entry("MEMORY.md", 3, 3, ["2026-11-10"], promoted="2026-10-01T03:00:00Z")],
        other_rows=[("memory-core", "short-term-meta", "recall", '{"updatedAt": 1}')],
    )
    other = tmp_path / "other-ws"
    write_openclaw_state_db(
        tmp_path / "elsewhere.sqlite", other, [store_entry("MEMORY.md", 8, 8, ["2026-11-11"])]
    )
    before = db.read_bytes()
    ws = load(root)  # found next to the workspace, as OpenClaw keeps it
    assert recalls(ws) == [("2026-11-10", "gbk", "openclaw")]
    (row,) = ws.openclaw.store.values()
    assert row.promoted_at == date(2026, 10, 1)
    assert db.read_bytes() == before
    assert sorted(p.name for p in db.parent.iterdir()) == ["openclaw.sqlite"]


def test_a_database_without_rows_of_this_workspace_is_no_usage_data(tmp_path, write_files):
    root = write_files(tmp_path / "ws", {"MEMORY.md": ANCHORS}).resolve()
    state = tmp_path / "openclaw-state"
    write_openclaw_state_db(
        state / "state" / "openclaw.sqlite",
        tmp_path / "someone-else",
        [store_entry("MEMORY.md", 3, 3, ["2026-11-10"])],
    )
    ws = load(root, {"HOME": "/nonexistent-home", "OPENCLAW_STATE_DIR": str(state)})
    # (OpenClaw of another workspace, or never run here: nothing is known about recalls)
    assert ws.recalls is None and ws.openclaw is None


def test_a_broken_state_database_is_one_warning(tmp_path, write_files):
    root = write_files(
        tmp_path / "ws",
        {"MEMORY.md": ANCHORS, "state.sqlite": b"not a database at all" * 100},
    )
    (root / "memreview.yaml").write_text("openclaw_state_db: state.sqlite\n")
    ws = load(root)
    assert ws.recalls is None
    assert [w.message.split(":")[0] for w in ws.warnings] == [
        "cannot read OpenClaw's state database"
    ]


def test_the_state_database_is_looked_for_where_openclaw_keeps_it(tmp_path):
    root = tmp_path / "ws"
    home = tmp_path / "home"
    env = {"HOME": str(home), "OPENCLAW_STATE_DIR": "/srv/oc", "OPENCLAW_PROFILE": "work"}
    assert state_db_candidates(root, "", env) == [
        Path("/srv/oc/state/openclaw.sqlite"),
        home / ".openclaw-work/state/openclaw.sqlite",
        home / ".openclaw/state/openclaw.sqlite",
    ]
    agent = tmp_path / ".openclaw" / "workspace-coder"
    assert state_db_candidates(agent, "", {"HOME": str(home)})[0] == (
        tmp_path / ".openclaw/state/openclaw.sqlite"
    )
    assert state_db_candidates(root, "db/oc.sqlite", env) == [root / "db/oc.sqlite"]


def test_a_promoted_entry_whose_source_file_is_gone_is_warned_about(tmp_path, write_files):
    tail = " [score=0.8 recalls=3 avg=0.7 source=memory/{}.md:3-3]"
    root = write_files(
        tmp_path / "ws",
        {
            "MEMORY.md": (
                "# M\n## Promoted From Short-Term Memory (2026-11-01)\n"
                "<!-- openclaw-memory-promotion:memory:memory/2026-10-30.md:3:3 -->\n"
                "- kept source" + tail.format("2026-10-30") + "\n"
                "<!-- openclaw-memory-promotion:memory:memory/2026-10-31.md:3:3 -->\n"
                "- lost source" + tail.format("2026-10-31") + "\n"
                "- not promoted source=memory/nowhere.md:1-1\n"
            ),
            "memory/2026-10-30.md": "log\n",
        },
    )
    ws = load(root)
    assert [(w.file, w.line, w.message) for w in ws.warnings] == [
        ("MEMORY.md", 6, "promotion source memory/2026-10-31.md does not exist")
    ]


def test_recall_paths_outside_the_workspace_are_ignored(tmp_path, write_files):
    root = write_files(
        tmp_path / "ws",
        {
            "MEMORY.md": ANCHORS,
            "memory/.dreams/events.jsonl": [
                event("2026-11-20T10:00:00Z", "../elsewhere/MEMORY.md", 4, 5),
                event("2026-11-21T10:00:00Z", str(tmp_path / "ws" / "MEMORY.md"), 4, 5),
            ],
        },
    )
    ws = load(root.resolve())
    assert recalls(ws) == [("2026-11-21", "gbk", "openclaw")]


def test_an_event_timestamp_in_epoch_milliseconds_is_dated_in_utc(tmp_path, write_files):
    ms = 1795910400000  # 2026-11-29T00:00:00Z
    bad = {"type": "memory.recall.recorded", "timestamp": "soon", "results": []}
    root = write_files(
        tmp_path / "ws",
        {
            "MEMORY.md": ANCHORS,
            "memory/.dreams/events.jsonl": [event(ms, "MEMORY.md", 8, 8), bad],
        },
    )
    ws = load(root)
    assert recalls(ws) == [("2026-11-29", "port", "openclaw")]
    assert [w.message for w in ws.warnings] == ["1 recall event without a date or results"]
