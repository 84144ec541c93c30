"""Decisions on the same anchors are checked against each other when staged (issue 16)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from app_helpers import SIZE, loaded, review, screen_text

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"
WIN11 = "c-b11f2638588a"  # win11-python-default-codepage-gbk ⟷ win11-utf8-default
WIN11_SUPERSEDE = "s-ad900f249d91"  # win11-utf8-default supersedes win11-python-…


@pytest.fixture
def sample(tmp_path) -> Path:
    return Path(shutil.copytree(SAMPLE, tmp_path / "sample"))


async def _to(app, pilot, queue_key: str, item_id: str) -> None:
    await pilot.press(queue_key)
    screen = review(app)
    for _ in range(10):
        if screen.items.current["id"] == item_id:
            return
        await pilot.press("down")
    raise AssertionError(f"{item_id} not found")


def _not_staged(app) -> list[str]:
    return [n.message for n in app._notifications if n.title == "Not staged"]


async def test_a_supersede_that_contradicts_a_staged_keep_a_is_refused_naming_it(make, sample):
    app = make(root=sample, backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await _to(app, pilot, "1", WIN11)
        await pilot.press("a")  # keep-a: win11-utf8-default is superseded
        await _to(app, pilot, "2", WIN11_SUPERSEDE)
        assert f"also in Contradictions: {WIN11}" in screen_text(app)
        assert "staged: keep-a" in screen_text(app)
        await pilot.press("a")  # approve: win11-utf8-default supersedes the other
        await pilot.pause()
        [why] = _not_staged(app)
        assert f"conflicts with {WIN11} (Contradictions: keep-a)" in why
        assert "anchor win11-utf8-default would be moved to memory/archive/superseded.md" in why
        staged = review(app).staging.decisions()
        assert [(d.item, d.action) for d in staged] == [(WIN11, "keep-a")]
    assert WIN11_SUPERSEDE not in (sample / ".memreview/pending.yaml").read_text()


async def test_the_same_supersession_decided_in_both_queues_is_staged(make, sample):
    app = make(root=sample, backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await _to(app, pilot, "1", WIN11)
        await pilot.press("b")  # keep-b: the same as approving the supersede
        await _to(app, pilot, "2", WIN11_SUPERSEDE)
        await pilot.press("a")
        await pilot.pause()
        assert _not_staged(app) == []
        staged = review(app).staging.decisions()
        assert [(d.item, d.action) for d in staged] == [
            (WIN11, "keep-b"),
            (WIN11_SUPERSEDE, "approve"),
        ]


async def test_unstaging_the_first_lets_the_other_be_staged(make, sample):
    app = make(root=sample, backend=None)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await _to(app, pilot, "1", WIN11)
        await pilot.press("a")
        await _to(app, pilot, "2", WIN11_SUPERSEDE)
        await pilot.press("u", "a")  # u with nothing staged here unstages the newest
        await pilot.pause()
        staged = review(app).staging.decisions()
        assert [(d.item, d.action) for d in staged] == [(WIN11_SUPERSEDE, "approve")]
