"""The health view shows the judge's report card (how often the human approved it)."""

from __future__ import annotations

import json

from app_helpers import SIZE, loaded, screen_text


async def test_health_view_shows_how_often_the_judge_was_approved_by_confidence(make, ws):
    review = ws / "memory/review"
    with (review / "proposals.jsonl").open("a") as fh:
        for pid, conf in (("p-0002", 0.95), ("p-0003", 0.55)):
            row = {
                "id": pid,
                "relation": "supersedes",
                "new": "win11-utf8",
                "old": "win11-gbk",
                "confidence": conf,
            }
            fh.write(json.dumps(row) + "\n")
    verdicts = [
        ("p-0001", "approved"),
        ("p-0002", "rejected"),
        ("p-0003", "approved"),
    ]
    (review / "verdicts.jsonl").write_text(
        "".join(
            json.dumps(
                {
                    "ts": "2026-11-21T10:00:00Z",
                    "proposal": p,
                    "relation": "supersedes",
                    "verdict": v,
                    "by": "human",
                }
            )
            + "\n"
            for p, v in verdicts
        )
    )
    app = make(backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("h")
        await loaded(app, pilot)
        text = screen_text(app)
    assert "The judge's report card" in text
    assert "confidence 0.9–1.0 approved 1 of 2  (50%)" in text
    assert "confidence 0.5–0.7 approved 1 of 1  (100%)" in text
