"""Hand-made workspaces and git repositories for the report's tests."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import date, datetime
from pathlib import Path

TODAY = date(2026, 7, 6)  # a Monday; the 14 weeks start on 2026-03-31

# Eleven unrelated facts, stamped by the dreaming pipeline in the last four weeks:
# 1 in the week from 06-09, 2 from 06-16, 3 from 06-23 and 5 from 06-30.
STAMPED = [
    ("Always ask before deleting anything in the photo archive", "2026-06-10"),
    ("The owner prefers tabs in the dotfiles repository", "2026-06-16"),
    ("Backups of the NAS run nightly at two in the morning", "2026-06-21"),
    ("Gateway port is 18789 and must stay closed to the outside", "2026-06-23"),
    ("Weekly invoices go to the accountant on Fridays", "2026-06-25"),
    ("Raspberry Pi boots from the external SSD since spring", "2026-06-29"),
    ("Translate release notes into Chinese before posting", "2026-06-30"),
    ("Never schedule calls before ten on a Monday", "2026-07-01"),
    ("Bounty submissions expire within forty-eight hours", "2026-07-02"),
    ("Keep the grocery list in the shared notes app", "2026-07-04"),
    ("Cron jobs log to the journal instead of plain files", "2026-07-06"),
]
EXPECTED_LAST_WEEKS = [1, 2, 3, 5]

HOSTILE = "\x1b[31m# Evil [@click=app.quit] <script>x</script> | pipe \u202etxt &#8238; *bold*"


def write_files(root: Path, files: dict[str, object]) -> Path:
    """Write ``files`` under ``root``: str as UTF-8, bytes as is, list as JSON lines."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        elif isinstance(content, list):
            p.write_bytes(
                "".join(
                    (o if isinstance(o, str) else json.dumps(o, ensure_ascii=False)) + "\n"
                    for o in content
                ).encode("utf-8")
            )
        else:
            p.write_bytes(str(content).encode("utf-8"))
    return root


def memory_md() -> str:
    lines = ["# Memory", "", "## Facts"]
    lines += [f"- {text}（{day} 自动沉淀）" for text, day in STAMPED]
    lines += [
        "",
        "## Notes",
        f"- {HOSTILE}",
        f"- {HOSTILE}",
        "",
        "## [KNOWLEDGE:alpha]",
        "Added: 2026-05-01",
        "Summary: The build uses Python 3.12",
        "Importance: high",
        "CONFLICTS-WITH: [[beta]]",
        "---",
        "",
        "## [KNOWLEDGE:beta]",
        "Added: 2026-05-02",
        "Summary: The build uses Python 3.11",
        "Importance: high",
        "---",
        "",
    ]
    return "\n".join(lines)


def journal_lines() -> list:
    def intent(batch, ts, decisions, kind="apply", undoes=None):
        rec = {"type": "intent", "batch": batch, "kind": kind, "ts": ts, "decisions": decisions}
        if undoes:
            rec["undoes"] = undoes
        return rec

    def commit(batch, ts, kind="apply", conflicts=(), undoes=None):
        rec = {
            "type": "commit",
            "batch": batch,
            "kind": kind,
            "ts": ts,
            "applied": [],
            "files": ["MEMORY.md"],
            "conflicts": list(conflicts),
            "failures": [],
        }
        if undoes:
            rec["undoes"] = undoes
        return rec

    keep = {"item": "d-keep-one", "action": "keep", "keep": 2, "queue": "duplicates"}
    return [
        intent("b-old", "2026-06-20T09:00:00+02:00", [{"item": "x-too-old", "action": "done"}]),
        commit("b-old", "2026-06-20T09:00:01+02:00"),
        intent(
            "b1", "2026-07-03T10:00:00+02:00", [keep, {"item": "s-rejected", "action": "reject"}]
        ),
        {"type": "file", "batch": "b1", "file": "MEMORY.md", "before": "aa", "after": "bb"},
        commit("b1", "2026-07-03T10:00:01+02:00"),
        "{torn line",
        intent("b2", "2026-07-04T11:00:00+02:00", [{"item": "c-undone", "action": "keep-a"}]),
        commit("b2", "2026-07-04T11:00:01+02:00"),
        intent("u1", "2026-07-04T11:05:00+02:00", [], kind="undo", undoes="b2"),
        commit("u1", "2026-07-04T11:05:01+02:00", kind="undo", undoes="b2"),
        intent(
            "b5",
            "2026-07-05T08:00:00+02:00",
            [
                {"item": "c-conflicted", "action": "keep-b"},
                {"item": "c-kept", "action": "keep-both"},
            ],
        ),
        commit("b5", "2026-07-05T08:00:01+02:00", conflicts=[{"decision": "c-conflicted"}]),
        intent("b4", "2026-07-05T09:00:00+02:00", [{"item": "c-cut", "action": "keep-a"}]),
    ]


def report_workspace(root: Path) -> Path:
    """A workspace with known figures in every section of the report."""
    files: dict[str, object] = {
        "MEMORY.md": memory_md(),
        "HEARTBEAT.md": "".join(f"- check {k}\n" for k in range(60)),
        "NOW.md": (
            "# NOW\n\n**待办**:\n"
            "- [ ] Renew the domain (2026-06-20)\n"
            "- [ ] Water the plants (2026-07-05)\n"
            "- [x] File the taxes (2026-06-01)\n"
        ),
        "memory/2026-06-29.md": "### 09:00 — start\nworked\n",
        "memory/2026-06-30.md": "### 09:00 — start\nworked\n",
        "memory/2026-07-01.md": "",
        "memory/2026-07-03.md": "### 09:00 — start\nworked\n",
        "memory/2026-07-05.md": "### 09:00 — start\nworked\n",
        "memory/projects/old-garden.md": "# Old garden\n\nStatus: active\n",
        ".memreview/journal.jsonl": journal_lines(),
    }
    write_files(root, files)
    old = datetime(2026, 5, 1, 12, 0).timestamp()
    os.utime(root / "memory/projects/old-garden.md", (old, old))
    return root


# --- git -------------------------------------------------------------------------------------


def git(root: Path, *args: str, when: str | None = None) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", HOME=str(root))
    if when:
        env.update(GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def git_init(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")
    git(root, "config", "user.name", "Test Owner")
    git(root, "config", "user.email", "owner@example.com")
    git(root, "config", "commit.gpgsign", "false")


def commit_files(root: Path, files: dict[str, object], when: str, message: str = "memory") -> None:
    """Write ``files`` (None deletes one) and commit them with author and committer ``when``."""
    for rel, content in files.items():
        if content is None:
            (root / rel).unlink()
        else:
            write_files(root, {rel: content})
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message, when=when)
