"""The scan computes the slow queues in a thread of their own: their detectors (numpy,
rapidfuzz) must be imported before that thread starts, never by two threads at once, which
fails half-way with "partially initialized module" (seen as an apply refused at random)."""

from __future__ import annotations

import sys
import threading
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


def test_a_slow_queues_detector_is_imported_before_its_thread_starts(monkeypatch, tmp_path):
    (tmp_path / "memreview_toy_slow_detector.py").write_text(DETECTOR)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "memreview_toy_slow_detector", raising=False)
    unit = SimpleNamespace(
        name="toy",
        title="Toy",
        slow=True,
        detect=ImportedOnUse("memreview_toy_slow_detector", "detect"),
    )
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
