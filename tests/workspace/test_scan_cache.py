"""The scan cache: the same result with and without it, only changed files read again, never
a secret stored, a damaged or foreign cache ignored with one warning."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

from memreview.decisions import registry
from memreview.scan import Counts, QueueDone, scan_workspace
from memreview.workspace import loader
from memreview.workspace.cache import ScanCache, _code_stamp, forget_live, snapshot

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"
TODAY = date(2026, 11, 29)
SECRET = "3f9a1c0e7b2d4a6f8e1c3b5d7f9a2c4e6b8d0f1a3c5e7b9d"  # in memory/accounts.md
HOLDS_SECRET = "memory/accounts.md"  # never cached: parsed at every open


def age(root: Path, seconds: float = 600) -> None:
    """Every file of ``root`` last changed ``seconds`` ago (older than the racy window)."""
    then = time.time() - seconds
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            os.utime(Path(dirpath, name), (then, then))


@pytest.fixture
def ws(tmp_path, monkeypatch, use_scan_cache):
    root = tmp_path / "ws"
    shutil.copytree(SAMPLE, root)
    age(root)
    monkeypatch.setenv("MEMREVIEW_CACHE_DIR", str(tmp_path / "cache"))
    return root.resolve()


@pytest.fixture
def reads(monkeypatch):
    """The memory files and daily logs parsed (not taken from the cache), by name."""
    seen: list[str] = []
    parse, daily = loader._parse, loader._read_daily

    def spy_parse(rd, ws, rel, archived):
        seen.append(rel)
        return parse(rd, ws, rel, archived)

    def spy_daily(rd, ws, rel, day):
        seen.append(rel)
        return daily(rd, ws, rel, day)

    monkeypatch.setattr(loader, "_parse", spy_parse)
    monkeypatch.setattr(loader, "_read_daily", spy_daily)
    return seen


def doc(result) -> dict:
    return json.loads(json.dumps(result.to_json(), ensure_ascii=False, default=str))


def test_a_second_open_reads_nothing_and_gives_the_same_result(ws, reads):
    cold = doc(scan_workspace(ws, today=TODAY, cache=False))
    first = doc(scan_workspace(ws, today=TODAY))
    n = len(reads)
    assert n > 10
    reads.clear()
    events: list = []
    second = scan_workspace(ws, today=TODAY, emit=events.append)
    assert reads == [HOLDS_SECRET]  # every other file from the cache
    assert doc(second) == first == cold
    counts = [e for e in events if isinstance(e, Counts)]
    assert counts and counts[0].counts == second.counts  # known before reading anything
    forget_live()  # a new process: the parsed files come from the cache's own files
    reads.clear()
    assert doc(scan_workspace(ws, today=TODAY)) == first
    assert reads == [HOLDS_SECRET]


def test_after_two_appended_daily_logs_only_those_are_read_again(ws, reads):
    scan_workspace(ws, today=TODAY)
    logs = sorted((ws / "memory").glob("2026-11-2*.md"))[:2]
    for p in logs:
        with open(p, "a", encoding="utf-8") as f:
            f.write("- the agent wrote one more line about the NAS\n")
        then = time.time() - 300  # …a while ago
        os.utime(p, (then, then))
    reads.clear()
    events: list = []
    warm = scan_workspace(ws, today=TODAY, emit=events.append)
    assert sorted(reads) == sorted([HOLDS_SECRET, *(p.relative_to(ws).as_posix() for p in logs)])
    # only the queues that read daily logs are computed again (secrets looks in them too,
    # dropping shows a candidate's source lines); the others' counts come first
    done = {e.name for e in events if isinstance(e, QueueDone)}
    assert done == {"dormant", "promotions", "secrets", "dropping"}
    [counts] = [e.counts for e in events if isinstance(e, Counts)]
    assert set(counts) == set(warm.counts) - done
    assert doc(warm) == doc(scan_workspace(ws, today=TODAY, cache=False))


def test_a_file_changed_just_now_is_trusted_by_its_bytes(ws, reads):
    scan_workspace(ws, today=TODAY)
    p = ws / "MEMORY.md"
    text = p.read_text(encoding="utf-8")
    p.write_text(text.replace("Raspberry Pi 5", "Raspberry Pi 4"), encoding="utf-8")
    st = p.stat()
    reads.clear()
    scan_workspace(ws, today=TODAY)  # changed just now: read, kept with the hash of its bytes
    assert "MEMORY.md" in reads
    reads.clear()
    events: list = []
    second = scan_workspace(ws, today=TODAY, emit=events.append)  # the same bytes: warm
    assert reads == [HOLDS_SECRET]
    assert "Raspberry Pi 4" in "\n".join(second.workspace.files["MEMORY.md"].source.texts)
    assert not [e for e in events if isinstance(e, QueueDone) and e.name == "duplicates"]
    # an edit of the same size inside the timestamp tick: the key is as it was, the bytes not
    p.write_text(text.replace("Raspberry Pi 5", "Raspberry Pi 3"), encoding="utf-8")
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert p.stat().st_mtime_ns == st.st_mtime_ns and p.stat().st_size == st.st_size
    reads.clear()
    again = scan_workspace(ws, today=TODAY)
    assert "MEMORY.md" in reads
    assert "Raspberry Pi 3" in "\n".join(again.workspace.files["MEMORY.md"].source.texts)
    assert doc(again) == doc(scan_workspace(ws, today=TODAY, cache=False))


def test_a_fresh_copy_is_warm_at_its_second_open(tmp_path, monkeypatch, use_scan_cache, reads):
    root = tmp_path / "fresh"
    shutil.copytree(SAMPLE, root, copy_function=shutil.copy)  # every file written just now
    monkeypatch.setenv("MEMREVIEW_CACHE_DIR", str(tmp_path / "cache"))
    first = doc(scan_workspace(root, today=TODAY))
    reads.clear()
    forget_live()  # a new process
    events: list = []
    second = scan_workspace(root, today=TODAY, emit=events.append)
    assert reads == [HOLDS_SECRET]
    assert [e.counts for e in events if isinstance(e, Counts)] == [second.counts]
    assert doc(second) == first


def test_no_secret_value_is_ever_written_to_the_cache(ws, tmp_path):
    result = scan_workspace(ws, today=TODAY)
    assert result.counts["secrets"] == 1
    files = list((tmp_path / "cache").rglob("*"))
    assert any(f.name.startswith("files-") for f in files)
    for f in files:
        if f.is_file():
            assert SECRET.encode() not in f.read_bytes(), f


def test_the_cache_lives_outside_the_workspace_and_changes_nothing_in_it(ws, tmp_path):
    before = snapshot(ws)
    scan_workspace(ws, today=TODAY)
    assert snapshot(ws) == before
    assert (tmp_path / "cache").is_dir()
    modes = {f.stat().st_mode & 0o777 for f in (tmp_path / "cache").rglob("*.pickle")}
    assert modes == {0o600}


def test_no_cache_neither_reads_nor_writes_it(ws, tmp_path, reads):
    scan_workspace(ws, today=TODAY, cache=False)
    assert not (tmp_path / "cache").exists()
    scan_workspace(ws, today=TODAY)
    reads.clear()
    scan_workspace(ws, today=TODAY, cache=False)
    assert len(reads) > 10


@pytest.mark.parametrize(
    "damage",
    [
        b"not a pickle at all",
        pickle.dumps({"format": 1, "root": "/somewhere/else", "files": {}}),
        pickle.dumps({"format": 999}),
        pickle.dumps({"format": 1, "root": None, "files": []})[:-5],
        "a good head, then garbage",
    ],
)
def test_a_damaged_or_foreign_cache_is_ignored_with_one_warning(ws, damage, reads):
    if damage == "a good head, then garbage":
        damage = pickle.dumps({"format": 1, "root": str(ws), "code": _code_stamp()}) + b"junk"
    good = doc(scan_workspace(ws, today=TODAY, cache=False))
    scan_workspace(ws, today=TODAY)
    cache = ScanCache(ws)
    for f in cache.dir.glob("*.pickle"):
        f.write_bytes(damage)
    forget_live()  # as a new process would: what is on disk is all there is
    reads.clear()
    result = scan_workspace(ws, today=TODAY)
    assert len(reads) > 10  # read again, not trusted
    assert doc(result) == good
    assert len(result.notes) == 1 and "ignored the cache" in result.notes[0]
    reads.clear()
    scan_workspace(ws, today=TODAY)  # written again, whole: trusted from now on
    assert reads == [HOLDS_SECRET]


def test_a_warm_open_unpickles_no_parsed_file_until_one_is_used(ws, monkeypatch):
    from memreview.workspace import cache as cache_module

    cold = doc(scan_workspace(ws, today=TODAY, cache=False))
    scan_workspace(ws, today=TODAY)
    forget_live()  # a new process: the parsed files are in the cache's files only
    unpickled: list[str] = []
    real = cache_module._unpacked

    def spy(stored, cls, rel):
        unpickled.append(rel)
        return real(stored, cls, rel)

    monkeypatch.setattr(cache_module, "_unpacked", spy)
    warm = scan_workspace(ws, today=TODAY)
    # every queue, the projects and the health came from the cache: only the first memory
    # file is looked at (the promotions queue asks whether any file has a promotion section)
    assert unpickled == ["MEMORY.md"]
    infra = warm.workspace.files["memory/infra.md"]
    assert unpickled == ["MEMORY.md"]
    assert infra.entries and infra.rel == "memory/infra.md"
    assert unpickled == ["MEMORY.md", "memory/infra.md"]  # the one file used, when it is used
    assert doc(warm) == cold


def test_a_warm_json_searches_no_cached_queue_for_credentials_again(ws, monkeypatch, capsys):
    from memreview import masking
    from memreview.cli.scan import print_json

    print_json(scan_workspace(ws, today=TODAY, cache=False).to_json())
    cold = capsys.readouterr().out
    scan_workspace(ws, today=TODAY)
    searched: list[dict] = []
    real = masking.mask_in

    def spy(obj):
        searched.append(obj)
        return real(obj)

    monkeypatch.setattr(masking, "mask_in", spy)
    warm = scan_workspace(ws, today=TODAY)
    assert warm.safe == {*registry.queue_names(), "health"}
    print_json(warm.to_json(), warm.safe)
    assert capsys.readouterr().out == cold  # the same bytes, the secrets queue's masked
    [doc_searched] = searched
    assert doc_searched["queues"] == {} and "health" not in doc_searched
    assert "warnings" in doc_searched  # what the cache does not keep is searched


def _forge_shard(ws: Path, rel: str, blob: bytes | None) -> None:
    """Replace what the cache keeps of ``rel``: by ``blob``, or by another file's parse."""
    from memreview.workspace.cache import SHARDS, Packed

    cache = ScanCache(ws)
    head = {"format": 1, "root": str(ws), "code": _code_stamp()}
    for f in cache.dir.glob("files-*.pickle"):
        with open(f, "rb") as fh:
            pickle.load(fh)
            files = pickle.load(fh)["files"]
        for slot, (keys, packed, warnings) in list(files.items()):
            if slot[1] != rel:
                continue
            if blob is None:  # a well-made parse of another file, under this file's name
                other = scan_workspace(ws, today=TODAY, cache=False).workspace.files
                blob = pickle.dumps(other["memory/infra.md"])
            files[slot] = (keys, Packed(blob, packed.cls, packed.eager), warnings)
            f.write_bytes(pickle.dumps(head) + pickle.dumps({"files": files}))
            return
    raise AssertionError(f"{rel} is not in the cache ({SHARDS} shards)")


@pytest.mark.parametrize("blob", [None, b"garbage", pickle.dumps(["a list"])])
def test_a_forged_parsed_file_is_parsed_again_and_said(ws, blob):
    cold = doc(scan_workspace(ws, today=TODAY, cache=False))
    scan_workspace(ws, today=TODAY)
    _forge_shard(ws, "MEMORY.md", blob)
    (ws / "memory" / "2026-11-28.md").open("a", encoding="utf-8").write("- one more line\n")
    age(ws / "memory")  # a daily log changed: the queues reading memory files are computed
    forget_live()
    result = scan_workspace(ws, today=TODAY, emit=lambda e: None)
    assert doc(result) == cold or doc(result) == doc(scan_workspace(ws, today=TODAY, cache=False))
    assert doc(result) == doc(scan_workspace(ws, today=TODAY, cache=False))
    assert len(result.notes) == 1 and "ignored the cache" in result.notes[0]
    assert "MEMORY.md" in result.notes[0]


def test_forged_projects_are_not_trusted(ws):
    from memreview.workspace.cache import ScanCache as Cache

    cold = doc(scan_workspace(ws, today=TODAY, cache=False))
    scan_workspace(ws, today=TODAY)
    cache = Cache(ws)
    path = cache.dir / "derived.pickle"
    with open(path, "rb") as fh:
        head = pickle.load(fh)
        derived = pickle.load(fh)["derived"]
    key, (projects, warnings) = derived["projects"]
    derived["projects"] = (key, ({"nas": "not a project"}, warnings))
    path.write_bytes(pickle.dumps(head) + pickle.dumps({"derived": derived}))
    forget_live()
    result = scan_workspace(ws, today=TODAY)
    assert doc(result) == cold
    assert (
        result.workspace.projects == scan_workspace(ws, today=TODAY, cache=False).workspace.projects
    )
    assert len(result.notes) == 1 and "derived.pickle" in result.notes[0]


def test_a_pickle_that_would_run_code_is_refused(ws, tmp_path):
    scan_workspace(ws, today=TODAY)
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    cache = ScanCache(ws)
    head = {"format": 1, "root": str(ws), "code": _code_stamp()}
    evil = pickle.dumps(head) + pickle.dumps({"files": {("md", "MEMORY.md"): Evil()}})
    for f in cache.dir.glob("files-*.pickle"):
        f.write_bytes(evil)
    forget_live()
    result = scan_workspace(ws, today=TODAY)
    assert not marker.exists()
    assert "ignored the cache" in result.notes[0]


def test_the_command_warns_once_on_stderr_and_no_cache_bypasses(ws, tmp_path):
    env = {**os.environ, "MEMREVIEW_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("MEMREVIEW_NO_CACHE", None)
    cmd = [sys.executable, "-m", "memreview", "scan", str(ws), "--json", "--today", "2026-11-29"]
    first = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    for f in (tmp_path / "cache").rglob("*.pickle"):
        f.write_bytes(b"garbage")
    second = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    assert second.stdout == first.stdout
    assert second.stderr.count("ignored the cache") == 1
    shutil.rmtree(tmp_path / "cache")
    third = subprocess.run([*cmd, "--no-cache"], capture_output=True, text=True, env=env)
    assert third.returncode == 0 and third.stdout == first.stdout
    assert not (tmp_path / "cache").exists()


# -- property: whatever changed between two opens, the cache changes nothing ---------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FILES = (
    "MEMORY.md",
    "memory/notes.md",
    "memory/projects/nas.md",
    "memory/2026-11-27.md",
    "memory/2026-11-28.md",
    "memory/archive/2026-10.md",
)
LINES = st.sampled_from(
    [
        "- the NAS scrub runs every Sunday at 03:00",
        "- the nas scrub runs every sunday at 03:00",
        "## [KNOWLEDGE:nas-scrub]\nAdded: 2026-11-01\nSummary: NAS scrub weekly\n---",
        "## [PROJECT:nas]\nAdded: 2026-09-01\nStatus: active\n---",
        "- worked on [[nas]] today",
        "- key: sk-or-v1-3f9a1c0e7b2d4a6f8e1c3b5d7f9a2c4e6b8d0f1a3c5e7b9d",
        "| 2026-11-20 | moved the backups |",
        "# Heading",
        "Status: done",
    ]
)
EDITS = st.lists(
    st.tuples(
        st.sampled_from(["append", "rewrite", "delete", "touch"]), st.sampled_from(FILES), LINES
    ),
    min_size=1,
    max_size=3,
)


def _apply(root: Path, edits, when: float) -> None:
    for op, rel, line in edits:
        p = root / rel
        if op == "delete":
            if rel != "MEMORY.md":
                p.unlink(missing_ok=True)
            continue
        p.parent.mkdir(parents=True, exist_ok=True)
        if op == "append":
            with open(p, "a", encoding="utf-8") as f:
                f.write(line + "\n")
        elif op == "rewrite":
            p.write_text(f"# {rel}\n{line}\n", encoding="utf-8")
        elif op == "touch" and not p.exists():
            continue
        os.utime(p, (when, when))  # each round a distinct time, past the racy window


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rounds=st.lists(EDITS, min_size=1, max_size=3))
def test_random_edits_between_opens_give_the_result_of_no_cache(tmp_path_factory, rounds):
    base = tmp_path_factory.mktemp("prop")
    root = (base / "ws").resolve()
    root.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMREVIEW_CACHE_DIR", str(base / "cache"))
        mp.delenv("MEMREVIEW_NO_CACHE", raising=False)
        _apply(root, [("rewrite", rel, "- first line") for rel in FILES], time.time() - 1000)
        scan_workspace(root, today=TODAY)
        for k, edits in enumerate(rounds):
            _apply(root, edits, time.time() - 900 + 10 * k)
            events: list = []
            result = scan_workspace(root, today=TODAY, emit=events.append)
            assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))
            _counts_told_are_the_result(events, result)


def _counts_told_are_the_result(events: list, result) -> None:
    """Every count a scan told before reading (from the cache) is the count it ends with."""
    for e in events:
        if isinstance(e, Counts):
            assert e.counts == {name: result.counts[name] for name in e.counts}


@pytest.mark.parametrize(
    "data",
    [
        b"a\nb\r\nc",
        b"",
        b"x\n",
        "中文\r\n第二行\n".encode("gb18030"),
        b"\xef\xbb\xbfbom\n\n\rz",
        "ab\ncd\n".encode("utf-16-le"),
        b"bad \xff byte\n",
    ],
)
def test_a_text_file_comes_back_from_the_cache_byte_for_byte(data):
    from memreview.workspace.textfile import decode_bytes

    tf = decode_bytes("x.md", data)
    back = pickle.loads(pickle.dumps(tf))
    assert "lines" not in back.__dict__  # packed: made again only when asked for
    assert back.lines == tf.lines and back == tf
    assert back.render(back.lines) == tf.render(tf.lines)


def test_a_cache_directory_that_cannot_be_written_costs_one_note_not_the_scan(
    ws, tmp_path, monkeypatch
):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory would be")
    monkeypatch.setenv("MEMREVIEW_CACHE_DIR", str(blocker))
    result = scan_workspace(ws, today=TODAY)
    assert doc(result) == doc(scan_workspace(ws, today=TODAY, cache=False))
    assert len(result.notes) == 1 and "not-a-dir" in result.notes[0]


def test_the_rescan_after_a_write_reads_only_the_files_the_batch_wrote(ws, reads):
    from memreview.decisions import Decision, apply

    result = scan_workspace(ws, today=TODAY)
    [item] = result.queues["contradictions"][:1]
    out = apply(result, [Decision(item=item["id"], action="keep-a", queue="contradictions")])
    written = sorted(f.rel for f in out.files if f.written)
    assert written and not out.conflicts and not out.failures
    reads.clear()
    events: list = []
    again = scan_workspace(ws, today=TODAY, emit=events.append)
    assert sorted(set(reads)) == sorted({HOLDS_SECRET, *(w for w in written if w.endswith(".md"))})
    assert doc(again) == doc(scan_workspace(ws, today=TODAY, cache=False))
    _counts_told_are_the_result(events, again)


def test_an_unchanged_workspace_tells_every_count_before_the_queues_are_imported(ws):
    """The counts the last scan showed come first, before the registry and the detectors
    (numpy, rapidfuzz) are imported; a hidden item makes them stale, so they are not told."""
    scan_workspace(ws, today=TODAY)
    script = (
        "import sys, json\n"
        "from pathlib import Path\n"
        "from datetime import date\n"
        "from memreview.scan import Counts, scan_workspace\n"
        "told = []\n"
        "def emit(e):\n"
        "    if isinstance(e, Counts):\n"
        "        heavy = {'memreview.decisions.registry', 'numpy', 'rapidfuzz'}\n"
        "        told.append([e.counts, sorted(heavy & set(sys.modules))])\n"
        "r = scan_workspace(Path(sys.argv[1]), today=date(2026, 11, 29), emit=emit)\n"
        "print(json.dumps([told, r.counts]))\n"
    )
    run = [sys.executable, "-c", script, str(ws)]
    told, counts = json.loads(subprocess.run(run, capture_output=True, check=True).stdout)
    assert told == [[counts, []]]
    assert len(counts) == len(registry.units())
    # an item hidden since, in memreview's own state only (no file the queues read changed)
    from memreview.decisions.state import Hidden, State

    result = scan_workspace(ws, today=TODAY)
    item = result.queues["supersede"][0]["id"]
    state = State({item: Hidden(until=None, reason="rejected")})
    (ws / ".memreview").mkdir(exist_ok=True)
    (ws / ".memreview" / "state.yaml").write_bytes(state.to_bytes())
    age(ws / ".memreview")
    told, after = json.loads(subprocess.run(run, capture_output=True, check=True).stdout)
    assert after["supersede"] == counts["supersede"] - 1
    assert [t[0] for t in told] == [{k: after[k] for k in told[0][0]}]  # not the stale ones


def test_the_state_file_the_scan_keys_by_is_the_one_decisions_write():
    from memreview.decisions.state import STATE_FILE
    from memreview.scan import run

    assert run.STATE_FILE == STATE_FILE


def test_after_a_warm_open_the_rescan_searches_only_the_daily_logs_that_changed(ws, monkeypatch):
    """The dormant queue's search of each daily log is kept with the parsed log in the cache:
    in a new process, after a warm open and an agent's append, only that log is searched."""
    from memreview.queues import dormant

    scan_workspace(ws, today=TODAY)  # cold: computes every queue and keeps the searches
    forget_live()  # a new process
    scan_workspace(ws, today=TODAY)  # warm: every queue from the cache, nothing searched
    searched: list[int] = []
    find = dormant.find_patterns
    monkeypatch.setattr(
        dormant, "find_patterns", lambda text, pats: searched.append(len(text)) or find(text, pats)
    )
    newest = max((ws / "memory").glob("2026-11-2*.md"))
    with open(newest, "a", encoding="utf-8") as f:
        f.write("- the agent wrote one more line\n")
    then = time.time() - 300
    os.utime(newest, (then, then))
    events: list = []
    again = scan_workspace(ws, today=TODAY, emit=events.append)
    assert "dormant" in {e.name for e in events if isinstance(e, QueueDone)}
    assert len(searched) == 1  # the log that grew; the others' hits came with them
    assert doc(again) == doc(scan_workspace(ws, today=TODAY, cache=False))


BATCH = st.lists(
    st.sampled_from(
        [
            ("contradictions", "keep-a"),
            ("supersede", "approve"),
            ("supersede", "reject"),
            ("archived", "remove"),
            ("duplicates", "keep", 1),
            ("dormant", "revive"),
            ("dormant", "snooze"),
            ("demotion", "approve"),
            ("promotions", "archive"),
            ("secrets", "redact"),
        ]
    ),
    min_size=1,
    max_size=5,
    unique_by=lambda qa: qa[0],
)


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edits=EDITS, batch=BATCH)
def test_random_edits_then_a_batch_rescan_gives_the_result_of_no_cache(
    tmp_path_factory, edits, batch
):
    """The rescan after a write (unchanged files, their searches and the queues whose inputs
    did not change all reused in the process) equals a scan without the cache."""
    from memreview.decisions import Decision, apply

    base = tmp_path_factory.mktemp("batch")
    root = (base / "ws").resolve()
    shutil.copytree(SAMPLE, root)
    age(root)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMREVIEW_CACHE_DIR", str(base / "cache"))
        mp.delenv("MEMREVIEW_NO_CACHE", raising=False)
        scan_workspace(root, today=TODAY)
        forget_live()
        _apply(root, edits, time.time() - 900)
        result = scan_workspace(root, today=TODAY)
        decisions = [
            Decision(item=result.queues[q][0]["id"], action=a, queue=q, keep=(k or [None])[0])
            for q, a, *k in batch
            if result.queues.get(q)
        ]
        out = apply(result, decisions)
        assert not out.failures
        for p in root.rglob("*"):  # what the batch wrote, past the racy window
            if p.is_file() and ".memreview" not in p.parts:
                st_ = p.stat()
                if time.time() - st_.st_mtime < 60:
                    os.utime(p, (time.time() - 120, time.time() - 120))
        events: list = []
        again = scan_workspace(root, today=TODAY, emit=events.append)
        assert doc(again) == doc(scan_workspace(root, today=TODAY, cache=False))
        _counts_told_are_the_result(events, again)


def test_a_promotions_source_file_is_split_once_not_once_per_promotion(ws):
    """Every promotion names its source file; the file's lines are made once and shared."""
    from memreview.queues.promotions.detect import source_lines

    result = scan_workspace(ws, today=TODAY, cache=False)
    log = result.workspace.daily_logs[0].rel
    memory = next(iter(result.workspace.files))
    for rel in (log, memory):
        first = source_lines(result.workspace, rel)
        assert first and source_lines(result.workspace, rel) is first


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(
        st.sampled_from(
            ["# Top", "## Day", "### Part", "#### Deep", "#NoSpace", "- text", "", " # x"]
        ),
        max_size=30,
    ),
    line=st.integers(min_value=0, max_value=35),
)
def test_the_headings_above_a_source_line_are_found_as_by_a_walk_up(lines, line):
    """The headings index kept with a file's lines answers as walking up line by line does."""
    import re

    from memreview.queues.promotions.detect import _Lines, _source_headings

    def walk_up(lines, line):
        out = []
        for k in range(min(line, len(lines)) - 1, -1, -1):
            m = re.match(r"^#{1,6}\s+(.*)$", lines[k])
            if m:
                out.append(m.group(1))
                if lines[k].startswith("## ") or lines[k].startswith("# "):
                    break
        return tuple(out) if lines else ()

    indexed = _Lines(lines)
    assert _source_headings(indexed, line) == walk_up(lines, line)
    assert _source_headings(indexed, line) == walk_up(lines, line)  # the index, kept
    assert _source_headings(list(lines), line) == walk_up(lines, line)


def test_projects_holding_a_credential_are_never_stored_and_clean_ones_are(ws, tmp_path):
    def stored() -> set[str]:
        path = ScanCache(ws).dir / "derived.pickle"
        with open(path, "rb") as fh:
            pickle.load(fh)
            return set(pickle.load(fh)["derived"])

    scan_workspace(ws, today=TODAY)
    assert "projects" in stored()
    project = ws / "memory/projects/nas-keys.md"
    project.write_text(f"# NAS key sk-or-v1-{SECRET}\n\nStatus: active\n", encoding="utf-8")
    age(ws)
    forget_live()
    result = scan_workspace(ws, today=TODAY)
    assert any(SECRET in repr(p) for p in result.workspace.projects.values())
    assert "projects" not in stored()
    for f in (tmp_path / "cache").rglob("*"):
        if f.is_file():
            assert SECRET.encode() not in f.read_bytes(), f


def test_a_credential_in_any_field_of_a_recall_keeps_the_recall_log_out_of_the_cache(ws, tmp_path):
    line = {"ts": "2026-11-22T10:02:11Z", "id": f"sk-or-v1-{SECRET}", "channel": "search"}
    with (ws / "memory/recall_log.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps({**line, "query": "which key"}) + "\n")
    age(ws)
    for _ in range(2):
        forget_live()
        scan_workspace(ws, today=TODAY)
    for f in (tmp_path / "cache").rglob("*"):
        if f.is_file():
            assert SECRET.encode() not in f.read_bytes(), f


KEY = f"sk-or-v1-{SECRET[::-1]}"  # a credential the sample does not hold
PLACED = {
    "a project's title": ("memory/projects/nas-keys.md", f"# NAS {KEY}\n\nStatus: active\n"),
    "an anchor's id": ("memory/infra.md", f"\n## [INFRA:{KEY}]\nAdded: 2026-11-01\n---\n"),
    "a heading": ("MEMORY.md", f"\n## Keys {KEY}\n- the key is above\n"),
    "a promotion": (
        "MEMORY.md",
        "\n## Promoted From Short-Term Memory (2026-11-29)\n\n"
        "<!-- openclaw-memory-promotion:memory:memory/2026-11-27.md:3:3 -->\n"
        f"- key {KEY} [score=0.8 recalls=4 avg=0.7 source=memory/2026-11-27.md:3-3]\n",
    ),
    "a daily log's heading": ("memory/2026-11-27.md", f"\n## {KEY}\n- x\n"),
    "an archive": ("memory/archive/superseded.md", f"\n- old key {KEY}\n"),
    "a recall's anchor id": (
        "memory/recall_log.jsonl",
        json.dumps({"ts": "2026-11-22T10:00:00Z", "id": KEY, "channel": "search", "query": "x"})
        + "\n",
    ),
    "a proposal's anchor": (
        "memory/review/proposals.jsonl",
        json.dumps({"id": "p-9", "relation": "supersedes", "new": KEY, "old": "x"}) + "\n",
    ),
    "a link in a log": ("memory/2026-11-27.md", f"\n- worked on [[{KEY}]]\n"),
    "an entry's date": ("memory/infra.md", f"\n## [INFRA:x-key]\nAdded: {KEY}\n---\n"),
}


@pytest.mark.parametrize("place", sorted(PLACED))
def test_a_credential_anywhere_is_never_written_to_the_cache(ws, tmp_path, place):
    rel, text = PLACED[place]
    with (ws / rel).open("a", encoding="utf-8") as f:
        f.write(text)
    age(ws)
    for _ in range(2):
        forget_live()  # each open as a new process makes it
        scan_workspace(ws, today=TODAY)
    with (ws / "memory/2026-11-26.md").open("a", encoding="utf-8") as f:
        f.write("\n- one more line\n")  # and the next week's open
    age(ws)
    forget_live()
    scan_workspace(ws, today=TODAY)
    tail = KEY[-24:].encode()
    leaked = [
        f.name for f in (tmp_path / "cache").rglob("*") if f.is_file() and tail in f.read_bytes()
    ]
    assert leaked == []


def test_a_daily_log_is_searched_for_credentials_once_by_the_secrets_queue(ws, monkeypatch):
    """The cache takes the secrets queue's finding for the daily logs, as for the other
    memory files, instead of searching each log a second time before storing it; a log
    holding a credential is still not stored (``test_a_credential_anywhere…``)."""
    from memreview.workspace import cache

    asked: list[str] = []
    real = cache.holds_secret

    def spy(texts):
        texts = list(texts)
        asked.extend(texts)
        return real(texts)

    monkeypatch.setattr(cache, "holds_secret", spy)
    result = scan_workspace(ws, today=TODAY)
    logs = [d.text for d in result.workspace.daily_logs if d.text]
    assert logs, "the sample has daily logs"
    assert not [t for t in logs if t in asked]
    assert "secrets" in result.all_queues


def test_two_scans_of_one_workspace_save_one_at_a_time(tmp_path, monkeypatch, use_scan_cache):
    """The app can run a second scan before the first is over (a reload during a scan, an
    undo from the recovery dialog): both save the parsed files into the shards they share
    in the process, which ended in a KeyError or "dictionary changed size during iteration"
    when the saves met. The second waits until the first has saved."""
    import threading

    from memreview.shipped import shipped_dir
    from memreview.workspace import cachefile

    ws = tmp_path / "ws"
    shutil.copytree(shipped_dir("sample_workspace"), ws)
    monkeypatch.setenv("MEMREVIEW_CACHE_DIR", str(tmp_path / "c"))
    past = time.time() - 3600
    for p in ws.rglob("*"):
        os.utime(p, (past, past))
    scan_workspace(ws, today=TODAY)
    log = next((ws / "memory").glob("20*.md"))
    log.rename(log.with_name("renamed.md"))  # its old place in the shards goes
    release, writes = threading.Event(), []
    real = cachefile.CacheDir._write

    def write(self, name, doc):
        writes.append(threading.current_thread().name)
        if threading.current_thread().name == "first":
            release.wait(10)  # the first scan's save held at its first write
        return real(self, name, doc)

    monkeypatch.setattr(cachefile.CacheDir, "_write", write)
    first = threading.Thread(
        name="first", target=scan_workspace, args=(ws,), kwargs={"today": TODAY}
    )
    second = threading.Thread(
        name="second", target=scan_workspace, args=(ws,), kwargs={"today": TODAY}
    )
    first.start()
    for _ in range(1000):
        if writes:
            break
        time.sleep(0.01)
    second.start()
    second.join(0.8)
    during = [w for w in writes if w == "second"]
    release.set()
    first.join(30)
    second.join(30)
    assert writes and during == []
    assert "second" in writes  # it saved, after


def test_a_value_kept_by_object_is_let_go_though_another_scan_cleared_the_table():
    """``ByObject.pop`` after another scan cleared the table (``forget_before`` at its
    start), between the look and the deletion: nothing to let go, no KeyError."""
    from memreview.workspace.memo import ByObject

    class Parsed:
        pass

    kept, obj = ByObject(), Parsed()
    kept.set(obj, "its parse before")
    looked = kept.get

    def get_then_cleared(o):
        found = looked(o)
        kept.clear()  # another scan, in another thread, meanwhile
        return found

    kept.get = get_then_cleared
    kept.pop(obj)
    assert looked(obj) is None


def test_a_file_handed_out_unread_is_unpickled_once_when_two_threads_ask_at_once():
    """The rescan after a write and ``ready_rescan`` (in a thread of its own) take the
    very same files the cache handed out unread: one unpickles each, the other waits for
    it (both did, each file's fields then coming from two unpicklings)."""
    import threading

    from memreview.workspace.model import LoadsLater

    class Parsed(LoadsLater):
        pass

    loads = []

    def unpickle():
        loads.append(threading.current_thread().name)
        time.sleep(0.2)  # long enough for the other thread to ask meanwhile
        return {"rel": "MEMORY.md", "entries": ["one"]}

    parsed = Parsed()
    parsed.__dict__["_lazy"] = unpickle
    seen = []
    threads = [
        threading.Thread(target=lambda: seen.append(parsed.entries), name=f"t{k}") for k in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(loads) == 1, loads
    assert seen == [["one"], ["one"]] and seen[0] is seen[1]
