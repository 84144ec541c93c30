"""The one door for interface text: `_()` is English by default and follows a catalogue."""

from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

import pytest

from memreview import i18n


class _Upper(gettext.NullTranslations):
    def gettext(self, message):
        return message.upper()

    def ngettext(self, singular, plural, n):
        return (singular if n == 1 else plural).upper()


def test_english_by_default_and_a_catalogue_takes_over():
    assert i18n._("Write decisions") == "Write decisions"
    assert i18n.ngettext("{n} item", "{n} items", 2) == "{n} items"
    i18n.set_translations(_Upper())
    try:
        assert i18n._("Write decisions") == "WRITE DECISIONS"
        assert i18n.ngettext("{n} item", "{n} items", 1) == "{N} ITEM"
    finally:
        i18n.set_translations(None)
    assert i18n._("Write decisions") == "Write decisions"
    assert i18n.N_("Contradictions") == "Contradictions"


# -- the catalogues ---------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"\{([a-z_]*)[^}]*\}")


def test_every_text_of_the_code_is_translated_and_the_catalogue_has_no_stale_entry():
    # extracts every _(), ngettext() and N_() text from memreview/ and compares (Babel)
    from memreview.locale import catalog

    problems = catalog.problems()
    assert problems == [], (
        "run `python -m memreview.locale.catalog`, then translate:\n" + "\n".join(problems[:40])
    )


def test_each_translation_keeps_the_named_fields_of_its_text():
    from babel.messages.pofile import read_po

    po = i18n.LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "memreview.po"
    with po.open("rb") as fp:
        catalog = read_po(fp)
    wrong = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for s in strings:
            if set(PLACEHOLDER.findall(s)) - wanted or (
                set(PLACEHOLDER.findall(ids[0])) - set(PLACEHOLDER.findall(s))
            ):
                wrong.append(ids[0])
    assert wrong == []


def test_chinese_is_read_from_the_po_when_no_mo_was_compiled():
    i18n.use_language("zh")
    assert i18n.current_language() == "zh"
    assert i18n._("Contradictions") == "矛盾"
    assert i18n._("Dormant") == "沉睡项目"
    assert i18n.ngettext("{count} warning:", "{count} warnings:", 3) == "{count} 条警告："
    i18n.use_language("en")
    assert i18n._("Contradictions") == "Contradictions"


def test_a_compiled_mo_is_what_an_install_reads(tmp_path, monkeypatch):
    po = i18n.LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "memreview.po"
    folder = tmp_path / "zh_CN" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "memreview.po").write_bytes(po.read_bytes())
    mo = i18n.compile_po(po.read_bytes(), "zh_CN").replace("矛盾".encode(), "冲突".encode())
    (folder / "memreview.mo").write_bytes(mo)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    assert i18n.load_translations("zh").gettext("Contradictions") == "冲突"


def test_unknown_language_is_refused_by_name():
    with pytest.raises(i18n.UnknownLanguage, match="en, zh"):
        i18n.load_translations("fr")


@pytest.mark.parametrize(
    ("value", "lang"),
    [
        ("zh", "zh"),
        ("zh_CN.UTF-8", "zh"),
        ("zh-TW", "zh"),
        ("en_GB.UTF-8", "en"),
        ("C.UTF-8", "en"),
        ("POSIX", "en"),
        ("fr_FR.UTF-8", None),
        ("", None),
    ],
)
def test_language_of_reads_locale_names(value, lang):
    assert i18n.language_of(value) == lang


def test_language_precedence_flag_then_workspace_then_user_then_locale():
    env = {"LANG": "zh_CN.UTF-8"}
    assert i18n.choose_language("en", "zh", "zh", env) == "en"
    assert i18n.choose_language(None, "en", "zh", env) == "en"
    assert i18n.choose_language(None, None, "en", env) == "en"
    assert i18n.choose_language(None, None, None, env) == "zh"
    assert i18n.choose_language(None, None, None, {}) == "en"
    # LC_ALL outranks LANG; a locale memreview doesn't speak means English
    assert i18n.choose_language(None, None, None, {"LC_ALL": "C", "LANG": "zh_CN"}) == "en"
    assert i18n.choose_language(None, None, None, {"LC_MESSAGES": "zh_CN", "LANG": "C"}) == "zh"
    assert i18n.choose_language(None, None, None, {"LANG": "de_DE.UTF-8"}) == "en"


def test_no_text_is_translated_where_the_extractor_cant_read_it():
    # Babel's extractor reads an f-string as one token: a _("…") inside it never reaches
    # the catalogue, so it is refused here
    import ast

    found = []
    for path in sorted((ROOT / "memreview").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Name)
                    and inner.func.id in ("_", "N_", "ngettext")
                    and inner.args
                    and isinstance(inner.args[0], ast.Constant)
                ):
                    found.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
        # _(f["label"]): the extractor would take "label" for the text to translate
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "N_")
                and node.args
                and not isinstance(node.args[0], ast.Constant)
                and any(isinstance(n, ast.Constant) for n in ast.walk(node.args[0]))
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_the_chinese_help_has_the_placeholders_of_the_english_one():
    folder = ROOT / "memreview" / "app"
    english = (folder / "help.md").read_text(encoding="utf-8")
    chinese = (folder / "help.zh.md").read_text(encoding="utf-8")
    for mark in ("{{QUEUE_KEYS}}", "{{KEY_TABLE}}"):
        assert english.count(mark) == chinese.count(mark) == 1
    assert english.count("\n## ") == chinese.count("\n## ")


def test_the_po_reader_reads_what_babel_compiles():
    # an editable install reads the .po itself (PoTranslations); an install reads the .mo
    # Babel compiled: both give every text, and every plural, the same way
    from babel.messages.pofile import read_po

    po = i18n.LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "memreview.po"
    ours = i18n.PoTranslations(po.read_text(encoding="utf-8"))
    compiled = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(po.read_bytes(), "zh_CN")))
    with po.open("rb") as fp:
        catalog = read_po(fp)
    checked = 0
    for m in catalog:
        if not m.id:
            continue
        if isinstance(m.id, tuple | list):
            for n in (0, 1, 2, 5):
                assert ours.ngettext(m.id[0], m.id[1], n) == compiled.ngettext(m.id[0], m.id[1], n)
        else:
            assert ours.gettext(m.id) == compiled.gettext(m.id), m.id
        checked += 1
    assert checked > 500
    assert ours.gettext("not in the catalogue") == "not in the catalogue"
