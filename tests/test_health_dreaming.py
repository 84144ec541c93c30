"""The health view's last dreaming run, wherever a run left its trace (issue shape 8)."""

from __future__ import annotations

from datetime import date

import pytest

from memreview.health import health

TODAY = date(2026, 11, 29)


@pytest.mark.parametrize(
    "files, last",
    [
        ({"memory/dreaming/deep/2026-11-25.md": "- promoted 2\n"}, "2026-11-25"),
        (
            {"memory/dreaming/light/2026-11-20.md": "x\n", "dream-diary/2026-11-26.md": "x\n"},
            "2026-11-26",
        ),
        ({"memory/dream-diary/2026-11-24-night.md": "x\n"}, "2026-11-24"),
        (
            {
                "MEMORY.md": "# M\n## Promoted From Short-Term Memory (2026-11-27)\n"
                "<!-- openclaw-memory-promotion:memory:memory/2026-11-26.md:1:1 -->\n- x\n"
            },
            "2026-11-27",
        ),
    ],
)
def test_dreaming_runs_are_found_in_diary_phase_folders_and_promotion_sections(
    make_ws, files, last
):
    out = health(make_ws(files), TODAY)["dreaming"]
    assert out == {"last_run": last, "days_since": (TODAY - date.fromisoformat(last)).days}


def test_no_trace_of_a_run_is_no_run_and_a_future_date_does_not_count(make_ws):
    ws = make_ws(
        {
            "memory/dreaming/deep/2026-12-05.md": "x\n",
            "memory/dreaming/deep/notes.md": "x\n",
            "dream-diary/README.md": "x\n",
            "MEMORY.md": "# M\n## Promoted (soon)\n- x\n",
        }
    )
    assert health(ws, TODAY)["dreaming"] == {"last_run": None, "days_since": None}
