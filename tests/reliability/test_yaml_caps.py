"""Every YAML input goes through one capped loader (docs/design.md §4): an alias bomb, a document
nested too deep or referring to itself, or one over its size cap is refused with a one-line
reason; ``!!python`` tags stay inert."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from refusal_helpers import TODAY, WS, run, scan_json, snapshot, write_tree

from memreview.app.config import load_user_config
from memreview.app.themes import load_themes
from memreview.decisions import load_pending
from memreview.decisions.state import parse_state
from memreview.workspace.config import load_config
from memreview.workspace.yamlcap import (
    MAX_ALIASES,
    MAX_DEPTH,
    YAMLRefused,
    check_yaml,
    load_yaml,
)


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """A 'billion laughs' mapping: ``width ** levels`` strings from a few hundred bytes."""
    names = [f"l{k}" for k in range(levels + 1)]
    lines = [f"{names[0]}: &{names[0]} [" + ", ".join(["lol"] * width) + "]"]
    for k in range(1, levels + 1):
        refs = ", ".join([f"*{names[k - 1]}"] * width)
        lines.append(f"{names[k]}: &{names[k]} [{refs}]")
    return "\n".join(lines) + "\n"


MANY_ALIASES = "a: &a x\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n"
DEEP = "a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n"
SELF = "a: &a [1, *a]\n"
PYTHON_TAG = "theme: !!python/object/apply:os.system ['touch PWNED']\n"

HOSTILE = {
    "alias-bomb": (alias_bomb(), "its aliases expand to more than"),
    "many-aliases": (MANY_ALIASES, f"more than {MAX_ALIASES} aliases"),
    "deep": (DEEP, f"nested deeper than {MAX_DEPTH} levels"),
    "self-reference": (SELF, "the alias *a refers to itself"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_the_loader_refuses_each_hostile_shape_with_its_reason(case):
    text, reason = HOSTILE[case]
    with pytest.raises(YAMLRefused, match=reason.replace("*", r"\*")):
        load_yaml(text.encode())


def test_the_loader_refuses_a_document_over_its_size_cap_before_parsing():
    with pytest.raises(YAMLRefused, match="more than the 1 MiB allowed"):
        check_yaml(b"a: " + b"x" * (1 << 20) + b"\n", 1 << 20)


def test_ordinary_anchors_merge_keys_and_dates_still_load():
    doc = load_yaml(b"base: &b {k: 1}\nother: {<<: *b, j: 2}\nday: 2026-11-29\n")
    assert doc["other"] == {"k": 1, "j": 2}
    assert str(doc["day"]) == "2026-11-29"


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_decisions_file_exits_2_and_writes_nothing(tmp_path, capsys, case):
    ws = write_tree(tmp_path / "ws", WS)
    decisions = tmp_path / "decisions.yaml"
    decisions.write_text(HOSTILE[case][0])
    before = snapshot(ws)
    code, _out, err = run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)
    assert code == 2
    assert err.count("\n") == 1 and f"{decisions}: refused: {HOSTILE[case][1]}" in err, err
    assert snapshot(ws) == before


def test_an_alias_bomb_in_memreview_yaml_is_a_warning_and_the_defaults(tmp_path, capsys):
    ws = write_tree(tmp_path / "ws", {**WS, "memreview.yaml": alias_bomb()})
    doc = scan_json(capsys, ws)
    [warning] = [w for w in doc["warnings"] if w["file"] == "memreview.yaml"]
    assert "refused: its aliases expand to more than" in warning["message"]
    assert "defaults used" in warning["message"]
    assert doc["counts"]["duplicates"] == 1  # the scan itself went on


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_memreview_yaml_settings_are_refused(case):
    _cfg, problems = load_config(HOSTILE[case][0].encode())
    assert [m for _line, m in problems] == [f"refused: {HOSTILE[case][1]}" + _tail(case)]


def _tail(case: str) -> str:
    # the exact reason carries the refused alias's name or the limit; the rest is fixed
    return {
        "alias-bomb": " 100,000 values; defaults used",
        "many-aliases": " (a document that expands itself); defaults used",
    }.get(case, "; defaults used")


def test_an_alias_bomb_in_state_yaml_is_a_warning_and_no_hidden_items(tmp_path, capsys):
    ws = write_tree(tmp_path / "ws", {**WS, ".memreview/state.yaml": alias_bomb()})
    doc = scan_json(capsys, ws)
    [warning] = [w for w in doc["warnings"] if w["file"] == ".memreview/state.yaml"]
    assert warning["message"].startswith("refused: its aliases expand to more than")
    state, problem = parse_state(alias_bomb().encode())
    assert state.hidden == {} and "refused" in problem


def test_an_alias_bomb_in_pending_yaml_loads_no_staged_decisions(tmp_path):
    ws = write_tree(tmp_path / "ws", {**WS, ".memreview/pending.yaml": alias_bomb()})
    decisions, warnings = load_pending(ws)
    assert decisions == []
    assert warnings == [
        ".memreview/pending.yaml: refused: its aliases expand to more than 100,000 values; "
        "no staged decisions loaded"
    ]


def test_a_pending_yaml_over_1_mib_is_refused(tmp_path):
    big = "- {item: x, action: defer}\n" * 50_000  # 1.3 MB of valid decisions
    ws = write_tree(tmp_path / "ws", {**WS, ".memreview/pending.yaml": big})
    decisions, [warning] = load_pending(ws)
    assert decisions == [] and "more than the 1 MiB allowed" in warning


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_user_config_is_reported_and_the_defaults_used(tmp_path, case):
    path = tmp_path / "config.yaml"
    path.write_text(HOSTILE[case][0])
    cfg = load_user_config(path)
    assert cfg.theme is None and cfg.keymap == {}
    assert cfg.problem is not None and HOSTILE[case][1] in cfg.problem


def test_a_fifo_as_the_user_config_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "config.yaml"
    os.mkfifo(fifo)
    code = (
        "from memreview.app.config import load_user_config;"
        f"print(load_user_config({str(fifo)!r}).problem)"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env
    )
    assert "not a regular file (a FIFO)" in done.stdout, done.stderr


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_theme_file_is_skipped_with_its_reason(tmp_path, case):
    (tmp_path / "bomb.yaml").write_text(HOSTILE[case][0])
    themes = load_themes(tmp_path)
    assert len(themes.problems) == 1
    assert (
        themes.problems[0].startswith("theme bomb.yaml: ")
        and HOSTILE[case][1] in (themes.problems[0])
    )
    assert "memreview-bomb" not in {t.name for t in themes.themes}


def test_python_tags_stay_inert_everywhere(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ws = write_tree(tmp_path / "ws", {**WS, "memreview.yaml": PYTHON_TAG})
    (tmp_path / "config.yaml").write_text(PYTHON_TAG)
    (tmp_path / "t.yaml").write_text(PYTHON_TAG)
    decisions = tmp_path / "decisions.yaml"
    decisions.write_text(PYTHON_TAG)
    scan_json(capsys, ws)
    load_user_config(tmp_path / "config.yaml")
    load_themes(tmp_path)
    code, _out, _err = run(capsys, "apply", ws, "--decisions", decisions, "--today", TODAY)
    assert code == 2
    assert not list(tmp_path.rglob("PWNED"))
