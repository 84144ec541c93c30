"""Promotions deleted by the budget: memreview remembers the promotion keys when the owner
reviews (apply, the app's write) — never on scan or doctor — and a remembered key that no
memory file holds any more is an alarm, with its text."""

from __future__ import annotations

import json
from pathlib import Path

from memreview.cli import main

TODAY = "2026-11-30"
KEY = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


def _section(day: str, first: int, n: int, extra: str = "") -> str:
    return f"## Promoted From Short-Term Memory ({day})\n\n" + "".join(
        f"<!-- openclaw-memory-promotion:memory:memory/{day}.md:{k}:{k} -->\n"
        f"- fact {k} promoted on {day}{extra if k == first else ''} [score=0.800 recalls=3 "
        f"avg=0.700 source=memory/{day}.md:{k}-{k}]\n"
        for k in range(first, first + n)
    )


OLD = _section("2026-11-20", 1, 2, f" with the token {KEY}")
NEW = _section("2026-11-27", 5, 2)


def _ws(root: Path) -> Path:
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text(f"# Memory\n\n- a rule\n\n{OLD}\n{NEW}")
    for day in ("2026-11-20", "2026-11-27"):
        (root / f"memory/{day}.md").write_text("# log\n" + "- line\n" * 8)
    return root


def _scan(capsys, root: Path) -> dict:
    assert main(["scan", str(root), "--json", "--today", TODAY]) == 0
    return json.loads(capsys.readouterr().out)


def _doctor(capsys, root: Path) -> tuple[int, dict]:
    rc = main(["doctor", str(root), "--json", "--today", TODAY])
    return rc, json.loads(capsys.readouterr().out)["workspaces"][0]


def _apply(capsys, root: Path, tmp_path: Path, decisions: str) -> None:
    f = tmp_path / "d.yaml"
    f.write_text(decisions)
    assert main(["apply", str(root), "--decisions", str(f), "--today", TODAY]) == 0
    capsys.readouterr()


def _promotion(doc: dict, number: int) -> str:
    return next(
        it["id"] for it in doc["queues"]["promotions"] if it["key"].endswith(f":{number}:{number}")
    )


def test_scan_and_doctor_record_nothing(tmp_path, capsys):
    root = _ws(tmp_path / "ws")
    _scan(capsys, root)
    rc, _w = _doctor(capsys, root)
    assert not (root / ".memreview/promotions-seen.json").exists()


def test_a_section_deleted_after_a_review_is_an_alarm_with_its_text(tmp_path, capsys):
    root = _ws(tmp_path / "ws")
    doc = _scan(capsys, root)
    _apply(capsys, root, tmp_path, f"- {{item: {_promotion(doc, 5)}, action: keep}}\n")
    seen = json.loads((root / ".memreview/promotions-seen.json").read_text())
    assert len(seen["keys"]) == 4 and KEY not in json.dumps(seen)  # masked in the excerpt
    rc, w = _doctor(capsys, root)
    assert "promotions-deleted" not in [a["id"] for a in w["alarms"]]
    # OpenClaw's budget compaction deletes the oldest section, and prints nothing
    (root / "MEMORY.md").write_text(f"# Memory\n\n- a rule\n\n{NEW}")
    rc, w = _doctor(capsys, root)
    alarm = next(a for a in w["alarms"] if a["id"] == "promotions-deleted")
    assert rc == 1 and alarm["title"].startswith("2 promotion(s) you reviewed on 2026-11-30")
    assert any("fact 1 promoted on 2026-11-20 with the token ghp_…" in e for e in alarm["evidence"])
    assert KEY not in json.dumps(w)
    assert any(a["id"] == "promotions-deleted" for a in _scan(capsys, root)["health"]["alarms"])
    # the next review shows them once more and moves them to "gone": the alarm is answered
    doc = _scan(capsys, root)
    f = tmp_path / "d2.yaml"
    f.write_text(f"- {{item: {_promotion(doc, 6)}, action: keep}}\n")
    assert main(["apply", str(root), "--decisions", str(f), "--today", TODAY]) == 0
    said = capsys.readouterr()
    assert "2 promotions you reviewed before were deleted outside memreview" in said.out + said.err
    rc, w = _doctor(capsys, root)
    assert "promotions-deleted" not in [a["id"] for a in w["alarms"]]
    seen = json.loads((root / ".memreview/promotions-seen.json").read_text())
    assert sorted(seen["gone"]) == [
        "memory:memory/2026-11-20.md:1:1",
        "memory:memory/2026-11-20.md:2:2",
    ]


def test_an_archive_by_the_owner_is_not_a_deletion(tmp_path, capsys):
    root = _ws(tmp_path / "ws")
    doc = _scan(capsys, root)
    _apply(capsys, root, tmp_path, f"- {{item: {_promotion(doc, 1)}, action: archive}}\n")
    text = (root / "MEMORY.md").read_text()
    assert "fact 1 promoted" not in text  # archived by the owner, its marker kept aside
    rc, w = _doctor(capsys, root)
    assert "promotions-deleted" not in [a["id"] for a in w["alarms"]]


def test_a_long_bullet_comes_back_whole_from_memreviews_backup(tmp_path, capsys):
    root = _ws(tmp_path / "ws")
    long = "a lesson " + "with many careful words " * 10 + "ending here"
    text = (root / "MEMORY.md").read_text().replace("fact 2 promoted on 2026-11-20", long)
    (root / "MEMORY.md").write_text(text)
    doc = _scan(capsys, root)
    _apply(capsys, root, tmp_path, f"- {{item: {_promotion(doc, 5)}, action: archive}}\n")
    seen = json.loads((root / ".memreview/promotions-seen.json").read_text())
    assert seen["keys"]["memory:memory/2026-11-20.md:2:2"]["text"].endswith("…")
    now = (root / "MEMORY.md").read_text()
    start = now.index("## Promoted From Short-Term Memory (2026-11-20)")
    end = now.index("## Promoted From Short-Term Memory (2026-11-27)")
    (root / "MEMORY.md").write_text(now[:start] + now[end:])  # the oldest section deleted
    rc, w = _doctor(capsys, root)
    alarm = next(a for a in w["alarms"] if a["id"] == "promotions-deleted")
    assert any("careful words ending here" in e for e in alarm["evidence"])


def test_a_workspace_without_promotions_gets_no_file(tmp_path, capsys):
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    rule = "- Galxe bounties need a day for review before payout"
    (root / "MEMORY.md").write_text(f"# Memory\n\n## Lessons\n{rule}\n{rule}\n")
    doc = _scan(capsys, root)
    item = doc["queues"]["duplicates"][0]["id"]
    _apply(capsys, root, tmp_path, f"- {{item: {item}, action: keep, keep: 1}}\n")
    assert (root / ".memreview/journal.jsonl").exists()
    assert not (root / ".memreview/promotions-seen.json").exists()


def test_a_memory_file_too_large_to_read_is_not_a_deletion(tmp_path, capsys):
    root = _ws(tmp_path / "ws")
    doc = _scan(capsys, root)
    _apply(capsys, root, tmp_path, f"- {{item: {_promotion(doc, 5)}, action: keep}}\n")
    (root / "memreview.yaml").write_text("max_markdown_mib: 1\n")
    with (root / "MEMORY.md").open("a") as f:
        f.write("- filler line for a very long memory file\n" * 30_000)  # past 1 MiB: skipped
    rc, w = _doctor(capsys, root)
    assert "promotions-deleted" not in [a["id"] for a in w["alarms"]]
    # a review meanwhile keeps their records: unknown is not gone
    from datetime import date

    from memreview.decisions.reviewed import remember_reviewed
    from memreview.workspace.loader import load_workspace

    assert remember_reviewed(root, load_workspace(root), set(), date(2026, 12, 1)) == []
    seen = json.loads((root / ".memreview/promotions-seen.json").read_text())
    assert len(seen["keys"]) == 4 and seen["gone"] == {}
