"""The reasons a queue gives (a promotion's flags, a credential's kind) are in the interface's
language; `scan --json` gives them in English."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from memreview import i18n
from memreview.scan import scan_workspace

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"


@pytest.fixture
def chinese():
    i18n.use_language("zh")
    yield
    i18n.use_language("en")


def test_a_promotions_flag_gives_its_reason_and_a_secret_its_kind_in_chinese(chinese):
    result = scan_workspace(SAMPLE, today=date(2026, 11, 29))
    reasons = [f["reason"] for it in result.queues["promotions"] for f in it["flags"]]
    assert "它的来源 memory/2026-11-17.md 已不存在" in reasons
    assert not [r for r in reasons if r.isascii()]
    [secret] = result.queues["secrets"]
    assert secret["title"] == "memory/accounts.md:4 中的 API 密钥"
    assert secret["kinds"] == ["API key"]  # what a decisions file and JSON name


def test_scan_json_keeps_the_reasons_english_under_lang_zh():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "memreview",
            "--lang",
            "zh",
            "scan",
            str(SAMPLE),
            "--json",
            "--today",
            "2026-11-29",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    doc = json.loads(proc.stdout)
    reasons = [f["reason"] for it in doc["queues"]["promotions"] for f in it["flags"]]
    assert "its source memory/2026-11-17.md no longer exists" in reasons
    assert all(r.isascii() for r in reasons)
