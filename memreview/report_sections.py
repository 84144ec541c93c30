"""The sections of the weekly report, each rendered as Markdown lines: health, growth,
decisions, the judge's report card and warnings (the queues are rendered by
:mod:`memreview.report`, which puts the sections together).

Everything shown here is memory text written by agents: it goes through
:func:`memreview.report_markdown.md_text`, as do the figures through the helpers there.
"""

from __future__ import annotations

from memreview.decisions import registry
from memreview.display import sparkline
from memreview.i18n import N_, _, ngettext, shown
from memreview.judge_card import CONFIDENCE_BUCKETS, pct
from memreview.report_boot import boot_lines
from memreview.report_markdown import LIST_LIMIT, budget_status, md_text, more_lines, number
from memreview.store import RECENT_DAYS
from memreview.workspace.config import Config

# --- sections -------------------------------------------------------------------------------


def queue_health(health: dict) -> list[tuple[str, int, list[str]]]:
    """(title, number, lines) of the queues that show health figures of their own (their
    units' ``health_view``), in the registry's order."""
    out = []
    for unit in registry.units():
        figures = health.get(unit.name)
        view = unit.health_view(figures) if unit.health_view and figures else None
        if view is not None:
            out.append((unit.title, *view))
    return out


def render_report_card(card: dict, level: int = 2) -> list[str]:
    """The report card as Markdown lines: a table and the one-sentence verdict."""
    h = "#" * level
    out = [f"{h} " + _("The judge's report card"), ""]
    if not card["has_verdicts"]:
        out += [
            _("No verdicts yet (no `verdicts.jsonl`): the human hasn't ruled on a proposal."),
            "",
        ]
        return out
    if not card["total"]["decided"]:
        out += [_("No verdict stands (every one was undone, or none was recorded)."), ""]
        return out
    heads = (
        _("relation"),
        _("confidence"),
        _("approved"),
        _("rejected"),
        _("kept both"),
        _("approval rate"),
    )
    out += [
        _(
            "How often the human approved the judge's proposals, by the judge's confidence "
            "(the latest verdict per proposal; undone verdicts don't count)."
        ),
        "",
        "| " + " | ".join(heads) + " |",
        "|---|---|---:|---:|---:|---:|",
    ]

    def row(rel: str, bucket: str, c: dict) -> str:
        return (
            f"| {rel} | {bucket} | {c['approved']} | {c['rejected']} | {c['kept-both']} "
            f"| {pct(c['approval_rate'])} |"
        )

    everything = "**" + _("all") + "**"
    for rel, buckets in card["relations"].items():
        for b, c in buckets.items():
            out.append(row(md_text(rel, 40), b, c))
    for b in CONFIDENCE_BUCKETS:
        c = card["by_bucket"][b]
        if c["decided"]:
            out.append(row(everything, b, c))
    out.append(row(everything, everything, card["total"]))
    out += ["", card["summary"]]
    if card.get("restored"):
        out += [
            "",
            ngettext(
                "{count} approval was taken back by `memreview restore` (the archived anchor "
                "put back): it counts as rejected.",
                "{count} approvals were taken back by `memreview restore` (the archived anchors "
                "put back): they count as rejected.",
                card["restored"],
            ).format(count=card["restored"]),
        ]
    if card["unmatched"]:
        out += [
            "",
            ngettext(
                "{count} verdict names a proposal no longer in the judge's file "
                "(confidence shown as n/a).",
                "{count} verdicts name a proposal no longer in the judge's file "
                "(confidence shown as n/a).",
                card["unmatched"],
            ).format(count=card["unmatched"]),
        ]
    out.append("")
    return out


def render_health(health: dict, cfg: Config, h: str) -> list[str]:
    """The health section: budgets, stale todos, daily logs, dreaming, untouched files."""
    heads = (_("figure"), _("now"), _("budget"), _("status"))
    out = [f"{h} " + _("Health"), "", "| " + " | ".join(heads) + " |", "|---|---:|---:|---|"]
    mem = health.get("memory")
    if mem:
        label = md_text(mem["file"])
        out.append(
            "| " + _("{file} lines").format(file=label) + f" | {number(mem['lines'])} "
            f"| {number(mem['max_lines'])} | {budget_status(mem['lines'], mem['max_lines'])} |"
        )
        out.append(
            "| "
            + _("{file} tokens (estimated)").format(file=label)
            + f" | {number(mem['tokens'])} "
            f"| {number(mem['max_tokens'])} | {budget_status(mem['tokens'], mem['max_tokens'])} |"
        )
    else:
        out.append("| MEMORY.md | " + _("not read") + " | – | – |")
    hb = health.get("heartbeat")
    if hb:
        out.append(
            "| " + _("{file} lines").format(file=md_text(hb["file"])) + f" | {number(hb['lines'])} "
            f"| {number(hb['max_lines'])} | {budget_status(hb['lines'], hb['max_lines'])} |"
        )
    else:
        out.append(
            "| "
            + _("{file} lines").format(file=md_text(cfg.heartbeat))
            + " | "
            + _("absent")
            + f" | {number(cfg.heartbeat_max_lines)} | – |"
        )
    out.append("")

    out += boot_lines(health)
    stale = health.get("stale_todos") or []
    out.append(
        "- "
        + _("Todos in {file} open for more than {days} days: {count}").format(
            file=md_text(cfg.now), days=cfg.stale_todo_days, count=len(stale)
        )
    )
    for t in stale[:LIST_LIMIT]:
        out.append(
            f"  - {md_text(t['text'], 100)} "
            + ngettext("({days} day, line {line})", "({days} days, line {line})", t["days"]).format(
                days=t["days"], line=t["line"]
            )
        )
    out += ["  " + x for x in more_lines(stale)]

    logs = health.get("daily_logs") or {}
    missing, empty = logs.get("missing") or [], logs.get("empty") or []
    out.append(
        "- "
        + _(
            "Daily logs: {count} in all, the last on {last}; missing in the last {days} days: "
            "{missing}"
        ).format(
            count=number(logs.get("count", 0)),
            last=logs.get("last") or _("none yet"),
            days=RECENT_DAYS,
            missing=", ".join(missing) if missing else _("none"),
        )
    )
    out.append("- " + _("Empty daily logs: {count}").format(count=len(empty)))
    out += [f"  - {md_text(e)}" for e in empty[:LIST_LIMIT]]
    out += ["  " + x for x in more_lines(empty)]

    for _title, _count, lines in queue_health(health):
        out += [f"- {md_text(line)}" for line in lines]

    dream = health.get("dreaming") or {}
    if dream.get("last_run"):
        out.append(
            "- "
            + ngettext(
                "Dreaming diary: last run {date} ({days} day before the review date)",
                "Dreaming diary: last run {date} ({days} days before the review date)",
                dream["days_since"],
            ).format(date=dream["last_run"], days=dream["days_since"])
        )
    else:
        out.append("- " + _("Dreaming diary: no run found"))

    untouched = health.get("untouched") or []
    out.append(
        "- "
        + _("Knowledge files untouched for {days} days: {count}").format(
            days=cfg.untouched_days, count=len(untouched)
        )
    )
    for u in untouched[:LIST_LIMIT]:
        out.append(
            f"  - {md_text(u['file'])} "
            + ngettext("({days} day)", "({days} days)", u["days"]).format(days=u["days"])
        )
    out += ["  " + x for x in more_lines(untouched)]

    totals = health.get("totals") or {}
    if totals:
        out += ["", render_totals(totals)]
    out.append("")
    return out


TOTAL_LABELS = (
    ("memory_files", N_("memory files {count}")),
    ("entries", N_("entries {count}")),
    ("anchors", N_("anchors {count}")),
    ("archived_anchors", N_("archived anchors {count}")),
    ("fragments", N_("fragments {count}")),
    ("recalls", N_("recalls {count}")),
    ("proposals", N_("judge proposals {count}")),
    ("projects", N_("projects {count}")),
)


def render_totals(totals: dict) -> str:
    """The workspace's totals in one sentence."""
    parts = [
        _(label).format(count=number(totals[k]))
        for k, label in TOTAL_LABELS
        if totals.get(k) is not None
    ]
    return _("In all: {figures}.").format(figures=" · ".join(parts))


def _trend_sentence(g: dict) -> str:
    if g["accelerating"]:
        text = _(
            "over the last four weeks the weekly count changed by {slope} a week "
            "(the four weeks before: {before}) — **accelerating**"
        )
    else:
        text = _(
            "over the last four weeks the weekly count changed by {slope} a week "
            "(the four weeks before: {before}) — not accelerating"
        )
    return text.format(slope=f"{g['slope_4w']:+.2f}", before=f"{g['slope_prev_4w']:+.2f}")


def render_growth(dated: dict, git: dict, h: str) -> list[str]:
    """The growth section: entries per week, dated and from git, and the trend."""
    out = [
        f"{h} " + _("Growth"),
        "",
        _(
            "Entries added per week over the last {count} weeks, the last week ending on the "
            "review date. *Dated*: entries by their `Added:` line, the date of their promotion "
            "section or their dreaming stamp."
        ).format(count=len(dated["weeks"])),
    ]
    has_git = git.get("available") and git.get("commits")
    if has_git:
        out[-1] += " " + _("*Git*: entry lines added to memory files by the commits of that week.")
    out += [
        "",
        "| "
        + _("week from")
        + " | "
        + _("dated")
        + " |"
        + (" " + _("git") + " |" if has_git else ""),
        "|---|---:|" + ("---:|" if has_git else ""),
    ]
    for k, start in enumerate(dated["week_starts"]):
        row = f"| {start} | {dated['weeks'][k]} |"
        if has_git:
            row += f" {git['weeks'][k]} |"
        out.append(row)
    out += [
        "",
        "- "
        + _("Dated: {sparkline} {trend}.").format(
            sparkline=sparkline(dated["weeks"]), trend=_trend_sentence(dated)
        ),
    ]
    if has_git:
        out.append(
            "- "
            + _("Git: {sparkline} {trend}.").format(
                sparkline=sparkline(git["weeks"]), trend=_trend_sentence(git)
            )
        )
    elif git.get("available"):
        out.append(
            "- "
            + _("Git history: no commit in these {count} weeks touched a memory file.").format(
                count=len(dated["weeks"])
            )
        )
    else:
        reason = md_text(git.get("reason") or _("unavailable"))
        out.append("- " + _("Git history not used: {reason}.").format(reason=reason))
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


def render_decisions(journal: dict, h: str) -> list[str]:
    """The decisions of the last days, batches undone, batches cut short."""
    out = [f"{h} " + _("Decisions in the last {days} days").format(days=RECENT_DAYS), ""]
    if not journal["has_journal"]:
        out += [_("None recorded (no journal yet)."), ""]
        return out
    decisions = journal["decisions"]
    batches = len({d["batch"] for d in decisions})
    if decisions:
        in_batches = ngettext("in {count} batch", "in {count} batches", batches).format(
            count=batches
        )
        out.append(
            ngettext(
                "{count} decision {in_batches}:", "{count} decisions {in_batches}:", len(decisions)
            ).format(count=len(decisions), in_batches=in_batches)
        )
        out.append("")
        out += [_decision_text(d) for d in decisions]
    else:
        out.append(_("None."))
    undone = len(journal["undone_batches"])
    if undone:
        out += [
            "",
            ngettext(
                "{count} batch was undone and is left out.",
                "{count} batches were undone and are left out.",
                undone,
            ).format(count=undone),
        ]
    for b in journal["interrupted"]:
        out += [
            "",
            _(
                "A batch started on {date} ({batch}) was cut short before it committed; the "
                "app shows which of its files were left old or new."
            ).format(date=b["date"], batch=md_text(b["batch"], 40)),
        ]
    out.append("")
    return out


def render_warnings(warnings: list[dict], h: str) -> list[str]:
    """The first warnings about input files, and how many more."""
    if not warnings:
        return []
    out = [f"{h} " + _("Warnings ({count})").format(count=len(warnings)), ""]
    for w in warnings[:LIST_LIMIT]:
        where = md_text(w.get("file") or "")
        if w.get("line"):
            where += f":{w['line']}"
        message = md_text(shown(w.get("message", "")), 160)
        out.append(f"- {where}: {message}" if where else f"- {message}")
    out += more_lines(warnings)
    out.append("")
    return out


def render_alarms(health: dict, h: str) -> list[str]:
    """The alarms first (``health["alarms"]``): each with its evidence and what to do; one
    line saying none fired otherwise."""
    alarms = health.get("alarms") or []
    out = [f"{h} " + _("Alarms") + f" ({len(alarms)})", ""]
    if not alarms:
        return out + [_("No alarm fired."), ""]
    for a in alarms:
        out.append(f"- **{md_text(a.get('id', ''))}**: {md_text(a.get('title', ''))}")
        for line in a.get("evidence") or ():
            out.append(f"  - {md_text(line)}")
        out.append("  - " + _("what to do: ") + md_text(a.get("todo", "")))
    return out + [""]
