"""Secrets outside memory files: redact in a daily log replaces the value alone (the one edit
memreview makes to a log), its line endings and encoding kept, and undo does not bring the
value back; a recall-store snippet is reported with its reason and never written."""

from __future__ import annotations

import json
from pathlib import Path

from decisions_helpers import write_files

from memreview.cli import main

PASSWORD = "Tq7vK2mR9x"
BOT = "7715203948:AAHq3mZ8xW2pL5vN9cR4tY7uJ1kE6sD0fGh"
TODAY = "2026-11-29"
LOG = "memory/2026-11-20.md"


def _items(root: Path, capsys) -> list[dict]:
    assert main(["scan", str(root), "--json", "--today", TODAY]) in (0, 1)
    out = capsys.readouterr().out
    assert PASSWORD not in out and BOT not in out  # the JSON never holds a value
    return json.loads(out)["queues"]["secrets"]


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


def test_redact_in_a_crlf_daily_log_replaces_the_value_alone(tmp_path, capsys):
    log = (
        "# 2026-11-20\r\n\r\n"
        f"- VPS ready: ssh root@203.0.113.7, password: {PASSWORD}\r\n"
        "- the password reset flow sends one mail now\r\n"
    )
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# M\n- a rule\n", LOG: log})
    [item] = _items(root, capsys)
    assert (item["ref"]["file"], item["ref"]["line"], item["source"], item["writable"]) == (
        LOG,
        3,
        "log",
        True,
    )
    assert _apply(root, tmp_path, f"- {{item: {item['id']}, action: redact}}\n") == 0
    capsys.readouterr()
    assert (root / LOG).read_bytes() == (
        b"# 2026-11-20\r\n\r\n"
        b"- VPS ready: ssh root@203.0.113.7, password: [redacted password or token 2026-11-29]\r\n"
        b"- the password reset flow sends one mail now\r\n"
    )
    assert _everywhere(root, PASSWORD.encode()) == []  # nor in a backup or the journal
    assert main(["undo", str(root)]) == 0
    capsys.readouterr()
    assert PASSWORD.encode() not in (root / LOG).read_bytes()
    assert b"[redacted password or token 2026-11-29]\r\n" in (root / LOG).read_bytes()
    assert _everywhere(root, PASSWORD.encode()) == []


def test_redact_in_a_gbk_daily_log_keeps_its_encoding(tmp_path, capsys):
    text = f"# 部署\n- 新服务器 | 用户: root | 密码: {PASSWORD}\n- 主人说密码要十二位\n"
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# M\n- 规则\n"})
    (root / "memory").mkdir(exist_ok=True)
    (root / LOG).write_bytes(text.encode("gbk"))
    [item] = _items(root, capsys)
    assert _apply(root, tmp_path, f"- {{item: {item['id']}, action: redact}}\n") == 0
    capsys.readouterr()
    want = text.replace(PASSWORD, "[redacted password or token 2026-11-29]")
    assert (root / LOG).read_bytes() == want.encode("gbk")


def test_a_recall_store_snippet_is_reported_and_never_written(tmp_path, capsys):
    entry = {
        "key": "memory:memory/2026-11-20.md:3:3",
        "path": LOG,
        "startLine": 3,
        "endLine": 3,
        "source": "memory",
        "snippet": f"- Created the alert bot, token {BOT}",
        "recallCount": 1,
    }
    store = json.dumps({"version": 1, "entries": {entry["key"]: entry}})
    rel = "memory/.dreams/short-term-recall.json"
    root = write_files(tmp_path / "ws", {"MEMORY.md": "# M\n- a rule\n", rel: store})
    [item] = _items(root, capsys)
    assert (item["ref"]["file"], item["ref"]["line"], item["writable"]) == (rel, None, False)
    assert "never writes it" in item["not_written"]
    before = (root / rel).read_bytes()
    rc = _apply(root, tmp_path, f"- {{item: {item['id']}, action: redact}}\n")
    err = capsys.readouterr()
    assert rc != 0 and "never writes it" in err.out + err.err
    assert BOT not in err.out + err.err
    assert (root / rel).read_bytes() == before
    # keep hides it, writing nothing there
    assert _apply(root, tmp_path, f"- {{item: {item['id']}, action: keep}}\n") == 0
    capsys.readouterr()
    assert (root / rel).read_bytes() == before
    assert _items(root, capsys) == []
