"""Which files are memory files, daily logs and side files; JSON/SQLite inputs (docs/design.md §1)."""

from __future__ import annotations

import hashlib
from datetime import date

import pytest

from memreview.workspace.loader import NotAWorkspace, check_workspace, is_workspace


def test_both_memory_md_files_and_memory_md_lowercase_are_memory_files(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "- root\n",
            "memory/MEMORY.md": "- nested\n",
            "memory.md": "- lower\n",
        }
    )
    assert {"MEMORY.md", "memory/MEMORY.md", "memory.md"} <= set(ws.files)


def test_every_md_under_memory_is_a_memory_file_except_logs_and_special_dirs(make_ws):
    ws = make_ws(
        {
            "memory/lessons/gbk.md": "- lesson\n",
            "memory/projects/gateway.md": "# Gateway\n",
            "memory/2026-05-01.md": "log\n",
            "memory/2026-05-02-standup.md": "log\n",
            "memory/logs/2026-05-03.md": "nested log\n",
            "memory/2026-05-04_日报.md": "日报\n",
            "memory/archive/superseded.md": "# Superseded\n",
            "memory/dreaming/light.md": "- x\n",
            "memory/.dreams/notes.md": "- x\n",
            "memory/review/queue.md": "- x\n",
            "memory/notes.txt": "- not markdown\n",
        }
    )
    assert set(ws.files) == {"MEMORY.md", "memory/lessons/gbk.md", "memory/projects/gateway.md"}
    assert set(ws.archive_files) == {"memory/archive/superseded.md"}
    assert [(d.rel, d.date) for d in ws.daily_logs] == [
        ("memory/2026-05-01.md", date(2026, 5, 1)),
        ("memory/2026-05-02-standup.md", date(2026, 5, 2)),
        ("memory/logs/2026-05-03.md", date(2026, 5, 3)),
        ("memory/2026-05-04_日报.md", date(2026, 5, 4)),
    ]


def test_root_side_files_are_read_but_are_not_memory_files(make_ws):
    ws = make_ws(
        {
            "NOW.md": "- [ ] todo 2026-11-01\n",
            "DREAMS.md": "- x\n",
            "HEARTBEAT.md": "- y\n",
            "INDEX.md": "- z\n",
        }
    )
    assert set(ws.files) == {"MEMORY.md"}
    assert set(ws.other_files) == {"NOW.md", "DREAMS.md", "HEARTBEAT.md", "INDEX.md"}


def test_a_daily_log_with_an_impossible_date_is_warned_and_skipped(make_ws):
    ws = make_ws({"memory/2026-02-30.md": "log\n"})
    assert ws.daily_logs == []
    assert any(w.file == "memory/2026-02-30.md" for w in ws.warnings)


def test_binary_and_undecodable_files_never_raise(make_ws):
    ws = make_ws(
        {
            "memory/bin.md": b"\x00\x01\x02PK",
            "memory/bad.md": b"- caf\xe9 \xff\n",
            "memory/2026-05-01.md": b"\xff\xfe\x00",
        }
    )
    assert "memory/bin.md" not in ws.files
    assert "memory/bad.md" in ws.files
    assert any(w.file == "memory/bin.md" and "binary" in w.message for w in ws.warnings)


def test_a_workspace_has_memory_md_at_its_root_or_under_memory(tmp_path, write_files):
    a = write_files(tmp_path / "a", {"MEMORY.md": ""})
    b = write_files(tmp_path / "b", {"memory/MEMORY.md": ""})
    c = write_files(tmp_path / "c", {"NOW.md": "", "memory/x.md": ""})
    assert is_workspace(a) and is_workspace(b)
    assert not is_workspace(c)
    with pytest.raises(NotAWorkspace, match="not a memory workspace"):
        check_workspace(c)
    with pytest.raises(NotAWorkspace, match="no such directory"):
        check_workspace(tmp_path / "missing")
    with pytest.raises(NotAWorkspace, match="not a directory"):
        check_workspace(a / "MEMORY.md")


def test_recall_log_dates_use_the_timestamp_as_written_and_bad_lines_are_warned(make_ws):
    ws = make_ws(
        {
            "memory/recall_log.jsonl": [
                {"ts": "2026-07-01T23:30:00-05:00", "id": "a", "channel": "search"},
                {"ts": "2026-07-02", "id": "b", "channel": "hook", "query": "q"},
                {"ts": "yesterday", "id": "c"},
                {"id": "d"},
            ]
        }
    )
    assert [(r.day, r.id, r.channel) for r in ws.recalls] == [
        (date(2026, 7, 1), "a", "search"),
        (date(2026, 7, 2), "b", "hook"),
    ]
    assert sum(1 for w in ws.warnings if w.file == "memory/recall_log.jsonl") == 2


def test_broken_json_lines_are_skipped_with_a_warning(make_ws):
    ws = make_ws(
        {
            "memory/recall_log.jsonl": b'{"ts": "2026-07-01", "id": "a"}\n{broken\n[1, 2]\n',
        }
    )
    assert [r.id for r in ws.recalls] == ["a"]
    lines = sorted(w.line for w in ws.warnings if w.file == "memory/recall_log.jsonl")
    assert lines == [2, 3]


def test_no_recall_log_is_none_and_an_empty_one_is_an_empty_list(make_ws, tmp_path):
    assert make_ws({}).recalls is None
    ws = make_ws({"memory/recall_log.jsonl": b""})
    assert ws.recalls == []


def test_a_later_proposal_line_with_the_same_id_replaces_the_earlier(make_ws):
    ws = make_ws(
        {
            "memory/review/proposals.jsonl": [
                {"id": "p-1", "relation": "supersedes", "new": "a", "old": "b", "confidence": 0.5},
                {"id": "p-2", "relation": "contradicts", "new": "c", "old": "d"},
                {"id": "p-1", "relation": "supersedes", "new": "a", "old": "b", "confidence": 0.9},
                {"id": "p-3", "relation": "supersedes", "new": "a"},
            ]
        }
    )
    assert [(p.id, p.confidence, p.line) for p in ws.proposals] == [
        ("p-2", None, 2),
        ("p-1", 0.9, 3),
    ]
    assert any("lacks id, relation, new or old" in w.message for w in ws.warnings)


def test_skill_candidates_are_read_and_broken_ones_are_warned(make_ws):
    ws = make_ws(
        {
            "memory/skill_candidates.json": {
                "updated_at": "2026-11-28T00:00:00Z",
                "candidates": [
                    {"theme": "部署", "content": "先备份", "count": 3, "reason": "repeated"},
                    {"content": "no theme"},
                ],
            }
        }
    )
    assert [(c.theme, c.content, c.count, c.reason) for c in ws.skills] == [
        ("部署", "先备份", 3, "repeated")
    ]
    assert any("candidate 2 has no theme" in w.message for w in ws.warnings)
    broken = make_ws({"memory/skill_candidates.json": b"{nope"})
    assert broken.skills is None


def test_fragments_are_read_from_sqlite_without_changing_the_database(tmp_path, write_files):
    from memreview.workspace.loader import load_workspace

    root = write_files(
        tmp_path / "ws",
        {
            "MEMORY.md": "- x\n",
            "memory/knowledge/dreams.db": [
                {"id": 1, "content": "内容", "status": "archived", "last_seen": "2026-01-01"},
                {"id": 2, "content": None, "status": "candidate", "last_seen": None},
            ],
        },
    )
    db = root / "memory/knowledge/dreams.db"
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    ws = load_workspace(root)
    assert [(f.id, f.content, f.status, f.last_seen) for f in ws.fragments] == [
        ("1", "内容", "archived", "2026-01-01"),
        ("2", "", "candidate", None),
    ]
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in db.parent.iterdir()) == ["dreams.db"]


def test_a_broken_sqlite_file_is_a_warning_and_no_fragments(make_ws):
    ws = make_ws({"memory/knowledge/dreams.db": b"this is not a database" * 100})
    assert ws.fragments is None
    assert any(w.file == "memory/knowledge/dreams.db" for w in ws.warnings)


def test_an_empty_dreams_table_is_an_empty_list_and_no_database_is_none(make_ws, tmp_path):
    assert make_ws({}).fragments is None
    assert make_ws({"memory/knowledge/dreams.db": []}).fragments == []


def test_boot_files_at_the_root_and_under_memory_list_anchor_ids(make_ws):
    ws = make_ws(
        {
            "agent.boot.md": "- [[alpha]] and [[beta]]\n",
            "memory/core.boot.md": "- [[gamma]]\n",
        }
    )
    assert ws.boot_ids == {"alpha", "beta", "gamma"}


def test_unparsable_added_dates_are_warned_with_file_and_line(make_ws):
    ws = make_ws({"MEMORY.md": "# M\n## [FACT:x]\nAdded: 2026-02-30\n---\n"})
    (w,) = [w for w in ws.warnings if "Added" in w.message]
    assert (w.file, w.line) == ("MEMORY.md", 2)


def test_memreview_yaml_overrides_the_review_date_and_thresholds(make_ws):
    ws = make_ws({"memreview.yaml": "review_date: 2026-11-29\nthresholds:\n  dormant_days: 14\n"})
    assert ws.config.review_date == date(2026, 11, 29)
    assert ws.config.dormant_days == 14


def test_an_anchor_id_defined_in_two_files_is_warned_and_the_first_is_used(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "# M\n## [FACT:same]\nAdded: 2026-01-01\n---\n",
            "memory/notes.md": "# N\n## [FACT:same]\nAdded: 2026-02-01\n---\n",
        }
    )
    assert ws.anchor_index()["same"].file == "MEMORY.md"
    (w,) = [w for w in ws.warnings if "same" in w.message]
    assert (w.file, w.line) == ("memory/notes.md", 2)
    assert "MEMORY.md" in w.message
