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
    # what lies in the gap: the section the gap starts in
    assert alarm["evidence"][-1] == "in the gap: Memory (line 1)"


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
    # the daily log's secret is an item of the secrets queue, redact offered there too
    assert rc == 1 and s["count"] == 2 and s["elsewhere"] == []
    assert [(it["file"], it["line"], it["written"]) for it in s["items"]] == [
        ("MEMORY.md", 2, True),
        ("memory/2026-11-29.md", 2, True),
    ]
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
    # but the doctor says it is in use
    assert rc == 0 and any(
        f"short-term-promotion.lock is held by process {os.getpid()}, which is running" in w
        for w in doc["workspaces"][0]["warnings"]
    )


# -- the deep report, OpenClaw's SQLite store and its lock row ------------------------------


def _deep(day: str, ranked: int, promoted: int) -> str:
    return (
        "# Deep Sleep\n\n"
        f"- Ranked {ranked} candidate(s) for durable promotion.\n"
        f"- Promoted {promoted} candidate(s) into MEMORY.md.\n"
    )


def test_deep_reports_promoting_nothing_while_ranking_fire(tmp_path, capsys):
    files = {"MEMORY.md": "# M\n", **_logs(range(20, 30))}
    for d in (26, 27, 28, 29):
        files[f"memory/dreaming/deep/2026-11-{d}.md"] = _deep(f"2026-11-{d}", 4, 0)
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws", files))
    alarm = next(a for a in doc["workspaces"][0]["alarms"] if a["id"] == "dreaming-promoted-none")
    assert rc == 1 and "4 nights running" in alarm["title"] and "16 candidate" in alarm["title"]
    # look-alikes: nothing ranked (starved, not this alarm); a night that promoted breaks the run
    quiet = dict(files)
    for d in (26, 27, 28, 29):
        quiet[f"memory/dreaming/deep/2026-11-{d}.md"] = _deep("", 0, 0)
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws2", quiet))
    assert "dreaming-promoted-none" not in _alarm_ids(doc)
    broken = dict(files)
    broken["memory/dreaming/deep/2026-11-28.md"] = _deep("", 4, 2)
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws3", broken))
    assert "dreaming-promoted-none" not in _alarm_ids(doc)


def test_deep_blocks_in_dreams_md_count_by_the_date_above_them(tmp_path, capsys):
    block = (
        "<!-- openclaw:dreaming:deep:start -->\n- Ranked 2 candidate(s) for durable promotion.\n"
        "- Promoted 0 candidate(s) into MEMORY.md.\n<!-- openclaw:dreaming:deep:end -->\n"
    )
    dreams = "".join(
        f"## 2026-11-{d}\n\nA dream.\n\n## Deep Sleep\n{block}\n" for d in (27, 28, 29)
    )
    files = {"MEMORY.md": "# M\n", "DREAMS.md": dreams, **_logs(range(20, 30))}
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws", files))
    assert "dreaming-promoted-none" in _alarm_ids(doc)
    # the threshold is a setting: four nights needed, three found
    files["memreview.yaml"] = "alarms:\n  zero_promotion_nights: 4\n"
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws2", files))
    assert "dreaming-promoted-none" not in _alarm_ids(doc)


def _state(db: Path, ws: Path, recall_rows: int, lock: dict | None) -> Path:
    import hashlib
    import sqlite3

    db.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE plugin_state_entries (plugin_id TEXT, namespace TEXT, entry_key TEXT, "
        "value_json TEXT, created_at INTEGER, expires_at INTEGER)"
    )
    real = str(ws.resolve())
    wkey = hashlib.sha256(real.encode()).hexdigest()
    for k in range(recall_rows):
        key = f"memory:memory/2026-11-{1 + k % 28:02d}.md:{k + 1}:{k + 1}"
        value = {
            "key": key,
            "path": key.split(":")[1],
            "startLine": k + 1,
            "endLine": k + 1,
            "snippet": f"fact {k}",
            "recallCount": 5,
            "totalScore": 4.5,
            "userQueryHashes": ["a", "b", "c"],
        }
        doc = {"version": 1, "workspaceKey": wkey, "workspaceDir": real, "key": key, "value": value}
        con.execute(
            "INSERT INTO plugin_state_entries VALUES (?,?,?,?,?,?)",
            ("memory-core", "short-term-recall", f"{wkey}:{k}", json.dumps(doc), 0, None),
        )
    # another workspace's rows never count
    other = {"version": 1, "workspaceDir": "/elsewhere/workspace", "key": "k", "value": {}}
    con.execute(
        "INSERT INTO plugin_state_entries VALUES (?,?,?,?,?,?)",
        ("memory-core", "short-term-recall", "x:y", json.dumps(other), 0, None),
    )
    if lock is not None:
        doc = {
            "version": 1,
            "workspaceKey": wkey,
            "workspaceDir": real,
            "key": "promotion",
            "value": lock,
        }
        con.execute(
            "INSERT INTO plugin_state_entries VALUES (?,?,?,?,?,?)",
            ("memory-core", "short-term-locks", wkey, json.dumps(doc), 0, None),
        )
    con.commit()
    con.close()
    return db


def test_sqlite_store_at_its_cap_and_a_stale_lock_row(tmp_path, capsys):
    import time

    root = _ws(
        tmp_path / "ws",
        {"MEMORY.md": "# M\n", "memreview.yaml": "openclaw_state_db: state.sqlite\n"},
    )
    old = int(time.time() * 1000) - 3_600_000
    _state(root / "state.sqlite", root, 512, {"owner": f"999999999:{old}", "acquiredAt": old})
    rc, doc = _doctor(capsys, root)
    w = doc["workspaces"][0]
    cap = next(a for a in w["alarms"] if a["id"] == "recall-store-over-cap")
    stale = next(a for a in w["alarms"] if a["id"] == "stale-lock")
    assert rc == 1 and "512 entries" in cap["title"]
    assert "999999999" in stale["title"] and "999999999:" in stale["evidence"][0]


def test_a_store_under_its_cap_and_a_held_lock_row_are_quiet(tmp_path, capsys):
    import time

    root = _ws(
        tmp_path / "ws",
        {"MEMORY.md": "# M\n", "memreview.yaml": "openclaw_state_db: state.sqlite\n"},
    )
    now = int(time.time() * 1000)
    # a row taken a minute ago by a live process, the form memory-core writes ("<pid>:<ms>")
    _state(
        root / "state.sqlite",
        root,
        511,
        {"owner": f"{os.getpid()}:{now}", "acquiredAt": now - 120_000},
    )
    rc, doc = _doctor(capsys, root)
    w = doc["workspaces"][0]
    assert rc == 0 and w["alarms"] == []
    assert any("promotion lock is held by process" in x for x in w["warnings"])


def test_thresholds_come_from_memreview_yaml(tmp_path, capsys):
    section = "## Promoted From Short-Term Memory (2026-11-20)\n\n" + "".join(
        f"<!-- openclaw-memory-promotion:memory:memory/2026-11-10.md:{k}:{k} -->\n"
        f"- promoted fact {k} [score=0.8 recalls=3 avg=0.7 source=memory/2026-11-10.md:{k}-{k}]\n"
        for k in range(30)
    )
    files = {"MEMORY.md": "# Memory\n\n" + section}
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws", files))
    assert "promotion-budget" not in _alarm_ids(doc)  # ~3,000 of 10,000 characters
    files["memreview.yaml"] = "alarms:\n  promotion_budget: 3000\n  budget_warning_pct: 20\n"
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws2", files))
    assert "promotion-budget" in _alarm_ids(doc)
    assert (
        "OpenClaw's 3,000-character promotion budget" in doc["workspaces"][0]["alarms"][0]["title"]
    )


def test_secrets_in_the_state_database_snippets_and_in_git_history(tmp_path, capsys):
    import subprocess

    root = _ws(
        tmp_path / "ws",
        {"MEMORY.md": "# M\n- a rule\n", "memreview.yaml": "openclaw_state_db: s.sqlite\n"},
    )
    db = _state(root / "s.sqlite", root, 2, None)
    import sqlite3

    con = sqlite3.connect(db)
    row = con.execute("SELECT rowid, value_json FROM plugin_state_entries LIMIT 1").fetchone()
    doc = json.loads(row[1])
    doc["value"]["snippet"] = f"the CI token is {KEY}"
    con.execute(
        "UPDATE plugin_state_entries SET value_json = ? WHERE rowid = ?", (json.dumps(doc), row[0])
    )
    con.commit()
    con.close()
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    (root / "MEMORY.md").write_text(f"# M\n- a rule\n- token {KEY}\n")
    subprocess.run([*git, "add", "MEMORY.md"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    (root / "MEMORY.md").write_text("# M\n- a rule\n- token kept in 1Password\n")
    subprocess.run([*git, "commit", "-qam", "two"], check=True)
    rc, doc = _doctor(capsys, root)
    s = doc["workspaces"][0]["secrets"]
    # the file itself is clean now; the snippet is a queue item memreview does not write
    assert rc == 1 and [(it["file"], it["line"], it["written"]) for it in s["items"]] == [
        (str(db), None, False)
    ]
    [git_hit] = s["elsewhere"]
    assert git_hit["file"].endswith(" MEMORY.md") and git_hit["line"] == 3
    assert KEY not in json.dumps(doc) and "ghp_…" in git_hit["text"]
    rc = main(["doctor", str(root), "--today", TODAY])
    text = capsys.readouterr().out
    assert KEY not in text and "MEMORY.md:3" in text
    [line] = [ln for ln in text.splitlines() if ln.startswith(f"  SECRET {db} (")]
    assert "not rewritten by memreview" in line


def test_git_history_without_a_secret_is_quiet(tmp_path, capsys):
    import subprocess

    root = _ws(
        tmp_path / "ws",
        {"MEMORY.md": "# M\n- the token lives in 1Password, see token=<your token>\n"},
    )
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    rc, doc = _doctor(capsys, root)
    assert rc == 0 and doc["workspaces"][0]["secrets"]["elsewhere"] == []


def _blocks(n: int) -> str:
    return (
        "<!-- openclaw:dreaming:light:start -->\n"
        + "".join(f"- staged: the NAS note {k}\n" for k in range(n))
        + "<!-- openclaw:dreaming:light:end -->\n"
    )


def test_dreaming_blocks_far_past_their_median_are_a_runaway_write(tmp_path, capsys):
    # every log carries much text of its own, so the log as a whole stays under 5x
    own = "# log\n" + "- worked on the garden and the roses all day long\n" * 60
    files = {"MEMORY.md": "# M\n"}
    for d in range(14, 30):
        files[f"memory/2026-11-{d:02d}.md"] = own + _blocks(4)
    files["memory/2026-11-29.md"] = own + _blocks(40)
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws", files))
    titles = [a["title"] for a in doc["workspaces"][0]["alarms"] if a["id"] == "runaway-write"]
    assert rc == 1 and titles == ["memory/2026-11-29.md: its dreaming blocks are 6× the median"]
    # twice the usual blocks is a busy night, not a runaway
    files["memory/2026-11-29.md"] = own + _blocks(8)
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws2", files))
    assert "runaway-write" not in _alarm_ids(doc)


def test_a_recall_store_updated_since_is_a_dreaming_trace(tmp_path, capsys):
    files = {"MEMORY.md": "# Memory\n", "DREAMS.md": "# Dreams\n## 2026-11-20\n- a dream\n"}
    files.update(_logs(range(18, 30)))
    entries = {
        "memory:memory/2026-11-20.md:1:1": {
            "recallCount": 5,
            "totalScore": 4.5,
            "queryHashes": ["a", "b", "c"],
        }
    }
    store = {"version": 1, "updatedAt": "2026-11-28T03:00:00Z", "entries": entries}
    files["memory/.dreams/short-term-recall.json"] = json.dumps(store)
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws", files))
    assert "dreaming-silent" not in _alarm_ids(doc)
    # the same in the state database's short-term-meta rows
    import hashlib
    import sqlite3

    del files["memory/.dreams/short-term-recall.json"]
    files["memreview.yaml"] = "openclaw_state_db: s.sqlite\n"
    root = _ws(tmp_path / "ws2", files)
    rc, doc = _doctor(capsys, root)
    assert "dreaming-silent" in _alarm_ids(doc)
    db = _state(root / "s.sqlite", root, 1, None)
    con = sqlite3.connect(db)
    real = str(root.resolve())
    meta = {
        "version": 1,
        "workspaceDir": real,
        "key": "recall",
        "value": {"updatedAt": "2026-11-29T03:00:05.120Z"},
    }
    con.execute(
        "INSERT INTO plugin_state_entries VALUES (?,?,?,?,?,?)",
        (
            "memory-core",
            "short-term-meta",
            hashlib.sha256(real.encode()).hexdigest(),
            json.dumps(meta),
            0,
            None,
        ),
    )
    con.commit()
    con.close()
    rc, doc = _doctor(capsys, root)
    assert "dreaming-silent" not in _alarm_ids(doc)


def test_the_bootstrap_gap_names_the_sections_the_agent_never_sees(tmp_path, capsys):
    def part(title: str, n: int) -> str:
        return f"## {title}\n" + "".join(
            f"- {title} fact {k} with a few more words\n" for k in range(n)
        )

    text = "# Memory\n" + part("Rules", 350) + part("Old projects", 100) + part("Contacts", 150)
    rc, doc = _doctor(capsys, _ws(tmp_path / "ws", {"MEMORY.md": text}))
    alarm = next(a for a in doc["workspaces"][0]["alarms"] if a["id"] == "memory-over-bootstrap")
    # the gap starts inside "Old projects" and ends inside "Contacts"; "Rules" is seen
    assert alarm["evidence"][-1] == "in the gap: Old projects (line 353); Contacts (line 454)"


def test_doctor_in_chinese_names_the_alarm_in_chinese_and_its_json_stays_english(tmp_path, capsys):
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
