"""The alarms' thresholds in memreview.yaml (``alarms:``): read, checked by type and range like
every other setting, a bad value named with its line and the default kept."""

from __future__ import annotations

import pytest

from memreview.workspace.config import Config, load_config

GOOD = b"""alarms:
  silent_nights: 4
  zero_promotion_nights: 5
  promotion_budget: 8000
  budget_warning_pct: 25
  bootstrap_chars: 15000
  store_cap: 256
  runaway_size: 8
  lock_stale_seconds: 300
  gates:
    score: 0.6
    recalls: 2
    queries: 1
"""


def test_the_alarms_section_sets_every_threshold():
    cfg, problems = load_config(GOOD)
    assert problems == []
    assert (cfg.alarms_silent_nights, cfg.alarms_zero_promotion_nights) == (4, 5)
    assert (cfg.alarms_promotion_budget, cfg.alarms_budget_warning_pct) == (8000, 25.0)
    assert (cfg.alarms_bootstrap_chars, cfg.alarms_store_cap) == (15000, 256)
    assert (cfg.alarms_runaway_size, cfg.alarms_lock_stale_seconds) == (8.0, 300)
    assert (cfg.alarms_gate_score, cfg.alarms_gate_recalls, cfg.alarms_gate_queries) == (0.6, 2, 1)


@pytest.mark.parametrize(
    ("yaml", "name", "line", "reason"),
    [
        ("alarms:\n  silent_nights: 0\n", "alarms.silent_nights", 2, "out of range"),
        ("alarms:\n  promotion_budget: lots\n", "alarms.promotion_budget", 2, "not a whole number"),
        ("alarms:\n  budget_warning_pct: 150\n", "alarms.budget_warning_pct", 2, "out of range"),
        ("alarms:\n  gates:\n    score: 1.5\n", "alarms.gates.score", 3, "out of range"),
        ("alarms:\n  gates:\n    recalls: 2.5\n", "alarms.gates.recalls", 3, "not a whole number"),
        ("alarms:\n  store_cap: .nan\n", "alarms.store_cap", 2, "not a whole number"),
    ],
)
def test_a_bad_threshold_is_named_with_its_line_and_the_default_kept(yaml, name, line, reason):
    cfg, problems = load_config(yaml.encode())
    [(at, message)] = problems
    assert at == line and message.startswith(f"{name}: ") and reason in message
    assert cfg == Config()


def test_an_unknown_alarm_setting_is_named():
    _cfg, problems = load_config(b"alarms:\n  silence: 3\n")
    assert problems == [(2, "unknown setting 'alarms.silence' ignored")]
