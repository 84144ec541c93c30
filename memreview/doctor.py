"""``memreview doctor PATH… [--json] [--today D]``: alarms and secrets, for cron and CI.

Exit 0 when nothing fires, 1 when an alarm fires or a credential is found, 2 on a usage
error. Fast: it loads the workspace and computes the alarms and the secrets queue only (no
near-duplicate or fragment matching), then looks for credentials where memreview does not
rewrite: the lines added in the workspace's git history. The secrets queue covers every file
memreview reads (memory files, daily logs, ``DREAMS.md``, dreaming files, the recall store's
snippets). Secrets are always shown masked. The health figures
(budgets in lines and tokens, missing logs, stale todos) and the locks in use are listed as
warnings: shown, never failing.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

from memreview import store
from memreview.alarms import held_lock_files, openclaw_locks
from memreview.decisions.reviewed import workspace_alarms
from memreview.display import visible
from memreview.fleet import expand_fleet
from memreview.health import health
from memreview.i18n import _, ngettext, use_language
from memreview.queues.secrets import secrets
from memreview.secrets import LOWER_GATES, WHOLE_TEXT_GATES, find_secrets, kinds_shown, mask_secrets
from memreview.store import backup_usage, lock_states
from memreview.workspace.loader import load_workspace, review_date
from memreview.workspace.model import Workspace


def secrets_elsewhere(ws: Workspace) -> list[dict]:
    """Credentials in lines added in the workspace's git history: reported (masked), never
    rewritten by memreview (the files memreview reads are the secrets queue's)."""
    return secrets_in_git(ws.root)


_GIT_HISTORY_CAP = 256 << 20  # bytes of `git log -p` read at most
_HUNK = re.compile(rb"@@ -\S+ \+(\d+)")  # the first line of the new side


def secrets_in_git(root: Path) -> list[dict]:
    """Credentials in lines added anywhere in the workspace's git history (every branch),
    with the commit that added them: a value removed from the file is still in every clone.
    Each (file, masked line) once, at the oldest commit that added it; [] outside a repo."""
    if not store.is_git_repo(root):
        return []
    try:
        proc = store.run_git(
            root,
            "log", "--all", "--reverse", "-p", "-U0", "--no-ext-diff", "--no-textconv",
            "--relative", "--format=@@commit %h %ad", "--date=short", "--", ".",
            text=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return []
    if proc.returncode != 0:
        return []
    out: list[dict] = []
    seen: set[tuple[str, str]] = set()
    commit = day = path = ""
    no = 0
    for raw in proc.stdout[:_GIT_HISTORY_CAP].split(b"\n"):
        if raw.startswith(b"@@commit "):
            parts = raw.decode("utf-8", "replace").split()
            commit, day = parts[1], parts[2] if len(parts) > 2 else ""
        elif raw.startswith(b"+++ "):
            name = raw[4:].decode("utf-8", "replace")
            path = name[2:] if name.startswith("b/") else ""
        elif raw.startswith(b"@@ "):
            m = _HUNK.match(raw)
            no = int(m.group(1)) - 1 if m else 0
        elif raw.startswith(b"+") and path:
            no += 1
            line = raw[1:].decode("utf-8", "replace")
            if not _could_hold(line):
                continue
            found = find_secrets(line)
            if not found:
                continue
            masked = mask_secrets(line).strip()
            if (path, masked) in seen:
                continue
            seen.add((path, masked))
            out.append(
                {
                    "file": f"git {commit} ({day}) {path}",
                    "line": no,
                    "kinds": sorted({s.kind for s in found}),
                    "text": masked,
                }
            )
    return out


def _could_hold(text: str) -> bool:
    """A cheap first look at one line as written: could it hold a credential?"""
    low = text.lower()
    return any(rx.search(text) for rx in WHOLE_TEXT_GATES) or any(
        rx.search(low) for rx in LOWER_GATES
    )


def _warnings(h: dict) -> list[str]:
    out = []
    mem = h.get("memory")
    if mem and mem["lines"] > mem["max_lines"]:
        out.append(
            _("{file}: {lines} lines, budget {budget}").format(
                file=mem["file"], lines=mem["lines"], budget=mem["max_lines"]
            )
        )
    if mem and mem["tokens"] > mem["max_tokens"]:
        out.append(
            _("{file}: ~{tokens} tokens, budget {budget}").format(
                file=mem["file"], tokens=f"{mem['tokens']:,}", budget=f"{mem['max_tokens']:,}"
            )
        )
    logs = h.get("daily_logs") or {}
    if logs.get("missing"):
        out.append(_("daily logs missing: {dates}").format(dates=", ".join(logs["missing"])))
    if logs.get("empty"):
        out.append(_("empty daily logs: {dates}").format(dates=", ".join(logs["empty"])))
    if h.get("stale_todos"):
        count = len(h["stale_todos"])
        out.append(
            ngettext("{count} stale todo in NOW.md", "{count} stale todos in NOW.md", count).format(
                count=count
            )
        )
    return out


def check_workspace_health(root: Path, today: date | None) -> dict:
    """The doctor's findings for one workspace, JSON-shaped."""
    ws = load_workspace(root)
    day = review_date(ws, today)
    found = workspace_alarms(ws, day)
    items = secrets(ws, day)
    return {
        "workspace": str(root),
        "today": day.isoformat(),
        "alarms": [a.to_json() for a in found],
        "secrets": {
            "count": len(items),
            "items": [
                {
                    "file": it["ref"]["file"],
                    "line": it["ref"]["line"],
                    "kinds": it["kinds"],
                    "text": it["text"],
                    "written": bool(it.get("writable")),
                }
                for it in items
            ],
            "elsewhere": secrets_elsewhere(ws),
        },
        "warnings": _warnings(health(ws, day)) + _held_locks(ws),
        "backups": _backups(root),
        "locks": [s.to_json() for s in lock_states(root, ws.config.lock_files)],
    }


def _backups(root: Path) -> dict:
    """The size of ``.memreview/backups/`` (pruned on apply: see ``memreview log``)."""
    try:
        files, size = backup_usage(root)
    except OSError:
        files, size = 0, 0
    return {"files": files, "bytes": size}


def _held_locks(ws: Workspace) -> list[str]:
    """Pipeline lock files and OpenClaw's promotion lock rows that hold now: shown, not an
    alarm (a run in progress holds one; a stale one is the stale-lock alarm)."""
    out = []
    for rel, pid in held_lock_files(ws):
        out.append(
            _("{file} is held by process {pid}, which is running: a pipeline is at work").format(
                file=rel, pid=pid
            )
        )
    for row, state in openclaw_locks(ws):
        if state == "held":
            who = _("process {pid}").format(pid=row.pid) if row.pid else "OpenClaw"
            out.append(
                _(
                    "OpenClaw's promotion lock is held by {who} ({db}); memreview waits for it "
                    "before writing MEMORY.md"
                ).format(who=who, db=row.db)
            )
    return out


def cmd_doctor(args) -> int:
    """Run the doctor over every workspace the paths name; exit 1 when anything fires."""
    if args.json:  # a script's interface: English whatever the interface's language
        use_language("en")
    agents = expand_fleet(args.paths)
    reports = []
    for name, root in agents:
        rep = check_workspace_health(root, args.today)
        rep["agent"] = name
        reports.append(rep)
    fired = any(r["alarms"] or r["secrets"]["count"] or r["secrets"]["elsewhere"] for r in reports)
    if args.json:
        doc = {"schema": 1, "ok": not fired, "workspaces": reports}
        text = json.dumps(doc, ensure_ascii=False)
        # controls and bidi characters as \\uXXXX, like scan --json
        text = "".join(c if c.isprintable() or c in "\n" else f"\\u{ord(c):04x}" for c in text)
        sys.stdout.write(text + "\n")
        return 1 if fired else 0
    for r in reports:
        print(visible(f"{r['agent']}  {r['workspace']}  ({r['today']})"))
        if not r["alarms"] and not r["secrets"]["count"] and not r["secrets"]["elsewhere"]:
            print("  " + _("ok: no alarm, no secret"))
        for a in r["alarms"]:
            print(visible("  " + _("ALARM {id}: {title}").format(id=a["id"], title=a["title"])))
            for e in a["evidence"]:
                print(visible(f"      {e}"))
            print(visible("      " + _("what to do: {todo}").format(todo=a["todo"])))
        s = r["secrets"]
        for it in s["items"]:
            where = f"{it['file']}:{it['line']}" if it["line"] else it["file"]
            if it["written"]:
                line = _("SECRET {file}:{line} ({kinds}): {text}").format(
                    file=it["file"],
                    line=it["line"],
                    kinds=kinds_shown(it["kinds"]),
                    text=it["text"].strip()[:120],
                )
            else:
                line = _("SECRET {where} ({kinds}, not rewritten by memreview): {text}").format(
                    where=where, kinds=kinds_shown(it["kinds"]), text=it["text"].strip()[:120]
                )
            print(visible("  " + line))
        for it in s["elsewhere"]:
            where = f"{it['file']}:{it['line']}" if it["line"] else it["file"]
            line = _("SECRET {where} ({kinds}, not rewritten by memreview): {text}").format(
                where=where, kinds=kinds_shown(it["kinds"]), text=it["text"].strip()[:120]
            )
            print(visible("  " + line))
        for w in r["warnings"]:
            print(visible("  " + _("warning: {text}").format(text=w)))
        b = r["backups"]
        print(
            "  "
            + _("backups: {files} file(s), {kib} KiB under .memreview/backups").format(
                files=b["files"], kib=(b["bytes"] + 1023) // 1024
            )
        )
        for lock in r["locks"]:
            print(visible("  " + _("lock {text}").format(text=lock["text"])))
    return 1 if fired else 0
