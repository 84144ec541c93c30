"""The one door for interface text: `_()` is English by default and follows a catalogue."""

from __future__ import annotations

import gettext

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
