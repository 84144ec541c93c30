"""argparse's own messages (usage, bad choices, missing or unknown arguments) follow --lang:
argparse looks them up with gettext's `_`, which memreview points at its catalogue."""

from __future__ import annotations

import pytest

from memreview import i18n
from memreview.cli import main


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use_language("en")


def _err(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code in (0, 2)
    captured = capsys.readouterr()
    return captured.err + captured.out


def test_an_unknown_argument_and_a_missing_one_are_told_in_chinese(capsys, tmp_path):
    assert "无法识别的参数：--bogus" in _err(capsys, ["--lang", "zh", "scan", "--bogus"])
    missing = _err(capsys, ["--lang", "zh", "apply", str(tmp_path)])
    assert "缺少以下必需参数：--decisions" in missing
    assert "参数 --theme：需要一个参数" in _err(capsys, ["--lang", "zh", "--theme"])


def test_a_bad_choice_is_told_in_chinese_and_in_english_as_argparse_says_it(capsys):
    said = _err(capsys, ["--lang", "zh", "scan", "--lang", "fr"])
    assert "参数 --lang：无效的选择：'fr'（可选：'en', 'zh'）" in said
    said = _err(capsys, ["scan", "--lang", "fr"])
    assert "argument --lang: invalid choice: 'fr' (choose from 'en', 'zh')" in said


def test_the_help_of_a_command_is_chinese_to_its_last_line(capsys):
    text = _err(capsys, ["--lang", "zh", "restore", "--help"])
    assert text.startswith("用法：")
    assert "显示此帮助并退出" in text and "列出可以恢复的条目" in text
    assert "show this help" not in text and "list what can be restored" not in text


def test_kinds_of_credential_are_named_in_chinese_and_a_provider_keeps_its_name():
    from memreview.secrets import kinds_shown

    i18n.use_language("zh")
    assert kinds_shown(["private key", "AWS Access Key", "password or token"]) == (
        "私钥、AWS Access Key、密码或令牌"
    )
