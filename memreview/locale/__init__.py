"""The interface's catalogues: ``memreview.pot`` (the texts of the code) and one
``<code>/LC_MESSAGES/memreview.po`` per language; ``catalog`` keeps them up to date."""
