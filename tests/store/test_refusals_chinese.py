"""A refused undo says why in the interface's language."""

from __future__ import annotations

import pytest

from memreview import i18n
from memreview.store.reverse import Refuse, reverse_patch
from memreview.workspace.textfile import decode_bytes


@pytest.fixture
def chinese():
    i18n.use_language("zh")
    yield
    i18n.use_language("en")


def _tf(text: str):
    return decode_bytes("NOW.md", text.encode("utf-8"))


def test_lines_changed_since_the_batch_are_refused_in_chinese(chinese):
    before = _tf("# Now\n- a\n- b\n")
    after = _tf("# Now\n- a\n- b changed by the batch\n")
    current = _tf("# Now\n- a\n- b changed again by hand\n")
    with pytest.raises(Refuse) as refused:
        reverse_patch(before, after, current)
    assert refused.value.reason == "批次写入的第 3 行之后被改过"


def test_the_same_refusal_in_english():
    before = _tf("# Now\n- a\n- b\n")
    after = _tf("# Now\n- a\n- b changed by the batch\n")
    current = _tf("# Now\n- a\n- b changed again by hand\n")
    with pytest.raises(Refuse, match="line 3 as the batch wrote it was changed since"):
        reverse_patch(before, after, current)
