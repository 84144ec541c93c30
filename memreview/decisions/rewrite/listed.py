"""A status set on a project kept in a list (docs/design.md §3, dormant ``archive``/``done``): the
project's own lines change, the rest of the file keeps its bytes. A table row gets the value
in its status cell; a list item in its ``Status:``/``状态：`` value, else the value appended to
its first line; a heading's section in its status line, else a new one under the heading."""

from __future__ import annotations

from memreview.decisions.rewrite.lines import matched
from memreview.workspace.markdown import STATUS_LINE_RE, find_status_line
from memreview.workspace.project_lists import inline_status


def listed_status(
    lines: list[str], kind: str, cell: int | None, value: str, chinese: bool
) -> list[str]:
    """``lines`` (a project's item, row or heading section) with its status set to ``value``
    (``done (2026-11-30)``, ``已完成（2026-11-30）``)."""
    out = list(lines)
    if kind == "row":
        return [_row_status(out[0], cell, value, chinese)]
    if kind == "heading":
        at = find_status_line(out[1:])
        if at is None:
            label = "状态：" if chinese else "Status: "
            return [out[0], label + value, *out[1:]]
        line = matched(STATUS_LINE_RE, out[at + 1])
        out[at + 1] = line.group("head") + value + line.group("tail")
        return out
    for k, text in enumerate(out):
        m = inline_status(text)
        if m:
            v_start, v_end = m.span("v")
            body = m.group("v")
            lead = len(body) - len(body.lstrip(" *_"))
            trail = len(body) - len(body.rstrip(" *_"))
            out[k] = text[: v_start + lead] + value + text[v_end - trail :]
            return out
    sep = "，状态：" if chinese else " — Status: "
    out[0] = out[0].rstrip() + sep + value
    return out


def _row_status(text: str, cell: int | None, value: str, chinese: bool) -> str:
    """A table row with ``value`` in its status cell (its padding kept), or appended to its
    last cell as ``Status: value`` when the table has no status column."""
    lead = text[: len(text) - len(text.lstrip())]
    body = text.strip()
    opened, closed = body.startswith("|"), body.endswith("|") and len(body) > 1
    inner = body[1 if opened else 0 : -1 if closed else len(body)]
    cells = inner.split("|")
    if cell is None or cell >= len(cells):
        label = "状态：" if chinese else "Status: "
        last = cells[-1].rstrip()
        cells[-1] = (
            f"{last}{'；' if chinese else ';'} {label}{value} "
            if last.strip()
            else f" {label}{value} "
        )
    else:
        old = cells[cell]
        left = old[: len(old) - len(old.lstrip())] or " "
        right = old[len(old.rstrip()) :] or " "
        cells[cell] = left + value + right
    return lead + ("|" if opened else "") + "|".join(cells) + ("|" if closed else "")
