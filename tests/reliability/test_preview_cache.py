"""The evidence pane's preview cache is bounded: browsing a long queue keeps the most recently
used previews and drops the oldest, instead of one entry per item and action for ever."""

from __future__ import annotations

from memreview.app.messages import PreviewReady
from memreview.app.widgets.evidence import PREVIEW_CACHE_SIZE, Evidence


def _ready(evidence: Evidence, key: tuple) -> None:
    evidence.on_preview_ready(PreviewReady(key, "heading", (None, f"{key}")))


def test_the_preview_cache_keeps_at_most_its_size_and_the_recent_previews():
    evidence = Evidence()
    n = PREVIEW_CACHE_SIZE * 4
    for k in range(n):
        _ready(evidence, ("item", k, "keep"))
    cache = evidence._preview_cache
    assert len(cache) == PREVIEW_CACHE_SIZE
    assert cache.get(("item", n - 1, "keep")) == ("heading", (None, f"{('item', n - 1, 'keep')}"))
    assert cache.get(("item", 0, "keep")) is None


def test_a_preview_used_again_outlives_newer_ones():
    evidence = Evidence()
    for k in range(PREVIEW_CACHE_SIZE):
        _ready(evidence, ("item", k))
    assert evidence._preview_cache.get(("item", 0)) is not None  # used: now the most recent
    _ready(evidence, ("item", "new"))
    assert evidence._preview_cache.get(("item", 0)) is not None
    assert evidence._preview_cache.get(("item", 1)) is None


def test_a_preview_computed_before_a_reload_is_neither_kept_nor_shown():
    """A preview's worker that started before a reload (the workspace written, or changed
    by the editor key) posts a diff of the workspace as it was: it must not be taken for the
    item's preview after the reload."""
    evidence = Evidence()
    key = ("item", 1, "keep")
    before = evidence._generation
    evidence.forget_previews()  # the reload
    evidence.on_preview_ready(PreviewReady(key, "heading", (None, "the old diff"), before))
    assert evidence._preview_cache.get(key) is None
    evidence.on_preview_ready(
        PreviewReady(key, "heading", (None, "the diff now"), evidence._generation)
    )
    assert evidence._preview_cache.get(key) == ("heading", (None, "the diff now"))
