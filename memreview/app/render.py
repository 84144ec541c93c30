"""Rich renderables for the evidence of an item, decisions and diffs (no Textual here).

Every string here comes from memory files: it is made visible (display.visible) and put into
``Text`` objects, never into markup. Styles come in through a ``StyleOf`` function, so the
widgets decide the colours (from the theme) and this module only the shapes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from memreview.app.wrap import WrappedText, wrap_text
from memreview.decisions import registry
from memreview.decisions.unit import (
    TONES,
    Act,
    Block,
    Caption,
    Differs,
    Facts,
    Pair,
    Passage,
    RefBlock,
)
from memreview.display import one_line, visible
from memreview.i18n import _, ngettext

StyleOf = Callable[[str], Style]

SPAN_MAX = 14  # lines of one ref shown before "… N more lines"
STYLE_NAMES = (
    "title",
    "label",
    "path",
    "lineno",
    "span",
    "context",
    "dim",
    "key",
    *TONES,
    "diff-add",
    "diff-remove",
    "diff-hunk",
    "diff-file",
    "mark",
)


def _line_text(text: str) -> str:
    return visible(text).expandtabs(4)


_WORD = re.compile(r"[A-Za-z0-9_]")


@lru_cache(maxsize=64)
def _marks_re(marks: tuple[str, ...]) -> re.Pattern | None:
    """One pattern for every mark, as it is shown (made visible), longest first; a mark that
    starts or ends with a letter or digit only where a word starts or ends."""
    parts = []
    for mark in sorted({_line_text(m).strip() for m in marks if m.strip()}, key=len, reverse=True):
        pat = re.escape(mark)
        if _WORD.match(mark[0]):
            pat = r"(?<![A-Za-z0-9_])" + pat
        if _WORD.match(mark[-1]):
            pat += r"(?![A-Za-z0-9_])"
        parts.append(pat)
    return re.compile("|".join(parts), re.IGNORECASE) if parts else None


def marked(text: str, style: Style, marks: tuple[str, ...], st: StyleOf) -> Text:
    """``text`` (already made visible) in ``style``, each of ``marks`` in it highlighted:
    styles laid over a plain Text, never markup."""
    t = Text(text, style=style)
    rx = _marks_re(marks) if marks else None
    if rx is not None:
        for m in rx.finditer(text):
            t.stylize(st("mark"), m.start(), m.end())
    return t


def ref_block(
    context, ref: dict, label: str, st: StyleOf, before: int = 1, marks: tuple[str, ...] = ()
) -> Group:
    """``label  file:line`` and the numbered lines of the entry with a little context (its
    own lines with ``marks`` highlighted); long lines wrap beside their line number, not
    under it."""
    # a word longer than the line (a long anchor) is cut with an ellipsis, never folded
    head = WrappedText(no_wrap=False, overflow="ellipsis")
    head.append(label, st("label"))
    head.append("  ")
    line, end = int(ref.get("line") or 1), int(ref.get("end_line") or ref.get("line") or 1)
    where = f"{ref.get('file', '?')}:{line}" + (f"–{end}" if end > line else "")
    head.append(one_line(where), st("path"))
    if ref.get("anchor"):
        head.append("  [[", st("dim"))
        head.append(one_line(str(ref["anchor"])), st("path"))
        head.append("]]", st("dim"))
    if ref.get("score") is not None:
        head.append("  " + _("score {score}").format(score=f"{ref['score']:g}"), st("dim"))
    grid = Numbered(st("lineno"))
    lines = context(ref.get("file", ""), line, end, before, 1) if context else []
    if not lines:
        grid.add_row("", marked(_line_text(str(ref.get("text", ""))), st("span"), marks, st))
        return Group(head, grid)
    shown = 0
    skipped = 0
    for no, text in lines:
        in_span = line <= no <= end
        if in_span:
            shown += 1
            if shown > SPAN_MAX:
                skipped += 1
                continue
        line_text = _line_text(text)
        grid.add_row(
            str(no),
            marked(line_text, st("span"), marks, st)
            if in_span
            else Text(line_text, style=st("context")),
        )
    if skipped:
        more = ngettext(
            "… {count} more line of this entry", "… {count} more lines of this entry", skipped
        ).format(count=skipped)
        grid.add_row("", Text(more, style=st("dim")))
    return Group(head, grid)


class Numbered:
    """Numbered lines; a long line wraps beside its number, not under it.

    (A Rich table grid does the same at several times the cost, and this is drawn on every
    cursor move.)"""

    GUTTER = 6

    def __init__(self, number_style: Style) -> None:
        self.number_style = number_style
        self.rows: list[tuple[str, Text]] = []

    def add_row(self, number: str, text: Text) -> None:
        self.rows.append((number, text))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        inner = max(1, options.max_width - self.GUTTER)
        blank = " " * self.GUTTER
        for number, text in self.rows:
            for k, line in enumerate(wrap_text(text, console, inner, overflow="fold")):
                yield Segment(f"{number:>5} " if k == 0 else blank, self.number_style)
                yield from line.render(console)
                yield Segment.line()


class SideBySide:
    """Two renderables in two equal columns, or one under the other (``stack``, or when a
    column would be narrower than ``MIN_COLUMN`` cells)."""

    GAP = 2
    MIN_COLUMN = 40

    def __init__(self, left: RenderableType, right: RenderableType, stack: bool = False) -> None:
        self.left = left
        self.right = right
        self.stack = stack

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        if self.stack or (width - self.GAP) // 2 < self.MIN_COLUMN:
            yield self.left
            yield Text("")
            yield self.right
            return
        lw = max(1, (width - self.GAP) // 2)
        rw = max(1, width - self.GAP - lw)
        left = console.render_lines(self.left, options.update_width(lw), pad=True)
        right = console.render_lines(self.right, options.update_width(rw), pad=True)
        gap = Segment(" " * self.GAP)
        for i in range(max(len(left), len(right))):
            yield from left[i] if i < len(left) else [Segment(" " * lw)]
            yield gap
            yield from right[i] if i < len(right) else [Segment(" " * rw)]
            yield Segment.line()


def side_by_side(left: RenderableType, right: RenderableType, stack: bool = False) -> SideBySide:
    return SideBySide(left, right, stack)


def facts(pairs: Iterable[tuple[str, object]], st: StyleOf) -> Text:
    """``name value · name value`` for the non-empty values."""
    t = WrappedText(end="")
    first = True
    for name, value in pairs:
        if value is None or value == "":
            continue
        if not first:
            t.append("  ·  ", st("dim"))
        first = False
        t.append(f"{name} ", st("label"))
        t.append(one_line(str(value)))
    return t


def item_body(
    queue: str, item: dict, context, st: StyleOf, stack: bool = False
) -> list[RenderableType]:
    """The queue-specific evidence of one item: its unit's blocks, drawn (``stack``: a pair
    of entries one under the other rather than side by side)."""
    unit = registry.unit(queue)
    if unit is None:
        return []
    return [block_renderable(block, context, st, stack) for block in unit.evidence(item)]


def block_renderable(block: Block, context, st: StyleOf, stack: bool = False) -> RenderableType:
    """One evidence block as Rich text (every text from memory made visible first)."""
    if isinstance(block, Facts):
        return facts(block.pairs, st)
    if isinstance(block, RefBlock):
        return ref_block(context, block.ref, block.label, st, block.before, block.marks)
    if isinstance(block, Pair):
        left, right = block.left, block.right
        return side_by_side(
            ref_block(context, left.ref, left.label, st, before=left.before),
            ref_block(context, right.ref, right.label, st, before=right.before),
            stack,
        )
    if isinstance(block, Passage):
        t = WrappedText(end="")
        t.append(f"{block.label}\n", st("label"))
        shown = _line_text(block.text) if block.tabs else visible(block.text)
        t.append(shown, st(block.style))
        return t
    if isinstance(block, Caption):
        return WrappedText(block.text, style=st(block.style), end="")
    if isinstance(block, Differs):
        return differs_text(block, st)
    raise TypeError(f"not an evidence block: {type(block).__name__}")


def differs_text(block: Differs, st: StyleOf) -> Text:
    """``label`` then each pair, ``a → b``, each side made visible (an empty side: nothing
    there)."""
    t = WrappedText(end="")
    t.append(block.label + " ", st("label"))
    for n, (a, b) in enumerate(block.pairs):
        if n:
            t.append("  ·  ", st("dim"))
        for k, side in enumerate((a, b)):
            if k:
                t.append(" → ", st("dim"))
            if side.strip():
                t.append(one_line(side), st("diff-remove" if k == 0 else "diff-add"))
            else:
                t.append(_("(nothing)"), st("dim"))
    return t


def diff_text(diffs: dict[str, str], st: StyleOf) -> Text:
    """Unified diffs, one per file, coloured by line kind; memreview's own files (its list of
    hidden items) after the memory files."""
    t = Text(end="")
    ordered = sorted(diffs.items(), key=lambda kv: (kv[0].startswith(".memreview/"), kv[0]))
    for k, (path, diff) in enumerate(ordered):
        if k:
            t.append("\n")
        t.append(f"── {one_line(path)}\n", st("diff-file"))
        for line in diff.split("\n"):
            shown = _line_text(line)
            if line.startswith(("+++", "---")):
                t.append(shown + "\n", st("dim"))
            elif line.startswith("+"):
                t.append(shown + "\n", st("diff-add"))
            elif line.startswith("-"):
                t.append(shown + "\n", st("diff-remove"))
            elif line.startswith("@@"):
                t.append(shown + "\n", st("diff-hunk"))
            else:
                t.append(shown + "\n", st("context"))
    t.rstrip()
    return t


def decision_line(
    staged: tuple[Act, str] | None, hints: list[tuple[str, Act]], st: StyleOf
) -> Text:
    t = Text(end="")
    if staged is None:
        t.append(_("not decided"), st("dim"))
    else:
        act, label = staged
        t.append(_("staged: "), st("label"))
        t.append(label, st(act.tone))
        t.append(" — " + _(act.effect), st("dim"))
    t.append("\n")
    for k, (key, act) in enumerate(hints):
        if k:
            t.append("   ")
        t.append(key, st("key"))
        t.append(" ")
        t.append(_(act.label), st(act.tone))
    return t


def spaced(parts: list[RenderableType]) -> list[RenderableType]:
    """Parts separated by blank lines; each Text ends its own line (Group joins a Text that
    has no end with the next one, and the last line would be lost)."""
    out: list[RenderableType] = []
    for k, p in enumerate(parts):
        if k:
            out.append(Text(""))
        if isinstance(p, Text):
            p.end = "\n"
        out.append(p)
    return out


def primary_ref(item: dict) -> dict | None:
    """The entry an item is mainly about (``o`` opens it): A, the old anchor, the project,
    the anchor, else the first match or member."""
    for key in ("a", "old", "ref", "anchor"):
        if isinstance(item.get(key), dict):
            return item[key]
    for key in ("matches", "refs"):
        refs = item.get(key) or []
        if refs:
            return refs[0]
    return None
