"""Fixtures for the hostile corpus; the helpers live in hostile_helpers (test modules import
them from there: several test folders have a conftest, so 'from conftest import' is
ambiguous in a full run)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from hostile_helpers import *  # noqa: E402,F403
from hostile_helpers import _private_user_config, pytest_configure  # noqa: E402,F401
