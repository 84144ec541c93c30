"""On start, a batch a crash cut short is named with two choices: finish it or roll it back."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest
from app_helpers import SIZE, loaded, screen_text

from memreview.app.screens.recovery import RecoveryDialog
from memreview.decisions import apply
from memreview.scan import scan_workspace

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"
DECISIONS = [
    {"item": "s-1c4fee6897d5", "action": "approve"},  # a move into superseded.md
    {"item": "p-02a946511cb7", "action": "revive"},  # a todo in NOW.md
]


class _Killed(BaseException):
    """Stands for a SIGKILL: nothing after the failing step runs, no commit line."""


def _cut_short(root: Path) -> dict[str, bytes]:
    """Apply DECISIONS until the second file is renamed, then stop dead; the files then."""
    seen = []

    def fault(step: str) -> None:
        seen.append(step)
        if seen.count("replaced") == 2:
            raise _Killed

    with pytest.raises(_Killed):
        apply(scan_workspace(root, today=date(2026, 11, 29)), DECISIONS, fault=fault)
    return {p: (root / p).read_bytes() for p in ("NOW.md", "memory/infra.md")}


@pytest.fixture
def cut(tmp_path: Path) -> Path:
    root = tmp_path / "sample"
    shutil.copytree(SAMPLE, root)
    return root


@pytest.mark.parametrize(("key", "done"), [("f", "finished batch"), ("r", "took back batch")])
async def test_a_batch_cut_short_is_offered_on_start_and_both_choices_work(
    make, cut: Path, key: str, done: str
) -> None:
    original = {p: (SAMPLE / p).read_bytes() for p in ("NOW.md", "memory/infra.md")}
    half = _cut_short(cut)
    assert half["memory/infra.md"] == original["memory/infra.md"]  # the source: not yet
    app = make(backend=None, root=cut, today=date(2026, 11, 29))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        assert isinstance(app.screen, RecoveryDialog)
        assert "stopped after 2 of" in screen_text(app)
        await pilot.press(key)
        await loaded(app, pilot)
        assert not isinstance(app.screen, RecoveryDialog)
    infra = (cut / "memory/infra.md").read_text()
    assert "## [INFRA:pi-billing-subscription]" in original["memory/infra.md"].decode()
    if key == "f":
        assert "## [INFRA:pi-billing-subscription]" not in infra
        assert "回顾 zora-airdrop" in (cut / "NOW.md").read_text()
    else:
        assert (cut / "memory/infra.md").read_bytes() == original["memory/infra.md"]
        assert (cut / "NOW.md").read_bytes() == original["NOW.md"]


async def test_later_leaves_the_batch_as_it_is(make, cut: Path) -> None:
    half = _cut_short(cut)
    app = make(backend=None, root=cut, today=date(2026, 11, 29))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("l")
        await loaded(app, pilot)
        assert not isinstance(app.screen, RecoveryDialog)
    assert {p: (cut / p).read_bytes() for p in half} == half
