"""Untrusted text in machine output: ``scan --json`` writes C1 and bidi controls from memory
text as ``\\uXXXX`` escapes, and the fleet view shows agent directory names made visible like
any other text (docs/design.md §5)."""

from __future__ import annotations

import json
import re

import pytest
from refusal_helpers import TODAY, WS, run, write_tree

CSI_C1 = "\x9b31m"  # the one-byte CSI: 'ESC [' as a C1 control
BIDI = "\u202eevil\u202c \u2066iso\u2069"
HOSTILE = f"bounties need a day {CSI_C1} {BIDI} \x85 \x7f"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _hostile_ws(root):
    memory = f"# Memory\n\n## Lessons\n- {HOSTILE} (2026-04-10)\n- {HOSTILE} (2026-05-02)\n"
    return write_tree(root, {**WS, "MEMORY.md": memory})


def test_scan_json_escapes_c1_and_bidi_controls_and_reads_back_the_same(tmp_path, capsysbinary):
    ws = _hostile_ws(tmp_path / "ws")
    from memreview.cli import main

    assert main(["scan", str(ws), "--json", "--today", TODAY]) == 0
    raw = capsysbinary.readouterr().out
    text = raw.decode("utf-8")
    assert RAW.search(text.rstrip("\n")) is None
    for escape in ("\\u009b", "\\u202e", "\\u202c", "\\u2066", "\\u2069", "\\u0085", "\\u007f"):
        assert escape in text
    doc = json.loads(text)
    [dup] = doc["queues"]["duplicates"]
    assert HOSTILE in dup["refs"][0]["text"]  # the escapes read back as the same string


@pytest.mark.parametrize("name", ["evil\x1b]0;owned\x07", "c1\x9b2J", "bidi\u202eeman"])
def test_the_fleet_view_makes_agent_directory_names_visible(tmp_path, capsys, name):
    fleet = tmp_path / "fleet"
    write_tree(fleet / name, WS)
    write_tree(fleet / "plain", WS)
    code, out, err = run(capsys, "scan", fleet, "--today", TODAY)
    assert code == 0, err
    assert RAW.search(out.replace("\n", "")) is None, out
    assert "== plain ==" in out
    code, out, _err = run(capsys, "scan", fleet, "--json", "--today", TODAY)
    assert RAW.search(out.rstrip("\n")) is None
    assert name in json.loads(out)["agents"]
