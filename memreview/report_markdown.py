"""Untrusted text and figures as Markdown, for the weekly report's sections
(:mod:`memreview.report_sections`) and the report itself (:mod:`memreview.report`).

Everything a report shows of a workspace is memory text written by agents: :func:`md_text`
escapes it twice, once so that no control or bidi character reaches a terminal (docs/design.md §5)
and once so that it cannot become Markdown structure, a link or HTML.
"""

from __future__ import annotations

import re

from memreview.display import one_line
from memreview.i18n import _, ngettext
from memreview.workspace.cells import cut_cells

LIST_LIMIT = 10
NEAR_BUDGET = 0.9

# --- untrusted text -------------------------------------------------------------------------

_MD_INLINE_RE = re.compile(r"([\\`*_\[\]<>|~&])")
_MD_LEADING_RE = re.compile(r"^([#+\-=]|\d+[.)])")


def md_text(text: object, width: int | None = None) -> str:
    """Untrusted text made safe for one line of Markdown (list item or table cell).

    Controls are made visible, then every character that could start emphasis, code, a link,
    an HTML tag or entity, a table cell or strikethrough is backslash-escaped, and so is a
    leading character that would open a heading, a list or a quote.
    """
    s = " ".join(one_line(str(text)).split())
    if width is not None:
        s = cut_cells(s, width)
    s = _MD_INLINE_RE.sub(r"\\\1", s)
    m = _MD_LEADING_RE.match(s)
    if m:
        tok = m.group(1)
        s = (tok[:-1] + "\\" + tok[-1] if len(tok) > 1 else "\\" + tok) + s[len(tok) :]
    return s


def number(value: object) -> str:
    """An integer with thousands separators; ``–`` for anything else."""
    return f"{value:,}" if isinstance(value, int) else "–"


def budget_status(value: int, budget: int) -> str:
    """ok, near budget or over budget, with the share of the budget used."""
    if budget <= 0:
        return "–"
    share = value / budget
    if value > budget:
        return _("**over budget** ({share})").format(share=f"{share:.0%}")
    if share >= NEAR_BUDGET:
        return _("**near budget** ({share})").format(share=f"{share:.0%}")
    return _("ok ({share})").format(share=f"{share:.0%}")


def more_lines(listed: list, limit: int = LIST_LIMIT) -> list[str]:
    """``… and N more`` when a list was cut at ``limit``."""
    more = len(listed) - limit
    if more <= 0:
        return []
    return ["- " + ngettext("… and {count} more", "… and {count} more", more).format(count=more)]
