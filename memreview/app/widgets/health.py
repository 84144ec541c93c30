"""The health view (docs/design.md §7): budgets, stale todos, missing logs, growth."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Label, Sparkline, Static

from memreview.app.keys import queue_title
from memreview.app.widgets import theme_colour
from memreview.app.wrap import Indented
from memreview.display import dated, days_ago, one_line
from memreview.i18n import N_, _, ngettext
from memreview.report_sections import TOTAL_LABELS, queue_health

BAR_WIDTH = 40


def bar(value: int, limit: int, ok: str, over: str, width: int = BAR_WIDTH) -> Text:
    """``█████░░░░ 320 / 500 (64%)``: full when at the budget, red past it."""
    t = Text(end="")
    frac = value / limit if limit else 0.0
    filled = min(width, round(frac * width))
    colour = over if value > limit else ok
    t.append("█" * filled, colour)
    t.append("░" * (width - filled), "dim")
    t.append(f" {value:,} / {limit:,}  ({frac:.0%})", f"bold {colour}" if value > limit else "")
    return t


class HealthView(VerticalScroll, can_focus=True):
    """Figures from ``result.health``; everything is read-only here. It has the focus while
    it shows, so the keys scroll it: the arrows, j, page up and down, home and end (k keeps
    its meaning in every queue)."""

    BINDINGS = [Binding("j", "scroll_down", N_("down"), show=False, id="health.down")]

    def compose(self) -> ComposeResult:
        yield Label(_("Health"), classes="pane-title")
        yield Static(id="health-alarms", markup=False)
        # until the scan's end: no figure yet (an empty chart would read as no entries)
        yield Static(
            _("computing the health figures… (they come once every queue is computed)"),
            id="health-budgets",
            markup=False,
        )
        yield Static(id="health-boot", markup=False)
        yield Label(_("Entries added per week (last 14 weeks)"), classes="health-heading")
        yield Sparkline([], id="health-growth")
        yield Static(id="health-growth-note", markup=False)
        yield Static(id="health-lists", markup=False)

    def show(self, health: dict, warnings: list[dict], missing: dict[str, str]) -> None:
        """Show the figures; figures of an unexpected shape are reported, not raised."""
        try:
            self._show(health, warnings, missing)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self.query_one("#health-lists", Static).update(
                Text(
                    _("The health figures could not be shown: {error}").format(
                        error=one_line(repr(exc))
                    )
                )
            )

    def _show(self, health: dict, warnings: list[dict], missing: dict[str, str]) -> None:
        ok = theme_colour(self.app, "budget-ok", "green")
        over = theme_colour(self.app, "budget-over", "red")
        t = Text(end="")
        mem = health.get("memory")
        rows: list[tuple[str, int, int]] = []
        if mem:
            lines = _("{file} lines").format(file=one_line(mem["file"]))
            tokens = _("{file} tokens").format(file=one_line(mem["file"]))
            rows.append((lines, mem["lines"], mem["max_lines"]))
            rows.append((tokens, mem["tokens"], mem["max_tokens"]))
        hb = health.get("heartbeat")
        if hb:
            lines = _("{file} lines").format(file=one_line(hb["file"]))
            rows.append((lines, hb["lines"], hb["max_lines"]))
        # labels padded in terminal cells (a Chinese label is twice as wide as its length)
        width = max((cell_len(label) for label, _v, _m in rows), default=0) + 2
        # under 100 columns a shorter bar keeps each budget on one line
        cells = BAR_WIDTH if self.app.size.width >= 100 else BAR_WIDTH // 2
        for label, value, limit in rows:
            if t.plain:
                t.append("\n")
            t.append(label + " " * (width - cell_len(label)), "bold")
            t.append_text(bar(value, limit, ok, over, cells))
        for found, name in ((mem, "MEMORY.md"), (hb, "HEARTBEAT.md")):
            if not found:
                t.append(("\n" if t.plain else "") + _("no {file}").format(file=name), "dim")
        self.query_one("#health-budgets", Static).update(t)
        boot = health.get("boot")
        self.query_one("#health-boot", Static).update(
            Indented(boot_text(boot, ok, over, BAR_WIDTH // 2)) if boot else Text("")
        )
        self.query_one("#health-boot", Static).display = bool(boot)

        growth = health.get("growth") or {}
        weeks = growth.get("weeks") or []
        self.query_one("#health-growth", Sparkline).data = [float(w) for w in weeks]
        note = Text(end="")
        if weeks:
            starts = growth.get("week_starts") or []
            if starts:
                text = _("{count} entries since {date}; this week {week}")
            else:
                text = _("{count} entries; this week {week}")
            note.append(
                text.format(count=sum(weeks), date=starts[0] if starts else "", week=weeks[-1])
            )
            slope = f"{growth.get('slope_4w', 0):+g}"
            note.append("   " + _("slope (4 weeks) {slope}").format(slope=slope))
            if growth.get("accelerating"):
                note.append("   " + _("▲ accelerating"), f"bold {over}")
        self.query_one("#health-growth-note", Static).update(note)
        lists = _lists(health, warnings, missing, over)
        self.query_one("#health-lists", Static).update(Indented(lists))
        alarms = health.get("alarms") or []
        self.query_one("#health-alarms", Static).update(Indented(_alarms(alarms, over)))
        self.query_one("#health-alarms", Static).display = bool(alarms)


def boot_text(boot: dict, ok: str, over: str, cells: int) -> Text:
    """Each bootstrap file against its window, the lines the agent never sees, and the
    promotion sections OpenClaw's compaction deletes next."""
    t = Text(end="")
    t.append("\n" + _("Boot memory: what the agent sees at every session start"), "bold")
    files = boot.get("files") or []
    width = max((cell_len(one_line(f["file"])) for f in files), default=0) + 2
    for f in files:
        name = one_line(f["file"])
        t.append("\n  " + name + " " * (width - cell_len(name)), "bold")
        t.append_text(bar(f["chars"], f["cap"], ok, over, cells))
        unseen = f.get("unseen")
        if unseen:
            t.append("\n      ")
            t.append(
                _("not seen at boot: lines {first}–{last} ({size} characters)").format(
                    first=unseen[0], last=unseen[1], size=f"{f.get('unseen_chars', 0):,}"
                ),
                f"bold {over}",
            )
            for line, heading in (f.get("sections") or [])[:6]:
                t.append(f"\n        {line:>5}  {one_line(str(heading))}", "dim")
            more = len(f.get("sections") or []) - 6
            if more > 0:
                t.append("\n        " + _("… and {count} more").format(count=more), "dim")
    pb = boot.get("promotion_budget")
    if pb:
        t.append("\n  ")
        t.append(
            _("{file} against OpenClaw's promotion budget").format(file=one_line(pb["file"])),
            "bold",
        )
        t.append("\n  " + " " * width)
        t.append_text(bar(pb["chars"], pb["budget"], ok, over, cells))
        gone = pb.get("deletes_next") or []
        if gone:
            t.append("\n      ")
            t.append(_("its compaction deletes next, oldest first:"), f"bold {over}")
            for s in gone[:6]:
                entries = ngettext("{count} entry", "{count} entries", s["entries"]).format(
                    count=s["entries"]
                )
                t.append(f"\n        {s['line']:>5}  {one_line(str(s['heading']))}  ")
                t.append(entries, "dim")
            if len(gone) > 6:
                t.append("\n        " + _("… and {count} more").format(count=len(gone) - 6))
        elif pb["chars"] > pb["budget"]:
            t.append("\n      " + _("no promotion section it can delete"), "dim")
    return t


def _alarms(alarms: list[dict], alert: str) -> Text:
    """Each alarm: its title, its evidence and what to do (texts quoting memory are made
    visible and masked by ``one_line``)."""
    t = Text(end="")
    t.append(_("Alarms") + f"  {len(alarms)}", f"bold {alert}")
    for alarm in alarms:
        t.append("\n  ⚠ ", f"bold {alert}")
        t.append(one_line(str(alarm.get("title", ""))), "bold")
        for line in alarm.get("evidence") or ():
            t.append(f"\n      {one_line(str(line))}", "dim")
        t.append("\n      " + _("what to do: "), alert)
        t.append(one_line(str(alarm.get("todo", ""))))
    t.append("\n")
    return t


def _lists(health: dict, warnings: list[dict], missing: dict[str, str], alert: str) -> Text:  # noqa: C901, PLR0915
    t = Text(end="")

    def heading(text: str, n: int | None = None) -> None:
        if t.plain:
            t.append("\n\n")
        t.append(text, "bold")
        if n is not None:
            t.append(f"  {n}", f"bold {alert}" if n else "dim")

    todos = health.get("stale_todos") or []
    heading(_("Stale NOW.md todos (> 3 days)"), len(todos))
    for td in todos:
        t.append(f"\n  {one_line(td['file'])}:{td['line']}  ", "dim")
        t.append(days_ago(td["days"]) + "  ", alert)
        t.append(one_line(td["text"]))

    logs = health.get("daily_logs") or {}
    miss = logs.get("missing") or []
    heading(_("Daily logs missing in the last 7 days"), len(miss))
    if miss:
        t.append("\n  " + ", ".join(miss))
    empty = logs.get("empty") or []
    heading(_("Empty daily logs"), len(empty))
    for rel in empty:
        t.append(f"\n  {one_line(rel)}")
    if logs.get("last"):
        last = _("last daily log: {date}  ({count} in all)").format(
            date=logs["last"], count=logs.get("count", 0)
        )
        t.append("\n  " + last, "dim")

    for title, count, lines in queue_health(health):  # figures a queue shows of its own
        heading(_(title), count)
        for line in lines:
            t.append(f"\n  {one_line(line)}")

    dreaming = health.get("dreaming") or {}
    heading(_("Dreaming diary"))
    if dreaming.get("last_run"):
        days = dreaming.get("days_since")
        t.append(
            "\n  " + _("last run {when}").format(when=dated(dreaming["last_run"], days)),
            f"bold {alert}" if days and days > 2 else "",
        )
    else:
        t.append("\n  " + _("no run found"), "dim")

    untouched = health.get("untouched") or []
    heading(_("Knowledge files untouched for 30 days"), len(untouched))
    for u in untouched:
        t.append(f"\n  {one_line(u['file'])}  ", "")
        t.append(days_ago(u["days"]), "dim")

    judge = health.get("judge")
    if judge:
        heading(_("The judge's report card"), (judge.get("total") or {}).get("decided", 0))
        for band in judge.get("buckets") or []:
            row = (judge.get("by_bucket") or {}).get(band) or {}
            if not row.get("decided"):
                continue
            rate = row.get("approval_rate")
            t.append("\n  " + _("confidence {band}").format(band=f"{band:<8}"), "dim")
            approved = _("approved {approved} of {decided}").format(
                approved=row.get("approved", 0), decided=row["decided"]
            )
            t.append(approved + (f"  ({rate:.0%})" if isinstance(rate, float) else ""))
        if judge.get("summary"):
            t.append(f"\n  {one_line(str(judge['summary']))}", "dim")

    totals = health.get("totals") or {}
    if totals:
        heading(_("Totals"))
        labels = dict(TOTAL_LABELS)
        t.append(
            "\n  "
            + "   ".join(
                _(labels[k]).format(count=v if v is not None else "—")
                if k in labels
                else f"{k.replace('_', ' ')} {v if v is not None else '—'}"
                for k, v in totals.items()
            )
        )
    if missing:
        heading(_("Sources not found"), len(missing))
        for queue, why in missing.items():
            t.append(f"\n  {queue_title(queue)}: ", "bold")
            t.append(one_line(why), "dim")
    heading(_("Warnings"), len(warnings))
    for w in warnings:
        where = one_line(str(w.get("file") or _("workspace")))
        if w.get("line"):
            where += f":{w['line']}"
        t.append(f"\n  {where}  ", "dim")
        t.append(one_line(str(w.get("message", ""))))
    return t
