"""Results kept per memory file (the scan cache's ``PerFile``): a scan after any edits, taking
unchanged files' results from the cache, gives exactly what a scan without the cache gives;
a forged record is not trusted."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import sqlite3
import time
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memreview.scan import QueueDone, scan_workspace
from memreview.workspace.cache import ScanCache, _code_stamp, forget_live

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"
TODAY = date(2026, 11, 29)
DREAMS = "memory/knowledge/dreams.db"
SKILLS = "memory/skill_candidates.json"
MEMORY_FILES = (
    "MEMORY.md",
    "memory/infra.md",
    "memory/rules.md",
    "memory/projects/job-radar.md",
    "memory/lessons/silent-cron.md",
    "memory/accounts.md",
)
LOGS = ("memory/2026-11-27.md", "memory/2026-11-28.md", "memory/2026-12-01.md")
WORDS = st.sampled_from(
    [
        "每周日晚上主人会手动清一次浏览器缓存",  # an archived fragment's text, now in memory
        "Boss直聘爬虫每天 9 点跑一次",
        "主人周三晚上固定去打羽毛球",
        "the NAS scrub runs every Sunday at 03:00",
        "worked on [[job-radar]] today",
        "key: sk-or-v1-3f9a1c0e7b2d4a6f8e1c3b5d7f9a2c4e6b8d0f1a3c5e7b9d",
        "Status: done",
        # an item with list items nested in it (each compared on its own)
        "NAS 备份步骤\n  - 先停 [[job-radar]] 的爬虫\n  - path: /srv/nas/backup",
    ]
)
EDIT = st.one_of(
    st.tuples(st.just("append-log"), st.sampled_from(LOGS), WORDS),
    st.tuples(st.just("edit-entry"), st.sampled_from(MEMORY_FILES), WORDS),
    st.tuples(st.just("add-entry"), st.sampled_from(MEMORY_FILES), WORDS),
    st.tuples(st.just("add-promotion"), st.sampled_from(LOGS[:2]), WORDS),
    st.tuples(st.just("delete"), st.sampled_from(MEMORY_FILES[1:] + LOGS), st.just("")),
    st.tuples(
        st.just("config"),
        st.sampled_from(["archived_partial_ratio: 80", "min_match_chars: 12", "archived_days: 5"]),
        st.just(""),
    ),
    st.tuples(st.just("fragment"), st.sampled_from(["6", "11", "12", "1"]), WORDS),
    # a skill candidate added, or its theme changed (the slugs are kept by theme)
    st.tuples(st.just("skill"), st.sampled_from(["add", "0", "1"]), WORDS),
    # a line of another memory file, reworded a little: the same fact in two files
    st.tuples(st.just("copy-entry"), st.sampled_from(MEMORY_FILES), st.sampled_from(MEMORY_FILES)),
)


def doc(result) -> dict:
    return json.loads(json.dumps(result.to_json(), ensure_ascii=False, default=str))


def _edit(root: Path, op: str, target: str, words: str) -> list[Path]:
    """One edit; the files it changed."""
    p = root / target
    if op == "delete":
        p.unlink(missing_ok=True)
        return []
    if op == "fragment":
        with sqlite3.connect(root / DREAMS) as db:
            db.execute(
                "UPDATE dreams SET status='archived', last_seen='2026-09-01', content=? WHERE id=?",
                (words, int(target)),
            )
        db.close()
        return [root / DREAMS]
    if op == "skill":
        path = root / SKILLS
        data = json.loads(path.read_text(encoding="utf-8"))
        theme = words.split("\n")[0][:20]
        if target == "add":
            data["candidates"].append({"theme": theme, "content": words, "count": 3})
        else:
            data["candidates"][int(target)]["theme"] = theme
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return [path]
    if op == "copy-entry":
        source = root / words
        lines = source.read_text(encoding="utf-8").split("\n") if source.exists() else []
        bullets = [t for t in lines if t.startswith("- ")]
        if not bullets or not p.exists():
            return []
        with open(p, "a", encoding="utf-8") as f:
            f.write(f"{bullets[len(bullets) // 3]}，这周又核对过一次\n")
        return [p]
    if op == "config":
        with open(root / "memreview.yaml", "a", encoding="utf-8") as f:
            f.write(f"{target}\n")
        return [root / "memreview.yaml"]
    if not p.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(f"# {target}\n", encoding="utf-8")
    text = p.read_text(encoding="utf-8")
    if op == "edit-entry":
        lines = text.split("\n")
        bullets = [k for k, t in enumerate(lines) if t.startswith("- ")]
        if bullets:
            lines[bullets[len(bullets) // 2]] += f" {words}"
        text = "\n".join(lines)
    elif op == "add-promotion":
        log = root / target
        n = len(log.read_text(encoding="utf-8").splitlines()) if log.exists() else 1
        text += (
            f"\n## Promoted From Short-Term Memory (2026-11-29)\n\n"
            f"<!-- openclaw-memory-promotion:memory:{target}:{n}:{n} -->\n"
            f"- {words} [score=0.8 recalls=4 avg=0.7 source={target}:{n}-{n}]\n"
        )
        p = root / "MEMORY.md"
    else:  # append-log, add-entry
        text += f"- {words}\n"
    p.write_text(text, encoding="utf-8")
    return [p]


def _edit_aged(root: Path, *edit: str) -> None:
    """One edit (``_edit``) of one file, written ten minutes ago (its key is trusted)."""
    [changed] = _edit(root, *edit)
    os.utime(changed, (time.time() - 600, time.time() - 600))


def _age(root: Path, when: float) -> None:
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            os.utime(Path(dirpath, name), (when, when))


@pytest.fixture
def fresh(tmp_path_factory):
    """A maker of copies of the sample (each with a cache directory of its own)."""
    mp = pytest.MonkeyPatch()

    def make() -> Path:
        base = tmp_path_factory.mktemp("inc")
        root = (base / "ws").resolve()
        shutil.copytree(SAMPLE, root)
        _age(root, time.time() - 10_000)
        mp.setenv("MEMREVIEW_CACHE_DIR", str(base / "cache"))
        return root

    yield make
    mp.undo()


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rounds=st.lists(st.lists(EDIT, min_size=1, max_size=4), min_size=1, max_size=3),
    new_process=st.booleans(),
)
def test_a_scan_after_random_edits_is_the_scan_without_the_cache(
    fresh, use_scan_cache, rounds, new_process
):
    root = fresh()
    forget_live()
    scan_workspace(root, today=TODAY)
    for k, edits in enumerate(rounds):
        for op, target, words in edits:
            for p in _edit(root, op, target, words):
                then = time.time() - 5000 + 100 * k
                os.utime(p, (then, then))
        if new_process:
            forget_live()
        cached = doc(scan_workspace(root, today=TODAY))
        assert cached == doc(scan_workspace(root, today=TODAY, cache=False))


def test_an_edited_file_is_the_only_one_the_archived_queue_searches(fresh, use_scan_cache):
    """…and in it only the entry that is new: the others give what they held last time."""
    from memreview.queues import archived as queue

    root = fresh()
    scan_workspace(root, today=TODAY)
    added = "每周日晚上主人会手动清一次浏览器缓存"
    edited = _edit(root, "add-entry", "memory/infra.md", added)
    os.utime(edited[0], (time.time() - 600, time.time() - 600))
    searched: list[list[str]] = []
    real = queue._search

    def spy(pats, norms, entries, cutoff):
        searched.append(sorted({e.file for e in entries}))
        searched.append([e.text for e in entries if e.file == "memory/infra.md"])
        return real(pats, norms, entries, cutoff)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(queue, "_search", spy)
        forget_live()
        events: list = []
        result = scan_workspace(root, today=TODAY, emit=events.append)
    assert "archived" in {e.name for e in events if isinstance(e, QueueDone)}
    # …and the file holding a credential, whose results are never kept
    files, infra = searched
    assert files == ["memory/accounts.md", "memory/infra.md"]
    assert len(infra) == 1 and added in infra[0]
    assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))
    assert any(
        m["file"] == "memory/infra.md" for it in result.queues["archived"] for m in it["matches"]
    )


def test_an_entry_edited_into_a_fragment_s_text_is_found_and_one_edited_out_is_not(
    fresh, use_scan_cache
):
    """What an unchanged entry held comes back; an entry whose text changed is searched."""
    root = fresh()
    cold = scan_workspace(root, today=TODAY, cache=False)
    [item, *_] = cold.queues["archived"]
    match = item["matches"][0]
    path = root / match["file"]
    scan_workspace(root, today=TODAY)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[match["line"] - 1] = "- 完全无关的一句话，和任何碎片都不像"
    path.write_text("\n".join(lines), encoding="utf-8")
    os.utime(path, (time.time() - 600, time.time() - 600))
    forget_live()
    after = scan_workspace(root, today=TODAY)
    assert doc(after) == doc(scan_workspace(root, today=TODAY, cache=False))
    refs = [(m["file"], m["line"]) for it in after.queues["archived"] for m in it["matches"]]
    assert (match["file"], match["line"]) not in refs
    lines[match["line"] - 1] = match["text"]  # and back: found again
    path.write_text("\n".join(lines), encoding="utf-8")
    os.utime(path, (time.time() - 500, time.time() - 500))
    forget_live()
    back = scan_workspace(root, today=TODAY)
    assert doc(back) == doc(cold)


@pytest.mark.parametrize("forgery", ["not a record", "a match elsewhere", "a found match"])
def test_a_forged_per_file_record_is_not_trusted(fresh, use_scan_cache, forgery):
    root = fresh()
    scan_workspace(root, today=TODAY)
    path = ScanCache(root).dir / "perfile-archived.pickle"
    with open(path, "rb") as fh:
        head = pickle.load(fh)
        files = pickle.load(fh)["files"]
    key, params, (done, hits, seen) = files["memory/rules.md"]
    match = {
        "file": "memory/rules.md",
        "line": 3,
        "end_line": 3,
        "text": "- forged",
        "anchor": None,
    }
    if forgery == "not a record":
        record = ["garbage"]
    elif forgery == "a match elsewhere":
        record = (done, {next(iter(done)): [{**match, "file": "MEMORY.md", "score": 99.0}]}, seen)
    else:
        record = (done, {next(iter(done)): [{**match, "score": "99"}]}, seen)
    files["memory/rules.md"] = (key, params, record)
    assert head["code"] == _code_stamp()
    path.write_bytes(pickle.dumps(head) + pickle.dumps({"files": files}))
    edited = _edit(root, "fragment", "12", "主人周三晚上固定去打羽毛球")  # archived computed again
    os.utime(edited[0], (time.time() - 600, time.time() - 600))
    forget_live()
    result = scan_workspace(root, today=TODAY)
    assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))
    assert len(result.notes) == 1 and "perfile-archived.pickle" in result.notes[0]


def test_what_a_log_kept_comes_back_with_it_when_it_is_handed_out_unread(fresh, use_scan_cache):
    from memreview.queues import dormant

    root = fresh()
    scan_workspace(root, today=TODAY)
    scan_workspace(root, today=TODAY)  # the hits found are stored with the logs
    forget_live()
    loaded = scan_workspace(root, today=TODAY).workspace.daily_logs[-1].loaded()
    kept = loaded.__dict__["_kept"]
    name = next(k for k in kept if k.endswith("._log_hits"))
    digest, hits = kept[name]
    assert isinstance(digest, str) and len(digest) == 32  # the patterns by digest, not text
    forget_live()  # another new process: its logs are handed out unread
    ws = scan_workspace(root, today=TODAY).workspace
    [log] = [d for d in ws.daily_logs if d.rel == loaded.rel]
    assert "_lazy" in log.__dict__
    searched: list[str] = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dormant, "find_patterns", lambda text, patterns: searched.append(text) or [])
        dormant.last_mentions(ws, TODAY)  # the newest log first: this one
    assert log.__dict__["_kept"][name] == (digest, hits)
    assert loaded.text_lower.replace("_", "-").replace(" ", "-") not in searched


def test_a_log_s_partial_mentions_are_searched_once_and_a_malformed_kept_value_again(
    fresh, use_scan_cache
):
    """The places of a dormant project's words in a daily log are kept with the log: an
    open after an edit elsewhere does not search the logs for them again; a kept value not
    of this code's making is worked out again."""
    from memreview.queues import dormant

    root = fresh()
    scan_workspace(root, today=TODAY)
    scan_workspace(root, today=TODAY)  # stored with the logs
    edited = _edit(root, "add-entry", "memory/infra.md", "主人换了一个新的键盘")
    os.utime(edited[0], (time.time() - 600, time.time() - 600))
    cold = doc(scan_workspace(root, today=TODAY, cache=False))
    searched: list[str] = []
    real = dormant._hits

    def spy(text, word, limit=200):
        searched.append(word)
        return real(text, word, limit)

    forget_live()  # a new process: the logs come from the cache, with what they kept
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dormant, "_hits", spy)
        events: list = []
        warm = scan_workspace(root, today=TODAY, emit=events.append)
        assert "dormant" in {e.name for e in events if isinstance(e, QueueDone)}
        assert searched == []  # every log's places came with it
        assert doc(warm) == cold
        ws = warm.workspace
        name = f"{dormant.__name__}._partial_hits"
        log = next(d for d in ws.daily_logs if name in d.__dict__.get("_kept", {}))
        before = dormant.dormant(ws, TODAY)
        assert searched == []
        digest, _places = log.__dict__["_kept"][name]
        log.__dict__["_kept"][name] = (digest, ("not", "places"))
        assert dormant.dormant(ws, TODAY) == before
        assert searched  # the malformed one was searched again


def test_the_secrets_queue_reads_only_the_files_changed_since_they_held_none(fresh, use_scan_cache):
    from memreview.queues import secrets as queue

    root = fresh()
    scan_workspace(root, today=TODAY)
    key = "key: sk-or-v1-3f9a1c0e7b2d4a6f8e1c3b5d7f9a2c4e6b8d0f1a3c5e7b9d"
    _edit_aged(root, "add-entry", "memory/rules.md", key)
    looked: list[str] = []
    real = queue.line_secrets

    def spy(mf):
        looked.append(mf.rel)
        return real(mf)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(queue, "line_secrets", spy)
        forget_live()
        result = scan_workspace(root, today=TODAY)
    # the file changed, and the one holding a credential (never said to hold none)
    assert sorted(looked) == ["memory/accounts.md", "memory/rules.md"]
    assert {it["ref"]["file"] for it in result.queues["secrets"]} >= {"memory/rules.md"}
    assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))


def test_a_forged_clean_record_is_not_trusted(fresh, use_scan_cache):
    root = fresh()
    scan_workspace(root, today=TODAY)
    path = ScanCache(root).dir / "perfile-secrets.pickle"
    with open(path, "rb") as fh:
        head = pickle.load(fh)
        files = pickle.load(fh)["files"]
    key, params, _clean = files["memory/rules.md"]
    files["memory/rules.md"] = (key, params, "yes, clean")
    path.write_bytes(pickle.dumps(head) + pickle.dumps({"files": files}))
    [log] = _edit(root, "append-log", "memory/2026-11-27.md", "14:02 nothing new")
    os.utime(log, (time.time() - 600, time.time() - 600))  # the secrets queue computed again
    forget_live()
    result = scan_workspace(root, today=TODAY)
    assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))
    assert len(result.notes) == 1 and "perfile-secrets.pickle" in result.notes[0]


def test_a_rescan_in_the_same_process_takes_the_fragments_it_holds(fresh, use_scan_cache):
    root = fresh()
    cold = scan_workspace(root, today=TODAY, cache=False)
    scan_workspace(root, today=TODAY)  # the fragments kept, held in this process
    _edit_aged(root, "add-entry", "memory/rules.md", "主人周三晚上固定去打羽毛球")
    again = scan_workspace(root, today=TODAY)  # the archived queue reads the fragments
    assert again.notes == []
    assert again.workspace.fragments == cold.workspace.fragments
    assert doc(again) == doc(scan_workspace(root, today=TODAY, cache=False))


def test_only_the_changed_file_s_substance_is_worked_out_again(fresh, use_scan_cache):
    from memreview.queues.duplicates import prepared

    root = fresh()
    scan_workspace(root, today=TODAY)
    _edit_aged(root, "copy-entry", "memory/lessons/silent-cron.md", "memory/MEMORY.md")
    worked: set[str] = set()
    real = prepared.entry_substance

    def spy(e):
        worked.add(e.file)
        return real(e)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(prepared, "entry_substance", spy)
        forget_live()  # a new process: the other files' substance comes from the cache
        result = scan_workspace(root, today=TODAY)
    # the file changed, and the one holding a credential (never stored)
    assert worked == {"memory/lessons/silent-cron.md", "memory/accounts.md"}
    assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))
    assert any(
        {r["file"] for r in it["refs"]} == {"memory/lessons/silent-cron.md", "memory/MEMORY.md"}
        for it in result.all_queues["duplicates"]
    ), [it["refs"] for it in result.all_queues["duplicates"]]


@pytest.mark.parametrize("new_process", [False, True])
def test_a_changed_file_s_unchanged_entries_keep_their_substance_and_forms(
    fresh, use_scan_cache, new_process
):
    from memreview.queues.duplicates import prepared

    root = fresh()
    lesson = "memory/lessons/silent-cron.md"
    scan_workspace(root, today=TODAY)
    _edit_aged(root, "add-entry", lesson, "the NAS scrub runs every Sunday at 03:00")
    substance: list[str] = []
    forms: list[str] = []
    real_substance, real_form = prepared.entry_substance, prepared.comparison_form

    def spy_substance(e):
        substance.append(e.text)
        return real_substance(e)

    def spy_form(norm):
        forms.append(norm)
        return real_form(norm)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(prepared, "entry_substance", spy_substance)
        mp.setattr(prepared, "comparison_form", spy_form)
        if new_process:
            forget_live()  # the lesson's last parse comes from the cache's files
        result = scan_workspace(root, today=TODAY)
    compared = [e.text for e, _p in prepared.compared(result.workspace.files[lesson])]
    assert len(compared) == 3
    # of the lesson, the entry added alone (and the file holding a credential: never stored)
    assert set(compared) & set(substance) == {"- the NAS scrub runs every Sunday at 03:00"}
    norms = [e.norm for e in prepared.units(result.workspace.files[lesson])]
    assert len(norms) == 4  # an anchor, two entries and the one added
    assert [n for n in norms if n in forms] == ["the nas scrub runs every sunday at 03:00"]
    assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))


@pytest.mark.parametrize(
    "forged",
    [
        (("x",), ("word",), ((0,), (0,), (0,))),  # a bag for every entry, all one word
        (("x",), ("word",), ((5,),)),  # a place past its tokens
        ((1, 2), ("word", "word"), ((0, 1),)),  # a token that is not a text
        "not a packed substance",
    ],
)
def test_a_malformed_substance_kept_on_the_earlier_parse_is_made_again(
    fresh, use_scan_cache, forged
):
    from memreview.queues.duplicates import prepared

    root = fresh()
    lesson = "memory/lessons/silent-cron.md"
    first = scan_workspace(root, today=TODAY)
    kept = first.workspace.files[lesson].__dict__["_kept"]
    name = f"{prepared.file_substance.__module__}.{prepared.file_substance.__qualname__}"
    kept[name] = (kept[name][0], forged)
    _edit_aged(root, "add-entry", lesson, "the NAS scrub runs every Sunday at 03:00")
    again = scan_workspace(root, today=TODAY)  # in this process: the earlier parse is live
    assert doc(again) == doc(scan_workspace(root, today=TODAY, cache=False))


def test_a_skill_theme_s_slug_is_worked_out_once(fresh, use_scan_cache):
    from memreview.queues import skills as queue

    root = fresh()
    scan_workspace(root, today=TODAY)
    _edit_aged(root, "skill", "add", "每周日晚上清浏览器缓存")
    slugged: list[str] = []
    real = queue.skill_slug

    def spy(theme):
        slugged.append(theme)
        return real(theme)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(queue, "skill_slug", spy)
        mp.setattr(queue, "_SLUGS", {})  # nothing made in this process before: a new one
        forget_live()
        result = scan_workspace(root, today=TODAY)
    assert slugged == ["每周日晚上清浏览器缓存"]  # the new theme's only
    assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))
    assert result.all_queues["skills"][-1]["slug"] == "meizhou-riwan-shangqing-liulan-qihuan-cun"


def test_a_forged_slug_is_not_trusted(fresh, use_scan_cache):
    root = fresh()
    scan_workspace(root, today=TODAY)
    path = ScanCache(root).dir / "memo-skill-slugs.pickle"
    with open(path, "rb") as fh:
        head = pickle.load(fh)
        values = pickle.load(fh)["values"]
    values["每日日报推送"] = "../../etc"
    path.write_bytes(pickle.dumps(head) + pickle.dumps({"values": values}))
    _edit_aged(root, "skill", "add", "主人周三晚上固定去打羽毛球")
    forget_live()
    result = scan_workspace(root, today=TODAY)
    assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))
    assert result.all_queues["skills"][0]["slug"] == "meiri-ribao-tuisong"


def _promote(root: Path, text: str) -> None:
    """A promotion of line 3 of memory/2026-11-27.md (a source that is there, unlike the
    sample's), written ten minutes ago."""
    memory = root / "MEMORY.md"
    with memory.open("a", encoding="utf-8") as f:
        f.write(
            "\n## Promoted From Short-Term Memory (2026-11-29)\n\n"
            "<!-- openclaw-memory-promotion:memory:memory/2026-11-27.md:3:3 -->\n"
            f"- {text} [score=0.8 recalls=4 avg=0.7 source=memory/2026-11-27.md:3-3]\n"
        )
    os.utime(memory, (time.time() - 600, time.time() - 600))


def _rescan_spying(root: Path, module, name: str, cache: bool = True):
    """A scan as a new process makes it, with ``module.name`` counted: the result, and the
    first argument of each call."""
    calls: list = []
    real = getattr(module, name)

    def spy(arg, *rest):
        calls.append(arg)
        return real(arg, *rest)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, name, spy)
        forget_live()
        result = scan_workspace(root, today=TODAY, cache=cache)
    return result, calls


def test_a_promotion_s_source_headings_come_with_its_unchanged_source_from_the_cache(
    fresh, use_scan_cache
):
    from memreview.queues.promotions import detect

    root = fresh()
    _promote(root, "Boss直聘爬虫每天 9 点跑一次")
    scan_workspace(root, today=TODAY)
    log = root / "memory/2026-11-26.md"  # another log: the promotions are computed again
    with log.open("a", encoding="utf-8") as f:
        f.write("\n## 晚上\n- 主人周三晚上固定去打羽毛球\n")
    os.utime(log, (time.time() - 600, time.time() - 600))
    result, looked = _rescan_spying(root, detect, "_headings")
    assert looked == []  # the unchanged source's headings came with it from the cache
    cold, looked = _rescan_spying(root, detect, "_headings", cache=False)
    assert doc(result) == doc(cold)
    assert [len(lines) for lines in looked] == [
        len((root / "memory/2026-11-27.md").read_text(encoding="utf-8").split("\n"))
    ]


def test_a_promotion_s_text_flags_are_worked_out_once_and_a_malformed_one_again(
    fresh, use_scan_cache
):
    from memreview.queues.promotions import detect

    root = fresh()
    scan_workspace(root, today=TODAY)
    path = ScanCache(root).dir / "memo-promotion-flags.pickle"
    with open(path, "rb") as fh:
        head = pickle.load(fh)
        values = pickle.load(fh)["values"]
    assert len(values) == 15  # the sample's promotions, each by its text
    forged = sorted(values)[0]
    values[forged] = '[["not-a-flag", "x"]]'
    path.write_bytes(pickle.dumps(head) + pickle.dumps({"values": values}))
    _promote(root, "Layer3 #1042 已提交")
    result, judged = _rescan_spying(root, detect, "_text_flags")
    # the new promotion's text, and the one whose kept flags were malformed
    assert sorted(judged) == sorted(["Layer3 #1042 已提交", forged.split("\0", 1)[1]])
    assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))


def test_only_a_changed_file_s_project_lists_are_read_again(fresh, use_scan_cache):
    from memreview.workspace import projects

    root = fresh()
    scan_workspace(root, today=TODAY)
    _edit_aged(root, "add-entry", "memory/rules.md", "Boss直聘爬虫每天 9 点跑一次")
    result, read = _rescan_spying(root, projects, "file_projects")
    # the file changed, and the one holding a credential (never stored)
    assert sorted(mf.rel for mf in read) == ["memory/accounts.md", "memory/rules.md"]
    cold, read = _rescan_spying(root, projects, "file_projects", cache=False)
    assert doc(result) == doc(cold)
    assert result.workspace.projects == cold.workspace.projects
    assert len(read) > 2


def test_ready_rescan_reads_the_files_an_open_from_the_cache_left_unread(fresh, use_scan_cache):
    """What the app does while the owner reviews: the rescan after a write then takes every
    file it left alone from this process, read, and unpickles none."""
    from memreview.scan import ready_rescan
    from memreview.workspace import cache

    root = fresh()
    scan_workspace(root, today=TODAY)
    forget_live()  # a new process: an open from the cache
    ws = scan_workspace(root, today=TODAY).workspace
    files = [*ws.files.values(), *ws.daily_logs, *ws.archive_files.values()]
    assert sum("_lazy" in f.__dict__ for f in files) > 10
    ready_rescan(ws)
    assert [f.rel for f in files if "_lazy" in f.__dict__] == []
    unpickled: list[str] = []
    real = cache._unpacked

    def spy(stored, cls, rel):
        unpickled.append(rel)
        return real(stored, cls, rel)

    _edit_aged(root, "add-entry", "memory/rules.md", "the NAS scrub runs every Sunday at 03:00")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cache, "_unpacked", spy)
        again = scan_workspace(root, today=TODAY)
    assert [rel for rel in unpickled if rel.endswith(".md")] == []
    assert doc(again) == doc(scan_workspace(root, today=TODAY, cache=False))


def test_a_rescan_takes_the_substance_the_scan_before_unpacked(fresh, use_scan_cache):
    """An open from the cache unpacks each file's kept substance into tokens once: the
    rescans after it in the same process take those tokens as they are."""
    from memreview.queues.duplicates import prepared

    root = fresh()
    scan_workspace(root, today=TODAY)
    forget_live()  # a new process: an open from the cache
    _edit_aged(root, "add-entry", "memory/rules.md", "the NAS scrub runs every Sunday at 03:00")
    scan_workspace(root, today=TODAY)  # the duplicates queue unpacks every file's substance
    made: list[str] = []
    real = prepared.Token

    def spy(text, kind):
        made.append(text)
        return real(text, kind)

    _edit_aged(root, "add-entry", "memory/rules.md", "the NAS scrub also runs on Wednesdays")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(prepared, "Token", spy)
        again = scan_workspace(root, today=TODAY)
    # the tokens of the file changed alone
    rules = " ".join(e.text for e in again.workspace.files["memory/rules.md"].entries).lower()
    assert made
    assert [t for t in made if t not in rules] == []
    assert doc(again) == doc(scan_workspace(root, today=TODAY, cache=False))


LESSON = "memory/lessons/silent-cron.md"
SUBSTANCE = "memreview.queues.duplicates.prepared.file_substance"


def _no_paragraphs(state: dict) -> None:
    state.pop("paragraphs")


def _places_as_bools(state: dict) -> None:
    digest, (texts, kinds, bags) = state["_kept"][SUBSTANCE]
    state["_kept"][SUBSTANCE] = (digest, (texts, kinds, tuple((True,) * len(b) for b in bags)))


@pytest.mark.parametrize("damage", [_no_paragraphs, _places_as_bools])
def test_a_damaged_stored_parse_under_a_stale_key_is_not_taken(fresh, use_scan_cache, damage):
    """The parse a changed file replaces is read from the cache for what it held: a damaged
    one (a field missing, places that are not places) gives nothing, never a traceback or
    another result."""
    from memreview.workspace.cache import Packed

    root = fresh()
    scan_workspace(root, today=TODAY)
    scan_workspace(root, today=TODAY)
    damaged = 0
    for f in ScanCache(root).dir.glob("files-*.pickle"):
        with open(f, "rb") as fh:
            head, files = pickle.load(fh), pickle.load(fh)["files"]
        for slot, (keys, packed, warnings) in list(files.items()):
            if slot[1] == LESSON:
                obj = pickle.loads(packed.blob)
                damage(obj.__dict__)
                files[slot] = (keys, Packed(pickle.dumps(obj), packed.cls, packed.eager), warnings)
                f.write_bytes(pickle.dumps(head) + pickle.dumps({"files": files}))
                damaged += 1
    assert damaged == 1
    _edit_aged(root, "add-entry", LESSON, "the NAS scrub runs every Sunday at 03:00")
    forget_live()
    result = scan_workspace(root, today=TODAY)
    assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))


def test_a_same_size_rewrite_with_its_mtime_put_back_is_read_again(fresh, use_scan_cache):
    """An agent may rewrite a file in place, same size, and set its modification time back:
    the change time, which no one can set, is in the file's key (a credential it planted
    so is not hidden by the parse of before)."""
    root = fresh()
    p = root / "memory/rules.md"
    scan_workspace(root, today=TODAY)
    st = os.stat(p)
    lines = p.read_bytes().split(b"\n")
    k = next(i for i, t in enumerate(lines) if len(t) >= 48 and not t.startswith(b"#"))
    token = b"token: ghp_aZ3kQ9x7Lm2Np4Rt6Vw8Yb1Cd5Ef0Gh2Jk4"
    lines[k] = (token + b"x" * len(lines[k]))[: len(lines[k])]
    with open(p, "r+b") as f:
        f.write(b"\n".join(lines))
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(p).st_size == st.st_size and os.stat(p).st_mtime_ns == st.st_mtime_ns
    forget_live()
    cached = scan_workspace(root, today=TODAY)
    assert doc(cached) == doc(scan_workspace(root, today=TODAY, cache=False))
    assert any(it["ref"]["file"] == "memory/rules.md" for it in cached.queues["secrets"])


def test_the_parse_a_changed_file_replaces_is_unpickled_once(fresh, use_scan_cache):
    """Its forms and its substance both take what it held: one unpickling serves both."""
    from memreview.workspace import cache

    root = fresh()
    scan_workspace(root, today=TODAY)
    _edit_aged(root, "add-entry", LESSON, "the NAS scrub runs every Sunday at 03:00")
    unpickled: list[str] = []
    real = cache._unpacked

    def spy(stored, cls, rel):
        unpickled.append(rel)
        return real(stored, cls, rel)

    forget_live()  # a new process: the lesson's last parse is in the cache's files
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cache, "_unpacked", spy)
        result = scan_workspace(root, today=TODAY)
    assert unpickled.count(LESSON) == 1
    assert doc(result) == doc(scan_workspace(root, today=TODAY, cache=False))
