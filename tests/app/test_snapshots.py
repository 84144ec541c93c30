"""The main screen as pictures (pytest-textual-snapshot): each queue at the sizes terminals
open at, 80×24, 120×36 and 160×48, and a few screens in Chinese. The pictures under ``__snapshots__/`` were looked at by
eye before being accepted; after a deliberate change of the layout, look at the new ones
(``pytest tests/app/test_snapshots.py --snapshot-update``, then the report it writes) before
committing them."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_helpers import TODAY, FakeBackend, loaded, review
from app_sample import write_sample

from memreview import i18n
from memreview.app import make_app

SIZES = [(80, 24), (120, 36), (160, 48)]
# the queue keys of the sample's queues; promotions and secrets are empty in it
QUEUES = {
    "1": "contradictions",
    "2": "supersede",
    "3": "skills",
    "4": "archived",
    "5": "duplicates",
    "6": "dormant",
    "7": "demotion",
    "h": "health",
}


@pytest.fixture
def snap_app(tmp_path, monkeypatch):
    """An app on the sample, opened as ``ws`` from its parent (a path the same each run)."""
    write_sample(tmp_path / "ws")
    monkeypatch.chdir(tmp_path)

    def build():
        return make_app(
            Path("ws"),
            today=TODAY,
            backend=FakeBackend(),
            config_path=tmp_path / "user-config" / "config.yaml",
        )

    return build


def settled(*keys: str):
    async def run_before(pilot) -> None:
        app = pilot.app
        await loaded(app, pilot)
        for key in keys:
            await pilot.press(key)
        await loaded(app, pilot)
        evidence = review(app).evidence
        for _ in range(100):  # the preview starts after the cursor rests a moment
            key = evidence._preview_key
            if key is None or evidence._preview_cache.get(key) is not None:
                break
            await pilot.pause(0.05)
            await app.workers.wait_for_complete()
        await pilot.pause()
        app.clear_notifications()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("key", list(QUEUES), ids=list(QUEUES.values()))
def test_each_queue_at_each_size(snap_compare, snap_app, key, size):
    assert snap_compare(snap_app(), terminal_size=size, run_before=settled(key))


@pytest.mark.parametrize("size", SIZES[:2], ids=[f"{w}x{h}" for w, h in SIZES[:2]])
def test_the_diff_before_writing(snap_compare, snap_app, size):
    # one line per staged decision at any width, the diff under them, the keys at the bottom
    assert snap_compare(snap_app(), terminal_size=size, run_before=settled("1", "a", "7", "p", "w"))


# In Chinese (issue 17): every width is counted in cells, labels and columns line up, the
# help's paragraphs and key table wrap between characters, nothing is cut mid-character.
CHINESE = {
    "main-80x24": ((80, 24), ()),
    "main-120x36": ((120, 36), ()),
    "help-80x24": ((80, 24), ("question_mark",)),
    "health-80x24": ((80, 24), ("h",)),
    "diff-80x24": ((80, 24), ("a", "w")),
}


@pytest.mark.parametrize("case", list(CHINESE))
def test_in_chinese(snap_compare, snap_app, case):
    size, keys = CHINESE[case]
    i18n.use_language("zh")
    assert snap_compare(snap_app(), terminal_size=size, run_before=settled(*keys))
