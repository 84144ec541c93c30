"""Checks across the loaded files, as warnings: anchors defined twice (or a move cut short),
bad ``Added`` dates, references to unknown anchors, and promotion sources that are gone."""

from __future__ import annotations

import re

from memreview.i18n import N_
from memreview.workspace.dates import parse_date
from memreview.workspace.model import Workspace
from memreview.workspace.openclaw import relative
from memreview.workspace.reader import Reader

SOURCE_RE = re.compile(r"\bsource=([^\s\]]+?)(?::\d+(?:-\d+)?)?(?=[\s\]])")


def check_promotion_sources(rd: Reader, ws: Workspace) -> None:
    """Warn about promoted entries whose ``source=`` file no longer exists."""
    known = {d.rel for d in ws.daily_logs} | set(ws.files) | set(ws.archive_files)
    for rel, mf in ws.files.items():
        for e in mf.entries:
            if e.kind != "promoted" or "source=" not in e.text:
                continue
            m = SOURCE_RE.search(e.text)
            if not m:
                continue
            src = relative(m.group(1), rd.root)
            if src is None or src in known:
                continue
            try:
                exists = (rd.root / src).exists()
            except OSError:
                exists = False
            if not exists:
                ws.warn(rel, e.line, N_("promotion source {file} does not exist"), file=src)


def check_anchors(ws: Workspace) -> None:
    """Warn about bad dates and references to anchors that don't exist."""
    index = ws.anchor_index()
    for a in ws.all_anchors():
        first = index[a.id]
        if first is not a and first.file != a.file:  # the parser warns within one file
            if a.archived and not first.archived:
                # archive written, source not yet: a move cut short (docs/design.md §4)
                ws.warn(
                    a.file,
                    a.line,
                    N_(
                        "anchor {anchor!r} is archived here and still in {file} line {line}: a "
                        "move was cut short; applying the decision again (or `memreview "
                        "recover --finish`) finishes it"
                    ),
                    anchor=a.id,
                    file=first.file,
                    line=first.line,
                )
            else:
                ws.warn(
                    a.file,
                    a.line,
                    N_("anchor id {anchor!r} also defined in {file} line {line}; that one is used"),
                    anchor=a.id,
                    file=first.file,
                    line=first.line,
                )
        added = a.get("Added")
        if added is not None and parse_date(added) is None:
            ws.warn(
                a.file,
                a.line,
                N_("anchor {anchor!r}: Added {added!r} is not a valid date"),
                anchor=a.id,
                added=added,
            )
        if a.archived:
            continue
        for other in a.ref_list("CONFLICTS-WITH"):
            if other not in index:
                ws.warn(
                    a.file,
                    a.line,
                    N_("CONFLICTS-WITH names unknown anchor {anchor!r}"),
                    anchor=other,
                )
    for p in ws.proposals or []:
        for side in (p.new, p.old):
            if side not in index:
                ws.warn(
                    ws.config.proposals,
                    p.line,
                    N_("proposal {proposal} names unknown anchor {anchor!r}"),
                    proposal=p.id,
                    anchor=side,
                )
