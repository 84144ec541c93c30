"""`memreview doctor`: each alarm on a workspace built to fire it, a quiet workspace exits 0,
secrets are counted and shown masked, usage errors exit 2."""

from __future__ import annotations

import json
import os
from pathlib import Path

from memreview.cli import main

TODAY = "2026-11-30"
KEY = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


def _ws(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return root


def _logs(days: range, size: int = 200, month: str = "2026-11") -> dict[str, str]:
    return {
        f"memory/{month}-{d:02d}.md": "# log\n" + "- worked on things\n" * (size // 18)
        for d in days
    }


def _doctor(capsys, root: Path) -> tuple[int, dict]:
    rc = main(["doctor", str(root), "--json", "--today", TODAY])
    out = capsys.readouterr().out
    return rc, json.loads(out)


def _alarm_ids(doc: dict) -> list[str]:
    return [a["id"] for a in doc["workspaces"][0]["alarms"]]


def test_a_quiet_workspace_exits_0(tmp_path, capsys):
    root = _ws(tmp_path / "ws", {"MEMORY.md": "# Memory\n- a short rule\n", **_logs(range(20, 30))})
    rc, doc = _doctor(capsys, root)
    assert rc == 0 and doc["ok"] is True
    assert _alarm_ids(doc) == [] and doc["workspaces"][0]["secrets"]["count"] == 0


def test_dreaming_silent_fires_when_logs_keep_coming_and_dreaming_stopped(tmp_path, capsys):
    files = {"MEMORY.md": "# Memory\n", "DREAMS.md": "# Dreams\n## 2026-11-20\n- a dream\n"}
    files.update(_logs(range(18, 30)))
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws", files))
    assert rc == 1 and "dreaming-silent" in _alarm_ids(doc)
    # the same workspace with a dreaming trace two nights ago is quiet
    files["DREAMS.md"] += "## 2026-11-27\n- another\n"
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws2", files))
    assert "dreaming-silent" not in _alarm_ids(doc)


def test_memory_over_the_bootstrap_cut_names_the_lines_the_agent_never_sees(tmp_path, capsys):
    body = "".join(f"- fact number {k} about the workspace and its habits\n" for k in range(600))
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws", {"MEMORY.md": "# Memory\n" + body}))
    alarm = next(a for a in doc["workspaces"][0]["alarms"] if a["id"] == "memory-over-bootstrap")
    assert rc == 1 and "never sees lines" in alarm["title"]


def test_promotion_budget_and_runaway_log_and_stale_lock(tmp_path, capsys):
    section = "## Promoted From Short-Term Memory (2026-11-20)\n\n" + "".join(
        f"<!-- openclaw-memory-promotion:memory:memory/2026-11-{10 + k % 9}.md:{k}:{k} -->\n"
        f"- promoted fact {k} with enough words to weigh something [score=0.8 recalls=3 avg=0.7 "
        f"source=memory/2026-11-{10 + k % 9}.md:{k}-{k}]\n"
        for k in range(80)
    )
    files = {"MEMORY.md": "# Memory\n\n" + section, **_logs(range(1, 29))}
    files["memory/2026-11-29.md"] = "# log\n" + "- dream fragment again and again\n" * 400
    files["memory/.dreams/short-term-promotion.lock"] = "999999999\n"
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws", files))
    ids = _alarm_ids(doc)
    assert rc == 1
    assert {"promotion-budget", "runaway-write", "stale-lock"} <= set(ids)


def test_legacy_store_and_starved_promotion(tmp_path, capsys):
    entries = {
        f"memory:memory/2026-11-2{k}.md:1:1": {
            "key": f"memory:memory/2026-11-2{k}.md:1:1",
            "recallCount": 0,
            "totalScore": 0,
            "queryHashes": [],
            "snippet": "a line",
        }
        for k in range(3)
    }
    store = json.dumps({"version": 1, "updatedAt": "2026-11-29T03:00:00Z", "entries": entries})
    files = {"MEMORY.md": "# M\n", "memory/.dreams/short-term-recall.json": store}
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws", files))
    assert rc == 1 and {"recall-store-legacy", "promotion-starved"} <= set(_alarm_ids(doc))


def test_secrets_are_counted_masked_in_memory_and_in_daily_logs(tmp_path, capsys):
    files = {
        "MEMORY.md": f"# M\n- CI token {KEY}\n",
        "memory/2026-11-29.md": f"# log\n- pasted the token {KEY} into the chat\n",
    }
    root = _ws(tmp_path / "ws", files)
    rc, doc = _doctor(capsys, root)
    s = doc["workspaces"][0]["secrets"]
    assert rc == 1 and s["count"] == 1 and len(s["elsewhere"]) == 1
    assert s["elsewhere"][0]["file"] == "memory/2026-11-29.md"
    rc = main(["doctor", str(root), "--today", TODAY])
    text = capsys.readouterr().out
    assert rc == 1 and KEY not in text and json.dumps(doc).count(KEY) == 0
    assert "SECRET memory/2026-11-29.md:2" in text


def test_not_a_workspace_exits_2(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["doctor", str(tmp_path / "empty")]) == 2
    assert "memreview:" in capsys.readouterr().err


def test_a_live_lock_is_not_stale(tmp_path, capsys):
    files = {"MEMORY.md": "# M\n", "memory/.dreams/short-term-promotion.lock": f"{os.getpid()}\n"}
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws", files))
    assert "stale-lock" not in _alarm_ids(doc)


def test_doctor_in_chinese_names_the_alarm_in_chinese_and_its_json_stays_english(
    tmp_path, capsys
):
    files = {"MEMORY.md": "# Memory\n", "DREAMS.md": "# Dreams\n## 2026-11-20\n- a dream\n"}
    files.update(_logs(range(18, 30)))
    root = _ws(tmp_path / "ws", files)
    rc = main(["doctor", str(root), "--today", TODAY, "--lang", "zh"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "告警 dreaming-silent：每日日志照常产生，梦境整理却已沉默" in out
    assert "处理办法：检查梦境整理的 cron 任务" in out
    main(["doctor", str(root), "--json", "--today", TODAY, "--lang", "zh"])
    doc = json.loads(capsys.readouterr().out)
    alarm = doc["workspaces"][0]["alarms"][0]
    assert alarm["title"].startswith("dreaming silent for ")
