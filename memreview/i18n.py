"""Every user-visible string goes through `_()` (and `ngettext()` for counts).

Today the interface is English and `_()` hands the text back unchanged; the catalogues of
other languages plug in here (`set_translations`), so translating memreview is catalogue
work, not a hunt through the code. Rules for callers:

- whole sentences, with named fields: `_("{count} items left").format(count=n)`, never
  pieces glued together (word order differs between languages);
- counts through `ngettext(singular, plural, n)`;
- texts in module-level tables are marked with `N_()` (kept as they are, found by the
  extractor) and translated where they are shown: `_(label)`;
- never text read from memory files: that is the owner's, not ours.

The lowest floor: imports nothing of memreview, so every layer may use it.
"""

from __future__ import annotations

import gettext as _gettext

_translations: _gettext.NullTranslations = _gettext.NullTranslations()


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
