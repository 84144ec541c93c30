"""The weekly report's boot memory lines (docs/design.md §2 "Boot memory"): each bootstrap file
against its window, the lines the agent never sees, and the promotion sections OpenClaw's
compaction deletes next."""

from __future__ import annotations

from memreview.i18n import _, ngettext
from memreview.report_markdown import md_text, number


def boot_lines(health: dict) -> list[str]:
    """Markdown bullets (none without a bootstrap file)."""
    boot = health.get("boot")
    if not boot:
        return []
    out = ["- " + _("Boot memory: what the agent sees at every session start")]
    for f in boot.get("files") or []:
        line = _("{file}: {chars} of {cap} characters").format(
            file=md_text(f["file"]), chars=number(f["chars"]), cap=number(f["cap"])
        )
        unseen = f.get("unseen")
        if unseen:
            line += "; " + _("not seen at boot: lines {first}–{last} ({size} characters)").format(
                first=unseen[0], last=unseen[1], size=number(f.get("unseen_chars", 0))
            )
        out.append("  - " + line)
        for ln, heading in (f.get("sections") or [])[:6]:
            out.append(
                "    - "
                + _("{heading} (line {line})").format(heading=md_text(str(heading), 80), line=ln)
            )
    pb = boot.get("promotion_budget")
    if pb:
        out.append(
            "  - "
            + _(
                "{file} against OpenClaw's promotion budget: {chars} of {budget} characters"
            ).format(
                file=md_text(pb["file"]), chars=number(pb["chars"]), budget=number(pb["budget"])
            )
        )
        for s in pb.get("deletes_next") or []:
            entries = ngettext("{count} entry", "{count} entries", s["entries"]).format(
                count=s["entries"]
            )
            out.append(
                "    - "
                + _("deleted next by its compaction: {heading} (line {line}, {entries})").format(
                    heading=md_text(str(s["heading"]), 80), line=s["line"], entries=entries
                )
            )
    return out
