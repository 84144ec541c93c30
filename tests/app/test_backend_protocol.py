"""The backend the app writes through and the fakes its tests use are the same shape: each
is checked against the protocols of memreview/app/ports.py, method by method, parameter by
parameter, so a fake can't drift from what the screens call."""

from __future__ import annotations

import inspect

from app_helpers import FakeBackend

from memreview.app.backend import Backend
from memreview.app.ports import LedgerBackend, ReviewBackend


def _protocol_methods(proto: type) -> dict[str, inspect.Signature]:
    own = {}
    for klass in reversed(proto.__mro__):
        if klass in (object,) or not getattr(klass, "_is_protocol", False):
            continue
        for name, member in vars(klass).items():
            if inspect.isfunction(member) and not name.startswith("_"):
                own[name] = inspect.signature(member)
    return own


def _mismatches(impl: type, proto: type) -> list[str]:
    out = []
    for name, wanted in _protocol_methods(proto).items():
        member = getattr(impl, name, None)
        if member is None:
            out.append(f"{name}: missing")
            continue
        have = [p for p in inspect.signature(member).parameters if p != "self"]
        need = [p for p in wanted.parameters if p != "self"]
        if have[: len(need)] != need:
            out.append(f"{name}{tuple(have)} != {tuple(need)}")
    return out


def test_the_protocols_name_what_the_screens_call():
    assert {"apply", "preview", "undo_last", "save_pending"} <= _protocol_methods(
        ReviewBackend
    ).keys()
    assert {"history", "restore", "unhide"} <= _protocol_methods(LedgerBackend).keys()


def test_the_real_backend_is_a_ledger_backend():
    assert _mismatches(Backend, LedgerBackend) == []


def test_the_fake_backend_is_a_review_backend():
    assert _mismatches(FakeBackend, ReviewBackend) == []
    assert isinstance(FakeBackend(), ReviewBackend)


def test_a_backend_without_a_method_is_told_apart():
    class Partial:
        def load_pending(self):
            return [], []

    assert not isinstance(Partial(), ReviewBackend)
    assert _mismatches(Partial, ReviewBackend)
