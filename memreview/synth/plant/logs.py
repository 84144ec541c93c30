"""Which daily logs exist: one of the last seven days is missing, yesterday's log is empty."""

from __future__ import annotations

from memreview.synth.dates import days_ago
from memreview.synth.model import TOP_LOG_LINES, TOP_LOGS, Builder


def plan_logs(b: Builder) -> None:
    """Choose the log dates, the empty log and the lines per log (written by write.logs)."""
    n_logs = min(TOP_LOGS, max(12, round(TOP_LOGS * b.scale)))
    recent = [days_ago(d) for d in range(0, 7) if d != 3]  # one day of the last 7 missing
    older_span = list(range(7, 7 + TOP_LOGS))
    want = n_logs - len(recent)
    if want >= len(older_span):
        older = older_span
    else:
        step = len(older_span) / want
        older = [older_span[int(i * step)] for i in range(want)]
    b.log_dates = sorted(recent + [days_ago(d) for d in older])
    b.empty_log = days_ago(1)
    b.log_lines = max(30, round(TOP_LOGS * TOP_LOG_LINES * b.scale / (n_logs - 1)))
