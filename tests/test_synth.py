"""The synthetic workspace generator: files exist, are well-formed, and hold what the
manifest says was planted (queue-level checks live with the queues)."""

from __future__ import annotations

import hashlib
import io
import json
import re
import sqlite3
from datetime import date, timedelta
from pathlib import Path

import pytest
from rapidfuzz import fuzz, process
from ruamel.yaml import YAML

from memreview.synth import generate, main
from memreview.workspace.normalize import confirmed_key, fingerprint, normalize

REVIEW = date(2026, 11, 29)
COLUMNS = [
    "id", "date", "category", "theme", "content", "context", "emotion", "source_date",
    "content_hash", "created_at", "status", "mention_count", "first_seen", "last_seen",
    "confidence", "skill_candidate",
]  # fmt: skip
ANCHOR_RE = re.compile(r"^#{2,3} \[([A-Z]+):([^\]\s]+)\]", re.M)
DAILY_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:-.+)?\.md$")


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    out = tmp_path_factory.mktemp("synth") / "ws"
    manifest = generate(out, 0.01, seed=11)
    return out, manifest


def _text(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def _memory_files(root: Path) -> dict[str, str]:
    """Memory files (docs/design.md §1.1) as text; the one GBK file decoded as GBK."""
    out = {}
    for p in [root / "MEMORY.md", *sorted((root / "memory").rglob("*.md"))]:
        rel = p.relative_to(root).as_posix()
        parts = rel.split("/")
        if len(parts) > 2 and parts[1] in ("archive", "dreaming", ".dreams", "review"):
            continue
        if DAILY_RE.match(p.name):
            continue
        data = p.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("gbk")
        out[rel] = text.replace("\r\n", "\n")
    return out


def _anchors(root: Path) -> dict[str, str]:
    ids = {}
    for rel, text in _memory_files(root).items():
        for m in ANCHOR_RE.finditer(text):
            ids[m.group(2)] = rel
    return ids


def _conflicts(text: str, anchor_id: str) -> set[str]:
    """Ids on the CONFLICTS-WITH line of one anchor block."""
    start = re.search(rf"^#{{2,3}} \[[A-Z]+:{re.escape(anchor_id)}\]$", text, re.M).end()
    block = text[start : text.index("\n---\n", start)]
    found = re.search(r"^CONFLICTS-WITH: (.*)$", block, re.M)
    return set(re.findall(r"\[\[([^\]]+)\]\]", found.group(1))) if found else set()


def _logs(root: Path) -> list[tuple[date, str, str]]:
    """(date, file name, text) of every daily log."""
    return [
        (date.fromisoformat(DAILY_RE.match(p.name).group(1)), p.name, _text(p))
        for p in sorted((root / "memory").glob("*.md"))
        if DAILY_RE.match(p.name)
    ]


def test_layout_and_config(ws):
    root, m = ws
    for rel in [
        "MEMORY.md", "memory/MEMORY.md", "NOW.md", "HEARTBEAT.md", "INDEX.md", "DREAMS.md",
        "memreview.yaml", "memory/knowledge/dreams.db", "memory/skill_candidates.json",
        "memory/recall_log.jsonl", "memory/review/proposals.jsonl",
        "memory/.dreams/short-term-recall.json", "memory/archive/superseded.md",
    ]:  # fmt: skip
        assert (root / rel).is_file(), rel
    cfg = YAML(typ="safe").load(io.BytesIO((root / "memreview.yaml").read_bytes()))
    assert cfg["review_date"] == REVIEW
    assert list((root / "memory/projects").glob("*.md"))
    for rel, size in m["files"].items():
        assert (root / rel).stat().st_size == size
    assert "**待办**:" in _text(root / "NOW.md")
    assert "<!-- openclaw:dreaming:diary:start -->" in _text(root / "DREAMS.md")
    assert any(root.glob("*.boot.md"))


def test_entry_count_scales(ws, tmp_path):
    _root, m = ws
    assert 200 <= m["counts"]["entries"] <= 330
    bigger = generate(tmp_path / "big", 0.04, seed=11)
    assert bigger["counts"]["entries"] > 3 * m["counts"]["entries"]
    assert bigger["counts"]["fragments"] == 800
    assert bigger["counts"]["recalls"] == 2000


def test_memory_files_dialects(ws):
    root, m = ws
    top = _text(root / "MEMORY.md")
    assert re.search(r"^## Promoted From Short-Term Memory \(\d{4}-\d{2}-\d{2}\)$", top, re.M)
    assert re.search(r"^<!-- openclaw-memory-promotion:memory:memory/\S+ -->$", top, re.M)
    assert re.search(r"\[score=0\.\d+ recalls=\d+ avg=0\.\d+ source=memory/\S+\]$", top, re.M)
    assert re.search(r"<!-- importance: \d --> <!-- project: [\w-]+ -->", top)
    assert "\n## Rules\n" in top
    lingxi = _text(root / "memory/MEMORY.md")
    assert re.search(r"^> 最后更新：\d{4}-\d{2}-\d{2}$", lingxi, re.M)
    assert re.search(r"^- .+（.+）（\d{4}-\d{2}-\d{2} 自动沉淀）$", lingxi, re.M)
    assert "### 编年史\n| 日期 | 事件 | 备注 |\n|---|---|---|\n" in lingxi
    anchors = _anchors(root)
    assert len(anchors) == m["counts"]["anchors"]
    # every anchor block carries Added (or is planted without it) and ends with ---
    for rel in {r for r in anchors.values() if r.startswith("memory/agents/")}:
        text = _text(root / rel)
        assert text.count("\n---\n") == len(ANCHOR_RE.findall(text))


def test_gbk_file_with_crlf(ws):
    root, m = ws
    data = (root / m["gbk_file"]).read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    text = data.decode("gbk")
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")


def test_dreams_db(ws):
    root, m = ws
    con = sqlite3.connect(f"file:{root / 'memory/knowledge/dreams.db'}?mode=ro", uri=True)
    try:
        cols = [r[1] for r in con.execute("PRAGMA table_info(dreams)")]
        assert cols == COLUMNS
        rows = {r[0]: r for r in con.execute("SELECT * FROM dreams")}
    finally:
        con.close()
    assert len(rows) == m["counts"]["fragments"]
    assert {r[10] for r in rows.values()} == {"candidate", "confirmed", "archived"}
    assert any("T" in r[13] for r in rows.values()) and any(len(r[13]) == 10 for r in rows.values())
    files = _memory_files(root)
    assert len(m["archived"]) >= 2
    for a in m["archived"]:
        row = rows[a["fragment"]]
        assert row[10] == "archived"
        assert (REVIEW - date.fromisoformat(row[13][:10])).days == a["days"] >= 30
        content = normalize(row[4])
        assert len(content) >= 8
        assert a["entry"] in files[a["file"]].split("\n")
        entry = normalize(a["entry"])
        assert content in entry or fuzz.partial_ratio(content, entry) >= 90
        assert len(content) <= len(entry)
    for a in m["archived_excluded"]:
        assert (REVIEW - date.fromisoformat(rows[a["fragment"]][13][:10])).days < 30


def test_skill_candidates(ws):
    root, m = ws
    raw = _text(root / "memory/skill_candidates.json")
    doc = json.loads(raw)
    assert raw.startswith('{\n  "updated_at"')
    assert not re.search(r"\\u[0-9a-f]{4}", raw)  # non-ASCII written as is
    assert len(doc["candidates"]) == len(m["skills"]) >= 2
    for c in doc["candidates"]:
        assert set(c) == {"theme", "content", "count", "reason"}
    assert len({c["theme"] for c in doc["candidates"]}) == len(doc["candidates"])


def test_recall_log_and_demotion_candidates(ws):
    root, m = ws
    lines = _text(root / "memory/recall_log.jsonl").splitlines()
    assert len(lines) == m["counts"]["recalls"]
    recalls = [json.loads(x) for x in lines]
    assert {r["channel"] for r in recalls} == {"hook", "search", "boot", "manual"}
    assert all(set(r) == {"ts", "id", "channel", "query"} for r in recalls)
    start = REVIEW - timedelta(days=89)
    anchors = _anchors(root)
    assert len(m["demotion"]) >= 2
    hook_only = 0
    for aid in m["demotion"]:
        assert aid in anchors
        mine = [r for r in recalls if r["id"] == aid]
        used = [
            r for r in mine
            if r["channel"] != "hook" and start <= date.fromisoformat(r["ts"][:10]) <= REVIEW
        ]  # fmt: skip
        assert len(used) <= 1
        hook_only += bool(mine) and all(r["channel"] == "hook" for r in mine)
    assert hook_only >= 1
    assert {x["why"] for x in m["not_demoted"]} >= {"type", "owner", "cited", "incident", "boot"}


def test_contradictions_and_proposals(ws):
    root, m = ws
    anchors = _anchors(root)
    files = _memory_files(root)
    props = [json.loads(x) for x in _text(root / "memory/review/proposals.jsonl").splitlines()]
    latest = {p["id"]: p for p in props}  # later lines win
    assert len(latest) == m["counts"]["proposals"] < len(props)
    assert {p["relation"] for p in props} <= {"contradicts", "supersedes", "complements",
                                              "duplicate"}  # fmt: skip
    sources = {c["source"] for c in m["contradictions"]}
    assert sources == {"marker", "judge", "both"}
    for c in m["contradictions"]:
        assert c["a"] in anchors and c["b"] in anchors
        conflicts = _conflicts(files[anchors[c["a"]]], c["a"]) | _conflicts(
            files[anchors[c["b"]]], c["b"]
        )
        assert bool(conflicts & {c["a"], c["b"]}) == (c["source"] in ("marker", "both"))
        if c["source"] in ("judge", "both"):
            p = latest[c["proposal"]]
            assert p["relation"] == "contradicts" and {p["new"], p["old"]} == {c["a"], c["b"]}
    assert len(m["supersede"]) >= 2
    for s in m["supersede"]:
        p = latest[s["proposal"]]
        assert p["relation"] == "supersedes" and (p["new"], p["old"]) == (s["new"], s["old"])
        assert s["new"] in anchors and s["old"] in anchors
    for s in m["supersede_excluded"]:
        p = latest[s["proposal"]]
        if s["why"] == "rejudged":
            assert p["relation"] == "complements"
        else:
            assert p["relation"] == "supersedes"
            assert not (p["new"] in anchors and p["old"] in anchors)


def test_planted_duplicates(ws):
    root, m = ws
    files = _memory_files(root)
    d = m["duplicates"]
    assert len(d["chronicle"]) >= 1 and len(d["fingerprint"]) >= 1 and len(d["near"]) >= 1
    assert len(d["chronicle"]) + len(d["fingerprint"]) + len(d["near"]) >= 2
    lingxi = files["memory/MEMORY.md"]
    for c in d["chronicle"]:
        assert len(re.findall(rf"^\| {c['date']} \|", lingxi, re.M)) >= 2
    for g in d["fingerprint"]:
        lines = files[g["file"]].split("\n")
        norms = [normalize(t) for t in g["texts"]]
        assert all(t in lines for t in g["texts"])
        assert len({fingerprint(n) for n in norms}) == 1
        assert len({confirmed_key(n) for n in norms}) == 1
    for g in d["near"]:
        a, b = (normalize(t) for t in g["texts"])
        assert all(t in files[g["file"]].split("\n") for t in g["texts"])
        assert fuzz.ratio(a, b) >= 90 and fingerprint(a) != fingerprint(b)


def test_random_bullets_are_not_duplicates(ws):
    """Only planted entries are near or fingerprint duplicates within a file."""
    root, m = ws
    planted = {t for g in m["duplicates"]["fingerprint"] + m["duplicates"]["near"]
               for t in g["texts"]}  # fmt: skip
    for rel, text in _memory_files(root).items():
        bullets = [ln for ln in text.split("\n") if ln.startswith("- ")]
        norms = [normalize(b) for b in bullets]
        if len(norms) < 2:
            continue
        scores = process.cdist(norms, norms, scorer=fuzz.ratio, score_cutoff=90)
        for x, y in zip(*scores.nonzero(), strict=True):
            if x < y and min(len(norms[x]), len(norms[y])) >= 8:
                assert bullets[x] in planted and bullets[y] in planted, (rel, bullets[x])


def test_projects_and_logs(ws):
    root, m = ws
    logs = _logs(root)
    days = {d for d, _n, _t in logs}
    recent = [REVIEW - timedelta(days=k) for k in range(7)]
    assert sum(d not in days for d in recent) >= 1  # a missing day
    assert any(t == "" for _d, _n, t in logs)  # an empty log
    every = "\n".join(t for _d, _n, t in logs)
    assert "<!-- openclaw:dreaming:light:start -->" in every
    assert re.search(r"^### \d\d:\d\d — ", every, re.M)
    assert re.search(r"^### [\w-]+ \(\d\d:\d\d\)$", every, re.M)
    assert any(n.endswith("-reflection-prep.md") for _d, n, _t in logs)
    plain = [n for _d, n, _t in logs if re.fullmatch(r"\d{4}-\d{2}-\d{2}\.md", n)]
    assert len(plain) == m["counts"]["daily_logs"] >= 12
    top = _text(root / "MEMORY.md")
    anchors = _anchors(root)

    def last_mention(key, title):
        rx = re.compile(rf"(?<![\w-]){re.escape(key)}(?![\w-])", re.I)
        found = [d for d, _n, t in logs if rx.search(t) or title.lower() in t.lower()]
        return max(found) if found else None

    assert len(m["dormant"]) >= 2
    for p in m["dormant"]:
        key = p["key"]
        if p["source"] == "file":
            assert (root / f"memory/projects/{key}.md").is_file()
        elif p["source"] == "anchor":
            assert anchors.get(key)
        else:
            assert f"<!-- project: {key} -->" in top
        seen = last_mention(key, p["title"])
        assert (seen.isoformat() if seen else None) == p["last_mentioned"]
        if seen:
            assert (REVIEW - seen).days >= 28
    for key in m["active_projects"]:
        text = _text(root / f"memory/projects/{key}.md")
        title = text.split("\n", 1)[0][2:]
        seen = last_mention(key, title)
        recalled = f'"id": "{key}"' in _text(root / "memory/recall_log.jsonl")
        assert recalled or seen >= REVIEW - timedelta(27)
    for key in m["closed_projects"]:
        status = re.search(r"^Status: (.*)$", _text(root / f"memory/projects/{key}.md"), re.M)
        assert status.group(1).split()[0] in ("done", "archived", "已完成", "归档")


def test_deterministic(tmp_path):
    a = generate(tmp_path / "a", 0.01, seed=5)
    b = generate(tmp_path / "b", 0.01, seed=5)
    c = generate(tmp_path / "c", 0.01, seed=6)
    a.pop("seconds"), b.pop("seconds"), c.pop("seconds")
    assert a == b
    assert a != c
    for rel in a["files"]:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


# Digests of whole generated workspaces (every file and the manifest), computed with the
# single-module generator before it became a package: the output may only change on purpose.
# dreams.db counts by its SQL dump, as its bytes carry the SQLite library's version.
PINNED = {
    (0.01, 0): "b6b4f80f937f33577af25433eeedcd1105af170f6f2a9ca47fbbf1dee8132848",
    (0.02, 3): "53dfddfb4069b1ee1371f120bb18b39d04808ca05dacaa85800842bf8ec46fe2",
}


def _workspace_digest(root: Path, manifest: dict) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if not p.is_file():
            continue
        if p.suffix == ".db":
            con = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
            try:
                data = "\n".join(con.iterdump()).encode()
            finally:
                con.close()
        else:
            data = p.read_bytes()
        rel = p.relative_to(root).as_posix()
        h.update(f"{rel}\0{hashlib.sha256(data).hexdigest()}\n".encode())
    m = {k: v for k, v in manifest.items() if k != "seconds"}
    m["files"] = {k: v for k, v in m["files"].items() if not k.endswith(".db")}
    h.update(json.dumps(m, ensure_ascii=False, sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.parametrize(("scale", "seed"), sorted(PINNED))
def test_output_is_pinned_byte_for_byte(tmp_path, scale, seed):
    out = tmp_path / "ws"
    manifest = generate(out, scale, seed=seed)
    assert _workspace_digest(out, manifest) == PINNED[(scale, seed)]


def test_pinned_digest_sees_a_one_byte_change(tmp_path):
    out = tmp_path / "ws"
    manifest = generate(out, 0.01, seed=0)
    log = next((out / "memory").glob("2026-*.md"))
    log.write_bytes(log.read_bytes() + b" ")
    assert _workspace_digest(out, manifest) != PINNED[(0.01, 0)]


def test_cli(tmp_path, capsys):
    out = tmp_path / "cli"
    assert main([str(out), "--scale", "0.01", "--seed", "2", "--manifest",
                 str(tmp_path / "m.json")]) == 0  # fmt: skip
    assert "entries" in capsys.readouterr().out
    assert json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))["seed"] == 2
    assert main([str(out), "--scale", "0.01"]) == 2  # not empty: refused
    assert main([str(tmp_path / "x"), "--scale", "0"]) == 2


def test_a_year_of_dreaming_adds_promotions_in_openclaw_s_shapes(tmp_path):
    from memreview.queues.promotions import promotions
    from memreview.workspace.loader import load_workspace

    plain, heavy = tmp_path / "plain", tmp_path / "heavy"
    generate(plain, 0.01, seed=3)
    manifest = generate(heavy, 0.01, seed=3, promotions=400)
    assert manifest["counts"]["openclaw_promotions"] == 400
    text = _text(heavy / "MEMORY.md")
    marker = "<!-- openclaw-memory-promotion:"
    assert text.count(marker) - _text(plain / "MEMORY.md").count(marker) == 400
    assert re.search(r"\[score=[\d.]+ signals=\d+ recalls=\d+ avg=[\d.]+ source=", text)
    assert re.search(r"\[score=[\d.]+ recalls=\d+ avg=[\d.]+ source=", text)  # older tails
    assert "### Global" in text and "### Project: " in text
    assert re.search(r"\.\.\. \[score=", text)  # a snippet cut at 640 characters
    today = REVIEW + timedelta(days=1)
    found = promotions(load_workspace(heavy), today)
    assert len(found) - len(promotions(load_workspace(plain), today)) == 400
    reasons = [f["reason"] for it in found for f in it["flags"] if f["flag"] == "duplicate"]
    assert any("already stands" in r for r in reasons)
    assert any("promoted before" in r for r in reasons)
    store = json.loads(_text(heavy / "memory/.dreams/short-term-recall.json"))["entries"]
    assert sum(1 for e in store.values() if e.get("promotedAt")) > 100
    # the other stages draw the same numbers: every other file is as without promotions
    for p in plain.rglob("*"):
        rel = p.relative_to(plain)
        if p.is_file() and str(rel) not in ("MEMORY.md", "memory/.dreams/short-term-recall.json"):
            assert p.read_bytes() == (heavy / rel).read_bytes(), rel
