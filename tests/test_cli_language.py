"""The command line in Chinese: `--lang`, `memreview.yaml`, the user config and the locale
choose the language, in that order; `scan --json` stays English whatever it is."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memreview.cli import main

SAMPLE = Path(__file__).resolve().parent.parent / "sample_workspace"
TODAY = "2026-11-29"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def ws(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMREVIEW_CONFIG", str(tmp_path / "user" / "config.yaml"))
    root = tmp_path / "ws"
    root.mkdir()
    (root / "MEMORY.md").write_text("# M\n## Notes\n- Gateway uses port 18789\n")
    return root


def test_lang_zh_gives_the_scan_in_chinese_with_each_queue_id(ws, capsys):
    code, out, err = run(capsys, "scan", str(ws), "--today", TODAY, "--lang", "zh")
    assert code == 0, err
    assert out.startswith("工作区")
    assert "矛盾（contradictions）" in out
    assert "沉睡项目（dormant）" in out
    assert "contradictions " not in out.replace("（contradictions）", "")


def test_lang_before_the_command_counts_too(ws, capsys):
    code, out, _err = run(capsys, "--lang", "zh", "scan", str(ws), "--today", TODAY)
    assert code == 0
    assert "重复（duplicates）" in out


def test_the_locale_chooses_chinese_when_nothing_else_says(ws, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    _code, out, _err = run(capsys, "scan", str(ws), "--today", TODAY)
    assert "矛盾（contradictions）" in out


def test_memreview_yaml_outranks_the_locale_and_lang_outranks_both(ws, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    (ws / "memreview.yaml").write_text("lang: en\n")
    _code, out, _err = run(capsys, "scan", str(ws), "--today", TODAY)
    assert out.startswith("workspace")
    (ws / "memreview.yaml").write_text("lang: zh\n")
    monkeypatch.setenv("LANG", "C.UTF-8")
    _code, out, _err = run(capsys, "scan", str(ws), "--today", TODAY)
    assert out.startswith("工作区")
    _code, out, _err = run(capsys, "scan", str(ws), "--today", TODAY, "--lang", "en")
    assert out.startswith("workspace")


def test_the_user_config_outranks_the_locale(ws, capsys, monkeypatch, tmp_path):
    config = tmp_path / "user" / "config.yaml"
    config.parent.mkdir()
    config.write_text("lang: zh\n")
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    _code, out, _err = run(capsys, "scan", str(ws), "--today", TODAY)
    assert out.startswith("工作区")


def test_a_bad_lang_setting_is_reported_and_english_used(ws, capsys):
    (ws / "memreview.yaml").write_text("lang: klingon\n")
    _code, out, _err = run(capsys, "scan", str(ws), "--today", TODAY)
    assert out.startswith("workspace")
    assert "lang 'klingon' is not one of en, zh" in out


def test_a_bad_lang_flag_is_one_line_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["scan", "--lang", "fr"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--lang" in err


def test_help_is_in_chinese_and_wrapped_by_cells(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    with pytest.raises(SystemExit):
        main(["--lang", "zh", "scan", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("用法：memreview scan")
    assert "列出只显示前十项" in out
    from memreview.workspace.fields import width

    assert max(width(line) for line in out.splitlines()) <= 60


def test_scan_json_is_the_same_in_chinese(tmp_path, capsys, use_scan_cache):
    ws = tmp_path / "sample"
    shutil.copytree(SAMPLE, ws)
    # a Chinese scan first, with the scan cache on: nothing of it reaches the JSON after
    _code, chinese_text, _err = run(capsys, "scan", str(ws), "--today", TODAY, "--lang", "zh")
    assert "矛盾（contradictions）" in chinese_text
    _code, english, _err = run(capsys, "scan", str(ws), "--json", "--today", TODAY)
    _code, chinese, _err = run(capsys, "scan", str(ws), "--json", "--today", TODAY, "--lang", "zh")
    assert english == chinese
    assert "矛盾" not in chinese


def test_apply_summary_counts_in_the_language(ws, capsys, tmp_path):
    decisions = tmp_path / "d.yaml"
    decisions.write_text("[]\n")
    code, _out, err = run(
        capsys, "apply", str(ws), "--decisions", str(decisions), "--dry-run", "--lang", "zh"
    )
    assert "将应用 0 项决定中的 0 项" in err, err


def test_the_apps_language_from_its_palette_leaves_the_command_line_alone(
    ws, capsys, monkeypatch, tmp_path
):
    from memreview.cli.language import choose_before_parsing, choose_for_app
    from memreview.i18n import current_language, use_language

    config = tmp_path / "user" / "config.yaml"
    config.parent.mkdir()
    config.write_text("app_lang: zh\n")  # what the palette's "language: 中文" saves
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    try:
        _code, out, _err = run(capsys, "scan", str(ws), "--today", TODAY)
        assert out.startswith("workspace")  # the command line follows lang: / the locale
        choose_before_parsing([])
        choose_for_app(ws)
        assert current_language() == "zh"  # the app speaks what its palette chose
        choose_before_parsing(["--lang", "en"])
        choose_for_app(ws)
        assert current_language() == "en"  # --lang still wins
        (ws / "memreview.yaml").write_text("lang: en\n")
        choose_before_parsing([])
        choose_for_app(ws)
        assert current_language() == "en"  # and the workspace's setting, as for lang:
    finally:
        use_language("en")
