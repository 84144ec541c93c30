"""Scans collect garbage less often, in any thread, and the thresholds come back after."""

from __future__ import annotations

import gc
import threading

from memreview.scan.collector import SCAN_THRESHOLD, fewer_collections


def test_the_thresholds_are_raised_while_any_scan_runs_and_put_back_after_the_last():
    before = gc.get_threshold()
    inside, release = threading.Event(), threading.Event()
    seen = []

    def other_scan():
        with fewer_collections():
            inside.set()
            release.wait(10)

    t = threading.Thread(target=other_scan)
    with fewer_collections():
        t.start()
        inside.wait(10)
        seen.append(gc.get_threshold())
    seen.append(gc.get_threshold())  # the other scan still runs
    release.set()
    t.join(10)
    assert seen == [SCAN_THRESHOLD, SCAN_THRESHOLD]
    assert gc.get_threshold() == before


def test_the_thresholds_come_back_after_a_scan_that_fails():
    before = gc.get_threshold()
    try:
        with fewer_collections():
            raise OSError("the disk went away")
    except OSError:
        pass
    assert gc.get_threshold() == before


def test_every_scan_collects_less_often_whoever_calls_it(monkeypatch, tmp_path):
    """The rescan after a write, ``apply``, the report and a fleet call the scan directly:
    the thresholds are raised for them too, not only for ``scan`` and the app's first load."""
    from memreview.scan import scan_workspace
    from memreview.workspace import loader

    (tmp_path / "MEMORY.md").write_text("# Memory\n\n- the NAS backs up at 02:00\n")
    seen = []
    load = loader.load_workspace

    def watched(*args, **kw):
        seen.append(gc.get_threshold())
        return load(*args, **kw)

    monkeypatch.setattr(loader, "load_workspace", watched)
    before = gc.get_threshold()
    scan_workspace(tmp_path, cache=False)
    assert seen == [SCAN_THRESHOLD]
    assert gc.get_threshold() == before


def test_no_collection_runs_by_itself_while_a_scan_runs(tmp_path):
    """A scan making a few hundred thousand objects (5,000 entries): no collection runs
    while the scan's thresholds hold."""
    from memreview.scan import scan_workspace

    lines = [f"- note {k}: the backup of volume {k} runs at {k % 24:02d}:00" for k in range(5000)]
    (tmp_path / "MEMORY.md").write_text("# Memory\n\n" + "\n".join(lines) + "\n")
    during: list[int] = []  # the generations collected while the scan's thresholds held

    def seen(phase: str, info: dict) -> None:
        if phase == "start" and gc.get_threshold() == SCAN_THRESHOLD:
            during.append(info["generation"])

    gc.collect()
    gc.callbacks.append(seen)
    try:
        scan_workspace(tmp_path, cache=False)
    finally:
        gc.callbacks.remove(seen)
    assert during == []
