"""The weekly report (``memreview report``): its rendering and its command.

The report is the weekly summary of seed 003, in Markdown: what waits in each queue, the
memory's health against its budgets (seed 002: past 12,000 tokens the nightly pipeline can no
longer settle anything into MEMORY.md), how fast the memory grows and whether that growth
accelerates (:mod:`memreview.growth`, from git history), what the human decided in the last
seven days (:func:`memreview.store.journal_replay.recent_decisions`) and the judge's report card
(:mod:`memreview.judge_card`). This module gathers those figures per agent, renders the
queues, puts the sections of :mod:`memreview.report_sections` together (for one workspace or
a fleet with a total) and runs the command, writing ``--out`` through the store's atomic
writer.

Everything shown here is memory text written by agents: every piece goes through
:func:`~memreview.report_markdown.md_text`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from memreview.decisions import registry
from memreview.fleet import expand_fleet, sum_counts
from memreview.growth import GIT_TIMEOUT, git_growth
from memreview.health import GROWTH_WEEKS, summarize_weeks
from memreview.i18n import _, ngettext
from memreview.judge_card import merge_cards, report_card
from memreview.report_markdown import md_text
from memreview.report_sections import (
    TOTAL_LABELS,
    render_alarms,
    render_decisions,
    render_growth,
    render_health,
    render_report_card,
    render_totals,
    render_warnings,
)
from memreview.scan import ScanResult, scan_workspace
from memreview.store import RECENT_DAYS, atomic_write, recent_decisions
from memreview.workspace.loader import OTHER_ROOT_FILES, ROOT_MEMORY_FILES, NotAWorkspace

TOP_ITEMS = 5


class ReportError(Exception):
    """A problem with the report's arguments or output file: one line, exit 2."""


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


def _render_queues(r: AgentReport, h: str) -> list[str]:
    s = r.scan
    heads = (_("queue"), _("waiting"), _("hidden"), _("note"))
    out = [
        f"{h} " + _("Queues"),
        "",
        "| " + " | ".join(heads) + " |",
        "|---|---:|---:|---|",
    ]
    everything = "**" + _("all") + "**"
    for unit in registry.units():
        name = unit.name
        items = s.queues.get(name, [])
        note = md_text(s.missing[name]) if name in s.missing and not items else ""
        label = registry.shown_name(unit)
        out.append(f"| {label} | {len(items)} | {s.hidden.get(name, 0)} | {note} |")
    out.append(f"| {everything} | {sum(s.counts.values())} | {sum(s.hidden.values())} | |")
    out += ["", _("*Hidden*: items that earlier decisions set aside (rejected, snoozed)."), ""]
    for unit in registry.units():
        items = s.queues.get(unit.name, [])
        if not items:
            continue
        heading = _("{queue} ({count})").format(queue=registry.shown_name(unit), count=len(items))
        out += [f"{h}# {heading}", ""]
        for it in items[:TOP_ITEMS]:
            title = md_text(it.get("title") or it.get("id", ""), 120)
            out.append(f"- {title}{unit.note(it)}")
        more = len(items) - TOP_ITEMS
        if more > 0:
            out.append(
                "- " + ngettext("… and {count} more", "… and {count} more", more).format(count=more)
            )
        out.append("")
    return out


def _render_agent(r: AgentReport, level: int) -> list[str]:
    h = "#" * level
    out: list[str] = []
    out += render_alarms(r.scan.health, h)
    out += _render_queues(r, h)
    out += render_health(r.scan.health, r.scan.workspace.config, h)
    out += render_growth(r.scan.health["growth"], r.git, h)
    out += render_decisions(r.journal, h)
    out += render_report_card(r.card, level)
    out += render_warnings(r.warnings, h)
    return out


def _sum_weeks(series: list[dict]) -> dict | None:
    series = [g for g in series if g and g.get("weeks")]
    if not series:
        return None
    weeks = [sum(g["weeks"][k] for g in series) for k in range(GROWTH_WEEKS)]
    return summarize_weeks(weeks, series[0]["week_starts"])


def _sum_totals(reports: list[AgentReport]) -> dict:
    out: dict = {}
    for key, _label in TOTAL_LABELS:
        values = [r.scan.health.get("totals", {}).get(key) for r in reports]
        values = [v for v in values if isinstance(v, int)]
        out[key] = sum(values) if values else None
    return out


def _render_total(reports: list[AgentReport], level: int) -> list[str]:
    h = "#" * level
    names = [md_text(r.name, 30) for r in reports]
    counts = sum_counts(r.scan.counts for r in reports)
    fired = [(r.name, a) for r in reports for a in r.scan.health.get("alarms") or []]
    out = [
        f"{h} " + _("Total"),
        "",
        _("Alarms: {count}").format(count=len(fired))
        + (
            " ("
            + ", ".join(f"{md_text(n, 30)}: {md_text(a.get('id', ''))}" for n, a in fired)
            + ")."
            if fired
            else "."
        ),
        "",
        "| " + _("queue") + " | " + " | ".join(names) + " | " + _("total") + " |",
        "|---|" + "---:|" * (len(reports) + 1),
    ]
    for unit in registry.units():
        q = unit.name
        cells = " | ".join(str(r.scan.counts.get(q, 0)) for r in reports)
        out.append(f"| {registry.shown_name(unit)} | {cells} | {counts[q]} |")
    cells = " | ".join(str(sum(r.scan.counts.values())) for r in reports)
    out += ["| **" + _("all") + f"** | {cells} | {sum(counts.values())} |", ""]
    out += [render_totals(_sum_totals(reports)), ""]
    over = []
    for r in reports:
        mem = r.scan.health.get("memory")
        if mem and (mem["tokens"] > mem["max_tokens"] or mem["lines"] > mem["max_lines"]):
            over.append(md_text(r.name, 30))
    over_text = ", ".join(over) if over else _("no agent")
    out += [_("MEMORY.md over budget: {agents}.").format(agents=over_text), ""]
    dated = _sum_weeks([r.scan.health["growth"] for r in reports])
    in_git = [r.git for r in reports if r.git.get("available")]
    git = _sum_weeks(in_git)
    git_total = (
        {"available": True, "commits": sum(g.get("commits", 0) for g in in_git), **git}
        if git
        else {"available": False, "reason": _("no agent's workspace is in a git repository")}
    )
    out += render_growth(dated, git_total, h + "#")
    decisions = sum(len(r.journal["decisions"]) for r in reports)
    out += [
        _("Decisions in the last {days} days: {count}.").format(days=RECENT_DAYS, count=decisions),
        "",
    ]
    out += render_report_card(merge_cards(r.card for r in reports), level + 1)
    out += [_("Warnings: {count}.").format(count=sum(len(r.warnings) for r in reports)), ""]
    return out


def render_report(reports: list[AgentReport]) -> str:
    """The weekly report for one workspace, or for a fleet (a section per agent and a total)."""
    if not reports:
        raise ValueError(_("no workspace to report on"))
    days = sorted({r.scan.today for r in reports})
    day = days[-1].isoformat() if len(days) == 1 else f"{days[0]} – {days[-1]}"
    if len(reports) == 1:
        r = reports[0]
        out = [
            "# "
            + _("Weekly memory review — {agent} — {date}").format(
                agent=md_text(r.name, 60), date=day
            ),
            "",
            _("Workspace: {path}").format(path=md_text(r.scan.root)) + "  ",
            _("Review date: {date}").format(date=r.scan.today.isoformat()),
            "",
        ]
        out += _render_agent(r, 2)
    else:
        out = [
            "# "
            + ngettext(
                "Weekly memory review — {count} agent — {date}",
                "Weekly memory review — {count} agents — {date}",
                len(reports),
            ).format(count=len(reports), date=day),
            "",
            _("Agents: {names}.").format(names=", ".join(md_text(r.name, 30) for r in reports)),
            "",
        ]
        out += _render_total(reports, 2)
        for r in reports:
            out += [
                "## " + _("Agent: {name}").format(name=md_text(r.name, 60)),
                "",
                _("Workspace: {path}").format(path=md_text(r.scan.root)) + "  ",
                _("Review date: {date}").format(date=r.scan.today.isoformat()),
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
        raise ReportError(
            _("--out {path}: cannot resolve path ({reason})").format(path=out, reason=exc)
        ) from None
    if real.is_dir():
        raise ReportError(_("--out {path}: is a directory").format(path=out))
    if not real.parent.is_dir():
        raise ReportError(
            _("--out {path}: directory {folder} does not exist").format(
                path=out, folder=real.parent
            )
        )
    for root in roots:
        root = Path(root).resolve()
        for sub in ("memory", ".memreview"):
            if real.is_relative_to(root / sub) or real.is_relative_to((root / sub).resolve()):
                raise ReportError(
                    _(
                        "--out {path}: refusing to write inside the workspace's {folder}/ directory"
                    ).format(path=out, folder=sub)
                )
        if real.parent == root and (
            real.name in _PROTECTED_ROOT_FILES or real.name.endswith(".boot.md")
        ):
            raise ReportError(
                _("--out {path}: refusing to overwrite the workspace's {file}").format(
                    path=out, file=real.name
                )
            )
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
        raise ReportError(
            _("--out {file}: cannot write ({error})").format(file=out, error=exc.strerror or exc)
        ) from None
    return real


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
    if not args.paths:
        from memreview.workspace.locate import default_roots

        args.paths = default_roots(os.environ, Path.cwd())
    try:
        fleet = expand_fleet(args.paths)
        reports = [build_agent_report(name, root, args.today) for name, root in fleet]
        text = render_report(reports)
        if args.out is not None:
            write_report(text, args.out, [root for _name, root in fleet])
        else:
            _write_stdout(text)
    except (NotAWorkspace, ReportError) as exc:
        print(_("memreview: {message}").format(message=exc), file=sys.stderr)
        return 2
    return 0
