"""`memreview scan`: the JSON schema of docs/design.md §6, exit statuses, stable ids, the table."""

from __future__ import annotations

import codecs
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memreview.cli import main
from memreview.decisions import registry

SAMPLE = Path(__file__).resolve().parent.parent / "sample_workspace"
TODAY = "2026-11-29"
QUEUES = registry.queue_names()  # their order is pinned by tests/decisions/test_registry.py
REF_KEYS = {"file", "line", "end_line", "text", "anchor"}
ITEM_KEYS = {
    "dropping": {"id", "title", "origin", "key", "text", "days_left", "fails", "source", "flags"},
    "contradictions": {"id", "title", "a", "b", "source", "confidence", "reason"},
    "supersede": {"id", "title", "new", "old", "confidence", "reason", "proposal"},
    "skills": {"id", "title", "theme", "content", "count", "reason"},
    "archived": {"id", "title", "fragment", "days_since_last_seen", "matches"},
    "duplicates": {"id", "title", "kind", "refs", "merged", "score"},
    "dormant": {"id", "title", "project", "ref", "last_mentioned", "days_dormant"},
    "demotion": {"id", "title", "anchor", "recalls_90d", "age_days"},
    "promotions": {
        "id",
        "title",
        "origin",
        "key",
        "ref",
        "marker_line",
        "promoted",
        "group",
        "text",
        "tail",
        "score",
        "signals",
        "recalls",
        "avg",
        "importance",
        "trigger",
        "source",
        "store",
        "flags",
    },
    "secrets": {"id", "title", "kinds", "ref", "masked", "text"},
}

needs_sample = pytest.mark.skipif(
    not (SAMPLE / "MEMORY.md").is_file() and not (SAMPLE / "memory" / "MEMORY.md").is_file(),
    reason="sample_workspace/ does not exist yet",
)


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode("utf-8"))
    return root


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def scan_json(capsys, path: Path, *extra: str) -> dict:
    code, out, err = run(capsys, "scan", str(path), "--json", "--today", TODAY, *extra)
    assert code == 0, err
    return json.loads(out)


@pytest.fixture(scope="module")
def sample_scan() -> dict:
    if not SAMPLE.is_dir():
        pytest.skip("sample_workspace/ does not exist yet")
    proc = subprocess.run(
        [sys.executable, "-m", "memreview", "scan", str(SAMPLE), "--json", "--today", TODAY],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return json.loads(proc.stdout)


def file_line(root: Path, ref: dict) -> str:
    from memreview.workspace.textfile import decode_bytes

    tf = decode_bytes(ref["file"], (root / ref["file"]).read_bytes())
    return tf.lines[ref["line"] - 1].text


def check_ref(ref: dict, root: Path | None = None) -> None:
    assert set(ref) >= REF_KEYS
    assert isinstance(ref["file"], str) and not ref["file"].startswith("/")
    assert "\\" not in ref["file"]
    assert isinstance(ref["line"], int) and isinstance(ref["end_line"], int)
    assert 1 <= ref["line"] <= ref["end_line"]
    assert isinstance(ref["text"], str) and "\n" not in ref["text"]
    assert ref["anchor"] is None or isinstance(ref["anchor"], str)
    if ref["anchor"] is not None:
        assert ref["text"].lstrip("#").strip().startswith("[")
        assert ref["anchor"] in ref["text"]
    if root is not None:
        assert file_line(root, ref) == ref["text"]


# -- the JSON object -----------------------------------------------------------------------


@needs_sample
def test_scan_json_has_every_top_level_key_of_the_schema(sample_scan):
    assert {"schema", "workspace", "today", "counts", "queues", "health", "warnings"} <= set(
        sample_scan
    )
    assert sample_scan["schema"] == 1
    assert sample_scan["workspace"] == str(SAMPLE.resolve())
    assert sample_scan["today"] == TODAY
    assert isinstance(sample_scan["health"], dict)
    assert tuple(sample_scan["counts"]) == QUEUES
    assert tuple(sample_scan["queues"]) == QUEUES


@needs_sample
def test_scan_json_counts_equal_the_number_of_items_listed(sample_scan):
    for name in QUEUES:
        assert sample_scan["counts"][name] == len(sample_scan["queues"][name]), name


@needs_sample
def test_scan_json_fills_all_seven_queues_on_the_sample(sample_scan):
    empty = [name for name in QUEUES if not sample_scan["queues"][name]]
    assert empty == []


@needs_sample
def test_scan_json_items_have_the_keys_and_types_of_each_queue(sample_scan):
    q = sample_scan["queues"]
    for name in QUEUES:
        for item in q[name]:
            assert set(item) >= ITEM_KEYS[name], (name, item)
            assert isinstance(item["id"], str) and item["id"]
            assert isinstance(item["title"], str)
    for it in q["contradictions"]:
        check_ref(it["a"], SAMPLE)
        check_ref(it["b"], SAMPLE)
        assert it["a"]["anchor"] and it["b"]["anchor"]
        assert it["source"] in ("marker", "judge", "both")
        assert it["confidence"] is None or isinstance(it["confidence"], float)
        assert it["reason"] is None or isinstance(it["reason"], str)
    for it in q["supersede"]:
        check_ref(it["new"], SAMPLE)
        check_ref(it["old"], SAMPLE)
        assert isinstance(it["proposal"], str)
    for it in q["skills"]:
        assert isinstance(it["theme"], str) and isinstance(it["content"], str)
        assert it["count"] is None or isinstance(it["count"], int)
    for it in q["archived"]:
        assert set(it["fragment"]) >= {"id", "content", "status", "last_seen"}
        assert it["fragment"]["status"] == "archived"
        assert isinstance(it["days_since_last_seen"], int) and it["days_since_last_seen"] >= 30
        assert it["matches"]
        for m in it["matches"]:
            check_ref(m, SAMPLE)
            assert isinstance(m["score"], float) and 90 <= m["score"] <= 100
    for it in q["duplicates"]:
        assert it["kind"] in ("chronicle", "fingerprint", "near")
        assert len(it["refs"]) >= 2
        for r in it["refs"]:
            check_ref(r, SAMPLE)
        if it["kind"] == "near":
            assert isinstance(it["score"], float) and 90 <= it["score"] <= 100
        else:
            assert it["score"] is None
        if it["kind"] == "chronicle":
            assert isinstance(it["merged"], str)
    for it in q["dormant"]:
        check_ref(it["ref"], SAMPLE)
        assert isinstance(it["project"], str)
        assert it["last_mentioned"] is None or len(it["last_mentioned"]) == 10
        assert it["days_dormant"] is None or isinstance(it["days_dormant"], int)
    for it in q["demotion"]:
        check_ref(it["anchor"], SAMPLE)
        assert isinstance(it["recalls_90d"], int) and isinstance(it["age_days"], int)
    for w in sample_scan["warnings"]:
        assert set(w) >= {"file", "line", "message"}
        assert w["file"] is None or not w["file"].startswith("/")
        assert w["line"] is None or isinstance(w["line"], int)


@needs_sample
def test_scan_json_item_ids_are_unique(sample_scan):
    ids = [it["id"] for name in QUEUES for it in sample_scan["queues"][name]]
    assert len(ids) == len(set(ids))


@needs_sample
def test_scan_json_is_the_same_on_every_run(sample_scan, capsys):
    again = scan_json(capsys, SAMPLE)
    assert again["queues"] == sample_scan["queues"]
    assert again["counts"] == sample_scan["counts"]


def test_scan_json_on_a_minimal_workspace_has_empty_queues_and_valid_shape(tmp_path, capsys):
    root = write(tmp_path / "ws", {"MEMORY.md": "# Memory\n"})
    data = scan_json(capsys, root)
    assert data["counts"] == dict.fromkeys(QUEUES, 0)
    assert data["queues"] == {name: [] for name in QUEUES}
    assert data["workspace"] == str(root.resolve())
    assert data["warnings"] == []


def test_each_queue_without_its_source_says_what_it_lacks(tmp_path, capsys):
    root = write(tmp_path / "ws", {"MEMORY.md": "# Memory\n"})
    missing = scan_json(capsys, root)["missing"]
    assert set(missing) == set(QUEUES) - {"duplicates", "secrets"}
    assert "proposals.jsonl" in missing["supersede"]
    assert "skill_candidates.json" in missing["skills"]
    assert "dreams.db" in missing["archived"]
    assert "recall_log.jsonl" in missing["demotion"]
    assert "自动沉淀" in missing["promotions"]


def test_scan_json_names_warnings_by_relative_path_and_line(tmp_path, capsys):
    root = write(tmp_path / "ws", {"MEMORY.md": "# M\n## [FACT:x]\nAdded: 2026-02-30\n---\n"})
    (w,) = scan_json(capsys, root)["warnings"]
    assert (w["file"], w["line"]) == ("MEMORY.md", 2)
    assert "2026-02-30" in w["message"]


def test_scan_all_dormant_lists_more_than_ten(tmp_path, capsys):
    files = {"MEMORY.md": "# M\n"}
    for k in range(12):
        files[f"memory/projects/p{k:02d}.md"] = f"# P{k}\nAdded: 2026-0{1 + k % 9}-01\n"
    root = write(tmp_path / "ws", files)
    assert scan_json(capsys, root)["counts"]["dormant"] == 10
    assert scan_json(capsys, root, "--all-dormant")["counts"]["dormant"] == 12


def test_scan_survives_broken_input_files_with_warnings(tmp_path, capsys):
    root = write(
        tmp_path / "ws",
        {
            "MEMORY.md": "# M\n```\nunclosed fence\n",
            "memory/recall_log.jsonl": "{not json\n",
            "memory/review/proposals.jsonl": '{"id": 1}\n',
            "memory/skill_candidates.json": "[",
            "memreview.yaml": "review_date: [unclosed\n",
        },
    )
    (root / "memory/knowledge").mkdir(parents=True)
    (root / "memory/knowledge/dreams.db").write_bytes(b"not sqlite at all" * 64)
    (root / "memory/bin.md").write_bytes(b"\x00\x01binary")
    data = scan_json(capsys, root)
    files = {w["file"] for w in data["warnings"]}
    assert {
        "MEMORY.md",
        "memory/recall_log.jsonl",
        "memory/review/proposals.jsonl",
        "memory/skill_candidates.json",
        "memory/knowledge/dreams.db",
        "memory/bin.md",
        "memreview.yaml",
    } <= files


def test_scan_uses_review_date_from_memreview_yaml_unless_today_is_given(tmp_path, capsys):
    root = write(
        tmp_path / "ws", {"MEMORY.md": "# M\n", "memreview.yaml": "review_date: 2026-01-05\n"}
    )
    code, out, _err = run(capsys, "scan", str(root), "--json")
    assert code == 0 and json.loads(out)["today"] == "2026-01-05"
    assert scan_json(capsys, root)["today"] == TODAY


# -- exit statuses ---------------------------------------------------------------------------


def test_scan_of_a_directory_that_is_not_a_workspace_exits_2_with_one_line(tmp_path, capsys):
    (tmp_path / "notes.md").write_text("- x\n")
    code, out, err = run(capsys, "scan", str(tmp_path), "--json")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "not a memory workspace" in err


def test_scan_of_a_missing_path_exits_2_with_one_line(tmp_path, capsys):
    code, out, err = run(capsys, "scan", str(tmp_path / "nope"))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "no such directory" in err


def test_scan_of_a_file_instead_of_a_directory_exits_2(tmp_path, capsys):
    f = tmp_path / "MEMORY.md"
    f.write_text("# M\n")
    code, _out, err = run(capsys, "scan", str(f))
    assert code == 2 and err.count("\n") == 1


@pytest.mark.parametrize("bad", ["2026-13-01", "2026-02-30", "tomorrow", "2026-1-1", "20261129"])
def test_scan_with_a_bad_today_exits_2_with_one_line(tmp_path, capsys, bad):
    root = write(tmp_path / "ws", {"MEMORY.md": "# M\n"})
    code, out, err = run(capsys, "scan", str(root), "--today", bad)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err


def test_scan_without_a_path_and_no_workspace_found_is_a_usage_error(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    for var in ("OPENCLAW_WORKSPACE_DIR", "OPENCLAW_WORKSPACE", "OPENCLAW_STATE_DIR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(SAMPLE.parent)  # holds a workspace, but is none itself
    code, out, err = run(capsys, "scan", "--json")
    assert code == 2 and out == "" and err.count("\n") == 1


def test_the_installed_command_exits_2_without_a_traceback(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "memreview", "scan", str(tmp_path / "missing"), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1
    assert "Traceback" not in proc.stderr


# -- stable ids ------------------------------------------------------------------------------


def insert_at_top(path: Path, text: str) -> None:
    data = path.read_bytes()
    from memreview.workspace.textfile import decode_bytes

    tf = decode_bytes(path.name, data)
    bom = tf.bom
    ending = tf.default_ending
    extra = tf.encode_text("".join(line + ending for line in text.split("\n")))
    path.write_bytes(bom + extra + data[len(bom) :])


@needs_sample
def test_item_ids_survive_lines_inserted_at_the_top_of_every_memory_file(tmp_path, capsys):
    root = tmp_path / "ws"
    shutil.copytree(SAMPLE, root)
    before = scan_json(capsys, root)
    edited = 0
    for p in sorted(root.rglob("*.md")):
        rel = p.relative_to(root).as_posix()
        if rel.startswith(("memory/.dreams/", "memory/archive/")) or p.name.endswith(".boot.md"):
            continue
        # a short note: a prose line of 20 columns or more is an entry (the same one in every
        # file would be a duplicate of itself)
        insert_at_top(p, "<!-- edited by hand -->\nA note.")
        edited += 1
    assert edited > 5
    after = scan_json(capsys, root)
    assert after["counts"] == before["counts"]
    for name in QUEUES:
        assert [it["id"] for it in after["queues"][name]] == [
            it["id"] for it in before["queues"][name]
        ], name
    # and the refs moved down with the text
    a0, b0 = before["queues"]["demotion"][0], after["queues"]["demotion"][0]
    assert b0["anchor"]["line"] == a0["anchor"]["line"] + 2


def test_item_ids_survive_lines_inserted_above_on_a_small_workspace(tmp_path, capsys):
    memory = (
        "# M\n## Notes\n- Gateway uses port 18789\n- Gateway uses port 18789\n"
        "### 编年史\n| 2026-04-25 | a |\n| 2026-04-25 | b |\n"
    )
    # anchors outside MEMORY.md: what the agent sees at boot is never a demotion candidate
    facts = (
        "# Facts\n## [FACT:old]\nAdded: 2026-01-01\nCONFLICTS-WITH: [[new]]\n---\n"
        "## [FACT:new]\nAdded: 2026-02-01\n---\n"
    )
    root = write(
        tmp_path / "ws",
        {
            "MEMORY.md": memory,
            "memory/facts.md": facts,
            "memory/recall_log.jsonl": "",
            "memory/projects/gw.md": "# Gateway\n",
        },
    )
    before = scan_json(capsys, root)
    write(root, {"MEMORY.md": "<!-- top -->\n\nSome prose.\n" + memory})
    write(root, {"memory/facts.md": "<!-- top -->\n\nSome prose.\n" + facts})
    write(root, {"memory/projects/gw.md": "Intro line\n# Gateway\n"})
    after = scan_json(capsys, root)
    for name in QUEUES:
        assert [i["id"] for i in after["queues"][name]] == [i["id"] for i in before["queues"][name]]
    assert sum(before["counts"].values()) >= 5


# -- the readable table ----------------------------------------------------------------------


def test_scan_without_json_prints_a_table_of_queues_with_counts(tmp_path, capsys):
    root = write(
        tmp_path / "ws",
        {
            "MEMORY.md": "# M\n## Notes\n- Gateway uses port 18789\n- Gateway uses port 18789\n"
            "## [FACT:x]\nAdded: 2026-02-30\n---\n",
        },
    )
    code, out, err = run(capsys, "scan", str(root), "--today", TODAY)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["workspace", str(root.resolve())]
    assert lines[1].split() == ["review", TODAY]
    rows = {ln.split()[0]: ln for ln in lines if ln and not ln.startswith(" ")}
    for name in QUEUES:
        assert name in rows, name
    assert rows["duplicates"].split()[1] == "1"
    assert rows["contradictions"].split()[1] == "0"
    assert "- Gateway uses port 18789" in out  # the item's title under its queue
    assert "no recall log" in rows["demotion"]  # an empty queue says what it lacks
    assert "1 warning:" in out
    assert "MEMORY.md:5:" in out


def test_scan_table_shows_untrusted_text_with_escapes(tmp_path, capsys):
    root = write(
        tmp_path / "ws",
        {
            "MEMORY.md": "## S\n- evil \x1b[31mred and long enough\n- evil \x1b[31mred and long enough\n"
        },
    )
    code, out, _err = run(capsys, "scan", str(root), "--today", TODAY)
    assert code == 0
    assert "\x1b" not in out
    assert "evil" in out


@needs_sample
def test_scan_table_on_the_sample_lists_each_queue_with_its_count(sample_scan, capsys):
    code, out, err = run(capsys, "scan", str(SAMPLE), "--today", TODAY)
    assert code == 0, err
    for name in QUEUES:
        row = next(ln for ln in out.splitlines() if ln.startswith(name))
        assert int(row.split()[1]) == sample_scan["counts"][name]
    # the alarms come first, one line each
    alarms = [ln for ln in out.splitlines() if ln.startswith("ALARM ")]
    assert [ln.split(":")[0] for ln in alarms] == [
        f"ALARM {a['id']}" for a in sample_scan["health"]["alarms"]
    ] and alarms
    assert out.index("ALARM ") < out.index("contradictions")


def test_utf8_bom_insert_helper_keeps_the_bom_first(tmp_path):
    p = tmp_path / "x.md"
    p.write_bytes(codecs.BOM_UTF8 + b"# M\r\n")
    insert_at_top(p, "note")
    assert p.read_bytes() == codecs.BOM_UTF8 + b"note\r\n# M\r\n"


@pytest.mark.parametrize("columns", [44, 80])
def test_text_titles_are_cut_by_terminal_cells_not_characters(capsys, monkeypatch, columns):
    from rich.cells import cell_len

    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["scan", str(SAMPLE), "--today", TODAY]) == 0
    titles = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("    ")]
    assert titles and all(cell_len(t) <= columns for t in titles), max(titles, key=cell_len)
    # a Chinese title fills the line by cells: cut, yet far fewer characters than cells
    cut = [t for t in titles if t.endswith("…") and any("\u4e00" <= c <= "\u9fff" for c in t)]
    assert cut and all(cell_len(t) >= columns - 1 for t in cut)
    assert min(len(t) for t in cut) < columns - 8
