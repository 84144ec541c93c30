"""What a command or the app's first frame imports: the libraries it may not need are imported
when first needed, never up front (each case in a fresh interpreter)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from shared_helpers import fresh_interpreter

from memreview.decisions import registry
from memreview.decisions.queue_list import SHIPPED_NAMES

ROOT = Path(__file__).resolve().parents[1]
HEAVY = (
    "textual",
    "rich",
    "numpy",
    "rapidfuzz",
    "pypinyin",
    "detect_secrets",
    "ruamel",
    "babel",
    "memreview.decisions.registry",
    "memreview.store",
    "memreview.workspace.loader",
)


imported = fresh_interpreter  # (code, env): the JSON object it prints last


COMMAND = """
    import contextlib, io, json, sys
    from memreview.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main({argv!r})
        except SystemExit:
            pass
    print(json.dumps([m for m in {heavy!r} if m in sys.modules]))
"""


def test_help_and_version_import_nothing_heavy(tmp_path):
    env = {"MEMREVIEW_CONFIG": str(tmp_path / "config.yaml")}
    for argv in (["--help"], ["--version"], ["scan", "--help"], ["demo", "--help"]):
        assert imported(COMMAND.format(argv=argv, heavy=HEAVY), env) == [], argv


def test_an_english_scan_imports_neither_pinyin_nor_the_secret_patterns(tmp_path):
    """pypinyin is for a Chinese skill's folder name, detect-secrets' patterns for a line
    that may hold a credential: a workspace with neither never imports them."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text(
        "# Memory\n\n## [KNOWLEDGE:deploy-window]\nAdded: 2026-11-01\n"
        "Summary: deploys happen on Tuesdays after the standup\n---\n",
        encoding="utf-8",
    )
    env = {"MEMREVIEW_CONFIG": str(tmp_path / "config.yaml"), "MEMREVIEW_NO_CACHE": "1"}
    argv = ["scan", "--json", str(ws)]
    heavy = ("pypinyin", "detect_secrets", "textual", "rich")
    assert imported(COMMAND.format(argv=argv, heavy=heavy), env) == []


def test_a_scan_imports_none_of_the_store_s_writing(tmp_path):
    """A scan reads memreview's own files (the journal among them) and writes nothing in the
    workspace: the writer, undo, the history, pruning and git are imported when a write or
    an undo first needs them."""
    env = {"MEMREVIEW_CONFIG": str(tmp_path / "config.yaml"), "MEMREVIEW_NO_CACHE": "1"}
    argv = ["scan", "--json", str(ROOT / "sample_workspace")]
    writing = (
        "memreview.store.safewrite",
        "memreview.store.undo",
        "memreview.store.git",
        "memreview.store.history",
        "memreview.store.prune",
        "memreview.store.recover",
    )
    assert imported(COMMAND.format(argv=argv, heavy=writing), env) == []


def _one_skill(tmp_path, theme: str, content: str):
    """A workspace whose one skill candidate has ``theme``."""
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    candidates = {"candidates": [{"theme": theme, "content": content}]}
    (ws / "memory/skill_candidates.json").write_text(
        json.dumps(candidates, ensure_ascii=False), encoding="utf-8"
    )
    return ws


def test_pinyin_is_let_go_once_a_scan_has_made_its_slugs(tmp_path):
    """pypinyin's dictionaries (about 50 MB) are dropped once a scan has spelled a Chinese
    theme; a rescan in the same process spells it from what it made (no pypinyin, even
    without the scan cache), a new theme loads pypinyin again, and a caller that had
    imported pypinyin itself keeps it. The slugs are the same each time."""
    ws = _one_skill(tmp_path, "每日日报推送", "每天 07:00 前推日报")
    code = """
        import json, sys
        from pathlib import Path
        import memreview.queues.skills as queue
        from memreview.scan import scan_workspace
        spelled, seen = [], []
        real = queue.skill_slug
        queue.skill_slug = lambda theme: spelled.append(theme) or real(theme)
        for forget in (False, False, True, False):
            if forget:
                queue._SLUGS.clear()  # as if this process had not spelled it
            if len(seen) == 6:
                import pypinyin
            result = scan_workspace(Path({root!r}), cache=False)
            seen.append([it["slug"] for it in result.queues["skills"]])
            seen.append(("pypinyin" in sys.modules, len(spelled)))
        print(json.dumps(seen))
    """
    got = imported(code.format(root=str(ws)))
    slug = ["meiri-ribao-tuisong"]
    assert got == [slug, [False, 1], slug, [False, 1], slug, [False, 2], slug, [True, 2]]


def test_pinyin_s_memory_is_freed_with_no_collection_walking_the_scan(tmp_path):
    """Letting pypinyin go frees its dictionaries by emptying its modules: no collection
    runs during the scan (one would walk every object the scan made), and the memory the
    dictionaries took is given back all the same."""
    ws = _one_skill(tmp_path, "定时任务巡检", "每周一 09:00 巡检")
    code = """
        import gc, json, sys, tracemalloc
        from pathlib import Path
        from memreview.scan import scan_workspace
        collections = []
        def seen(phase, info):  # while the scan's thresholds hold (no automatic collection)
            if phase == "start" and gc.get_threshold()[0] == 0:
                collections.append(info)
        gc.callbacks.append(seen)
        tracemalloc.start()
        result = scan_workspace(Path({root!r}), cache=False)
        now, peak = tracemalloc.get_traced_memory()
        slugs = [it["slug"] for it in result.queues["skills"]]
        print(json.dumps([collections, now, peak, "pypinyin" in sys.modules, slugs]))
    """
    collections, now, peak, loaded, slugs = imported(code.format(root=str(ws)))
    assert slugs == ["dingshi-renwu-xunjian"]
    assert collections == []
    assert not loaded
    assert peak - now > 20 * 2**20, (now, peak)  # pypinyin's dictionaries: gone


def test_a_settings_file_without_lang_is_not_parsed_to_choose_the_language(tmp_path):
    """Choosing the language reads ``memreview.yaml`` with the YAML reader only when the
    file may say ``lang:`` (the word, or a backslash a quoted key could spell it with)."""
    cases = {
        "none": "archive_dir: memory/archive\n",
        "plain": "archive_dir: memory/archive\nlang: zh\n",
        "escaped": '"\\x6cang": zh\n',
    }
    for name, text in cases.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
        (tmp_path / name / "memreview.yaml").write_text(text, encoding="utf-8")
    code = """
        import json, sys
        from pathlib import Path
        from memreview.cli.language import workspace_lang
        found = workspace_lang([Path({path!r})])
        print(json.dumps([found, "ruamel" in sys.modules]))
    """
    seen = {name: imported(code.format(path=str(tmp_path / name))) for name in cases}
    assert seen == {"none": [None, False], "plain": ["zh", True], "escaped": ["zh", True]}


FIRST_FRAME = """
    import asyncio, json, sys
    from pathlib import Path
    from memreview.app import make_app
    from memreview.app.screens.start import StartScreen

    seen = {{}}
    mounted = StartScreen.on_mount

    def on_mount(self):
        mounted(self)

        def drawn():
            seen["modules"] = [m for m in {heavy!r} if m in sys.modules]
            seen["screen"] = type(self.app.screen).__name__

        self.call_after_refresh(drawn)

    StartScreen.on_mount = on_mount

    async def main():
        app = make_app(Path({ws!r}), config_path=Path({config!r}))
        async with app.run_test(size=(120, 36)) as pilot:
            for _ in range(3000):
                screen = app.screen
                if getattr(screen, "result", None) is not None and not screen.result.pending:
                    break
                await pilot.pause(0.01)
            seen["then"] = type(app.screen).__name__
            later = ("memreview.app.screens.apply", "memreview.app.screens.merge")
            seen["later"] = [m for m in later if m in sys.modules]  # on the first w or m
            seen["counts"] = sum(app.screen.result.counts.values())

    asyncio.run(main())
    print(json.dumps(seen))
"""


def test_the_first_frame_comes_before_the_review_screen_and_the_scan_are_imported(tmp_path):
    ws = ROOT / "sample_workspace"
    code = FIRST_FRAME.format(heavy=HEAVY[2:], ws=str(ws), config=str(tmp_path / "c.yaml"))
    seen = imported(code, {"MEMREVIEW_CACHE_DIR": str(tmp_path / "cache")})
    assert seen["screen"] == "StartScreen"
    assert seen["modules"] == []  # the first frame waited for none of them
    assert seen["then"] == "ReviewScreen" and seen["counts"] > 0  # then the review itself
    assert seen["later"] == []  # writing and merging: imported when first asked for


def test_the_queue_list_of_the_first_frame_is_the_shipped_table():
    assert tuple((u.name, u.title) for u in registry.SHIPPED) == SHIPPED_NAMES


def test_letting_pinyin_go_while_another_thread_imports(tmp_path):
    """A thread importing while a scan lets pypinyin go (the app's main thread opening a
    screen, the archived queue's thread) changes sys.modules: letting go must not end in
    "dictionary changed size during iteration", which took the skills queue down with it.
    Threads switch as often as they can here, so that the two meet."""
    code = """
        import json, sys, types
        from churning import while_churning
        from memreview.queues import skills
        step = [0]
        def churn():  # modules come and go, as imports do
            name = f"_churn_{step[0] % 50}"
            if step[0] % 100 < 50:
                sys.modules[name] = types.ModuleType(name)
            else:
                sys.modules.pop(name, None)
            step[0] += 1
        print(json.dumps(while_churning(churn, skills._unload_pinyin, 2000)[:1]))
    """
    assert imported(code, env={"PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}"}) == []
