"""The weekly report (``memreview report``) and the judge's report card.

The report is the weekly summary of seed 003, in Markdown: what waits in each queue, the
memory's health against its budgets (seed 002: past 12,000 tokens the nightly pipeline can no
longer settle anything into MEMORY.md), how fast the memory grows and whether that growth
accelerates (seed 003 measured it from git history, where every write is a commit), and what
the human decided in the last seven days.

The judge's report card answers seed 003's question about the small-model judge — was it
confidently wrong? — with the human's own verdicts: how often each relation was approved,
by the judge's confidence.

Everything shown here is memory text written by agents: it is escaped twice, once so that no
control or bidi character reaches a terminal (DESIGN §5) and once so that it cannot become
Markdown structure, a link or HTML.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from memreview.display import one_line
from memreview.fleet import expand_fleet, sum_counts
from memreview.health import GROWTH_WEEKS
from memreview.queues.common import QUEUE_NAMES
from memreview.scan import SCHEMA, ScanResult, scan_workspace
from memreview.store.paths import PathEscape, safe_read_bytes
from memreview.workspace.config import Config, load_config
from memreview.workspace.dates import parse_date, parse_date_prefix
from memreview.workspace.loader import (
    DAILY_RE,
    OTHER_ROOT_FILES,
    ROOT_MEMORY_FILES,
    SKIP_UNDER_MEMORY,
    NotAWorkspace,
    check_workspace,
)
from memreview.workspace.model import Workspace

TOP_ITEMS = 5
LIST_LIMIT = 10
RECENT_DAYS = 7
NEAR_BUDGET = 0.9
GIT_TIMEOUT = 10.0
JOURNAL = ".memreview/journal.jsonl"

CONFIDENCE_BUCKETS = ("<0.5", "0.5–0.7", "0.7–0.9", "0.9–1.0", "n/a")
NUMERIC_BUCKETS = CONFIDENCE_BUCKETS[:4]
VERDICTS = ("approved", "rejected", "kept-both")
RELATION_ORDER = ("supersedes", "contradicts", "duplicate", "complements")


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


# --- reading our own JSON-lines files defensively --------------------------------------------


def _inside(root: Path, rel: str) -> Path | None:
    try:
        real = (root / rel).resolve()
        real.relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):
        return None
    return real


def read_jsonl(root: Path, rel: str, warnings: list[dict]) -> list[tuple[int, dict]] | None:
    """(line number, object) for each good line of ``rel``; None when the file is absent.

    Bad lines are skipped with a warning, and so is a file that leads out of the workspace.
    """
    p = root / rel
    if not (p.exists() or p.is_symlink()):
        return None
    real = _inside(root, rel)
    if real is None:
        warnings.append(
            {"file": rel, "line": None, "message": "skipped: leads outside the workspace"}
        )
        return None
    try:
        # never blocks on a named pipe, never follows a symlink swapped in after the check
        data = safe_read_bytes(root, rel)
    except FileNotFoundError:
        return None
    except (OSError, PathEscape) as exc:
        warnings.append(
            {"file": rel, "line": None, "message": f"cannot read: {exc.strerror or exc}"}
            if isinstance(exc, OSError)
            else {"file": rel, "line": None, "message": "skipped: leads outside the workspace"}
        )
        return None
    out: list[tuple[int, dict]] = []
    bad = 0
    for no, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            obj = None
        if not isinstance(obj, dict):
            bad += 1
            if bad <= LIST_LIMIT:
                warnings.append({"file": rel, "line": no, "message": "not a JSON object; skipped"})
            continue
        out.append((no, obj))
    if bad > LIST_LIMIT:
        warnings.append(
            {"file": rel, "line": None, "message": f"{bad - LIST_LIMIT} more bad lines skipped"}
        )
    return out


def _str(v: object) -> str | None:
    return v if isinstance(v, str) and v else None


# --- the judge's report card ----------------------------------------------------------------


def confidence_bucket(conf: object) -> str:
    """The report card's band for a judge confidence (``n/a`` when unknown or not in 0–1)."""
    if isinstance(conf, bool) or not isinstance(conf, int | float):
        return "n/a"
    c = float(conf)
    if not 0.0 <= c <= 1.0:  # also NaN
        return "n/a"
    if c < 0.5:
        return "<0.5"
    if c < 0.7:
        return "0.5–0.7"
    if c < 0.9:
        return "0.7–0.9"
    return "0.9–1.0"


def _cell() -> dict:
    return {"approved": 0, "rejected": 0, "kept-both": 0, "decided": 0, "approval_rate": None}


def _add(cell: dict, verdict: str) -> None:
    cell[verdict] += 1
    cell["decided"] += 1
    cell["approval_rate"] = round(cell["approved"] / cell["decided"], 4)


def _proposals_from_file(root: Path, cfg: Config, warnings: list[dict]) -> dict[str, dict]:
    rows = read_jsonl(root, cfg.proposals, warnings) or []
    out: dict[str, dict] = {}
    for _, obj in rows:
        pid = _str(obj.get("id"))
        if pid is not None:
            out[pid] = {"relation": _str(obj.get("relation")), "confidence": obj.get("confidence")}
    return out


def _ordered(relations: dict[str, dict[str, dict]]) -> dict[str, dict[str, dict]]:
    """Known relations first in their usual order, then the others by name; bands in order."""

    def key(r: str) -> tuple:
        return (RELATION_ORDER.index(r) if r in RELATION_ORDER else len(RELATION_ORDER), r)

    return {
        r: {b: relations[r][b] for b in CONFIDENCE_BUCKETS if b in relations[r]}
        for r in sorted(relations, key=key)
    }


def _card_inputs(source) -> tuple[Path, Config, dict[str, dict] | None, list[dict]]:
    warnings: list[dict] = []
    if isinstance(source, ScanResult):
        source = source.workspace
    if isinstance(source, Workspace):
        props = None
        if source.proposals is not None:
            props = {
                p.id: {"relation": p.relation, "confidence": p.confidence} for p in source.proposals
            }
        return source.root, source.config, props, warnings
    root = check_workspace(Path(source))
    cfg_path = _inside(root, "memreview.yaml")
    data = None
    if cfg_path is not None and cfg_path.is_file():
        try:
            data = cfg_path.read_bytes()
        except OSError:
            data = None
    cfg, _problems = load_config(data)
    return root, cfg, _proposals_from_file(root, cfg, warnings), warnings


def report_card(source: Path | str | Workspace | ScanResult) -> dict:
    """How often the human approved the judge, per relation and confidence band (JSON-able).

    ``source`` is a workspace root, a loaded Workspace or a ScanResult. Verdicts
    (``verdicts.jsonl``, DESIGN §1.3) are joined with the judge's proposals by proposal id;
    the confidence comes from the proposal. Per proposal the latest verdict counts, and an
    ``undone`` line takes back the verdict before it.
    """
    root, cfg, props, warnings = _card_inputs(source)
    rows = read_jsonl(root, cfg.verdicts, warnings)
    stacks: dict[str, list[tuple[str, str | None]]] = {}
    undone = 0
    for no, obj in rows or []:
        pid, verdict = _str(obj.get("proposal")), obj.get("verdict")
        if pid is None or verdict not in (*VERDICTS, "undone"):
            warnings.append(
                {
                    "file": cfg.verdicts,
                    "line": no,
                    "message": "verdict without a proposal id or a known verdict; skipped",
                }
            )
            continue
        stack = stacks.setdefault(pid, [])
        if verdict == "undone":
            undone += 1
            if stack:
                stack.pop()
            continue
        stack.append((verdict, _str(obj.get("relation"))))

    relations: dict[str, dict[str, dict]] = {}
    by_bucket = {b: _cell() for b in CONFIDENCE_BUCKETS}
    total = _cell()
    unmatched = 0
    for pid, stack in stacks.items():
        if not stack:
            continue
        verdict, relation = stack[-1]
        prop = (props or {}).get(pid)
        if prop is None:
            unmatched += 1
        relation = (prop or {}).get("relation") or relation or "unknown"
        bucket = confidence_bucket((prop or {}).get("confidence"))
        cell = relations.setdefault(relation, {}).setdefault(bucket, _cell())
        for c in (cell, by_bucket[bucket], total):
            _add(c, verdict)

    relations = _ordered(relations)
    trend, summary = _trend(by_bucket)
    return {
        "schema": SCHEMA,
        "buckets": list(CONFIDENCE_BUCKETS),
        "relations": relations,
        "by_bucket": by_bucket,
        "total": total,
        "verdict_lines": len(rows or []),
        "undone": undone,
        "unmatched": unmatched,
        "has_verdicts": rows is not None,
        "trend": trend,
        "summary": summary,
        "warnings": warnings,
    }


def merge_cards(cards: Iterable[dict]) -> dict:
    """Report cards of several agents added up into one."""
    cards = list(cards)
    relations: dict[str, dict[str, dict]] = {}
    by_bucket = {b: _cell() for b in CONFIDENCE_BUCKETS}
    total = _cell()
    for card in cards:
        for r, buckets in card["relations"].items():
            for b, cell in buckets.items():
                target = relations.setdefault(r, {}).setdefault(b, _cell())
                for c in (target, by_bucket[b], total):
                    for v in VERDICTS:
                        c[v] += cell[v]
                        c["decided"] += cell[v]
    for c in [total, *by_bucket.values(), *(x for r in relations.values() for x in r.values())]:
        c["approval_rate"] = round(c["approved"] / c["decided"], 4) if c["decided"] else None
    relations = _ordered(relations)
    trend, summary = _trend(by_bucket)
    return {
        "schema": SCHEMA,
        "buckets": list(CONFIDENCE_BUCKETS),
        "relations": relations,
        "by_bucket": by_bucket,
        "total": total,
        "verdict_lines": sum(c["verdict_lines"] for c in cards),
        "undone": sum(c["undone"] for c in cards),
        "unmatched": sum(c["unmatched"] for c in cards),
        "has_verdicts": any(c["has_verdicts"] for c in cards),
        "trend": trend,
        "summary": summary,
        "warnings": [w for c in cards for w in c["warnings"]],
    }


def _pct(rate: float | None) -> str:
    return "–" if rate is None else f"{rate:.0%}"


def _trend(by_bucket: dict[str, dict]) -> tuple[str, str]:
    """Did higher confidence mean more approvals? (trend word, one sentence)."""
    seen = [(b, by_bucket[b]["approval_rate"]) for b in NUMERIC_BUCKETS if by_bucket[b]["decided"]]
    if not seen:
        return "unknown", "No verdicts on proposals with a known confidence yet."
    if len(seen) == 1:
        b, r = seen[0]
        return (
            "unknown",
            f"All verdicts fall in one confidence band ({b}, {_pct(r)} approved), so it "
            "can't yet tell whether higher confidence meant more approvals.",
        )
    rates = [r for _, r in seen]
    (b0, r0), (b1, r1) = seen[0], seen[-1]
    steps = list(zip(rates, rates[1:], strict=False))
    if all(a == b for a, b in steps):
        return "same", f"Higher confidence did not mean more approvals: {_pct(r0)} in every band."
    if all(a <= b for a, b in steps):
        return (
            "more",
            f"Higher confidence meant more approvals: {_pct(r0)} at {b0}, "
            f"rising to {_pct(r1)} at {b1}.",
        )
    if all(a >= b for a, b in steps):
        return (
            "fewer",
            f"Higher confidence did not mean more approvals — it meant fewer: {_pct(r0)} at "
            f"{b0}, falling to {_pct(r1)} at {b1}.",
        )
    listing = ", ".join(f"{_pct(r)} at {b}" for b, r in seen)
    return "mixed", f"Higher confidence did not steadily mean more approvals: {listing}."


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
            f"| {_pct(c['approval_rate'])} |"
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


# --- growth from git history ----------------------------------------------------------------

_ENTRY_LINE_RE = re.compile(r"^(?:[-*] |\||#{2,3} \[)")
_TABLE_SEP_RE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def summarize_weeks(weeks: list[int], week_starts: list[str]) -> dict:
    """Weekly counts with the four-week slope (least squares) and whether it accelerates.

    The same figures as ``health.growth``: accelerating means the slope of the last four
    weeks is positive and steeper than that of the four before.
    """
    slope, prev = _slope(weeks[-4:]), _slope(weeks[-8:-4])
    return {
        "weeks": list(weeks),
        "week_starts": list(week_starts),
        "slope_4w": round(slope, 2),
        "slope_prev_4w": round(prev, 2),
        "accelerating": slope > 0 and slope > prev,
    }


def _slope(values: list[int]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mx, my = (n - 1) / 2, sum(values) / n
    num = sum((x - mx) * (y - my) for x, y in enumerate(values))
    return num / sum((x - mx) ** 2 for x in range(n))


def _week_starts(today: date, weeks: int = GROWTH_WEEKS) -> tuple[date, list[str]]:
    first = today - timedelta(days=7 * weeks - 1)
    return first, [(first + timedelta(days=7 * k)).isoformat() for k in range(weeks)]


def is_memory_path(rel: str, cfg: Config | None = None) -> bool:
    """Whether a workspace-relative path names a memory file (DESIGN §1.1)."""
    cfg = cfg or Config()
    parts = rel.split("/")
    if len(parts) == 1:
        return rel in ROOT_MEMORY_FILES
    if parts[0] != "memory" or not rel.endswith(".md"):
        return False
    if len(parts) > 2 and parts[1] in SKIP_UNDER_MEMORY:
        return False
    if rel.startswith(cfg.archive_dir.rstrip("/") + "/"):
        return False
    return not DAILY_RE.match(parts[-1])


def _git_env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CEILING_DIRECTORIES")
    }
    env.update(GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    return env


def _git(root: Path, args: list[str], timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "-c", "core.quotepath=off", "-c", "color.ui=never", "-C", str(root), *args],
        capture_output=True,
        timeout=timeout,
        env=_git_env(),
        stdin=subprocess.DEVNULL,
        check=False,
    )


def _entry_lines(added: list[str]) -> list[str]:
    """The added lines that start an entry: no table separator, no header row above one."""
    out = []
    for k, line in enumerate(added):
        if not _ENTRY_LINE_RE.match(line) or _TABLE_SEP_RE.match(line):
            continue
        if line.startswith("|") and k + 1 < len(added) and _TABLE_SEP_RE.match(added[k + 1]):
            continue
        out.append(line.rstrip())
    return out


def _parse_git_log(out: bytes, cfg: Config) -> list[tuple[date, int]]:
    """(author date, entries added) per commit of ``git log -p -U0 --format=%x00%aI``."""
    commits: list[tuple[date, int]] = []
    day: date | None = None
    added: dict[str, list[str]] = {}
    removed: dict[str, list[str]] = {}
    path: str | None = None
    in_hunk = False

    def flush() -> None:
        if day is None:
            return
        new = Counter(line for lines in added.values() for line in _entry_lines(lines))
        gone = Counter(line for lines in removed.values() for line in _entry_lines(lines))
        # A line that left one place and arrived in another in the same commit moved.
        n = sum((new - gone).values())
        if n:
            commits.append((day, n))

    for raw in out.split(b"\n"):
        if raw.startswith(b"\x00"):
            flush()
            day = parse_date_prefix(raw[1:].decode("ascii", "replace"))
            added, removed, path, in_hunk = {}, {}, None, False
        elif raw.startswith(b"diff --git "):
            path, in_hunk = None, False
        elif not in_hunk and raw.startswith(b"+++ "):
            name = raw[4:].decode("utf-8", "replace").strip().strip('"')
            name = name[2:] if name.startswith("b/") else None
            path = name if name and is_memory_path(name, cfg) else None
        elif raw.startswith(b"@@"):
            in_hunk = True
        elif in_hunk and path is not None and raw[:1] in (b"+", b"-"):
            text = raw[1:].decode("utf-8", "replace")
            (added if raw[:1] == b"+" else removed).setdefault(path, []).append(text)
    flush()
    return commits


def git_growth(
    root: Path, today: date, cfg: Config | None = None, timeout: float = GIT_TIMEOUT
) -> dict:
    """Entries added to memory files per week, read from git history (seed 003's method).

    Each commit's author date counts; an entry line is one that starts with ``- ``,
    ``* ``, ``|`` (not a header row or separator) or ``## [``/``### [``, at the start of the
    line. Lines that a commit only moved (removed elsewhere in the same commit) don't count.
    Git runs read-only, with a timeout; ``available`` is False (with a reason) when the
    workspace is not in a git repository, git is missing, or it fails.
    """
    root = Path(root).resolve()
    first, starts = _week_starts(today)
    unavailable = {"available": False, "reason": None}
    try:
        probe = _git(root, ["rev-parse", "--is-inside-work-tree"], timeout)
        if probe.returncode != 0 or probe.stdout.strip() != b"true":
            err = probe.stderr.decode("utf-8", "replace").strip().split("\n")[0]
            if not err or "not a git repository" in err:
                err = "not a git repository"
            return {**unavailable, "reason": err}
        since = (first - timedelta(days=1)).isoformat()
        log = _git(
            root,
            [
                "log",
                "--relative",
                "--no-color",
                "--no-ext-diff",
                "--no-textconv",
                "-M",
                "-p",
                "-U0",
                "--format=%x00%aI",
                f"--since={since}",
                "--",
                *ROOT_MEMORY_FILES,
                "memory",
            ],
            timeout,
        )
    except FileNotFoundError:
        return {**unavailable, "reason": "git is not installed"}
    except subprocess.TimeoutExpired:
        return {**unavailable, "reason": f"git log took longer than {timeout:g} s"}
    except OSError as exc:
        return {**unavailable, "reason": f"cannot run git: {exc.strerror or exc}"}
    if log.returncode != 0:
        err = log.stderr.decode("utf-8", "replace").strip().split("\n")[0]
        if "does not have any commits" in err:
            err = "no commits yet"
        return {**unavailable, "reason": err or f"git log failed ({log.returncode})"}
    weeks = [0] * GROWTH_WEEKS
    commits = 0
    for day, n in _parse_git_log(log.stdout, cfg or Config()):
        if first <= day <= today:
            weeks[(day - first).days // 7] += n
            commits += 1
    return {"available": True, "reason": None, "commits": commits, **summarize_weeks(weeks, starts)}


# --- decisions from the journal -------------------------------------------------------------


def _failed_keys(commit: dict) -> set[str]:
    out = set()
    for key in ("conflicts", "failures"):
        for c in commit.get(key) or []:
            if isinstance(c, dict) and _str(c.get("decision")):
                out.add(c["decision"])
    return out


def recent_decisions(root: Path, today: date, days: int = RECENT_DAYS) -> dict:
    """The decisions applied in the ``days`` days up to ``today``, from the journal.

    A batch writes an ``intent`` line (its decisions; ``kind`` apply or undo, ``undoes``)
    and, once written, a ``commit`` line (its conflicts and failures). An apply batch counts
    when it committed in the window and no committed undo took it back; its decisions are
    the commit line's if it lists them, else the intent line's, less those that conflicted
    or failed. An apply batch with an intent but no commit was cut short and is listed.
    """
    root = Path(root)
    warnings: list[dict] = []
    rows = read_jsonl(root, JOURNAL, warnings)
    start = today - timedelta(days=days - 1)
    intents: dict[str, dict] = {}
    commits: dict[str, dict] = {}
    undone: set[str] = set()
    for _, obj in rows or []:
        batch, kind = _str(obj.get("batch")), obj.get("type")
        if kind == "undo":  # a one-line undo record
            undone.update(v for v in (obj.get("undoes"), batch) if _str(v))
        elif batch is None:
            continue
        elif kind == "intent":
            intents.setdefault(batch, obj)
        elif kind == "commit":
            commits.setdefault(batch, obj)

    def field_of(batch: str, key: str):
        value = commits.get(batch, {}).get(key)
        return value if value is not None else intents.get(batch, {}).get(key)

    for batch, commit in commits.items():
        target = _str(field_of(batch, "undoes"))
        if field_of(batch, "kind") == "undo" and target and not commit.get("failures"):
            undone.add(target)

    dated = []
    for batch, commit in commits.items():
        day = parse_date_prefix(commit.get("ts")) or parse_date_prefix(field_of(batch, "ts"))
        if field_of(batch, "kind") in (None, "apply") and day is not None:
            dated.append((day, batch, commit))
    decisions: list[dict] = []
    undone_here: list[str] = []
    for day, batch, commit in sorted(dated, key=lambda t: (t[0], t[1])):
        if not start <= day <= today:
            continue
        if batch in undone:
            undone_here.append(batch)
            continue
        listed = commit.get("decisions")
        if not isinstance(listed, list):
            listed = intents.get(batch, {}).get("decisions")
        failed = _failed_keys(commit)
        seen: set[tuple] = set()
        for d in listed if isinstance(listed, list) else []:
            if not isinstance(d, dict) or not _str(d.get("item")):
                continue
            if failed & {d.get(k) for k in ("item", "key", "id")}:
                continue
            key = (d["item"], str(d.get("action")))
            if key not in seen:
                seen.add(key)
                decisions.append({"date": day.isoformat(), "batch": batch, **d})
    interrupted = []
    for batch, obj in intents.items():
        day = parse_date_prefix(obj.get("ts"))
        if batch in commits or obj.get("kind", "apply") != "apply" or day is None:
            continue
        if start <= day <= today:
            interrupted.append({"date": day.isoformat(), "batch": batch})
    return {
        "has_journal": rows is not None,
        "decisions": decisions,
        "undone_batches": undone_here,
        "interrupted": interrupted,
        "warnings": warnings,
    }


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
        return (
            self.scan.warnings
            + self.journal["warnings"]
            + self.card["warnings"]
            + self.extra_warnings
        )


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
    title = _str(d.get("title"))
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
    """Write the report to ``out`` whole: a temp file next to it, fsync, then rename."""
    real = check_output_path(out, roots)
    tmp = real.parent / f".{real.name}.{secrets.token_hex(4)}.tmp"
    mode = None
    try:
        mode = real.stat().st_mode & 0o7777
    except OSError:
        pass
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            data = text.encode("utf-8")
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if mode is not None:
                os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, real)
    except OSError as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise ReportError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
    try:
        dfd = os.open(real.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass
    return real


def _date_arg(text: str) -> date:
    d = parse_date(text)
    if d is None or len(text.strip()) != 10:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}")
    return d


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
    p.add_argument("--today", type=_date_arg, help="review date (YYYY-MM-DD)")
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
