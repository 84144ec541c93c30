"""`memreview log` and `memreview undo --batch` on a copy of the sample after three applies."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memreview.cli import main

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"
TODAY = ["--today", "2026-11-29"]


def _ids(root: Path, capsys) -> dict[str, list[str]]:
    assert main(["scan", str(root), "--json", *TODAY]) == 0
    doc = json.loads(capsys.readouterr().out)
    return {q: [it["id"] for it in items] for q, items in doc["queues"].items()}


def _apply(root: Path, tmp_path: Path, text: str, capsys) -> None:
    f = tmp_path / "d.yaml"
    f.write_text(text, encoding="utf-8")
    assert main(["apply", str(root), "--decisions", str(f), *TODAY]) == 0, capsys.readouterr()
    capsys.readouterr()


@pytest.fixture(scope="module")
def _three_made(tmp_path_factory) -> tuple[Path, list[str]]:
    """The sample after three batches (a supersede, a demotion, a snooze), made once."""
    from memreview.decisions import apply
    from memreview.scan import scan_workspace
    from memreview.store import batches
    from memreview.workspace.dates import parse_date_arg

    root = tmp_path_factory.mktemp("three") / "ws"
    shutil.copytree(SAMPLE, root)
    for queue, action in (("supersede", "approve"), ("demotion", "approve"), ("dormant", "snooze")):
        result = scan_workspace(root, today=parse_date_arg(TODAY[1]))
        out = apply(result, [{"item": result.queues[queue][0]["id"], "action": action}])
        assert out.ok, out
    return root, [b.batch_id for b in reversed(batches(root))]


@pytest.fixture
def three(_three_made, tmp_path: Path) -> tuple[Path, list[str]]:
    """A copy of the sample after three batches, and their ids, newest first."""
    made, ids = _three_made
    root = tmp_path / "ws"
    shutil.copytree(made, root, symlinks=True)
    return root, list(ids)


def test_log_lists_every_batch_newest_first(three, capsys) -> None:
    root, ids = three
    assert main(["log", str(root)]) == 0
    out = capsys.readouterr().out
    heads = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    assert heads == ids and len(ids) == 3
    assert "supersede approve: pi-billing-api-metered supersedes pi-billing-subscription" in out
    assert "demotion approve: [FACT:openclaw-dual-install-paths]" in out
    assert "files: memory/archive/superseded.md, memory/review/verdicts.jsonl" in out
    assert out.count("can be undone: memreview undo --batch") == 3


def test_log_json_shape(three, capsys) -> None:
    root, ids = three
    assert main(["log", str(root), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == 1 and doc["workspace"] == str(root.resolve())
    oldest = doc["batches"][-1]
    assert oldest["kind"] == "apply" and oldest["undoable"] and oldest["blocked_by"] == []
    assert oldest["decisions"][0]["queue"] == "supersede"
    assert "memory/infra.md" in oldest["files"]


def test_undo_batch_of_the_first_keeps_the_later_two(three, capsys) -> None:
    root, ids = three
    first = ids[-1]
    demoted = (root / "memory/archive/demoted.md").read_bytes()
    memory = (root / "MEMORY.md").read_bytes()
    assert "## [INFRA:pi-billing-subscription]" not in (root / "memory/infra.md").read_text()
    assert main(["undo", str(root), "--batch", first]) == 0
    out, err = capsys.readouterr()
    assert f"took back batch {first}" in err and "staged again" in err
    assert "+## [INFRA:pi-billing-subscription]" in out  # the diff it wrote
    assert "MEMORY.md" not in out and "demoted.md" not in out
    assert "## [INFRA:pi-billing-subscription]" in (root / "memory/infra.md").read_text()
    assert "pi-billing-subscription" not in (root / "memory/archive/superseded.md").read_text()
    # the later two batches are intact
    assert (root / "memory/archive/demoted.md").read_bytes() == demoted
    assert (root / "MEMORY.md").read_bytes() == memory
    verdicts = (root / "memory/review/verdicts.jsonl").read_text().splitlines()
    assert json.loads(verdicts[-1])["verdict"] == "undone"
    assert json.loads(verdicts[-1])["undoes"] == first
    assert "s-" in (root / ".memreview/pending.yaml").read_text()
    assert main(["log", str(root)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith(f"undo of {first}")
    assert "can't be undone: undone by batch" in out


def test_undo_batch_refused_names_the_file_changed_since(three, tmp_path, capsys) -> None:
    root, ids = three
    first = ids[-1]
    # a later batch that edits the lines the first one wrote: the supersede's new anchor
    ids_now = _ids(root, capsys)
    infra = root / "memory/infra.md"
    assert "Supersedes: [[pi-billing-subscription]]" in infra.read_text()
    infra.write_text(
        infra.read_text().replace("Supersedes: [[pi-billing-subscription]]", "Supersedes: x")
    )
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert main(["undo", str(root), "--batch", first]) == 1
    err = capsys.readouterr().err
    assert f"undo of batch {first} refused, nothing was written" in err
    assert "memory/infra.md" in err
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
    assert ids_now  # the workspace still scans


def test_undo_batch_unknown_id_and_an_undo_batch(three, capsys) -> None:
    root, ids = three
    assert main(["undo", str(root), "--batch", "nope"]) == 1
    assert "no batch nope in the journal" in capsys.readouterr().err
    assert main(["undo", str(root)]) == 0  # the last one, as before
    capsys.readouterr()
    assert main(["log", str(root), "--json"]) == 0
    undo_id = json.loads(capsys.readouterr().out)["batches"][0]["batch"]
    assert main(["undo", str(root), "--batch", undo_id]) == 1
    assert "apply its decisions again instead" in capsys.readouterr().err


def test_log_on_a_fleet_and_a_workspace_without_journal(tmp_path, capsys) -> None:
    for name in ("alpha", "beta"):
        shutil.copytree(SAMPLE, tmp_path / "fleet" / name)
    assert main(["log", str(tmp_path / "fleet"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc["agents"]) == {"alpha", "beta"}
    assert doc["agents"]["alpha"]["batches"] == []
    assert main(["log", str(tmp_path / "fleet" / "alpha")]) == 0
    assert "no batch yet" in capsys.readouterr().out


def test_restore_lists_puts_back_and_is_undoable(three, capsys) -> None:
    root, ids = three
    assert main(["restore", str(root)]) == 0
    listed = capsys.readouterr().out
    assert "demoted" in listed and "## [FACT:openclaw-dual-install-paths]" in listed
    assert "goes back to memory/infra.md" in listed
    assert main(["restore", str(root), "--list", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    item = next(i for i in doc["archived"] if "openclaw-dual-install-paths" in i["title"])
    assert item["found_by"] == "recorded" and item["origin"] == "memory/infra.md"
    archive = (root / "memory/archive/demoted.md").read_bytes()
    assert main(["restore", str(root), "openclaw-dual-install-paths"]) == 0
    out, err = capsys.readouterr()
    assert "+## [FACT:openclaw-dual-install-paths]" in out and "-Demoted: 2026-11-29" in out
    assert f"restored {item['id']} to memory/infra.md" in err
    assert (
        "Demoted:"
        not in (root / "memory/infra.md").read_text().split("openclaw-dual-install-paths")[1]
    )
    assert main(["log", str(root)]) == 0
    assert "restore\n    archive restore: ## [FACT:openclaw-dual-install-paths]" in (
        capsys.readouterr().out
    )
    assert main(["undo", str(root)]) == 0
    assert (root / "memory/archive/demoted.md").read_bytes() == archive
    capsys.readouterr()
    assert main(["restore", str(root), "no such text anywhere"]) == 1
    assert "nothing archived matches" in capsys.readouterr().err


def test_apply_prunes_old_backups_log_says_so_doctor_reports_the_size(tmp_path, capsys) -> None:
    from datetime import UTC, datetime

    from memreview.store import FileOutcome, FunctionJob, apply_batch, backup_usage, undo_batch

    root = tmp_path / "ws"
    shutil.copytree(SAMPLE, root)
    settings = (root / "memreview.yaml").read_text()
    assert "keep_batches: 50\n  keep_days: 90" in settings
    (root / "memreview.yaml").write_text(
        settings.replace("keep_batches: 50\n  keep_days: 90", "keep_batches: 1\n  keep_days: 30")
    )
    old = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)

    def touch(current):
        return FileOutcome(current.data + b"- an old line\n", applied=["x"])

    first = apply_batch(root, [FunctionJob("NOW.md", touch, ["x"])], [{"item": "x"}], now=old)
    assert undo_batch(root, first.batch_id, now=old).ok
    ids = _ids(root, capsys)
    f = tmp_path / "d.yaml"
    f.write_text(f"- {{item: {ids['demotion'][0]}, action: approve}}\n", encoding="utf-8")
    assert main(["apply", str(root), "--decisions", str(f), *TODAY]) == 0
    assert "pruned the backups of 2 old batch(es)" in capsys.readouterr().err
    assert not (root / first.files[0].backup).exists()
    assert main(["log", str(root)]) == 0
    out = capsys.readouterr().out
    assert out.count("backups pruned on") == 2
    assert main(["doctor", str(root), "--json", *TODAY]) in (0, 1)
    backups = json.loads(capsys.readouterr().out)["workspaces"][0]["backups"]
    files, size = backup_usage(root)
    # MEMORY.md before and after, demoted.md new
    assert backups == {"files": files, "bytes": size} and files == 3
    main(["doctor", str(root), *TODAY])
    assert f"backups: 3 file(s), {(size + 1023) // 1024} KiB under .memreview/backups" in (
        capsys.readouterr().out
    )
