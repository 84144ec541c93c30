"""The dropping queue: what OpenClaw's or Lingxi's pipeline is about to lose, shown before it
is lost, and promoted by hand the way the pipeline would write it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from datetime import date
from pathlib import Path

from shared_helpers import walks_of, write_dreams_db

from memreview.decisions import apply
from memreview.scan import scan_workspace

TODAY = date(2026, 12, 1)
LESSON = "The NAS fan gets loud above 60 °C; clean the filter every quarter because dust doubles the noise"


def write_workspace(root: Path, files: dict[str, object]) -> Path:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(".db"):
            write_dreams_db(p, content)
        else:
            p.write_bytes(str(content).encode("utf-8"))
    return root


def _row(path: str, line: int, snippet: str, last: str, **more) -> dict:
    key = f"memory:{path}:{line}:{line}"
    return {
        "key": key,
        "path": path,
        "startLine": line,
        "endLine": line,
        "source": "memory",
        "snippet": snippet,
        "recallCount": 1,
        "dailyCount": 0,
        "groundedCount": 0,
        "totalScore": 0.7,
        "maxScore": 0.7,
        "firstRecalledAt": last,
        "lastRecalledAt": last,
        "queryHashes": ["q1"],
        "recallDays": [last[:10]],
        **more,
    }


def _openclaw_ws(root: Path, rows: list[dict], memory: str = "# Long-Term Memory\n") -> Path:
    store = {
        "version": 1,
        "updatedAt": "2026-11-30T03:00:00Z",
        "entries": {r["key"]: r for r in rows},
    }
    return write_workspace(
        root,
        {
            "MEMORY.md": memory,
            "memory/2026-11-05.md": f"# 2026-11-05\n\n- checked backups\n- {LESSON}\n- sudo systemctl restart gateway\n",
            "memory/.dreams/short-term-recall.json": json.dumps(store),
        },
    )


def _items(root: Path) -> list[dict]:
    return scan_workspace(root, today=TODAY, cache=False).queues["dropping"]


def test_a_candidate_near_the_age_limit_is_shown_with_the_gates_it_fails_and_its_source(tmp_path):
    rows = [
        _row("memory/2026-11-05.md", 4, LESSON, "2026-11-06T03:00:00Z"),  # 25 days: 5 left
        _row("memory/2026-11-05.md", 3, "checked backups", "2026-11-29T03:00:00Z"),  # fresh
    ]
    items = _items(_openclaw_ws(tmp_path / "ws", rows))
    assert [i["key"] for i in items] == ["memory:memory/2026-11-05.md:4:4"]
    item = items[0]
    assert item["days_left"] == 5 and item["age_days"] == 25
    assert set(item["fails"]) == {"score", "recalls", "queries"}
    assert item["source"]["missing"] is False
    assert [n for n, _t in item["source"]["lines"]] == [2, 3, 4, 5, 6]
    assert item["source"]["lines"][2][1] == f"- {LESSON}"


def test_promoted_entries_and_those_whose_marker_memory_holds_are_not_about_to_drop(tmp_path):
    rows = [
        _row(
            "memory/2026-11-05.md",
            4,
            LESSON,
            "2026-11-06T03:00:00Z",
            promotedAt="2026-11-07T03:00:00Z",
        ),
        _row("memory/2026-11-05.md", 5, "sudo systemctl restart gateway", "2026-11-06T03:00:00Z"),
    ]
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-07)\n\n"
        "<!-- openclaw-memory-promotion:memory:memory/2026-11-05.md:5:5 -->\n- sudo systemctl "
        "restart gateway [score=0.800 recalls=3 avg=0.800 source=memory/2026-11-05.md:5-5]\n"
    )
    assert _items(_openclaw_ws(tmp_path / "ws", rows, memory)) == []


def test_past_the_limit_or_gone_sources_are_said_and_ranked_first(tmp_path):
    rows = [
        _row("memory/2026-11-05.md", 4, LESSON, "2026-11-06T03:00:00Z"),
        _row(
            "memory/2026-10-01.md",
            3,
            "The router admin page moved to port 8443",
            "2026-10-20T03:00:00Z",
        ),
    ]
    items = _items(_openclaw_ws(tmp_path / "ws", rows))
    assert [i["days_left"] for i in items] == [-12, 5]
    assert items[0]["source"]["missing"] is True and "age" in items[0]["fails"]


def test_a_full_store_shows_what_eviction_takes_next(tmp_path):
    rows = [
        _row(
            f"memory/2026-11-{1 + k % 28:02d}.md",
            k + 1,
            f"fact number {k} about the lab",
            f"2026-11-{20 + k % 9:02d}T03:00:00Z",
        )
        for k in range(30)
    ]
    root = _openclaw_ws(tmp_path / "ws", rows)
    (root / "memreview.yaml").write_text("alarms:\n  store_cap: 25\n")
    items = _items(root)
    assert items and all(i["evicted_next"] for i in items)
    # the least recently recalled go first
    oldest = min(r["lastRecalledAt"] for r in rows)
    assert all(i["last_recalled"] for i in items)
    assert any(i["last_recalled"] == oldest[:10] for i in items)


def test_only_ten_are_shown_unless_all_are_asked_for(tmp_path):
    rows = [
        _row(
            "memory/2026-11-05.md",
            k + 10,
            f"lesson {k}: keep the spare disk labelled",
            "2026-11-06T03:00:00Z",
        )
        for k in range(14)
    ]
    root = _openclaw_ws(tmp_path / "ws", rows)
    assert len(_items(root)) == 10
    everything = scan_workspace(root, today=TODAY, cache=False, all_dormant=True)
    assert len(everything.queues["dropping"]) == 14


def test_a_command_line_alone_carries_the_promotions_junk_flag(tmp_path):
    rows = [
        _row("memory/2026-11-05.md", 5, "sudo systemctl restart gateway", "2026-11-06T03:00:00Z")
    ]
    (item,) = _items(_openclaw_ws(tmp_path / "ws", rows))
    assert [f["flag"] for f in item["flags"]] == ["command"]


def test_promote_writes_the_section_the_marker_and_the_owners_mark_and_applies_once(tmp_path):
    root = _openclaw_ws(
        tmp_path / "ws", [_row("memory/2026-11-05.md", 4, LESSON, "2026-11-06T03:00:00Z")]
    )
    store_before = (root / "memory/.dreams/short-term-recall.json").read_bytes()
    result = scan_workspace(root, today=TODAY, cache=False)
    (item,) = result.queues["dropping"]
    out = apply(result, [{"item": item["id"], "action": "promote"}])
    assert out.applied and not out.failures
    text = (root / "MEMORY.md").read_text()
    assert text == (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-12-01)\n\n"
        "<!-- openclaw-memory-promotion:memory:memory/2026-11-05.md:4:4 -->\n"
        f"- {LESSON} [score=0.700 recalls=1 avg=0.700 source=memory/2026-11-05.md:4-4] "
        "<!-- promoted-by: owner 2026-12-01 -->\n"
    )
    assert (root / "memory/.dreams/short-term-recall.json").read_bytes() == store_before
    after = scan_workspace(root, today=TODAY, cache=False)
    assert after.queues["dropping"] == []  # the marker is in MEMORY.md: OpenClaw reconciles it
    (promoted,) = after.queues["promotions"]
    assert promoted["origin"] == "owner" and promoted["key"] == item["key"]
    again = apply(
        scan_workspace(root, today=TODAY, cache=False), [{"item": item["id"], "action": "promote"}]
    )
    assert (root / "MEMORY.md").read_text() == text, again


def test_an_edited_promotion_writes_the_owners_text(tmp_path):
    root = _openclaw_ws(
        tmp_path / "ws", [_row("memory/2026-11-05.md", 4, LESSON, "2026-11-06T03:00:00Z")]
    )
    result = scan_workspace(root, today=TODAY, cache=False)
    (item,) = result.queues["dropping"]
    apply(
        result,
        [
            {
                "item": item["id"],
                "action": "promote",
                "text": "Clean the NAS fan filter every quarter",
            }
        ],
    )
    assert "- Clean the NAS fan filter every quarter [score=" in (root / "MEMORY.md").read_text()


def test_a_candidate_holding_a_credential_is_masked_and_not_promoted_unredacted(tmp_path):
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    rows = [_row("memory/2026-11-05.md", 4, f"The deploy token is {token}", "2026-11-06T03:00:00Z")]
    root = _openclaw_ws(tmp_path / "ws", rows)
    result = scan_workspace(root, today=TODAY, cache=False)
    (item,) = result.queues["dropping"]
    assert token not in json.dumps(item) and item["secret"] is True
    out = apply(result, [{"item": item["id"], "action": "promote"}])
    assert out.refused or not out.applied
    assert token not in (root / "MEMORY.md").read_text()
    ok = apply(
        result,
        [{"item": item["id"], "action": "promote", "text": "The deploy token lives in the vault"}],
    )
    assert ok.applied and "lives in the vault" in (root / "MEMORY.md").read_text()


def test_let_go_hides_it_for_good_and_writes_no_memory(tmp_path):
    root = _openclaw_ws(
        tmp_path / "ws", [_row("memory/2026-11-05.md", 4, LESSON, "2026-11-06T03:00:00Z")]
    )
    before = (root / "MEMORY.md").read_bytes()
    result = scan_workspace(root, today=TODAY, cache=False)
    (item,) = result.queues["dropping"]
    apply(result, [{"item": item["id"], "action": "let-go"}])
    assert (root / "MEMORY.md").read_bytes() == before
    assert scan_workspace(root, today=TODAY, cache=False).queues["dropping"] == []


def test_openclaws_sqlite_store_is_read_too(tmp_path):
    root = write_workspace(
        tmp_path / "ws",
        {
            "MEMORY.md": "# Long-Term Memory\n",
            "memory/2026-11-05.md": f"# 2026-11-05\n\n- checked backups\n- {LESSON}\n",
            "memreview.yaml": "openclaw_state_db: state.sqlite\n",
        },
    )
    con = sqlite3.connect(tmp_path / "ws" / "state.sqlite")
    con.execute(
        "CREATE TABLE plugin_state_entries (plugin_id TEXT, namespace TEXT, entry_key TEXT, "
        "value_json TEXT, created_at INTEGER, expires_at INTEGER)"
    )
    real = str(root.resolve())
    wkey = hashlib.sha256(real.encode()).hexdigest()
    value = _row("memory/2026-11-05.md", 4, LESSON, "2026-11-06T03:00:00Z")
    doc = {
        "version": 1,
        "workspaceKey": wkey,
        "workspaceDir": real,
        "key": value["key"],
        "value": value,
    }
    con.execute(
        "INSERT INTO plugin_state_entries VALUES (?,?,?,?,?,?)",
        ("memory-core", "short-term-recall", f"{wkey}:1", json.dumps(doc), 0, None),
    )
    con.commit()
    con.close()
    items = _items(root)
    assert [i["key"] for i in items] == [value["key"]] and items[0]["days_left"] == 5


def test_a_lingxi_fragment_seen_once_and_nearly_archived_is_promoted_with_the_owners_stamp(
    tmp_path,
):
    memory = "## 模块一：设备\n\n- 路由器放在书房（2026-10-01 自动沉淀）\n\n## 模块二：习惯\n\n- 每周日整理桌面\n"
    root = write_workspace(
        tmp_path / "ws",
        {
            "memory/MEMORY.md": memory,
            "memory/knowledge/dreams.db": [
                {
                    "id": "f1",
                    "content": "NAS 风扇滤网每季度清理一次",
                    "status": "candidate",
                    "mention_count": 1,
                    "last_seen": "2026-11-06",
                    "category": "设备",
                },
                {
                    "id": "f2",
                    "content": "常提到的事",
                    "status": "candidate",
                    "mention_count": 4,
                    "last_seen": "2026-11-06",
                    "category": "设备",
                },
                {
                    "id": "f3",
                    "content": "刚看到的事",
                    "status": "candidate",
                    "mention_count": 1,
                    "last_seen": "2026-11-29",
                    "category": "设备",
                },
            ],
        },
    )
    result = scan_workspace(root, today=TODAY, cache=False)
    (item,) = result.queues["dropping"]
    assert item["origin"] == "lingxi" and item["key"] == "f1" and item["days_left"] == 5
    apply(result, [{"item": item["id"], "action": "promote"}])
    text = (root / "memory/MEMORY.md").read_text()
    assert (
        "- 路由器放在书房（2026-10-01 自动沉淀）\n- NAS 风扇滤网每季度清理一次（2026-12-01 人工沉淀）\n"
        in text
    )


def test_a_staged_light_sleep_candidate_in_an_old_log_is_shown_and_promoted_with_its_lines_key(
    tmp_path,
):
    log = (
        "# 2026-11-06\n\n## Light Sleep\n<!-- openclaw:dreaming:light:start -->\n"
        "- Candidate: Label every spare disk with its purchase date before shelving it\n"
        "  - confidence: 0.64\n  - evidence: memory/.dreams/session-corpus/2026-11-06.txt:3-3\n"
        "  - recalls: 1\n  - status: staged\n"
        "- Candidate: Ordered filters\n  - confidence: 0.80\n  - recalls: 3\n  - status: promoted\n"
        "<!-- openclaw:dreaming:light:end -->\n"
    )
    root = write_workspace(
        tmp_path / "ws",
        {
            "MEMORY.md": "# Long-Term Memory\n",
            "memory/2026-11-06.md": log,
            "memory/2026-11-28.md": log.replace("2026-11-06", "2026-11-28"),  # fresh: not shown
        },
    )
    result = scan_workspace(root, today=TODAY, cache=False)
    (item,) = result.queues["dropping"]
    assert item["origin"] == "light" and item["key"] == "memory:memory/2026-11-06.md:5:5"
    assert item["days_left"] == 5 and item["fails"] == ["staged"] and item["score"] == 0.64
    apply(result, [{"item": item["id"], "action": "promote"}])
    text = (root / "MEMORY.md").read_text()
    assert (
        "<!-- openclaw-memory-promotion:memory:memory/2026-11-06.md:5:5 -->\n- Label every spare disk"
        in text
    )
    assert scan_workspace(root, today=TODAY, cache=False).queues["dropping"] == []


def test_many_store_entries_find_their_sources_without_a_walk_through_the_logs_each(tmp_path):
    """A store of thousands of entries citing hundreds of logs: each entry's source is found
    without walking every log (entries × logs); the lines shown are the same."""
    from memreview.queues.dropping import dropping
    from memreview.workspace.loader import load_workspace

    days = [f"2026-10-{d:02d}" for d in range(1, 21)]
    rows = [
        _row(f"memory/{days[n % 20]}.md", 1 + n // 20, f"lesson {n}", "2026-11-06T03:00:00Z")
        for n in range(60)
    ]
    root = _openclaw_ws(tmp_path / "ws", rows)
    for day in days:
        text = "".join(f"- lesson line {k} of {day}\n" for k in range(1, 8))
        (root / "memory" / f"{day}.md").write_bytes(text.encode("utf-8"))
    ws = load_workspace(root)
    ws.settle()
    items, walks = walks_of(dropping, ws, TODAY)
    assert len(items) == 60
    assert walks <= 4  # not one per entry
    for it in items:
        path = it["key"].split(":")[1]
        assert it["source"]["missing"] is False
        assert all(text.endswith(path[7:17]) for _n, text in it["source"]["lines"])
