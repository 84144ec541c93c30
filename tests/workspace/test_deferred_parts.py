"""The parts of a workspace the scan reads after its first queue (the fragments, and the
projects with the checks across files): the first queue's items come sooner, and nothing
else changes — every warning in the place it has in a load read at once, every queue's
reason for being empty, each part read once whichever thread asks first."""

from __future__ import annotations

import threading
import time
from datetime import date

import pytest

from memreview.scan import scan_workspace
from memreview.scan.events import Loaded, QueueDone
from memreview.workspace.config import Config
from memreview.workspace.loader import load_workspace
from memreview.workspace.model import Deferred, Workspace

TODAY = date(2026, 11, 29)

# a warning from every part: the memory files (eager), the anchors and promotion sources
# (the projects' part), the fragments (a dreams.db that is no database), the recall log
# and the proposals (read between the two deferred parts), the hidden items' state (after)
WARNED = {
    "MEMORY.md": (
        "# Memory\n\n## [FACT:boot-order]\nAdded: 2026-02-30\nSummary: the NAS boots after the"
        " router\n---\n\n## Promoted From Short-Term Memory (2026-11-20)\n\n"
        "- the backup runs at 03:00 [score=0.8 recalls=4 avg=0.7"
        " source=memory/2026-11-01.md:3-3]\n"
    ),
    "memory/notes.md": "# Notes\n\n## [FACT:nas-raid]\nAdded: 2026-13-01\nSummary: RAID 1\n---\n",
    "memory/knowledge/dreams.db": b"this is not an SQLite database, whatever its name says\n",
    "memory/recall_log.jsonl": [{"ts": "yesterday", "id": "nas-raid"}],
    "memory/review/proposals.jsonl": [{"id": "p-1", "relation": "supersede"}],
    "memory/projects/radar.md": "# Radar\nStatus: active\n",
    ".memreview/state.yaml": "hidden: [unclosed\n",
}


def _warnings(ws: Workspace) -> list[dict]:
    return [w.to_json() for w in ws.warnings]


def test_a_deferred_load_gives_every_warning_in_its_place_whichever_part_is_read_first(
    write_files, tmp_path
):
    root = write_files(tmp_path / "ws", WARNED)
    at_once = load_workspace(root)
    expected = _warnings(at_once)
    files = {w["file"] for w in expected}
    # each part warned, or the test proves nothing about their places
    assert {"MEMORY.md", "memory/notes.md", "memory/knowledge/dreams.db"} <= files
    assert {"memory/recall_log.jsonl", "memory/review/proposals.jsonl"} <= files
    for first, second in (("projects", "fragments"), ("fragments", "projects")):
        ws = load_workspace(root, defer=True)
        assert ws.deferred("fragments") and ws.deferred("projects")
        getattr(ws, first)
        assert not ws.deferred(first) and ws.deferred(second)
        getattr(ws, second)
        ws.settle()
        assert _warnings(ws) == expected, first
        assert ws.projects == at_once.projects and ws.fragments == at_once.fragments
    settled = load_workspace(root, defer=True)
    settled.settle()
    assert _warnings(settled) == expected
    assert not settled.deferred("fragments") and not settled.deferred("projects")


def test_the_first_queue_is_computed_before_the_fragments_and_projects_are_read(
    write_files, tmp_path
):
    root = write_files(tmp_path / "ws", WARNED)
    seen: dict[str, object] = {}

    def emit(event) -> None:
        if isinstance(event, Loaded):
            seen["ws"] = event.result.workspace
            seen["loaded"] = event.result
        elif isinstance(event, QueueDone) and "first" not in seen:
            ws = seen["ws"]
            seen["first"] = (event.name, ws.deferred("fragments"), ws.deferred("projects"))

    result = scan_workspace(root, today=TODAY, cache=False, emit=emit)
    assert seen["first"] == ("contradictions", True, True)
    ws = result.workspace
    assert not ws.deferred("fragments") and not ws.deferred("projects")
    # the scan's output is that of a load read at once
    assert _warnings(ws) == _warnings(load_workspace(root)) + [
        w for w in _warnings(ws) if w["file"] == ".memreview/state.yaml"
    ]
    assert [w["file"] for w in _warnings(ws)][-1] == ".memreview/state.yaml"


def test_a_queue_s_reason_to_be_empty_is_told_once_its_part_is_read(write_files, tmp_path):
    """Without a dreams.db the archived queue says so, and without projects the dormant
    queue: both reasons need a deferred part, so they are told after the first queue, in
    the table the screen was given with the first event, and printed in the queues' order."""
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# Memory\n\n- the NAS has 4 disks\n"})
    loaded = []
    result = scan_workspace(
        root,
        today=TODAY,
        cache=False,
        emit=lambda e: loaded.append(e.result) if isinstance(e, Loaded) else None,
    )
    assert {"archived", "dormant"} <= set(result.missing)
    assert loaded[0].missing == result.missing  # the screen's copy is told too
    assert not result.missing_later
    order = list(result.to_json()["missing"])
    from memreview.decisions import registry

    assert order == [n for n in registry.queue_names() if n in result.missing]


def test_given_reads_a_deferred_part_to_tell_whether_it_is_there(write_files, tmp_path):
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# Memory\n"})
    ws = load_workspace(root, defer=True)
    assert ws.deferred("fragments")
    assert ws.given("fragments") is False  # no dreams.db: None, not "given later"
    assert not ws.deferred("fragments")


def test_a_deferred_part_asked_for_by_two_threads_is_read_once(tmp_path):
    ws = Workspace(root=tmp_path, config=Config())
    reads = []

    def resolve():
        reads.append(threading.current_thread().name)
        time.sleep(0.05)  # the other thread asks meanwhile
        ws.warn("memory/knowledge/dreams.db", None, "read once")
        return ["fragment"], False

    ws.set_later("fragments", Deferred(resolve))
    got = []
    threads = [threading.Thread(target=lambda: got.append(ws.fragments)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [["fragment"], ["fragment"]]
    assert len(reads) == 1
    assert len(ws.warnings) == 1


# OpenClaw's usage data where there is no recall log: its recall events (one without a
# date), its short-term store; the line recalls become recalls of the anchors and projects
OPENCLAW = {
    "MEMORY.md": (
        "# Memory\n\n## [KNOWLEDGE:gbk]\nAdded: 2026-02-30\nSummary: Windows Python defaults"
        " to GBK\n---\n"
    ),
    "memory/projects/radar.md": "# Radar\nStatus: active\n",
    "memory/.dreams/events.jsonl": [
        {
            "type": "memory.recall.recorded",
            "timestamp": ts,
            "query": "gbk",
            "results": [{"path": path, "startLine": 3, "endLine": 5, "score": 0.7}],
        }
        for ts, path in (
            ("2026-11-20T10:00:00Z", "MEMORY.md"),
            ("2026-11-21T10:00:00Z", "memory/projects/radar.md"),
            ("no date", "MEMORY.md"),
        )
    ],
    "memory/.dreams/short-term-recall.json": "{ not json",
    "memory/review/proposals.jsonl": [{"id": "p-1"}],
}


def test_openclaw_s_usage_read_later_gives_the_same_recalls_store_and_warnings(
    write_files, tmp_path
):
    root = write_files(tmp_path / "ws", OPENCLAW)
    env = {"HOME": str(tmp_path / "no-home")}
    at_once = load_workspace(root, environ=env)
    files = [w["file"] for w in _warnings(at_once)]
    assert (
        "memory/.dreams/events.jsonl" in files and "memory/.dreams/short-term-recall.json" in files
    )
    assert at_once.recalls and at_once.openclaw is not None
    for first in ("recalls", "openclaw", "short_term", "projects", "fragments"):
        ws = load_workspace(root, environ=env, defer=True)
        assert ws.deferred("recalls") and ws.deferred("openclaw") and ws.deferred("short_term")
        getattr(ws, first)
        ws.settle()
        assert _warnings(ws) == _warnings(at_once), first
        assert ws.recalls == at_once.recalls, first
        assert ws.short_term == at_once.short_term and ws.openclaw == at_once.openclaw
        assert ws.given("recalls") and not ws.given("fragments")


def test_a_thread_asking_for_the_recalls_while_they_are_read_waits_for_them(
    write_files, tmp_path, monkeypatch
):
    """Where there is no recall log the recalls are OpenClaw's line recalls, made after its
    usage data is read: another thread asking meanwhile gets them, never a None of the
    read half done."""
    from memreview.workspace import loader

    root = write_files(tmp_path / "ws", OPENCLAW)
    env = {"HOME": str(tmp_path / "no-home")}
    expected = load_workspace(root, environ=env).recalls
    assert expected
    inside = threading.Event()
    real = loader.recalls_of_entries

    def slow(ws, line_recalls):
        inside.set()
        time.sleep(0.3)  # the other thread asks now
        return real(ws, line_recalls)

    monkeypatch.setattr(loader, "recalls_of_entries", slow)
    ws = load_workspace(root, environ=env, defer=True)
    seen = []

    def other() -> None:
        inside.wait(10)
        seen.append((ws.recalls, ws.openclaw is not None))

    t = threading.Thread(target=other)
    t.start()
    ws.settle()
    t.join()
    assert seen == [(expected, True)]


def test_a_part_that_asks_for_itself_is_an_error_not_a_hang(tmp_path):
    from memreview.workspace.loader import _Deferring

    later = _Deferring(Workspace(root=tmp_path, config=Config()))
    parts = []
    parts.append(later.part(lambda: parts[0]()))
    with pytest.raises(RuntimeError, match="asked for itself"):
        parts[0]()
