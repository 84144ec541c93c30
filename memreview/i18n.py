"""Every user-visible string goes through `_()` (and `ngettext()` for counts).

The interface speaks English or Simplified Chinese. The catalogues are gettext `.po` files in
`memreview/locale/<code>/LC_MESSAGES/memreview.po` (the template `memreview/locale/
memreview.pot` is what Babel extracts from the code); an install compiles them to `.mo`, and
where there is no `.mo` (an editable install, a checkout) the `.po` is read as it is
(`PoTranslations`). The
language is chosen once, before any text is made (`choose_language`, then `use_language`).

Rules for callers:

- whole sentences, with named fields: `_("{count} items left").format(count=n)`, never
  pieces glued together (word order differs between languages);
- counts through `ngettext(singular, plural, n)`;
- texts in module-level tables are marked with `N_()` (kept as they are, found by the
  extractor) and translated where they are shown: `_(label)`;
- a text made now and shown later (a warning kept in the scan cache) is a `Message`: the
  English text with its untranslated form and fields, translated by `shown()`;
- never text read from memory files: that is the owner's, not ours.

The lowest floor: imports nothing of memreview, so every layer may use it.
"""

from __future__ import annotations

import gettext as _gettext
import io
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "memreview"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
# the languages of the interface: the short name the owner gives -> the catalogue's code
LANGUAGES = {"en": None, "zh": "zh_CN"}
# each language named in itself (the palette offers the other one by this name)
LANGUAGE_NAMES = {"en": "English", "zh": "中文"}
# the locale variables, strongest first (as the C library reads them for messages)
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")

_translations: _gettext.NullTranslations = _gettext.NullTranslations()
_ENGLISH = _gettext.NullTranslations()
_language = "en"


class UnknownLanguage(ValueError):
    """A language memreview does not speak (the message names the ones it does)."""


def set_translations(translations: _gettext.NullTranslations | None) -> None:
    """Use `translations` for every later `_()`; None goes back to English."""
    global _translations
    _translations = translations if translations is not None else _gettext.NullTranslations()


def _(message: str) -> str:
    """The text to show for `message` in the interface's language."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural text for `count`, in the interface's language."""
    return _translations.ngettext(singular, plural, count)


def N_(message: str) -> str:
    """Mark a text in a table for translation; it is translated where it is shown."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a counted text for a `Message`: its singular and plural, translated when shown
    (with the message's `count` field)."""
    return (singular, plural)


class Message(str):
    """A text in English that keeps its untranslated form and named fields, to be shown later
    in whichever language the interface speaks then.

    For a text made once and shown later: a warning on an input file is kept in the scan
    cache and shown by the next run, perhaps in Chinese. `Message(N_("cannot read:
    {reason}"), reason=why)`; a counted one `Message(Nn_("{count} line", "{count} lines"),
    count=n)`; a field may itself be a `Message`. As a string it is the English text (what
    JSON, a comparison or a log gets); `shown()` is the text in the interface's language."""

    text: str | tuple[str, str]
    fields: tuple[tuple[str, object], ...]

    def __new__(cls, text: str | tuple[str, str], /, **fields: object) -> Message:
        items = tuple(sorted(fields.items()))
        self = super().__new__(cls, _render(text, items, _ENGLISH))
        self.text = text
        self.fields = items
        return self

    def shown(self) -> str:
        """The text in the interface's language."""
        return _render(self.text, self.fields, _translations)

    def __repr__(self) -> str:
        return f"Message({str(self)!r})"


def _render(
    text: str | tuple[str, str],
    fields: tuple[tuple[str, object], ...],
    tr: _gettext.NullTranslations,
) -> str:
    values = dict(fields)
    if isinstance(text, tuple):
        words = tr.ngettext(text[0], text[1], int(values.get("count", 0)))  # type: ignore[arg-type]
    else:
        words = tr.gettext(text)
    if not values:
        return words
    for k, v in values.items():
        if isinstance(v, Message):
            values[k] = _render(v.text, v.fields, tr)
    return words.format(**values)


def shown(text: str) -> str:
    """A text to show: a `Message` in the interface's language, any other string as it is."""
    return text.shown() if isinstance(text, Message) else text


def language_of(value: str | None) -> str | None:
    """The interface language named by `value` (`zh`, `zh_CN.UTF-8`, `zh-TW`, `en_GB`, `C`),
    or None when it names none memreview speaks."""
    if not value:
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if code in ("c", "posix"):
        return "en"
    short = code.split("_")[0]
    return short if short in LANGUAGES else None


def choose_language(
    flag: str | None = None,
    workspace: str | None = None,
    user: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """The interface language: `--lang`, else the workspace's `memreview.yaml` `lang:`, else
    the user config's `lang:`, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English.

    A value naming no language memreview speaks is passed over (the caller reports a bad
    `--lang` or setting before it gets here)."""
    for value in (flag, workspace, user):
        lang = language_of(value)
        if lang is not None:
            return lang
    for name in LOCALE_VARIABLES:
        value = (environ or {}).get(name)
        if value:  # the first one set decides, as in the C library
            return language_of(value) or "en"
    return "en"


def load_translations(lang: str) -> _gettext.NullTranslations:
    """The catalogue of `lang`: the compiled `.mo` when the install made one, else the `.po`
    itself. English is the texts themselves."""
    if lang not in LANGUAGES:
        raise UnknownLanguage(
            _("unknown language {name!r} (one of {names})").format(
                name=lang, names=", ".join(sorted(LANGUAGES))
            )
        )
    code = LANGUAGES[lang]
    if code is None:
        return _gettext.NullTranslations()
    folder = LOCALE_DIR / code / "LC_MESSAGES"
    mo = folder / f"{DOMAIN}.mo"
    po = folder / f"{DOMAIN}.po"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fp:
            return _gettext.GNUTranslations(fp)
    return PoTranslations(po.read_text(encoding="utf-8"))


class PoTranslations(_gettext.NullTranslations):
    """A catalogue read straight from the text of a ``.po`` file (an editable install has no
    ``.mo``): msgid, msgid_plural and msgstr[n] of each entry, fuzzy ones left out, the plural
    rule of its header. Tens of milliseconds, where importing and running Babel's reader
    took a third of a second."""

    def __init__(self, text: str):
        super().__init__()
        self._catalog: dict[str, str] = {}
        self._plurals: dict[str, list[str]] = {}
        self._plural_index = lambda n: 0 if n == 1 else 1
        for entry in text.split("\n\n"):
            self._add(entry)

    def _add(self, entry: str) -> None:
        fields: dict[str, str] = {}
        key, fuzzy = None, False
        for line in entry.splitlines():
            line = line.strip()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            if not line or line.startswith("#"):
                continue
            if line.startswith('"'):
                if key is not None:
                    fields[key] += _unquote(line)
                continue
            key, _sep, rest = line.partition(" ")
            fields[key] = _unquote(rest.strip())
        msgid = fields.get("msgid")
        if msgid is None or fuzzy:
            return
        if msgid == "":
            self._header(fields.get("msgstr", ""))
            return
        if "msgid_plural" in fields:
            forms = [fields[f"msgstr[{k}]"] for k in range(10) if f"msgstr[{k}]" in fields]
            if forms and all(forms):
                self._plurals[msgid] = forms
        elif fields.get("msgstr"):
            self._catalog[msgid] = fields["msgstr"]

    def _header(self, header: str) -> None:
        for line in header.splitlines():
            name, _sep, value = line.partition(":")
            if name.strip().lower() == "plural-forms":
                rule = value.split("plural=", 1)[-1].strip().rstrip(";")
                self._plural_index = _gettext.c2py(rule)

    def gettext(self, message: str) -> str:
        return self._catalog.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self._plurals.get(singular)
        if forms is None:
            return singular if n == 1 else plural
        index = int(self._plural_index(n))
        return forms[index] if index < len(forms) else forms[-1]


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


def _unquote(text: str) -> str:
    """The string a ``.po`` line holds between its quotes, escapes read."""
    body = text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text
    out, k = [], 0
    while k < len(body):
        ch = body[k]
        if ch == "\\" and k + 1 < len(body):
            out.append(_ESCAPES.get(body[k + 1], body[k + 1]))
            k += 2
            continue
        out.append(ch)
        k += 1
    return "".join(out)


def compile_po(data: bytes, code: str) -> bytes:
    """The `.mo` bytes of the `.po` text `data` (Babel's reader and writer); fuzzy entries
    are left out, as `msgfmt` does."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(data), locale=code, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def use_language(lang: str) -> None:
    """Speak `lang` from now on (`en` or `zh`)."""
    global _language
    set_translations(load_translations(lang))
    _language = lang


def current_language() -> str:
    """The language `_()` speaks now: `en` or `zh`."""
    return _language
