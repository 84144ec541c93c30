"""JSON from the workspace, parsed without ever raising RecursionError (issue: ``[`` nested a
thousand deep is a 2 KB file the agent can write)."""

from __future__ import annotations

import json
from typing import Any

from memreview.i18n import _


def loads(data: str | bytes | bytearray) -> Any:
    """``json.loads``, but a document nested too deeply for Python's parser is a
    ``json.JSONDecodeError`` (a ValueError) like any other broken file: one warning, that
    file skipped, never a crash."""
    try:
        return json.loads(data)
    except RecursionError:
        text = data.decode("utf-8", "replace") if isinstance(data, bytes | bytearray) else data
        raise json.JSONDecodeError(_("nested too deeply"), text[:200], 0) from None
