"""`memreview apply` and `memreview undo`: exit codes, dry runs, a full round trip."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from decisions_helpers import snapshot, write_files

from memreview.cli import main
from memreview.store import batches

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"
WS = {
    "MEMORY.md": (
        "# Memory\n\n## Lessons\n"
        "- bounties need a day for review (2026-04-10)\n"
        "- bounties need a day for review (2026-05-02)\n"
    ),
    "memory/projects/diary.md": "# Diary\nAdded: 2026-01-01\n",
}


def _ids(root: Path, capsys) -> dict[str, str]:
    assert main(["scan", str(root), "--json", "--today", "2026-11-29"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return {q: items[0]["id"] for q, items in doc["queues"].items() if items}


def _decisions(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "decisions.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return write_files(tmp_path / "ws", WS)


def _apply_keep_and_done(ws: Path, tmp_path: Path, capsys, project: str = "done") -> dict:
    """Keep the second bullet of the duplicates, mark the project done (or ``project``, another
    action on it); the item ids."""
    ids = _ids(ws, capsys)
    f = _decisions(
        tmp_path,
        f"- {{item: {ids['duplicates']}, action: keep, keep: 2}}\n"
        f"- {{item: {ids['dormant']}, action: {project}}}\n",
    )
    assert main(["apply", str(ws), "--decisions", str(f), "--today", "2026-11-29"]) == 0
    return ids


def test_apply_exits_0_when_every_decision_is_written(ws, tmp_path, capsys):
    _apply_keep_and_done(ws, tmp_path, capsys)
    err = capsys.readouterr().err
    assert "applied 2 of 2 decisions, 2 files" in err
    assert (ws / "MEMORY.md").read_text() == (
        "# Memory\n\n## Lessons\n- bounties need a day for review (2026-05-02)\n"
    )


def test_apply_exits_1_when_a_decision_fails_and_applies_the_rest(ws, tmp_path, capsys):
    ids = _ids(ws, capsys)
    f = _decisions(
        tmp_path,
        f"- {{item: nope, action: keep}}\n- {{item: {ids['dormant']}, action: done}}\n",
    )
    assert main(["apply", str(ws), "--decisions", str(f), "--today", "2026-11-29"]) == 1
    err = capsys.readouterr().err
    assert "failed: nope:keep: unknown item id 'nope'" in err
    assert "Status: done (2026-11-29)" in (ws / "memory/projects/diary.md").read_text()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("- {item: [broken\n", "broken YAML"),
        ("item: x\naction: keep\n", "expected a list of decisions"),
    ],
)
def test_apply_exits_2_on_an_unreadable_decisions_file(ws, tmp_path, capsys, content, message):
    f = tmp_path / "decisions.yaml"
    if content is not None:
        f.write_text(content)
    assert main(["apply", str(ws), "--decisions", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_apply_and_undo_exit_2_when_the_path_is_not_a_workspace(tmp_path, capsys):
    f = _decisions(tmp_path, "[]\n")
    assert main(["apply", str(tmp_path), "--decisions", str(f)]) == 2
    assert main(["undo", str(tmp_path / "missing")]) == 2
    with pytest.raises(SystemExit) as exit_:
        main(["apply", str(tmp_path)])  # --decisions is required
    assert exit_.value.code == 2
    assert "not a memory workspace" in capsys.readouterr().err


def test_apply_dry_run_prints_the_diff_and_writes_nothing(ws, tmp_path, capsys):
    ids = _ids(ws, capsys)
    f = _decisions(
        tmp_path,
        f"- {{item: {ids['dormant']}, action: snooze}}\n"
        f"- {{item: {ids['duplicates']}, action: keep, keep: 1}}\n",
    )
    before = snapshot(ws, skip_private=False)
    assert main(["apply", str(ws), "--decisions", str(f), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "--- a/MEMORY.md" in out and "-- bounties need a day for review (2026-05-02)" in out
    assert "+++ b/.memreview/state.yaml" in out
    assert snapshot(ws, skip_private=False) == before
    assert not (ws / ".memreview").exists()


def test_undo_exits_1_when_there_is_nothing_to_undo(ws, capsys):
    assert main(["undo", str(ws)]) == 1
    assert "nothing to undo" in capsys.readouterr().err


def test_an_interrupted_apply_is_reported_when_apply_or_undo_starts(ws, capsys):
    write_files(
        ws,
        {
            ".memreview/journal.jsonl": json.dumps(
                {
                    "type": "intent",
                    "batch": "b-1",
                    "kind": "apply",
                    "ts": "2026-11-28T10:00:00",
                    "decisions": [],
                    "files": [{"file": "MEMORY.md", "before": "x", "after": "y"}],
                }
            )
            + "\n"
        },
    )
    main(["undo", str(ws)])
    assert (
        "batch b-1 (apply, 2026-11-28T10:00:00) stopped after 0 of 1 file;"
        in capsys.readouterr().err
    )


def test_apply_then_undo_on_the_sample_workspace_restores_every_byte(tmp_path, capsys):
    root = tmp_path / "sample"
    shutil.copytree(SAMPLE, root)
    before = snapshot(root)
    assert main(["scan", str(root), "--json"]) == 0
    queues = json.loads(capsys.readouterr().out)["queues"]
    first = {
        "contradictions": "keep-b",
        "supersede": "approve",
        "skills": "create-skill",
        "archived": "remove",
        "dormant": "revive",
        "demotion": "approve",
    }
    lines = [f"- {{item: {queues[q][0]['id']}, action: {a}}}" for q, a in first.items()]
    chronicle = next(i for i in queues["duplicates"] if i["kind"] == "chronicle")
    lines.append(f"- {{item: {chronicle['id']}, action: merge}}")
    f = _decisions(tmp_path, "\n".join(lines) + "\n")
    assert main(["apply", str(root), "--decisions", str(f)]) == 0
    changed = {rel for rel, data in snapshot(root).items() if before.get(rel) != data}
    assert {"MEMORY.md", "memory/archive/superseded.md", "NOW.md"} <= changed
    assert main(["undo", str(root)]) == 0
    after = snapshot(root)
    verdicts = after.pop("memory/review/verdicts.jsonl").decode().splitlines()
    assert after == before  # every memory file is back, byte for byte
    # verdicts.jsonl is append-only: each verdict is followed by an "undone" line
    assert [json.loads(v)["verdict"] for v in verdicts] == ["approved"] * 2 + ["undone"] * 2
    assert [b.kind for b in batches(root)] == ["apply", "undo"]


def test_undo_stages_the_batch_decisions_again_beside_what_is_pending(ws, tmp_path, capsys):
    from memreview.decisions.model import Decision
    from memreview.decisions.pending import load_pending, save_pending

    ids = _apply_keep_and_done(ws, tmp_path, capsys)
    staged_since = Decision("x-later", "defer", queue="dormant")
    save_pending(ws, [staged_since])
    capsys.readouterr()
    assert main(["undo", str(ws)]) == 0
    err = capsys.readouterr().err
    assert "its 2 decisions are staged again" in err
    # a decision staged on an item no queue holds is dead: it goes, and the undo says so
    assert "x-later (Dormant: defer) is no longer staged: its item is in no queue" in err
    pending, warnings = load_pending(ws)
    assert warnings == []
    assert [(d.item, d.action, d.keep) for d in pending] == [
        (ids["duplicates"], "keep", 2),
        (ids["dormant"], "done", None),
    ]


def test_undo_says_how_many_items_it_hid_are_hidden_no_more(ws, tmp_path, capsys):
    """A snooze only hides its item (state.yaml); a keep rewrites a file. Undone, both items
    show again, and the line says which is which: one hidden no more, both staged again."""
    _apply_keep_and_done(ws, tmp_path, capsys, project="snooze")
    capsys.readouterr()
    assert main(["undo", str(ws)]) == 0
    err = capsys.readouterr().err
    assert "1 item it hid is hidden no more" in err
    assert "its 2 decisions are staged again" in err
    assert "show again" not in err
