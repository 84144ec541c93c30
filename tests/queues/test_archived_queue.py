"""Archived fragments whose content is still in a memory file (docs/design.md §1.4, §2)."""

from __future__ import annotations

from datetime import date

from memreview.queues.archived import archived

TODAY = date(2026, 11, 29)
CONTENT = "Gateway restarts need the owner present"


def frag(fid=1, content=CONTENT, status="archived", last_seen="2026-10-30") -> dict:
    return {"id": fid, "content": content, "status": status, "last_seen": last_seen}


def test_an_archived_fragment_seen_30_days_ago_and_still_in_memory_is_an_item(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "# M\n- Note: gateway restarts need the owner present, always\n",
            "memory/knowledge/dreams.db": [frag()],
        }
    )
    (item,) = archived(ws, TODAY)
    assert item["days_since_last_seen"] == 30
    assert item["fragment"] == {
        "id": "1",
        "content": CONTENT,
        "status": "archived",
        "last_seen": "2026-10-30",
    }
    (match,) = item["matches"]
    assert (match["file"], match["line"], match["score"]) == ("MEMORY.md", 2, 100.0)
    assert match["text"] == "- Note: gateway restarts need the owner present, always"


def test_a_fragment_seen_29_days_ago_is_not_yet_an_item(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": f"- {CONTENT}\n",
            "memory/knowledge/dreams.db": [frag(last_seen="2026-10-31")],
        }
    )
    assert archived(ws, TODAY) == []


def test_only_status_archived_counts(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": f"- {CONTENT}\n",
            "memory/knowledge/dreams.db": [
                frag(1, status="candidate"),
                frag(2, status="confirmed"),
                frag(3, status="Archived "),
            ],
        }
    )
    assert archived(ws, TODAY) == []


def test_a_timestamp_last_seen_counts_by_its_date_as_written(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": f"- {CONTENT}\n",
            "memory/knowledge/dreams.db": [
                frag(1, last_seen="2026-10-30T23:59:59+08:00"),
                frag(2, last_seen="2026-10-31T00:30:00+08:00"),  # 10-30 in UTC: still 29 days
            ],
        }
    )
    items = archived(ws, TODAY)
    assert [i["fragment"]["id"] for i in items] == ["1"]
    assert items[0]["days_since_last_seen"] == 30


def test_a_fragment_without_a_readable_last_seen_is_not_an_item(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": f"- {CONTENT}\n",
            "memory/knowledge/dreams.db": [frag(1, last_seen=None), frag(2, last_seen="soon")],
        }
    )
    assert archived(ws, TODAY) == []


def test_a_close_but_not_exact_copy_matches_by_partial_ratio_at_least_90(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "- log: gateway restarts need the owner presant here\n"
            "- gateway restarts need an admin around at most times\n",
            "memory/knowledge/dreams.db": [frag()],
        }
    )
    (item,) = archived(ws, TODAY)
    (match,) = item["matches"]
    assert match["line"] == 1
    assert 90 <= match["score"] < 100


def test_normalization_applies_to_both_sides(make_ws):
    ws = make_ws(
        {
            "memory/MEMORY.md": "## 模块\n- 灵犀修复完成（开心）（2026-05-01 自动沉淀）\n",
            "memory/knowledge/dreams.db": [frag(content="灵犀修复完成（开心）（2026-04-01）")],
        }
    )
    (item,) = archived(ws, TODAY)
    assert item["matches"][0]["score"] == 100.0


def test_texts_shorter_than_8_normalized_chars_never_match(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "- restarts\n- short\n",
            "memory/knowledge/dreams.db": [
                frag(1, content="restart"),  # 7 chars, a substring of an entry
                frag(2, content="Xshortened words"),  # the 5-char entry sits inside it
            ],
        }
    )
    assert archived(ws, TODAY) == []


def test_exactly_8_normalized_chars_on_both_sides_can_match(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "- RESTARTS\n",
            "memory/knowledge/dreams.db": [frag(content="restarts")],
        }
    )
    assert len(archived(ws, TODAY)) == 1


def test_only_memory_files_are_searched(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": "# M\n",
            "memory/2026-11-01.md": f"- {CONTENT}\n",
            "NOW.md": f"- {CONTENT}\n",
            "DREAMS.md": f"- {CONTENT}\n",
            "memory/archive/demoted.md": f"# Demoted\n- {CONTENT}\n",
            "memory/dreaming/light.md": f"- {CONTENT}\n",
            "memory/knowledge/dreams.db": [frag()],
        }
    )
    assert archived(ws, TODAY) == []


def test_one_item_per_fragment_lists_every_matching_entry(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": f"# M\n- {CONTENT}\n- unrelated entry here\n| {CONTENT} | x |\n",
            "memory/lessons/ops.md": f"- Lesson: {CONTENT.upper()}!\n",
            "memory/knowledge/dreams.db": [frag()],
        }
    )
    (item,) = archived(ws, TODAY)
    assert [(m["file"], m["line"]) for m in item["matches"]] == [
        ("MEMORY.md", 2),
        ("MEMORY.md", 4),
        ("memory/lessons/ops.md", 1),
    ]


def test_no_fragments_database_means_no_archived_items(make_ws):
    assert archived(make_ws({"MEMORY.md": f"- {CONTENT}\n"}), TODAY) == []


def test_archived_item_id_is_stable_across_lines_inserted_above(make_ws):
    files = {"MEMORY.md": f"- {CONTENT}\n", "memory/knowledge/dreams.db": [frag()]}
    first = archived(make_ws(files), TODAY)[0]
    files = {"MEMORY.md": f"# New\n\n- {CONTENT}\n"}
    second = archived(make_ws(files), TODAY)[0]
    assert first["id"] == second["id"]
    assert second["matches"][0]["line"] == 3


def test_an_archived_fragment_without_a_valid_last_seen_is_left_out_and_warned_about(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": f"- {CONTENT}\n",
            "memory/knowledge/dreams.db": [frag(last_seen="2026-02-30"), frag(2, last_seen=None)],
        }
    )
    assert archived(ws, TODAY) == []
    (warning,) = [w for w in ws.warnings if w.file == "memory/knowledge/dreams.db"]
    assert "1, 2 have no valid last_seen" in warning.message
