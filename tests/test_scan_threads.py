"""The scan computes the slow queues in a thread of their own: their detectors (numpy,
rapidfuzz) must be imported before that thread starts, never by two threads at once, which
fails half-way with "partially initialized module" (seen as an apply refused at random)."""

from __future__ import annotations

import sys
import threading
import time
from datetime import date
from types import SimpleNamespace

from memreview.decisions.unit import ImportedOnUse
from memreview.scan import computing

DETECTOR = """
import threading
IMPORTED_IN = threading.current_thread().name

def detect(ws, today):
    return [{"computed_in": threading.current_thread().name}]
"""


def _toy_unit(monkeypatch, tmp_path, module: str, name: str, slow: bool) -> SimpleNamespace:
    """A queue whose detector is the toy DETECTOR, written as ``module`` and imported on use."""
    (tmp_path / f"{module}.py").write_text(DETECTOR)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, module, raising=False)
    return SimpleNamespace(
        name=name, title=name.title(), slow=slow, detect=ImportedOnUse(module, "detect")
    )


def test_a_slow_queues_detector_is_imported_before_its_thread_starts(monkeypatch, tmp_path):
    unit = _toy_unit(monkeypatch, tmp_path, "memreview_toy_slow_detector", "toy", slow=True)
    monkeypatch.setattr(computing.registry, "units", lambda: [unit])

    found = dict(computing._detect_all(object(), date(2026, 11, 29), ["toy"], lambda *a: None))

    module = sys.modules["memreview_toy_slow_detector"]
    assert module.IMPORTED_IN == threading.current_thread().name
    assert found["toy"][0]["computed_in"].startswith("memreview-queue")
    monkeypatch.delitem(sys.modules, "memreview_toy_slow_detector")


def test_imported_on_use_imports_once_and_names_itself_like_the_function(monkeypatch, tmp_path):
    (tmp_path / "memreview_toy_detector_two.py").write_text(DETECTOR)
    monkeypatch.syspath_prepend(str(tmp_path))
    lazy = ImportedOnUse("memreview_toy_detector_two", "detect")
    assert "memreview_toy_detector_two" not in sys.modules
    assert lazy.resolve() is lazy.resolve()
    assert lazy(None, None) == [{"computed_in": threading.current_thread().name}]
    assert (lazy.__module__, lazy.__qualname__) == ("memreview_toy_detector_two", "detect")
    monkeypatch.delitem(sys.modules, "memreview_toy_detector_two")


def _toy_units(monkeypatch, tmp_path, first_detect) -> SimpleNamespace:
    """The registry as a first queue computed in process (``first_detect``) and a queue whose
    detector is imported on use (returned)."""
    later = _toy_unit(monkeypatch, tmp_path, "memreview_toy_ready_detector", "later", slow=False)
    first = SimpleNamespace(name="first", title="First", slow=False, detect=first_detect)
    monkeypatch.setattr(computing.registry, "units", lambda: [first, later])
    return later


def test_ready_detectors_imports_every_detector_a_scan_from_the_cache_did_not(
    monkeypatch, tmp_path
):
    later = _toy_units(monkeypatch, tmp_path, lambda ws, today: [])
    computing.ready_detectors()
    assert later.detect._function is not None
    assert "memreview_toy_ready_detector" in sys.modules
    assert "numpy" in sys.modules
    monkeypatch.delitem(sys.modules, "memreview_toy_ready_detector")


def test_ready_detectors_waits_while_a_scan_computes_its_first_queue(monkeypatch, tmp_path):
    """The first queue's detector may import numpy as it runs (contradictions does): the
    imports made ahead, in the app's thread, never run beside it."""
    started, release = threading.Event(), threading.Event()

    def first_detect(ws, today):
        started.set()
        release.wait(30)
        return [{"first": True}]

    later = _toy_units(monkeypatch, tmp_path, first_detect)
    found: dict = {}
    scan = threading.Thread(
        target=lambda: found.update(
            computing._detect_all(object(), date(2026, 11, 29), ["first"], lambda *a: None)
        )
    )
    scan.start()
    try:
        assert started.wait(30)
        ahead = threading.Thread(target=computing.ready_detectors)
        ahead.start()
        ahead.join(0.3)
        assert ahead.is_alive()  # held back by the first queue
        assert later.detect._function is None
    finally:
        release.set()
    ahead.join(30)
    scan.join(30)
    assert not ahead.is_alive() and not scan.is_alive()
    assert later.detect._function is not None
    assert found == {"first": [{"first": True}]}
    monkeypatch.delitem(sys.modules, "memreview_toy_ready_detector")


WAITS_FOR_THE_LOCK = """
import json, sys, threading
from memreview.decisions.unit import IMPORTING
from memreview.decisions.units.duplicates import shared_and_differs

before = "rapidfuzz" in sys.modules
item = {"kind": "near", "refs": [{"text": "- one two three"}, {"text": "- one two four"}]}
found = []
IMPORTING.acquire()  # as ready_detectors holds it while it imports rapidfuzz
t = threading.Thread(target=lambda: found.append(shared_and_differs(item)))
t.start()
t.join(0.5)
waited = t.is_alive() and not found
IMPORTING.release()
t.join(30)
print(json.dumps({"before": before, "waited": waited, "differs": found[0][1] if found else None}))
"""


def test_the_evidence_of_a_near_pair_imports_rapidfuzz_under_the_detectors_lock():
    """Shown on the screen's thread while the app imports the detectors in another: the
    two imports of rapidfuzz at once could fail half-way ("partially initialized")."""
    import json
    import os
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-c", WAITS_FOR_THE_LOCK],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=60,
        check=True,
    )
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["before"] is False  # rapidfuzz not imported with the unit
    assert seen["waited"] is True
    assert seen["differs"] == [["three", "four"]]


def _recording_units(monkeypatch, log: list[str], slow_done: threading.Event | None = None):
    """Three plain queues and a slow one, each noting when it is computed; with
    ``slow_done``, the slow one sets it and the queue "one" waits for it."""

    def unit(name: str, slow: bool = False) -> SimpleNamespace:
        def detect(ws, today):
            if slow_done is not None and name == "one":
                slow_done.wait(30)
                time.sleep(0.2)  # the slow one's thread marks it done
            log.append(name)
            if slow and slow_done is not None:
                slow_done.set()
            return [{"name": name}]

        return SimpleNamespace(name=name, title=name.title(), slow=slow, detect=detect)

    units = [unit("one"), unit("two"), unit("slow", slow=True), unit("three")]
    monkeypatch.setattr(computing.registry, "units", lambda: units)


def test_the_queues_are_computed_in_the_order_asked(monkeypatch):
    log: list[str] = []
    _recording_units(monkeypatch, log)
    names = ["three", "one", "two", "slow"]
    got = [n for n, _i in computing._detect_all(object(), date(2026, 11, 29), names, print)]
    assert [n for n in log if n != "slow"] == ["three", "one", "two"]
    assert [n for n in got if n != "slow"] == ["three", "one", "two"]
    assert sorted(got) == sorted(names)


def test_a_slow_queue_asked_first_starts_before_the_others_and_comes_as_soon_as_it_is_in(
    monkeypatch,
):
    log: list[str] = []
    _recording_units(monkeypatch, log, threading.Event())  # "one" waits for the slow one
    names = ["slow", "one", "two"]
    got = [n for n, _i in computing._detect_all(object(), date(2026, 11, 29), names, print)]
    assert log[:2] == ["slow", "one"]
    assert got.index("slow") < got.index("two")  # given as soon as it was in, not last


def test_a_scan_computes_the_queue_asked_first_before_the_others(tmp_path):
    """The app asks for the queue the owner looks at first (the rescan after a write)."""
    import shutil
    from pathlib import Path

    from memreview.scan import QueueDone, scan_workspace

    root = Path(shutil.copytree(Path(__file__).parents[1] / "sample_workspace", tmp_path / "s"))
    done: list[str] = []

    def emit(event) -> None:
        if isinstance(event, QueueDone):
            done.append(event.name)

    first = scan_workspace(root, cache=False, emit=emit, first="promotions")
    assert done[0] == "promotions"
    assert len(done) == len(first.all_queues)
    done.clear()
    default = scan_workspace(root, cache=False, emit=emit)
    assert done[0] == "contradictions"
    assert first.to_json() == default.to_json()


def test_the_alarms_come_after_the_first_queue_and_are_the_health_figures(tmp_path):
    """A screen is told the alarms once the first queue is out, before the other queues,
    and they are the very alarms of the health figures at the end."""
    import shutil
    from pathlib import Path

    from memreview.scan import AlarmsDone, HealthDone, QueueDone, scan_workspace

    root = Path(shutil.copytree(Path(__file__).parents[1] / "sample_workspace", tmp_path / "s"))
    events: list = []
    result = scan_workspace(root, cache=False, emit=events.append)
    kinds = [type(e).__name__ for e in events if isinstance(e, QueueDone | AlarmsDone)]
    assert kinds[:2] == ["QueueDone", "AlarmsDone"]
    assert kinds.count("AlarmsDone") == 1
    alarms = next(e.alarms for e in events if isinstance(e, AlarmsDone))
    assert alarms  # the sample fires some
    assert (
        alarms
        == result.health["alarms"]
        == next(e.health["alarms"] for e in events if isinstance(e, HealthDone))
    )


def test_the_alarms_the_last_scan_showed_come_with_the_counts_known(tmp_path, monkeypatch):
    """With a scan cache, the next scan tells the alarms the last one showed before it reads
    anything (a screen shows the banner at once); the workspace's own come with the health
    figures (not after the first queue: reading every daily log then would delay the
    counts)."""
    import shutil
    from pathlib import Path

    from memreview.scan import AlarmsDone, Counts, HealthDone, Loaded, scan_workspace

    monkeypatch.setenv("MEMREVIEW_CACHE_DIR", str(tmp_path / "cache"))
    root = Path(shutil.copytree(Path(__file__).parents[1] / "sample_workspace", tmp_path / "s"))
    first = scan_workspace(root, cache=True)
    with open(root / "MEMORY.md", "a", encoding="utf-8") as f:
        f.write("- one more line the agent wrote\n")
    events: list = []
    scan_workspace(root, cache=True, emit=events.append)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("AlarmsDone") < kinds.index("Loaded")
    assert isinstance(events[0], Counts)
    told = [e.alarms for e in events if isinstance(e, AlarmsDone)]
    assert told == [first.health["alarms"]]  # the last scan's, before reading, only
    assert any(isinstance(e, Loaded) for e in events)
    health = next(e.health for e in events if isinstance(e, HealthDone))
    assert health["alarms"] == first.health["alarms"]  # the workspace's own, at the end


def test_damaged_alarms_in_the_cache_are_not_told():
    from memreview.scan import run
    from memreview.scan.events import AlarmsDone

    told: list = []
    for shown in ({}, {"health": None}, {"health": {"alarms": "x"}}, {"health": {"alarms": [1]}}):
        run._emit_shown_alarms(shown, told.append)
    assert told == []
    run._emit_shown_alarms({"health": {"alarms": [{"title": "t"}]}}, told.append)
    assert told == []  # no id, evidence nor todo: not an alarm
    alarm = {"id": "a", "title": "t", "evidence": [], "todo": "do"}
    run._emit_shown_alarms({"health": {"alarms": [alarm]}}, told.append)
    assert told == [AlarmsDone([alarm])]


def test_alarms_the_cache_holds_damaged_are_worked_out_again(tmp_path, monkeypatch):
    """A scan cache whose kept health figures hold alarms that are not alarms (damaged, or
    written by someone else) neither tells them nor gives them as the health figures: the
    scan works them out again, as if it had none."""
    import shutil
    from pathlib import Path

    from memreview.scan import AlarmsDone, scan_workspace
    from memreview.workspace.cache import ScanCache

    monkeypatch.setenv("MEMREVIEW_CACHE_DIR", str(tmp_path / "cache"))
    root = Path(shutil.copytree(Path(__file__).parents[1] / "sample_workspace", tmp_path / "s"))
    first = scan_workspace(root, cache=True)
    assert first.health["alarms"]
    for forged in ([1, "str", None], "abc", [{"id": "x", "title": 3}]):
        sc = ScanCache(root)
        shown = sc.shown()
        health = {**shown["health"], "alarms": forged}
        sc.save_shown(shown["key"], shown["outside"], shown["counts"], health)  # key kept
        events: list = []
        again = scan_workspace(root, cache=True, emit=events.append)
        assert [e for e in events if isinstance(e, AlarmsDone)] == []
        assert again.health["alarms"] == first.health["alarms"]


def test_well_made_alarms_are_lists_of_what_an_alarm_gives():
    from memreview.scan.events import well_made

    good = {"id": "a", "title": "t", "evidence": ["e"], "todo": "do"}
    assert well_made([]) and well_made([good])
    for bad in (None, "x", [1], [{**good, "evidence": "e"}], [{**good, "id": None}], (good,)):
        assert not well_made(bad)


ITEM_WHILE_QUEUES_COME_IN = """
import json, sys
from datetime import date
from pathlib import Path
from churning import while_churning
from memreview.scan import scan_workspace
full = scan_workspace(Path(sys.argv[1]), today=date(2026, 12, 1), cache=False)
shown = full.copy()
late = [n for n in full.all_queues if full.all_queues[n]][-2:]
target = full.all_queues[late[0]][-1]["id"]
def churn():  # each queue coming in, as the app's thread adds it
    for name in late:
        for table in ("queues", "hidden", "all_queues", "past_limit"):
            getattr(shown, table).pop(name, None)
    for name in late:
        shown.add_queue(name, full.all_queues[name])
print(json.dumps(while_churning(churn, lambda: shown.item(target), 20000)[:1]))
"""


def test_an_item_is_found_while_the_app_adds_the_queues_coming_in(tmp_path):
    """The evidence preview finds its item (``ScanResult.item``) in a worker thread while
    the app's thread adds each queue as the scan computes it: "dictionary changed size
    during iteration" showed as a failed preview, kept until the next reload."""
    import json
    import os
    import shutil
    import subprocess
    from pathlib import Path

    from memreview.shipped import shipped_dir

    root = Path(__file__).resolve().parents[1]
    ws = tmp_path / "ws"
    shutil.copytree(shipped_dir("sample_workspace"), ws)
    proc = subprocess.run(
        [sys.executable, "-c", ITEM_WHILE_QUEUES_COME_IN, str(ws)],
        capture_output=True,
        text=True,
        cwd=root,
        env={
            **os.environ,
            "PYTHONPATH": f"{root}{os.pathsep}{root / 'tests'}",
            "MEMREVIEW_NO_CACHE": "1",
        },
        timeout=120,
        check=True,
    )
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []


def test_a_detectors_view_notes_each_part_once_and_keeps_it(make_ws):
    """A detector asks for the same parts once per item (``ws.files`` for each of thousands
    of promotions): the view notes a part the first time, then hands it out as a plain
    attribute; the groups of files the queue read are the same."""
    from memreview.scan.computing import _Reading

    ws = make_ws({"MEMORY.md": "# M\n\n- one fact\n", "memory/2026-11-01.md": "- a log\n"})
    view = _Reading(ws)
    asked = []
    real = view.asked
    object.__setattr__(view, "asked", lambda name: asked.append(name) or real(name))
    for _ in range(1000):
        assert view.files is ws.files
        assert view.daily_logs is ws.daily_logs
    assert view.main_memory() == "MEMORY.md"
    assert asked.count("files") == 1 and asked.count("daily_logs") == 1
    assert view.groups() == ["daily", "md"]


class _Child:
    """A second process's side as the scan sees it: its one queue sent at ``sent``."""

    def __init__(self, sent: threading.Event):
        self.names = ["childs"]
        self._sent = sent
        self._given = False

    def ready(self, wait: float = 0.0):
        if not self._given and self._sent.wait(wait):
            self._given = True
            yield "childs", [{"from": "the child"}]

    def sending(self) -> bool:
        return not self._given

    def rest(self, detect):
        yield from self.ready(wait=30)

    def close(self) -> None:
        pass


def test_while_a_slow_queue_is_waited_for_the_second_process_s_come_as_they_are_sent(
    monkeypatch,
):
    """The app's child sent its queues while the archived queue's thread was still at work:
    they were taken only after it (0.1-0.8 s after they came, at scale 1)."""
    given: list[str] = []
    sent, slow_done = threading.Event(), threading.Event()

    def slow_detect(ws, today):
        slow_done.wait(3)  # it ends only once the child's queue has come (or 3 s)
        return [{"name": "slow"}]

    units = [
        SimpleNamespace(name="mine", title="Mine", slow=False, detect=lambda ws, t: []),
        SimpleNamespace(name="slow", title="Slow", slow=True, detect=slow_detect),
        SimpleNamespace(name="childs", title="Childs", slow=False, detect=lambda ws, t: []),
    ]
    monkeypatch.setattr(computing.registry, "units", lambda: units)
    monkeypatch.setattr(computing, "_second_process", lambda *a: _Child(sent))
    names = ["mine", "slow", "childs"]
    for name, _items in computing._detect_all(object(), date(2026, 11, 29), names, print):
        given.append(name)
        if name == "mine":  # the child sends once the scan's own queues are done
            threading.Timer(0.3, sent.set).start()
        if name == "childs":
            slow_done.set()
    assert given == ["mine", "childs", "slow"]
