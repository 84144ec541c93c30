"""The gates' quick checks (a text every match needs, the run of sixteen letters and digits
looked for in bytes) never rule out a text a gate hits: ``gate_hits`` finds exactly what
every gate's regex finds, whatever the text."""

from __future__ import annotations

import random
import re

import memreview.secrets as S

PIECES = [
    "admin /",
    "admin/",
    "Root / x",
    "ubuntu/",
    "ops@mail.example /",
    "://me:pw@host",
    "-----BEGIN",
    "PuTTY-User",
    "助记词",
    "种子",
    "seed",
    "MNEMONIC",
    "Recovery Phrase",
    "AbCdEfGh12345678",
    "AbCdEfGh1234567",
    "abcdefgh" * 3,
    "pass",
    "密码",
    "令牌",
    "é",
    "日本語",
    "\ud800",
    "İ",
    "\n",
    " ",
    "-",
    "/",
    "@",
    ":",
    "x",
    "9",
    "able acid acre aged also area army atom aunt away baby back ball band bank bare",
]


def _every_gate(text: str) -> set[int]:
    low = text.lower()
    if len(low) != len(text):
        return {m.start() for m in re.finditer(r"^", text, re.M)}
    hits = {m.start() for rx in S.WHOLE_TEXT_GATES for m in rx.finditer(text)}
    return hits | {m.start() for rx in S.LOWER_GATES for m in rx.finditer(low)}


def test_the_quick_checks_never_rule_out_a_hit():
    rng = random.Random(7)
    hit = 0
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))
        expected = _every_gate(text)
        assert S.gate_hits(text) == expected, repr(text)
        assert S.gate_hits(text, text.lower()) == expected, repr(text)
        hit += bool(expected)
    assert hit > 1000  # most texts hit a gate somewhere


def test_each_text_a_gate_needs_is_in_every_match_and_each_gate_is_known():
    rng = random.Random(11)
    gates = {rx.pattern: rx for rx in (*S.WHOLE_TEXT_GATES, *S.LOWER_GATES)}
    assert set(S._NEEDS) <= set(gates)
    for _ in range(2000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 10)))
        for pattern, needs in S._NEEDS.items():
            for m in gates[pattern].finditer(text.lower() if needs.islower() else text):
                assert needs in m.group(0)


def test_a_run_of_sixteen_is_found_wherever_it_sits_among_other_characters():
    run = "aB3" * 5 + "z"  # sixteen
    for before in ("", "é", "日", "\ud800", "-", "x" * 15 + "é"):
        for after in ("", "é", "日", "\ud800", "."):
            assert S._may_hit(S._RUN_GATE, before + run + after)
            assert not S._may_hit(S._RUN_GATE, before + run[:15] + "é" + run[15:] + after)


def test_the_text_a_gate_needs_is_read_from_its_pattern():
    needs = {p: S._needed_text(re.compile(p)) for p in ("admin ?/", "ab*c", "x{2}", "://[^@]+@")}
    assert needs == {"admin ?/": "admin", "ab*c": "a", "x{2}": "", "://[^@]+@": "://"}
    assert S._needed_text(re.compile("pass|pwd")) == ""  # either branch: neither is needed
    assert S._needed_text(re.compile("seed", re.I)) == ""  # `in` would miss SEED
    assert S._needed_text(re.compile("(?i)seed")) == ""
    assert S._needed_text(S._RUN_GATE) == ""  # the run has a check of its own
    assert S._NEEDS["-----BEGIN"] == "-----BEGIN" and S._NEEDS["ubuntu ?/"] == "ubuntu"
