"""Fixtures for driving the app with Pilot: a sample workspace, a fake backend."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from app_helpers import (  # noqa: E402, F401  (SIZE, loaded… also importable from here)
    SIZE,
    TODAY,
    FakeBackend,
    loaded,
    review,
    screen_text,
)
from app_sample import write_sample  # noqa: E402

from memreview.app import make_app  # noqa: E402


@pytest.fixture(autouse=True)
def _private_user_config(tmp_path, monkeypatch):
    """Never read or write the real user config from a test."""
    monkeypatch.setenv("MEMREVIEW_CONFIG", str(tmp_path / "user-config" / "config.yaml"))
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "true")


@pytest.fixture
def ws(tmp_path) -> Path:
    return write_sample(tmp_path / "ws")


@pytest.fixture
def backend() -> FakeBackend:
    return FakeBackend()


@pytest.fixture
def make(ws, backend, tmp_path):
    """``make(**kw)`` -> an app on the sample workspace with the fake backend."""

    def build(**kw):
        kw.setdefault("today", TODAY)
        kw.setdefault("backend", backend)
        kw.setdefault("config_path", tmp_path / "user-config" / "config.yaml")
        root = kw.pop("root", ws)
        return make_app(root, **kw)

    return build
