"""A secret's id has a prefix of its own (``cr-``; Supersede keeps ``s-``), and the ``s-`` ids
an older memreview wrote for secrets still name them: in state.yaml (hidden), pending.yaml
(staged), the journal (applied once) and a decisions file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from decisions_helpers import write_files

from memreview.cli import main
from memreview.decisions.pending import load_pending
from memreview.queues.common import current_id, former_id

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"
TODAY = "2026-11-29"
KEY = "sk-or-v1-3f9a1c0e7b2d4a6f8e1c3b5d7f9a2c4e6b8d0f1a3c5e7b9d"
MEMORY = f"# Memory\n\n## Tools\n- OpenRouter key for the night jobs: {KEY}\n- other line\n"


def _scan(root: Path, capsys) -> dict:
    assert main(["scan", str(root), "--json", "--today", TODAY]) == 0
    return json.loads(capsys.readouterr().out)


def _apply(root: Path, tmp_path: Path, text: str) -> tuple[int, str]:
    f = tmp_path / "decisions.yaml"
    f.write_text(text, encoding="utf-8")
    return main(["apply", str(root), "--decisions", str(f), "--today", TODAY]), ""


def _as_an_older_memreview_wrote_it(root: Path, new: str) -> str:
    """Every file of memreview's own directory with the secret's id in its old ``s-`` form
    (what a memreview from before the prefix changed left there); the old id."""
    old = former_id(new)
    assert old is not None and old.startswith("s-")
    for path in (root / ".memreview").rglob("*"):
        if path.is_file() and new.encode() in path.read_bytes():
            path.write_bytes(path.read_bytes().replace(new.encode(), old.encode()))
    return old


def _batches(root: Path) -> int:
    journal = root / ".memreview/journal.jsonl"
    lines = journal.read_text().splitlines() if journal.exists() else []
    return sum(1 for line in lines if json.loads(line).get("type") == "intent")


def test_no_two_queues_share_an_id_prefix(tmp_path, capsys):
    root = tmp_path / "ws"
    shutil.copytree(SAMPLE, root)
    doc = _scan(root, capsys)
    owner: dict[str, set[str]] = {}
    for queue, items in doc["queues"].items():
        for it in items:
            owner.setdefault(it["id"].split("-", 1)[0], set()).add(queue)
    assert doc["queues"]["secrets"] and doc["queues"]["supersede"]
    assert {p: q for p, q in owner.items() if len(q) > 1} == {}
    assert all(it["id"].startswith("cr-") for it in doc["queues"]["secrets"])
    assert all(it["id"].startswith("s-") for it in doc["queues"]["supersede"])


def test_an_old_id_is_read_as_todays_only_where_the_queue_says_secrets():
    assert current_id("s-0123456789ab", "secrets") == "cr-0123456789ab"
    assert current_id("s-0123456789ab", "supersede") == "s-0123456789ab"
    assert current_id("s-0123456789ab", None) == "s-0123456789ab"
    assert former_id("cr-0123456789ab-2") == "s-0123456789ab-2"
    assert former_id("s-0123456789ab") is None


def test_a_secret_an_older_memreview_hid_as_s_stays_hidden_applies_once_and_unhides(
    tmp_path, capsys
):
    root = write_files(tmp_path / "ws", {"MEMORY.md": MEMORY})
    (item,) = _scan(root, capsys)["queues"]["secrets"]
    new = item["id"]
    assert _apply(root, tmp_path, f"- {{item: {new}, action: keep, queue: secrets}}\n")[0] == 0
    old = _as_an_older_memreview_wrote_it(root, new)
    assert old in (root / ".memreview/state.yaml").read_text()
    capsys.readouterr()

    assert _scan(root, capsys)["queues"]["secrets"] == []  # still hidden
    # the old decisions file applied again: already applied, nothing new written
    for line in (
        f"- {{item: {old}, action: keep, queue: secrets}}\n",
        f"- {{item: {old}, action: keep}}\n",
    ):
        before = _batches(root)
        assert _apply(root, tmp_path, line)[0] == 0
        assert "already applied" in capsys.readouterr().err
        assert _batches(root) == before
    # listed under today's id, and unhidden by it
    assert main(["hidden", str(root), "--today", TODAY]) == 0
    listed = capsys.readouterr().out
    assert new in listed and old not in listed
    assert main(["unhide", str(root), new, "--today", TODAY]) == 0
    capsys.readouterr()
    assert [it["id"] for it in _scan(root, capsys)["queues"]["secrets"]] == [new]
    assert old not in (root / ".memreview/state.yaml").read_text()


def test_undo_of_an_old_batch_that_hid_a_secret_as_s_shows_it_again(tmp_path, capsys):
    root = write_files(tmp_path / "ws", {"MEMORY.md": MEMORY})
    (item,) = _scan(root, capsys)["queues"]["secrets"]
    assert _apply(root, tmp_path, f"- {{item: {item['id']}, action: keep}}\n")[0] == 0
    old = _as_an_older_memreview_wrote_it(root, item["id"])
    assert main(["undo", str(root)]) == 0
    capsys.readouterr()
    assert old not in (root / ".memreview/state.yaml").read_text()
    assert [it["id"] for it in _scan(root, capsys)["queues"]["secrets"]] == [item["id"]]


def test_a_redact_staged_as_s_by_an_older_memreview_is_written(tmp_path, capsys):
    root = write_files(tmp_path / "ws", {"MEMORY.md": MEMORY})
    (item,) = _scan(root, capsys)["queues"]["secrets"]
    old = former_id(item["id"])
    pending = root / ".memreview/pending.yaml"
    pending.parent.mkdir()
    pending.write_text(f"- item: {old}\n  action: redact\n  queue: secrets\n", encoding="utf-8")
    decisions, problems = load_pending(root)
    assert [d.item for d in decisions] == [item["id"]] and problems == []
    code = main(["apply", str(root), "--decisions", str(pending), "--today", TODAY])
    assert code == 0, capsys.readouterr().err
    assert KEY not in (root / "MEMORY.md").read_text()
    assert "[redacted API key" in (root / "MEMORY.md").read_text()


def test_a_decisions_file_naming_an_old_secret_id_without_its_queue_still_finds_it(
    tmp_path, capsys
):
    root = write_files(tmp_path / "ws", {"MEMORY.md": MEMORY})
    (item,) = _scan(root, capsys)["queues"]["secrets"]
    assert _apply(root, tmp_path, f"- {{item: {former_id(item['id'])}, action: redact}}\n")[0] == 0
    assert KEY not in (root / "MEMORY.md").read_text()
    journal = (root / ".memreview/journal.jsonl").read_text()
    assert f'"{item["id"]}:redact"' in journal  # recorded under today's id


def test_a_rejected_proposal_under_the_old_prefix_does_not_hide_a_secret_with_its_digits():
    """``s-`` was both Supersede's prefix and the secrets' old one: an agent able to make a
    proposal and a secret share the digits must not get the owner's reject of the proposal
    to hide the secret."""
    from datetime import date

    from memreview.decisions.state import Hidden, State

    today = date(2026, 11, 29)
    rejected = State(hidden={"s-0123456789ab": Hidden(None, "rejected", "b1")})
    assert rejected.is_hidden("s-0123456789ab", today)  # the proposal itself stays hidden
    assert not rejected.is_hidden("cr-0123456789ab", today)
    kept = State(hidden={"s-0123456789ab": Hidden(None, "kept", "b1")})
    assert kept.is_hidden("cr-0123456789ab", today)  # a secret kept by an older memreview
