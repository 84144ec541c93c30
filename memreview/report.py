"""The weekly report (``memreview report``): its rendering and its command.

The report is the weekly summary of seed 003, in Markdown: what waits in each queue, the
memory's health against its budgets (seed 002: past 12,000 tokens the nightly pipeline can no
longer settle anything into MEMORY.md), how fast the memory grows and whether that growth
accelerates (:mod:`memreview.growth`, from git history), what the human decided in the last
seven days (:func:`memreview.store.journal.recent_decisions`) and the judge's report card
(:mod:`memreview.judge_card`). This module only gathers those figures and renders them.

Everything shown here is memory text written by agents: it is escaped twice, once so that no
control or bidi character reaches a terminal (DESIGN §5) and once so that it cannot become
Markdown structure, a link or HTML.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from memreview.display import one_line
from memreview.fleet import expand_fleet, sum_counts
from memreview.growth import GIT_TIMEOUT, git_growth
from memreview.health import GROWTH_WEEKS, summarize_weeks
from memreview.judge_card import CONFIDENCE_BUCKETS, merge_cards, pct, report_card
from memreview.queues.common import QUEUE_NAMES
from memreview.scan import ScanResult, scan_workspace
from memreview.store import RECENT_DAYS, atomic_write, recent_decisions
from memreview.workspace.dates import parse_date_arg
from memreview.workspace.loader import OTHER_ROOT_FILES, ROOT_MEMORY_FILES, NotAWorkspace

TOP_ITEMS = 5
LIST_LIMIT = 10
NEAR_BUDGET = 0.9


class ReportError(Exception):
    """A problem with the report's arguments or output file: one line, exit 2."""


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
    if width is not None and len(s) > width:
        s = s[: width - 1] + "…"
    s = _MD_INLINE_RE.sub(r"\\\1", s)
    m = _MD_LEADING_RE.match(s)
    if m:
        tok = m.group(1)
        s = (tok[:-1] + "\\" + tok[-1] if len(tok) > 1 else "\\" + tok) + s[len(tok) :]
    return s


# --- the judge's report card ------------------------------------------------------------


def render_report_card(card: dict, level: int = 2) -> list[str]:
    """The report card as Markdown lines: a table and the one-sentence verdict."""
    h = "#" * level
    out = [f"{h} The judge's report card", ""]
    if not card["has_verdicts"]:
        out += ["No verdicts yet (no `verdicts.jsonl`): the human hasn't ruled on a proposal.", ""]
        return out
    if not card["total"]["decided"]:
        out += ["No verdict stands (every one was undone, or none was recorded).", ""]
        return out
    out += [
        "How often the human approved the judge's proposals, by the judge's confidence "
        "(the latest verdict per proposal; undone verdicts don't count).",
        "",
        "| relation | confidence | approved | rejected | kept both | approval rate |",
        "|---|---|---:|---:|---:|---:|",
    ]

    def row(rel: str, bucket: str, c: dict) -> str:
        return (
            f"| {rel} | {bucket} | {c['approved']} | {c['rejected']} | {c['kept-both']} "
            f"| {pct(c['approval_rate'])} |"
        )

    for rel, buckets in card["relations"].items():
        for b, c in buckets.items():
            out.append(row(md_text(rel, 40), b, c))
    for b in CONFIDENCE_BUCKETS:
        c = card["by_bucket"][b]
        if c["decided"]:
            out.append(row("**all**", b, c))
    out.append(row("**all**", "**all**", card["total"]))
    out += ["", card["summary"]]
    if card["unmatched"]:
        out += [
            "",
            f"{card['unmatched']} verdict(s) name a proposal no longer in the judge's file "
            "(confidence shown as n/a).",
        ]
    out.append("")
    return out


# --- the report -----------------------------------------------------------------------------


@dataclass
class AgentReport:
    """Everything the report says about one workspace."""

    name: str
    scan: ScanResult
    git: dict
    journal: dict
    card: dict
    extra_warnings: list[dict] = field(default_factory=list)

    @property
    def warnings(self) -> list[dict]:
        return self.scan.warnings + self.journal["warnings"] + self.extra_warnings


def build_agent_report(
    name: str, root: Path, today: date | None = None, git_timeout: float = GIT_TIMEOUT
) -> AgentReport:
    """Scan one workspace and gather the report's figures for it."""
    scan = scan_workspace(root, today=today)
    return AgentReport(
        name=name,
        scan=scan,
        git=git_growth(scan.root, scan.today, scan.workspace.config, timeout=git_timeout),
        journal=recent_decisions(scan.root, scan.today),
        card=report_card(scan.workspace),
    )


def _plural(n: object, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _n(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else "–"


_SPARK = "▁▂▃▄▅▆▇█"


def sparkline(values: list[int]) -> str:
    top = max(values, default=0)
    if top <= 0:
        return _SPARK[0] * len(values)
    return "".join(_SPARK[min(7, round(v / top * 7))] for v in values)


def _budget_status(value: int, budget: int) -> str:
    if budget <= 0:
        return "–"
    share = value / budget
    if value > budget:
        return f"**over budget** ({share:.0%})"
    if share >= NEAR_BUDGET:
        return f"**near budget** ({share:.0%})"
    return f"ok ({share:.0%})"


def _item_note(queue: str, it: dict) -> str:
    if queue == "dormant":
        days = it.get("days_dormant")
        return " — never mentioned" if days is None else f" — dormant {_plural(days, 'day')}"
    if queue == "duplicates":
        return f" — {len(it.get('refs') or [])} entries ({it.get('kind')})"
    if queue == "archived":
        return f" — archived {_plural(it.get('days_since_last_seen'), 'day')} ago, still in memory"
    if queue == "demotion":
        return (
            f" — {_plural(it.get('recalls_90d'), 'recall')} in 90 days, "
            f"{_plural(it.get('age_days'), 'day')} old"
        )
    if queue == "skills" and it.get("count") is not None:
        return f" — seen {it['count']} times"
    conf = it.get("confidence")
    if isinstance(conf, int | float) and not isinstance(conf, bool):
        return f" — judge confidence {conf:.2f}"
    return ""


def _render_queues(r: AgentReport, h: str) -> list[str]:
    s = r.scan
    out = [
        f"{h} Queues",
        "",
        "| queue | waiting | hidden | note |",
        "|---|---:|---:|---|",
    ]
    for name in QUEUE_NAMES:
        items = s.queues.get(name, [])
        note = md_text(s.missing[name]) if name in s.missing and not items else ""
        out.append(f"| {name} | {len(items)} | {s.hidden.get(name, 0)} | {note} |")
    out.append(f"| **all** | {sum(s.counts.values())} | {sum(s.hidden.values())} | |")
    out += ["", "*Hidden*: items that earlier decisions set aside (rejected, snoozed).", ""]
    for name in QUEUE_NAMES:
        items = s.queues.get(name, [])
        if not items:
            continue
        out += [f"{h}# {name} ({len(items)})", ""]
        for it in items[:TOP_ITEMS]:
            title = md_text(it.get("title") or it.get("id", ""), 120)
            out.append(f"- {title}{_item_note(name, it)}")
        if len(items) > TOP_ITEMS:
            out.append(f"- … and {len(items) - TOP_ITEMS} more")
        out.append("")
    return out


def _more(listed: list, limit: int = LIST_LIMIT) -> list[str]:
    return [f"- … and {len(listed) - limit} more"] if len(listed) > limit else []


def _render_health(r: AgentReport, h: str) -> list[str]:
    health, cfg = r.scan.health, r.scan.workspace.config
    out = [f"{h} Health", "", "| figure | now | budget | status |", "|---|---:|---:|---|"]
    mem = health.get("memory")
    if mem:
        label = md_text(mem["file"])
        out.append(
            f"| {label} lines | {_n(mem['lines'])} | {_n(mem['max_lines'])} "
            f"| {_budget_status(mem['lines'], mem['max_lines'])} |"
        )
        out.append(
            f"| {label} tokens (estimated) | {_n(mem['tokens'])} | {_n(mem['max_tokens'])} "
            f"| {_budget_status(mem['tokens'], mem['max_tokens'])} |"
        )
    else:
        out.append("| MEMORY.md | not read | – | – |")
    hb = health.get("heartbeat")
    if hb:
        out.append(
            f"| {md_text(hb['file'])} lines | {_n(hb['lines'])} | {_n(hb['max_lines'])} "
            f"| {_budget_status(hb['lines'], hb['max_lines'])} |"
        )
    else:
        out.append(
            f"| {md_text(cfg.heartbeat)} lines | absent | {_n(cfg.heartbeat_max_lines)} | – |"
        )
    out.append("")

    stale = health.get("stale_todos") or []
    out.append(
        f"- Todos in {md_text(cfg.now)} open for more than {cfg.stale_todo_days} days: {len(stale)}"
    )
    for t in stale[:LIST_LIMIT]:
        out.append(f"  - {md_text(t['text'], 100)} ({_plural(t['days'], 'day')}, line {t['line']})")
    out += ["  " + x for x in _more(stale)]

    logs = health.get("daily_logs") or {}
    missing, empty = logs.get("missing") or [], logs.get("empty") or []
    out.append(
        f"- Daily logs: {_n(logs.get('count', 0))} in all, the last on {logs.get('last') or 'none yet'}; "
        f"missing in the last {RECENT_DAYS} days: {', '.join(missing) if missing else 'none'}"
    )
    out.append(f"- Empty daily logs: {len(empty)}")
    out += [f"  - {md_text(e)}" for e in empty[:LIST_LIMIT]]
    out += ["  " + x for x in _more(empty)]

    dream = health.get("dreaming") or {}
    if dream.get("last_run"):
        out.append(
            f"- Dreaming diary: last run {dream['last_run']} "
            f"({_plural(dream['days_since'], 'day')} before the review date)"
        )
    else:
        out.append("- Dreaming diary: no run found")

    untouched = health.get("untouched") or []
    out.append(f"- Knowledge files untouched for {cfg.untouched_days} days: {len(untouched)}")
    for u in untouched[:LIST_LIMIT]:
        out.append(f"  - {md_text(u['file'])} ({_plural(u['days'], 'day')})")
    out += ["  " + x for x in _more(untouched)]

    totals = health.get("totals") or {}
    if totals:
        out += ["", _render_totals(totals)]
    out.append("")
    return out


_TOTAL_LABELS = (
    ("memory_files", "memory files"),
    ("entries", "entries"),
    ("anchors", "anchors"),
    ("archived_anchors", "archived anchors"),
    ("fragments", "fragments"),
    ("recalls", "recalls"),
    ("proposals", "judge proposals"),
    ("projects", "projects"),
)


def _render_totals(totals: dict) -> str:
    parts = [f"{label} {_n(totals[k])}" for k, label in _TOTAL_LABELS if totals.get(k) is not None]
    return "In all: " + " · ".join(parts) + "."


def _trend_sentence(g: dict) -> str:
    verdict = "**accelerating**" if g["accelerating"] else "not accelerating"
    return (
        f"over the last four weeks the weekly count changed by {g['slope_4w']:+.2f} a week "
        f"(the four weeks before: {g['slope_prev_4w']:+.2f}) — {verdict}"
    )


def _render_growth(dated: dict, git: dict, h: str) -> list[str]:
    out = [
        f"{h} Growth",
        "",
        f"Entries added per week over the last {len(dated['weeks'])} weeks, the last week "
        "ending on the review date. *Dated*: entries by their `Added:` line, the date of their "
        "promotion section or their dreaming stamp.",
    ]
    has_git = git.get("available") and git.get("commits")
    if has_git:
        out[-1] += " *Git*: entry lines added to memory files by the commits of that week."
    out += [
        "",
        "| week from | dated |" + (" git |" if has_git else ""),
        "|---|---:|" + ("---:|" if has_git else ""),
    ]
    for k, start in enumerate(dated["week_starts"]):
        row = f"| {start} | {dated['weeks'][k]} |"
        if has_git:
            row += f" {git['weeks'][k]} |"
        out.append(row)
    out += ["", f"- Dated: {sparkline(dated['weeks'])} {_trend_sentence(dated)}."]
    if has_git:
        out.append(f"- Git: {sparkline(git['weeks'])} {_trend_sentence(git)}.")
    elif git.get("available"):
        out.append(
            f"- Git history: no commit in these {len(dated['weeks'])} weeks touched a memory file."
        )
    else:
        out.append(f"- Git history not used: {md_text(git.get('reason') or 'unavailable')}.")
    out.append("")
    return out


def _decision_text(d: dict) -> str:
    extra = []
    for key in ("queue", "keep", "kept"):
        if d.get(key) is not None and not isinstance(d.get(key), dict | list):
            extra.append(f"{key} {md_text(d[key], 40)}")
    title = d.get("title") if isinstance(d.get("title"), str) and d.get("title") else None
    label = md_text(title, 80) if title else md_text(d["item"], 60)
    tail = f" ({', '.join(extra)})" if extra else ""
    return f"- {d['date']} · {md_text(d.get('action', '?'), 30)} · {label}{tail}"


def _render_decisions(journal: dict, h: str) -> list[str]:
    out = [f"{h} Decisions in the last {RECENT_DAYS} days", ""]
    if not journal["has_journal"]:
        out += ["None recorded (no journal yet).", ""]
        return out
    decisions = journal["decisions"]
    batches = len({d["batch"] for d in decisions})
    if decisions:
        out.append(f"{len(decisions)} decision(s) in {batches} batch(es):")
        out.append("")
        out += [_decision_text(d) for d in decisions]
    else:
        out.append("None.")
    if journal["undone_batches"]:
        out += ["", f"{len(journal['undone_batches'])} batch(es) were undone and are left out."]
    for b in journal["interrupted"]:
        out += [
            "",
            f"A batch started on {b['date']} ({md_text(b['batch'], 40)}) was cut short before "
            "it committed; the app shows which of its files were left old or new.",
        ]
    out.append("")
    return out


def _render_warnings(warnings: list[dict], h: str) -> list[str]:
    if not warnings:
        return []
    out = [f"{h} Warnings ({len(warnings)})", ""]
    for w in warnings[:LIST_LIMIT]:
        where = md_text(w.get("file") or "")
        if w.get("line"):
            where += f":{w['line']}"
        out.append(
            f"- {where}: {md_text(w.get('message', ''), 160)}"
            if where
            else f"- {md_text(w.get('message', ''), 160)}"
        )
    out += _more(warnings)
    out.append("")
    return out


def _render_agent(r: AgentReport, level: int) -> list[str]:
    h = "#" * level
    out: list[str] = []
    out += _render_queues(r, h)
    out += _render_health(r, h)
    out += _render_growth(r.scan.health["growth"], r.git, h)
    out += _render_decisions(r.journal, h)
    out += render_report_card(r.card, level)
    out += _render_warnings(r.warnings, h)
    return out


def _sum_weeks(series: list[dict]) -> dict | None:
    series = [g for g in series if g and g.get("weeks")]
    if not series:
        return None
    weeks = [sum(g["weeks"][k] for g in series) for k in range(GROWTH_WEEKS)]
    return summarize_weeks(weeks, series[0]["week_starts"])


def _sum_totals(reports: list[AgentReport]) -> dict:
    out: dict = {}
    for key, _ in _TOTAL_LABELS:
        values = [r.scan.health.get("totals", {}).get(key) for r in reports]
        values = [v for v in values if isinstance(v, int)]
        out[key] = sum(values) if values else None
    return out


def _render_total(reports: list[AgentReport], level: int) -> list[str]:
    h = "#" * level
    names = [md_text(r.name, 30) for r in reports]
    counts = sum_counts(r.scan.counts for r in reports)
    out = [
        f"{h} Total",
        "",
        "| queue | " + " | ".join(names) + " | total |",
        "|---|" + "---:|" * (len(reports) + 1),
    ]
    for q in QUEUE_NAMES:
        cells = " | ".join(str(r.scan.counts.get(q, 0)) for r in reports)
        out.append(f"| {q} | {cells} | {counts[q]} |")
    cells = " | ".join(str(sum(r.scan.counts.values())) for r in reports)
    out += [f"| **all** | {cells} | {sum(counts.values())} |", ""]
    out += [_render_totals(_sum_totals(reports)), ""]
    over = []
    for r in reports:
        mem = r.scan.health.get("memory")
        if mem and (mem["tokens"] > mem["max_tokens"] or mem["lines"] > mem["max_lines"]):
            over.append(md_text(r.name, 30))
    out += [f"MEMORY.md over budget: {', '.join(over) if over else 'no agent'}.", ""]
    dated = _sum_weeks([r.scan.health["growth"] for r in reports])
    in_git = [r.git for r in reports if r.git.get("available")]
    git = _sum_weeks(in_git)
    git_total = (
        {"available": True, "commits": sum(g.get("commits", 0) for g in in_git), **git}
        if git
        else {"available": False, "reason": "no agent's workspace is in a git repository"}
    )
    out += _render_growth(dated, git_total, h + "#")
    decisions = sum(len(r.journal["decisions"]) for r in reports)
    out += [f"Decisions in the last {RECENT_DAYS} days: {decisions}.", ""]
    out += render_report_card(merge_cards(r.card for r in reports), level + 1)
    out += [f"Warnings: {sum(len(r.warnings) for r in reports)}.", ""]
    return out


def render_report(reports: list[AgentReport]) -> str:
    """The weekly report for one workspace, or for a fleet (a section per agent and a total)."""
    if not reports:
        raise ValueError("no workspace to report on")
    days = sorted({r.scan.today for r in reports})
    day = days[-1].isoformat() if len(days) == 1 else f"{days[0]} – {days[-1]}"
    if len(reports) == 1:
        r = reports[0]
        out = [
            f"# Weekly memory review — {md_text(r.name, 60)} — {day}",
            "",
            f"Workspace: {md_text(r.scan.root)}  ",
            f"Review date: {r.scan.today.isoformat()}",
            "",
        ]
        out += _render_agent(r, 2)
    else:
        out = [
            f"# Weekly memory review — {len(reports)} agents — {day}",
            "",
            "Agents: " + ", ".join(md_text(r.name, 30) for r in reports) + ".",
            "",
        ]
        out += _render_total(reports, 2)
        for r in reports:
            out += [
                f"## Agent: {md_text(r.name, 60)}",
                "",
                f"Workspace: {md_text(r.scan.root)}  ",
                f"Review date: {r.scan.today.isoformat()}",
                "",
            ]
            out += _render_agent(r, 3)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def weekly_report(
    paths: Iterable[Path | str] | Path | str,
    today: date | None = None,
    git_timeout: float = GIT_TIMEOUT,
) -> str:
    """The weekly report as Markdown for one or more workspaces (or fleet directories).

    Raises NotAWorkspace (one line) when a path holds no workspace.
    """
    if isinstance(paths, str | Path):
        paths = [paths]
    reports = [
        build_agent_report(name, root, today, git_timeout=git_timeout)
        for name, root in expand_fleet(paths)
    ]
    return render_report(reports)


# --- writing and the command line -----------------------------------------------------------

_PROTECTED_ROOT_FILES = {*ROOT_MEMORY_FILES, *OTHER_ROOT_FILES, "memreview.yaml"}


def check_output_path(out: Path, roots: Iterable[Path]) -> Path:
    """The real path to write the report to; ReportError if it would touch a workspace's
    memory (its ``memory/`` directory, memreview's ``.memreview/`` or a root memory file)."""
    target = Path(out).expanduser()
    try:
        real = target.resolve()
    except (OSError, RuntimeError) as exc:
        raise ReportError(f"--out {out}: cannot resolve path ({exc})") from None
    if real.is_dir():
        raise ReportError(f"--out {out}: is a directory")
    if not real.parent.is_dir():
        raise ReportError(f"--out {out}: directory {real.parent} does not exist")
    for root in roots:
        root = Path(root).resolve()
        for sub in ("memory", ".memreview"):
            if real.is_relative_to(root / sub) or real.is_relative_to((root / sub).resolve()):
                raise ReportError(
                    f"--out {out}: refusing to write inside the workspace's {sub}/ directory"
                )
        if real.parent == root and (
            real.name in _PROTECTED_ROOT_FILES or real.name.endswith(".boot.md")
        ):
            raise ReportError(f"--out {out}: refusing to overwrite the workspace's {real.name}")
    return real


def write_report(text: str, out: Path, roots: Iterable[Path]) -> Path:
    """Write the report to ``out`` whole, through the store's atomic writer."""
    real = check_output_path(out, roots)
    try:
        mode = real.stat().st_mode & 0o7777
    except OSError:
        mode = None
    try:
        atomic_write(real, text.encode("utf-8"), mode=mode, new_mode=0o666)
    except OSError as exc:
        raise ReportError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
    return real


def add_report_parser(subparsers) -> argparse.ArgumentParser:
    """Add ``report PATH… [--today D] [--out FILE]`` to an argparse subparsers object."""
    p = subparsers.add_parser(
        "report",
        help="the weekly report as Markdown (queues, health, growth, the judge's report card)",
    )
    p.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="a workspace, or a directory with one workspace per agent",
    )
    p.add_argument("--today", type=parse_date_arg, help="review date (YYYY-MM-DD)")
    p.add_argument("--out", type=Path, metavar="FILE", help="write the report to FILE")
    p.set_defaults(func=cmd_report)
    return p


def _write_stdout(text: str) -> None:
    buf = getattr(sys.stdout, "buffer", None)
    if buf is None:
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    buf.write(text.encode("utf-8"))
    buf.flush()


def cmd_report(args) -> int:
    """Run ``memreview report``: 0 on success, 2 with one line on stderr otherwise."""
    try:
        fleet = expand_fleet(args.paths)
        reports = [build_agent_report(name, root, args.today) for name, root in fleet]
        text = render_report(reports)
        if args.out is not None:
            write_report(text, args.out, [root for _, root in fleet])
        else:
            _write_stdout(text)
    except (NotAWorkspace, ReportError) as exc:
        print(f"memreview: {exc}", file=sys.stderr)
        return 2
    return 0
