"""Secrets: redact writes the marker in place (byte for byte elsewhere), takes the value out of
memreview's backups too, survives undo; keep hides; a bad note is refused before writing."""

from __future__ import annotations

import json
from pathlib import Path

from decisions_helpers import write_files

from memreview.cli import main

KEY = "sk-or-v1-3f9a1c0e7b2d4a6f8e1c3b5d7f9a2c4e6b8d0f1a3c5e7b9d"
PASSWORD = "Qwerty@2026!x"
TODAY = "2026-11-29"


def _secret_ids(root: Path, capsys) -> list[str]:
    assert main(["scan", str(root), "--json", "--today", TODAY]) == 0
    out = capsys.readouterr().out
    assert KEY not in out and PASSWORD not in out  # the JSON never holds a value
    return [it["id"] for it in json.loads(out)["queues"]["secrets"]]


def _apply(root: Path, tmp_path: Path, text: str) -> int:
    f = tmp_path / "decisions.yaml"
    f.write_text(text, encoding="utf-8")
    return main(["apply", str(root), "--decisions", str(f), "--today", TODAY])


def _everywhere(root: Path, needle: bytes) -> list[str]:
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and needle in p.read_bytes()
    )


def test_redact_replaces_the_value_in_place_and_in_every_backup(tmp_path, capsys):
    memory = (
        "# Memory\r\n\r\n## Tools\r\n"
        f"- OpenRouter key for the night jobs: {KEY}\r\n"
        "- Gateway restarts need the owner present\r\n"
    )
    root = write_files(tmp_path / "ws", {"MEMORY.md": memory})
    # an earlier batch's backup of MEMORY.md already holds the key
    (ids,) = [_secret_ids(root, capsys)]
    assert (
        _apply(root, tmp_path, f'- {{item: {ids[0]}, action: redact, text: "1Password: OR"}}\n')
        == 0
    )
    capsys.readouterr()
    data = (root / "MEMORY.md").read_bytes()
    assert data == (
        b"# Memory\r\n\r\n## Tools\r\n"
        b"- OpenRouter key for the night jobs: [redacted API key 2026-11-29: 1Password: OR]\r\n"
        b"- Gateway restarts need the owner present\r\n"
    )
    assert _everywhere(root, KEY.encode()) == []  # not in the file, the backups or the journal
    assert _secret_ids(root, capsys) == []


def test_undo_of_a_redaction_restores_the_rest_and_keeps_the_value_out(tmp_path, capsys):
    root = write_files(
        tmp_path / "ws",
        {
            "MEMORY.md": (
                "# Memory\n\n## Lessons\n"
                "- bounties need a day for review (2026-04-10)\n"
                "- bounties need a day for review (2026-05-02)\n"
                f"- key {KEY}\n"
            )
        },
    )
    assert main(["scan", str(root), "--json", "--today", TODAY]) == 0
    doc = json.loads(capsys.readouterr().out)
    dup = doc["queues"]["duplicates"][0]["id"]
    sec = doc["queues"]["secrets"][0]["id"]
    decisions = f"- {{item: {dup}, action: keep, keep: 2}}\n- {{item: {sec}, action: redact}}\n"
    assert _apply(root, tmp_path, decisions) == 0
    assert main(["undo", str(root)]) == 0
    capsys.readouterr()
    text = (root / "MEMORY.md").read_text()
    # the duplicate is back; the key is not
    assert text.count("bounties need a day for review") == 2
    assert "[redacted API key 2026-11-29]" in text
    assert _everywhere(root, KEY.encode()) == []


def test_a_gbk_file_is_redacted_in_its_own_encoding(tmp_path, capsys):
    memory = f"# 账号\r\n\r\n- **密码**：{PASSWORD}\r\n- 密码：见 1Password\r\n".encode("gb18030")
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# M\n", "memory/accounts.md": memory})
    ids = _secret_ids(root, capsys)
    assert len(ids) == 1
    assert _apply(root, tmp_path, f"- {{item: {ids[0]}, action: redact}}\n") == 0
    assert (root / "memory/accounts.md").read_bytes() == (
        "# 账号\r\n\r\n- **密码**：[redacted password or token 2026-11-29]\r\n- 密码：见 1Password\r\n"
    ).encode("gb18030")
    assert _everywhere(root, PASSWORD.encode("gb18030")) == []


def test_keep_writes_nothing_to_memory_and_hides_the_item(tmp_path, capsys):
    root = write_files(tmp_path / "ws", {"MEMORY.md": f"# M\n- test key {KEY}\n"})
    ids = _secret_ids(root, capsys)
    before = (root / "MEMORY.md").read_bytes()
    assert _apply(root, tmp_path, f"- {{item: {ids[0]}, action: keep}}\n") == 0
    assert (root / "MEMORY.md").read_bytes() == before
    assert _secret_ids(root, capsys) == []


def test_a_note_that_holds_a_secret_is_refused_and_nothing_written(tmp_path, capsys):
    root = write_files(tmp_path / "ws", {"MEMORY.md": f"# M\n- key {KEY}\n"})
    ids = _secret_ids(root, capsys)
    before = (root / "MEMORY.md").read_bytes()
    bad = f'- {{item: {ids[0]}, action: redact, text: "moved; token={PASSWORD}xyzXYZ"}}\n'
    assert _apply(root, tmp_path, bad) != 0
    err = capsys.readouterr().err
    assert "the redaction note itself holds a credential" in err
    assert PASSWORD not in err
    assert (root / "MEMORY.md").read_bytes() == before
    assert not (root / ".memreview" / "journal.jsonl").exists()


def test_a_merge_text_holding_a_secret_is_journaled_masked_and_not_restaged(tmp_path, capsys):
    from decisions_helpers import decide

    from memreview.decisions import undo

    root = write_files(
        tmp_path / "ws",
        {
            "MEMORY.md": (
                "# Memory\n\n## Lessons\n"
                "- Galxe bounties need a day for review (2026-04-10)\n"
                "- Galxe bounties need a day for review (2026-05-02)\n"
            )
        },
    )
    merged = f"- Galxe bounties need a day for review; the API key is {KEY}\n"
    outcome = decide(root, "duplicates", "merge", {"kind": "fingerprint"}, keep=1, text=merged)
    assert outcome.ok, outcome
    assert KEY in (root / "MEMORY.md").read_text()  # the owner wrote it; the secrets queue has it
    journal = (root / ".memreview/journal.jsonl").read_text()
    assert KEY not in journal and "sk-or-v1-…" in journal and '"text_masked": true' in journal
    result = undo(root)
    assert result.ok and result.restaged == []  # the mask is never staged as the owner's text
    assert KEY not in (root / ".memreview/journal.jsonl").read_text()
