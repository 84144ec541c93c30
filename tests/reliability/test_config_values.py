"""Each setting of memreview.yaml and of the user config has a type and a range: a bad value is
warned about by name and its default used, and no command crashes (docs/design.md §4)."""

from __future__ import annotations

from pathlib import Path

import pytest
from refusal_helpers import TODAY, WS, item_ids, run, scan_json, write_tree

from memreview.app.config import load_user_config
from memreview.workspace.config import Config

BAD = {
    "recall_window_days: 1000000000000": ("recall_window_days", "out of range"),
    "snooze_days: .nan": ("snooze_days", "not a whole number"),
    "snooze_days: .inf": ("snooze_days", "not a whole number"),
    "dormant_days: -.inf": ("dormant_days", "not a whole number"),
    "reject_hide_days: 1e300": ("reject_hide_days", "out of range"),
    "dormant_days: 28.5": ("dormant_days", "not a whole number"),
    "dormant_days: 'four weeks'": ("dormant_days", "not a whole number"),
    "dormant_days: [28]": ("dormant_days", "not a whole number"),
    "dormant_days: true": ("dormant_days", "not a whole number"),
    "memory_max_lines: -5": ("memory_max_lines", "out of range"),
    "max_markdown_mib: -1": ("max_markdown_mib", "out of range"),
    "max_markdown_mib: 0": ("max_markdown_mib", "out of range"),
    "max_jsonl_mib: 0": ("max_jsonl_mib", "out of range"),
    "max_jsonl_mib: 1e12": ("max_jsonl_mib", "out of range"),
    "max_jsonl_mib: '64 MiB'": ("max_jsonl_mib", "not a whole number"),
    "near_ratio: .nan": ("near_ratio", "not a number"),
    "near_ratio: 1000": ("near_ratio", "out of range"),
    "dormant_limit: 99999999999999999999999": ("dormant_limit", "out of range"),
    "stale_todo_days: 1e400": ("stale_todo_days", "not a whole number"),
}


@pytest.mark.parametrize("line", sorted(BAD))
def test_a_bad_value_is_warned_by_name_and_the_default_used(tmp_path, capsys, line):
    name, reason = BAD[line]
    ws = write_tree(tmp_path / "ws", {**WS, "memreview.yaml": line + "\n"})
    doc = scan_json(capsys, ws)
    [warning] = [w for w in doc["warnings"] if w["file"] == "memreview.yaml"]
    default = getattr(Config(), name)
    assert warning["line"] == 1
    assert warning["message"].startswith(f"{name}: ") and reason in warning["message"]
    assert warning["message"].endswith(f"the default {default} is used")
    code, _out, err = run(capsys, "report", ws, "--today", TODAY)
    assert code == 0, err


@pytest.mark.parametrize(
    "line", ["snooze_days: .nan", "snooze_days: 1000000000000", "recall_window_days: .inf"]
)
def test_apply_and_undo_with_a_bad_value_use_the_default(tmp_path, capsys, line):
    ws = write_tree(tmp_path / "ws", {**WS, "memreview.yaml": line + "\n"})
    dormant = item_ids(capsys, ws)["dormant"][0]
    decisions = tmp_path / "d.yaml"
    decisions.write_text(f"- {{item: {dormant}, action: snooze}}\n")
    code, _out, err = run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)
    assert code == 0, err
    assert "until: '2026-12-27'" in (ws / ".memreview/state.yaml").read_text()  # 28 days on
    code, _out, err = run(capsys, "undo", ws)
    assert code == 0, err


def test_good_values_of_every_kind_are_taken(tmp_path, capsys):
    ws = write_tree(
        tmp_path / "ws",
        {**WS, "memreview.yaml": "snooze_days: 7\nnear_ratio: 95\ndormant_days: 14.0\n"},
    )
    from memreview.workspace.loader import load_workspace

    cfg = load_workspace(ws).config
    assert (cfg.snooze_days, cfg.near_ratio, cfg.dormant_days) == (7, 95.0, 14)
    assert isinstance(cfg.dormant_days, int)
    assert [w for w in scan_json(capsys, ws)["warnings"] if w["file"] == "memreview.yaml"] == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("theme: [a, b]\n", "'theme' should be a name"),
        ("editor: {vim: 1}\n", "'editor' should be a name"),
        ("keymap: [ctrl+s]\n", "'keymap' should map binding ids to keys"),
        ("keymap: {save: [1]}\n", "'keymap' keys should be text"),
    ],
)
def test_a_user_config_value_of_the_wrong_type_is_reported_and_not_used(tmp_path, text, problem):
    path = tmp_path / "config.yaml"
    path.write_text(text)
    cfg = load_user_config(path)
    assert cfg.theme is None and cfg.editor is None and cfg.keymap == {}
    assert cfg.problem is not None and problem in cfg.problem


def test_a_markdown_file_over_the_cap_is_skipped_with_a_warning_not_read(tmp_path, capsys):
    ws = write_tree(tmp_path / "ws", WS)
    big = ws / "memory/huge.md"
    with open(big, "wb") as fh:
        fh.truncate(33 << 20)  # sparse: a reader that read it whole would take 33 MiB
    doc = scan_json(capsys, ws)
    [warning] = [w for w in doc["warnings"] if w["file"] == "memory/huge.md"]
    assert warning["message"] == (
        "skipped: 33 MiB, more than 32 MiB (max_markdown_mib in memreview.yaml)"
    )
    assert doc["counts"]["duplicates"] == 1  # the rest was read


def test_the_markdown_cap_is_a_setting(tmp_path, capsys):
    lines = "".join(f"- note {k} about the garden hose and the tap\n" for k in range(30_000))
    ws = write_tree(
        tmp_path / "ws", {**WS, "memreview.yaml": "max_markdown_mib: 1\n", "memory/big.md": lines}
    )
    assert Path(ws / "memory/big.md").stat().st_size > 1 << 20
    doc = scan_json(capsys, ws)
    [warning] = [w for w in doc["warnings"] if w["file"] == "memory/big.md"]
    assert warning["message"].startswith("skipped: 1.") and "more than 1 MiB" in warning["message"]
