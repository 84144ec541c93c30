"""`memreview apply` on broken and hostile workspaces: what can be applied is, the rest is
refused with a reason (exit 1); a bad decisions file is one line (exit 2); nothing outside the
workspace is written, and no byte changes that no decision asked for."""

from __future__ import annotations

import codecs
import errno
import json
import os
import random
import re
from pathlib import Path

import hostile_corpus as hc
import pytest
from hostile_helpers import assert_no_traceback, assert_one_line, run_cli, run_main

USABLE = [name for name, c in hc.CASES.items() if c.unusable is None]
# One decision per queue item: a verb that writes where the queue can write.
ACTION = {
    "contradictions": "keep-both",
    "supersede": "approve",
    "skills": "create-skill",
    "archived": "remove",
    "duplicates": "keep",
    "dormant": "done",
    "demotion": "approve",
}
# Files a decision may create or change besides the entries it names (docs/design.md §3, §4).
SIDE_FILES = re.compile(
    r"^(\.memreview(/.*)?|memory/archive(/.*)?|memory/review/verdicts\.jsonl|NOW\.md"
    r"|skills(/.*)?|memory/skill_candidates\.json)$"
)


def scan_ids(ws: Path) -> dict[str, list[dict]]:
    run = run_main("scan", str(ws), "--json", "--today", hc.TODAY)
    assert run.code == 0, run.err
    return run.json()["queues"]


def decisions_file(tmp: Path, decisions: list[dict], name: str = "decisions.yaml") -> Path:
    f = tmp / name
    f.write_text("".join(f"- {json.dumps(d, ensure_ascii=False)}\n" for d in decisions))
    return f


def changed(before: dict, after: dict) -> set[str]:
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


def rel(ws: Path, paths: set[str]) -> set[str]:
    return {os.path.relpath(p, ws) for p in paths}


@pytest.mark.parametrize("name", USABLE)
def test_apply_writes_what_it_can_and_refuses_the_rest_with_a_reason(tmp_path, name):
    ws, outside = hc.build(name, tmp_path)
    queues = scan_ids(ws)
    decisions = [{"item": "no-such-item", "action": "keep"}]
    named: set[str] = set()
    for queue, items in queues.items():
        for it in items:
            d = {"item": it["id"], "action": ACTION[queue]}
            if queue == "duplicates":
                d["keep"] = 1
            decisions.append(d)
            named |= {v["file"] for v in it.values() if isinstance(v, dict) and "file" in v}
            named |= {r["file"] for key in ("refs", "matches") for r in it.get(key) or []}
            if queue == "dormant":
                named.add(it["ref"]["file"])
    f = decisions_file(tmp_path, decisions)

    before = hc.snapshot(ws, outside)
    dry = run_main("apply", str(ws), "--decisions", str(f), "--today", hc.TODAY, "--dry-run")
    assert_no_traceback(dry)
    assert hc.snapshot(ws, outside) == before, "a dry run wrote something"
    if dry.code == 2:  # decisions that send one anchor two ways: refused whole, both named
        refused = [ln for ln in dry.err.splitlines() if ln.startswith("refused: ")]
        assert refused, dry.err
        assert hc.RAW_CONTROL_RE.search(dry.err) is None
        later = {ln.split(" ", 2)[1] for ln in refused}  # each pair's later item goes
        decisions = [d for d in decisions if d["item"] not in later]
        f = decisions_file(tmp_path, decisions)

    run = run_main("apply", str(ws), "--decisions", str(f), "--today", hc.TODAY)
    assert_no_traceback(run)
    assert run.code == 1, run.err  # the unknown item at least
    if "memreview: nothing applied:" in run.err:  # .memreview/ can't be written at all
        assert hc.snapshot(ws, outside) == before
        return
    assert "failed: no-such-item:keep: unknown item id" in run.err
    for line in run.err.splitlines():
        if line.startswith(("failed:", "conflict:")):
            assert len(line.split(": ", 2)) == 3 and line.split(": ", 2)[2].strip(), line
    summary = run.err.splitlines()[-1]
    assert re.match(rf"applied \d+ of {len(decisions)} decisions?,", summary), summary
    assert hc.RAW_CONTROL_RE.search(run.err) is None
    after = hc.snapshot(ws, outside)
    outside_changed = {p for p in changed(before, after) if not p.startswith(str(ws) + os.sep)}
    assert outside_changed == set()
    unexpected = {
        p for p in rel(ws, changed(before, after)) if p not in named and not SIDE_FILES.match(p)
    }
    assert unexpected == set(), "changed without a decision asking for it"


def _apply(tmp: Path, ws: Path, decisions: list[dict], *extra: str):
    f = decisions_file(tmp, decisions)
    return run_cli("apply", str(ws), "--decisions", str(f), "--today", hc.TODAY, *extra)


def test_gbk_crlf_file_keeps_its_encoding_and_endings_and_only_the_deleted_line_goes(tmp_path):
    ws, _ = hc.build("gbk-crlf", tmp_path)
    [dup] = scan_ids(ws)["duplicates"]
    run = _apply(tmp_path, ws, [{"item": dup["id"], "action": "keep", "keep": 1}])
    assert run.code == 0, run.err
    gone = "- 网关固定用 18789 端口，改端口要同步改飞书 webhook（2026-10-01）\r\n".encode("gbk")
    assert gone in hc.GBK_MEMORY
    assert (ws / "MEMORY.md").read_bytes() == hc.GBK_MEMORY.replace(gone, b"")


def test_invalid_utf8_bytes_survive_a_decision_in_the_same_file(tmp_path):
    ws, _ = hc.build("invalid-utf8", tmp_path)
    dup = next(d for d in scan_ids(ws)["duplicates"] if "gateway" in d["title"])
    run = _apply(tmp_path, ws, [{"item": dup["id"], "action": "keep", "keep": 1}])
    assert run.code == 0, run.err
    gone = b"- The gateway listens on port 18789 for local clients (2026-10-01)\n"
    assert (ws / "MEMORY.md").read_bytes() == hc.INVALID_UTF8.replace(gone, b"")


def test_utf16_file_stays_utf16_with_its_bom(tmp_path):
    ws, _ = hc.build("utf16-bom", tmp_path)
    dup = next(d for d in scan_ids(ws)["duplicates"] if d["refs"][0]["file"] == "memory/notes.md")
    run = _apply(tmp_path, ws, [{"item": dup["id"], "action": "keep", "keep": 1}])
    assert run.code == 0, run.err
    gone = "- The owner prefers short replies in the morning (2026-09-01)\r\n".encode("utf-16-le")
    assert (ws / "memory/notes.md").read_bytes() == hc.UTF16_NOTES.replace(gone, b"")
    assert (ws / "memory/broken16.md").read_bytes() == hc.BROKEN_UTF16


def test_create_skill_writes_only_under_skills_with_a_safe_slug(tmp_path):
    ws, outside = hc.build("skill-theme-traversal", tmp_path)
    skills = scan_ids(ws)["skills"]
    assert len(skills) == 4
    f = decisions_file(tmp_path, [{"item": s["id"], "action": "create-skill"} for s in skills])
    before = hc.snapshot(tmp_path)
    run = run_cli("apply", str(ws), "--decisions", str(f), "--today", hc.TODAY)
    assert run.code == 0, run.err
    new = {
        p
        for p in rel(ws, changed(before, hc.snapshot(tmp_path)))
        if not p.startswith((".memreview", "..")) and not p.endswith("decisions.yaml")
    }
    files = {p for p in new if p.endswith("SKILL.md")}
    assert {p for p in new - files} == {"memory/skill_candidates.json", "skills"} | {
        os.path.dirname(p) for p in files
    }
    assert len(files) == 4
    for p in files:
        assert re.fullmatch(r"skills/[a-z0-9-]+/SKILL\.md", p), p
    assert {"skills/etc/SKILL.md", "skills/etc-passwd/SKILL.md"} <= files
    assert not any(p.startswith("..") for p in rel(ws, changed(before, hc.snapshot(tmp_path))))
    assert json.loads((ws / "memory/skill_candidates.json").read_text()) == {"candidates": []}
    # the same candidate again can't overwrite what is there now
    (ws / "memory/skill_candidates.json").write_text(
        json.dumps({"candidates": [{"theme": "../../etc", "content": "again", "count": 1}]})
    )
    [again] = scan_ids(ws)["skills"]
    before = (ws / "skills/etc/SKILL.md").read_bytes()
    run = _apply(tmp_path, ws, [{"item": again["id"], "action": "create-skill"}])
    assert run.code == 1
    assert "already exists" in run.err
    assert (ws / "skills/etc/SKILL.md").read_bytes() == before


def test_archive_and_skills_paths_configured_outside_are_refused_with_a_reason(tmp_path):
    ws, outside = hc.build("config-paths-out", tmp_path)
    queues = scan_ids(ws)
    [conflict] = queues["contradictions"]
    before = hc.snapshot(outside)
    run = _apply(tmp_path, ws, [{"item": conflict["id"], "action": "keep-a"}])
    assert run.code == 1
    assert_no_traceback(run)
    assert re.search(r"failed: c-\w+:keep-a: .*\.\./outside/superseded\.md.*'\.\.'", run.err)
    assert hc.snapshot(outside) == before
    assert not (tmp_path / "outside/superseded.md").exists()


def test_memreview_dir_symlinked_outside_writes_nothing_anywhere(tmp_path):
    ws, outside = hc.build("symlinks-out", tmp_path)
    [dup] = scan_ids(ws)["duplicates"]
    f = decisions_file(tmp_path, [{"item": dup["id"], "action": "keep", "keep": 1}])
    before = hc.snapshot(ws, outside)
    run = run_cli("apply", str(ws), "--decisions", str(f), "--today", hc.TODAY)
    assert run.code == 1
    assert_no_traceback(run)
    assert "nothing applied" in run.err and "outside the workspace" in run.err
    assert hc.snapshot(ws, outside) == before


def test_read_only_mount_is_reported_and_every_file_left_intact(tmp_path, monkeypatch):
    """A read-only file system, simulated: every write inside the workspace gets EROFS."""
    ws, outside = hc.build("gbk-crlf", tmp_path)
    queues = scan_ids(ws)
    decisions = [
        {"item": queues["duplicates"][0]["id"], "action": "keep", "keep": 1},
        {"item": queues["contradictions"][0]["id"], "action": "keep-a"},
    ]
    f = decisions_file(tmp_path, decisions)
    root = os.path.realpath(ws)

    def inside(path, dir_fd=None) -> bool:
        try:
            path = os.fspath(path)
            if dir_fd is not None:  # a name relative to a directory fd: where that fd is
                path = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), path)
            real = os.path.realpath(path)
        except TypeError:
            return False
        return real == root or real.startswith(root + os.sep)

    def erofs(path):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fspath(path))

    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    real_open, real_replace, real_mkdir = os.open, os.replace, os.mkdir
    real_rename, real_unlink = os.rename, os.unlink

    def os_open(path, flags, *a, **kw):
        if flags & writing and inside(path, kw.get("dir_fd")):
            erofs(path)
        return real_open(path, flags, *a, **kw)

    def two(real):
        def fn(src, dst, *a, **kw):
            if inside(dst, kw.get("dst_dir_fd")) or inside(src, kw.get("src_dir_fd")):
                erofs(dst)
            return real(src, dst, *a, **kw)

        return fn

    def one(real):
        def fn(path, *a, **kw):
            if inside(path, kw.get("dir_fd")):
                erofs(path)
            return real(path, *a, **kw)

        return fn

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(os, "replace", two(real_replace))
    monkeypatch.setattr(os, "rename", two(real_rename))
    monkeypatch.setattr(os, "mkdir", one(real_mkdir))
    monkeypatch.setattr(os, "unlink", one(real_unlink))
    before = hc.snapshot(ws, outside)
    run = run_main("apply", str(ws), "--decisions", str(f), "--today", hc.TODAY)
    assert run.code == 1
    assert_no_traceback(run)
    assert "Read-only file system" in run.err or "read-only file system" in run.err
    assert hc.snapshot(ws, outside) == before


def test_a_broken_state_file_is_kept_as_it_is_and_the_hide_stays_pending(tmp_path):
    ws, _ = hc.build("yaml-state", tmp_path)
    broken = (ws / ".memreview/state.yaml").read_bytes()
    [dup] = scan_ids(ws)["duplicates"]
    run = _apply(tmp_path, ws, [{"item": dup["id"], "action": "not-duplicate"}])
    assert run.code == 1  # never a silent reset: a loud failure, the file left as it is
    assert "state.yaml can't be read" in run.err
    assert (ws / ".memreview/state.yaml").read_bytes() == broken
    assert dup["id"] in (ws / ".memreview/pending.yaml").read_text()


def test_a_broken_pending_file_is_kept_aside_before_it_is_replaced(tmp_path):
    ws, _ = hc.build("yaml-pending", tmp_path)
    broken = (ws / ".memreview/pending.yaml").read_bytes()
    hc.put(
        ws,
        "memory/skill_candidates.json",
        json.dumps({"candidates": [{"theme": "gateway", "content": "restart safely", "count": 3}]}),
    )
    hc.put(ws, "skills/gateway/SKILL.md", "written by the owner\n")
    [skill] = scan_ids(ws)["skills"]
    run = _apply(tmp_path, ws, [{"item": skill["id"], "action": "create-skill"}])
    assert run.code == 1  # the skill exists: the decision stays pending…
    assert "already exists" in run.err
    assert ".memreview/pending.yaml did not parse" in run.err
    copies = list((ws / ".memreview").glob("pending.yaml.broken-*"))
    assert [c.read_bytes() for c in copies] == [broken]  # …and the old file is not lost
    assert skill["id"] in (ws / ".memreview/pending.yaml").read_text()
    assert (ws / "skills/gateway/SKILL.md").read_text() == "written by the owner\n"


def test_a_verdicts_file_that_is_a_named_pipe_is_refused_not_waited_on(tmp_path):
    ws, _ = hc.build("fifo", tmp_path)
    queues = scan_ids(ws)
    [conflict] = queues["contradictions"]
    assert conflict["source"] in ("judge", "both")
    [dup] = queues["duplicates"]
    run = _apply(
        tmp_path,
        ws,
        [
            {"item": conflict["id"], "action": "keep-both"},
            {"item": dup["id"], "action": "keep", "keep": 1},
        ],
    )
    assert run.code == 1
    assert "verdicts.jsonl" in run.err and "not a regular file" in run.err
    assert "applied 1 of 2" in run.err
    assert (ws / "memory/review/verdicts.jsonl").is_fifo()


def test_verdict_lines_hold_hostile_ids_as_valid_json(tmp_path):
    ws, _ = hc.build("markup-and-escapes", tmp_path)
    conflict = next(c for c in scan_ids(ws)["contradictions"] if c["source"] != "marker")
    run = _apply(tmp_path, ws, [{"item": conflict["id"], "action": "keep-b"}])
    assert run.code == 0, run.err
    [line] = (ws / "memory/review/verdicts.jsonl").read_text().splitlines()
    verdict = json.loads(line)
    assert verdict["proposal"] == f"p-{hc.ESCAPES}"
    assert "\x1b" not in line  # escaped as \u001b in the file


def test_a_conflicts_with_cycle_decided_two_ways_is_refused_and_applies_in_two_batches(tmp_path):
    ws, outside = hc.build("conflicts-cycle", tmp_path)
    items = {c["title"]: c["id"] for c in scan_ids(ws)["contradictions"]}
    assert {"a ⟷ b", "b ⟷ c", "a ⟷ c"} <= set(items)
    assert not any("self" in t for t in items)  # an anchor is not in conflict with itself
    both = {"item": items["a ⟷ b"], "action": "keep-both"}
    keep_c = {"item": items["b ⟷ c"], "action": "keep-b"}
    before = hc.snapshot(ws, outside)
    # b kept (with a SEE-ALSO) by one, superseded by c and moved by the other: one batch
    # can't say both
    run = _apply(tmp_path, ws, [both, keep_c])
    assert run.code == 2, run.err
    assert f"refused: {items['b ⟷ c']} (Contradictions: keep-b) conflicts with " in run.err
    assert f"{items['a ⟷ b']} (Contradictions: keep-both): anchor b would be" in run.err
    assert hc.snapshot(ws, outside) == before
    # one after the other, each is a decision on the workspace as it then is
    assert _apply(tmp_path, ws, [both]).code == 0
    assert _apply(tmp_path, ws, [keep_c]).code == 0
    text = (ws / "memory/cycle.md").read_text()
    assert "## [FACT:b]" not in text and "SEE-ALSO: [[b]]" in text
    assert "## [FACT:b]" in (ws / "memory/archive/superseded.md").read_text()


BAD_DECISIONS = {
    "broken YAML": (b"- {item: [broken\n", "broken YAML at line 2"),
    "a mapping": (b"item: x\naction: keep\n", "expected a list of decisions"),
    "a scalar": (b"just some text\n", "expected a list of decisions"),
    "random bytes": (random.Random(5).randbytes(600), "broken YAML"),
    "deep nesting": (b"[" * 1200, "refused: nested deeper than 64 levels"),
    "an alias bomb": (hc.ALIAS_BOMB.encode(), "refused: its aliases expand to more than"),
    "a self-reference": (b"- &a {item: x, action: [*a]}\n", "refused: the alias *a refers"),
    "a list as an item id": (
        b"- {item: [a, b], action: keep}\n",
        "item 1: a decision needs 'item'",
    ),
    "a NUL byte": (b"- {item: \x00, action: keep}\n", "broken YAML"),
    "an escape sequence": (b"- {item: \x1b]0;x\x07, action: keep}\n", "broken YAML"),
    "a python tag": (b"- !!python/object/apply:os.system ['echo hi']\n", "broken YAML"),
}


@pytest.mark.parametrize("what", list(BAD_DECISIONS))
def test_a_bad_decisions_file_is_one_line_and_exit_2(tmp_path, what):
    ws, outside = hc.build("gbk-crlf", tmp_path)
    data, message = BAD_DECISIONS[what]
    f = tmp_path / "decisions.yaml"
    f.write_bytes(data)
    before = hc.snapshot(ws, outside)
    run = run_main("apply", str(ws), "--decisions", str(f), "--today", hc.TODAY)
    assert run.code == 2
    assert_one_line(run)
    assert message in run.err
    assert hc.RAW_CONTROL_RE.search(run.err) is None
    assert hc.snapshot(ws, outside) == before


def test_a_missing_or_directory_decisions_file_is_one_line_and_exit_2(tmp_path):
    ws, _ = hc.build("gbk-crlf", tmp_path)
    for path, message in (
        (tmp_path / "missing.yaml", "No such file"),
        (tmp_path, "Is a directory"),
    ):
        run = run_cli("apply", str(ws), "--decisions", str(path), "--today", hc.TODAY)
        assert run.code == 2
        assert_one_line(run)
        assert message in run.err


def test_entries_that_are_not_decisions_refuse_the_whole_file(tmp_path):
    ws, outside = hc.build("gbk-crlf", tmp_path)
    [dup] = scan_ids(ws)["duplicates"]
    good = {"item": dup["id"], "action": "keep", "keep": 1}
    f = tmp_path / "decisions.yaml"
    f.write_text(
        "- 42\n- [a, list]\n- {item: x}\n- {action: keep}\n- null\n"
        f"- {{item: {dup['id']}, action: explode}}\n"
        f"- {json.dumps(good)}\n"
    )
    before = hc.snapshot(ws, outside)
    run = run_cli("apply", str(ws), "--decisions", str(f), "--today", hc.TODAY)
    assert run.code == 2
    assert_one_line(run)
    assert "item 1: a decision must be a mapping" in run.err
    assert "(and 5 more); nothing written" in run.err
    assert hc.snapshot(ws, outside) == before


def test_utf16_decisions_file_is_read(tmp_path):
    ws, _ = hc.build("gbk-crlf", tmp_path)
    [dup] = scan_ids(ws)["duplicates"]
    f = tmp_path / "decisions.yaml"
    f.write_bytes(
        codecs.BOM_UTF16_LE
        + f"- {{item: {dup['id']}, action: keep, keep: 2}}\n".encode("utf-16-le")
    )
    run = run_main("apply", str(ws), "--decisions", str(f), "--today", hc.TODAY)
    assert run.code == 0, run.err


def test_undo_with_a_hostile_journal_writes_nothing_outside(tmp_path):
    """A journal naming files and backups outside the workspace (and garbage lines)."""
    import hashlib

    ws, outside = hc.build("gbk-crlf", tmp_path)

    def sha(data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()

    secret = (outside / "secret.md").read_bytes()
    files = [
        {
            "file": "MEMORY.md",
            "before": sha(b"x"),
            "after": sha(hc.GBK_MEMORY),
            "created": False,
            "removed": False,
            "backup": "../outside/secret.md",
        },
        {
            "file": "../outside/secret.md",
            "before": None,
            "after": sha(secret),
            "created": True,
            "removed": False,
            "backup": None,
        },
        {
            "file": str(outside / "secret.md"),
            "before": None,
            "after": sha(secret),
            "created": True,
            "removed": False,
            "backup": None,
        },
    ]
    records = [
        {
            "type": "intent",
            "batch": "b1",
            "kind": "apply",
            "ts": "x",
            "decisions": [],
            "files": files,
        },
        {
            "type": "commit",
            "batch": "b1",
            "kind": "apply",
            "ts": "x",
            "applied": [],
            "files": [f["file"] for f in files],
        },
    ]
    journal = "".join(json.dumps(r) + "\n" for r in records).encode() + b"\x00\xff garbage\n"
    hc.put(ws, ".memreview/journal.jsonl", journal)
    before = hc.snapshot(ws, outside, skip=(".memreview",))
    run = run_cli("undo", str(ws))
    assert_no_traceback(run)
    assert run.code in (0, 1)
    warning, result = run.err.splitlines()
    # the garbage line is reported with its number (docs/design.md §4), then the one-line result
    assert warning == "memreview: warning: .memreview/journal.jsonl line 3: not valid JSON; skipped"
    assert result.startswith("memreview: ")
    assert hc.snapshot(ws, outside, skip=(".memreview",)) == before
    assert (outside / "secret.md").read_bytes() == secret
