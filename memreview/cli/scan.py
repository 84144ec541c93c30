"""``memreview scan``: the queues and health of one workspace or a fleet, as text or as one
JSON object (a script interface: its keys and values stay English)."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

from memreview.cli.interrupted import report_interrupted
from memreview.i18n import _, ngettext, use_language


def default_paths(paths: list[Path]) -> list[Path]:
    """``paths``, or every workspace found as OpenClaw does when none is given (all agents)."""
    from memreview.workspace.locate import default_roots

    return paths or default_roots(os.environ, Path.cwd())


def cmd_scan(args) -> int:
    """Scan the workspaces of ``args.paths`` and print the queues (text or ``--json``)."""
    from memreview.fleet import expand_fleet, fleet_scan_json, is_fleet
    from memreview.scan import scan_workspace

    args.paths = default_paths(args.paths)
    if args.json:  # a script's interface: English whatever the interface's language
        use_language("en")
    if is_fleet(args.paths):
        if args.json:
            doc = fleet_scan_json(args.paths, today=args.today, all_dormant=args.all_dormant)
            print_json(doc)
            return 0
        from memreview.display import one_line

        for name, root in expand_fleet(args.paths):
            sys.stdout.write(f"== {one_line(name)} ==\n")  # a directory name is text too
            result = scan_workspace(
                root,
                today=args.today,
                all_dormant=args.all_dormant,
                all_promotions=args.all_promotions,
            )
            print_scan(result)
            sys.stdout.write("\n")
        return 0
    agents = expand_fleet(args.paths)
    report_interrupted(agents[0][1], quiet=True)
    result = scan_workspace(
        agents[0][1],
        today=args.today,
        all_dormant=args.all_dormant,
        all_promotions=args.all_promotions,
    )
    for note in result.notes:  # about the cache: once, on stderr, never in the output
        print(f"memreview: {note}", file=sys.stderr)
    if args.json:
        print_json(result.to_json(), result.safe)
        return 0
    print_scan(result)
    return 0


# Written as \uXXXX escapes in JSON output: lone surrogates (bytes of a file that is not valid
# UTF-8: raw they are not UTF-8 at all), DEL, the C1 controls and the bidi controls (JSON
# allows them raw, and a terminal that is shown the output obeys them; docs/design.md §5).
_JSON_ESCAPE_RE = re.compile("[\ud800-\udfff\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def print_json(doc: dict, safe: frozenset[str] = frozenset()) -> None:
    """``doc`` as UTF-8 JSON on stdout, whatever the locale says, with the characters of
    ``_JSON_ESCAPE_RE`` escaped (Python's json reads them back as the same string) and every
    credential masked (the secrets queue's items already are; any other queue's text too).
    ``safe``: the queues (and ``health``) a scan took from its cache, which keeps only what
    holds no credential: not searched again."""
    from memreview.masking import mask_in

    queues = doc.get("queues") if isinstance(doc.get("queues"), dict) else {}
    kept = {name: items for name, items in queues.items() if name in safe}
    rest = {**doc, "queues": {n: v for n, v in queues.items() if n not in kept}} if queues else doc
    if "health" in safe and "health" in rest:
        rest = {k: v for k, v in rest.items() if k != "health"}
    masked = mask_in(rest)
    if rest is not doc:  # the safe parts put back, in their places
        done = masked.get("queues", {})
        masked = {
            k: (
                {n: kept[n] if n in kept else done[n] for n in queues}
                if k == "queues"
                else masked[k]
                if k in masked
                else v
            )
            for k, v in doc.items()
        }
    # one line: the C encoder (indent would take the pure-Python one, ten times slower)
    text = json.dumps(masked, ensure_ascii=False) + "\n"
    text = _JSON_ESCAPE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    data = text.encode("utf-8")
    buf = getattr(sys.stdout, "buffer", None)
    if buf is None:
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    buf.write(data)
    buf.flush()


TITLE_INDENT = 4


def title_width() -> int:
    """The cells a title may take: the terminal's width (``$COLUMNS``, else 104 when the
    output is not a terminal) less the indent."""
    return max(shutil.get_terminal_size((104, 24)).columns - TITLE_INDENT, 20)


def print_scan(result) -> None:
    """One workspace's scan as text: each queue's name and count and first five titles, then
    the warnings. Names, counts and notes are in the interface's language, titles as found."""
    from memreview.decisions.registry import shown_name, unit
    from memreview.display import visible
    from memreview.workspace.cells import cut_cells, width

    out = sys.stdout
    title_cells = title_width()
    out.write(
        _("workspace  {path}\nreview     {date}\n\n").format(
            path=visible(str(result.root)), date=result.today.isoformat()
        )
    )
    alarms = result.health.get("alarms") or []
    for a in alarms:
        line = _("ALARM {id}: {title}").format(id=a["id"], title=a["title"])
        out.write(visible(line) + "\n")
    if alarms:
        out.write(_("  (memreview doctor shows the evidence and what to do)") + "\n\n")
    labels = {name: shown_name(unit(name)) if unit(name) else name for name in result.queues}
    column = max([16, *(width(label) + 1 for label in labels.values())])
    for name, items in result.queues.items():
        label = labels[name]
        note = result.missing.get(name)
        hidden = result.hidden.get(name)
        line = label + " " * (column - width(label)) + f"{len(items):>5}"
        if hidden:
            line += "  " + ngettext("({count} hidden)", "({count} hidden)", hidden).format(
                count=hidden
            )
        if note and not items:
            line += "  — " + note
        out.write(line + "\n")
        for it in items[:5]:
            out.write(" " * TITLE_INDENT + cut_cells(visible(it["title"]), title_cells) + "\n")
        if len(items) > 5:
            more = len(items) - 5
            out.write(
                "    " + ngettext("… {count} more", "… {count} more", more).format(count=more)
            )
            out.write("\n")
    if result.warnings:
        count = len(result.warnings)
        out.write(
            "\n" + ngettext("{count} warning:", "{count} warnings:", count).format(count=count)
        )
        out.write("\n")
        for w in result.warnings:
            where = visible(w["file"] or "")
            if w["line"]:
                where += f":{w['line']}"
            out.write(f"  {where}: {visible(w['message'])}\n")
