"""Kill storm: N random SIGKILLs of ``memreview apply`` and ``memreview undo`` on copies of
the sample workspace, and what each kill left behind (docs/design.md §4, issue 18).

    python bench/storm.py N [--seed S] [--json]

The decisions are built from ``memreview scan --json`` of the sample (one writing action per
item where it has one). Each run starts from a fresh copy — for an undo, one where the
decisions were applied cleanly — and kills the command with SIGKILL either at a random
write step (``MEMREVIEW_FAILPOINT=N``: the process kills itself there) or, one run in four,
from outside after a random delay. Then it counts, on the state the kill left:

- the workspace: all old, all new, or mixed (some files old, some new);
- torn files: a file that is neither its old nor its new version;
- temp files the kill left, and stray ones still there after the next run (a scan);
- entries in no live file: entries that exist both before and after the batch but in no
  Markdown file now;
- rolling back (``memreview undo``): ok, or refused; ok must give the old files back;
- finishing (``memreview recover --finish``, then applying the same decisions again — for
  an undo: undoing again, then applying again): converges to a clean apply, or diverges.

In half the runs an agent appends a line to one of the batch's Markdown files after the kill
and before the recovery: the line must be there exactly once after rolling back and after
finishing (and is left out when comparing with the old and the new files).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests" / "reliability")]

from reliability_helpers import (  # noqa: E402
    REPO,
    TODAY,
    comparable,
    entries,
    live_files,
    sample_copy,
    temp_files,
    write_decisions,
)

from memreview.cli import main as cli  # noqa: E402

TEMP = re.compile(r"^\..+\.[0-9a-f]{8}\.tmp$")

# One writing action per queue kind; items the scan lists get the first that fits.
ACTIONS = {
    "supersede": "approve",
    "skills": "create-skill",
    "archived": "remove",
    "duplicates": "keep",
    "dormant": "revive",
    "demotion": "approve",
}


def build_decisions(scan: dict) -> list[dict]:
    """Decisions for the storm: every item of the writing queues, none on the same anchors
    twice (a contradiction the supersede queue also lists is left to the supersede)."""
    out = []
    for queue, action in ACTIONS.items():
        for item in scan["queues"][queue]:
            d = {"item": item["id"], "action": action}
            if queue == "duplicates":
                d["keep"] = 1
            out.append(d)
    return out


def _effective(rel: str, data: bytes) -> bytes:
    """verdicts.jsonl as it counts: a verdict an ``undone`` line takes back is left out with
    that line (the file is append-only, so undo and apply again add lines)."""
    if not rel.endswith(".jsonl"):
        return data
    kept: list[bytes] = []
    for line in data.splitlines(True):
        if b'"verdict": "undone"' in line:
            proposal = json.loads(line).get("proposal")
            for k in range(len(kept) - 1, -1, -1):
                if json.loads(kept[k]).get("proposal") == proposal:
                    del kept[k]
                    break
            continue
        kept.append(line)
    return b"".join(kept)


def counted(ws: Path) -> dict[str, bytes]:
    """The live files as they count (no temp files, verdicts without taken-back ones)."""
    out = {}
    for rel, data in comparable(ws).items():
        if TEMP.match(rel.rsplit("/", 1)[-1]):
            continue
        data = _effective(rel, data)
        if data or not rel.endswith(".jsonl"):  # all taken back: as if it were not there
            out[rel] = data
    return out


def _differ(a: dict[str, bytes], b: dict[str, bytes]) -> list[str]:
    return sorted(rel for rel in set(a) | set(b) if a.get(rel) != b.get(rel))


def run(cmd: list[str], ws: Path) -> tuple[int, str]:
    """A memreview command in this process: (exit status, stderr)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli([cmd[0], str(ws), *cmd[1:]])
    return code, err.getvalue()


def killed(cmd: list[str], ws: Path, rng: random.Random, steps: int, duration: float) -> str:
    """Run ``cmd`` in a subprocess and SIGKILL it; how it was killed."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    args = [sys.executable, "-m", "memreview", cmd[0], str(ws), *cmd[1:]]
    if rng.random() < 0.75:
        env["MEMREVIEW_FAILPOINT"] = str(rng.randint(1, steps))
        proc = subprocess.run(args, env=env, capture_output=True)
        return "failpoint" if proc.returncode == -signal.SIGKILL else "finished"
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0, duration))
    proc.send_signal(signal.SIGKILL)
    return "timer" if proc.wait() == -signal.SIGKILL else "finished"


class Storm:
    def __init__(self, base: Path, seed: int, verbose: bool = False) -> None:
        self.base = base
        self.verbose = verbose
        self.run_no, self.how, self.note = 0, "", None
        self.rng = random.Random(seed)
        self.c: Counter = Counter()
        self.pristine = sample_copy(base / "pristine")
        scan = subprocess.run(
            [
                sys.executable,
                "-m",
                "memreview",
                "scan",
                str(self.pristine),
                "--json",
                "--today",
                TODAY,
            ],
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
        )
        self.decisions = build_decisions(json.loads(scan.stdout))
        self.dec = write_decisions(base / "decisions.yaml", self.decisions)
        self.apply_cmd = ["apply", "--decisions", str(self.dec), "--today", TODAY]
        self.old_files = live_files(self.pristine)
        self.old_entries = entries(self.pristine)
        self.applied = self.copy("applied")
        t0 = time.perf_counter()
        run(self.apply_cmd, self.applied)
        self.duration = time.perf_counter() - t0
        self.new_files = counted(self.applied)
        self.new_entries = entries(self.applied)
        journal = (self.applied / ".memreview/journal.jsonl").read_text().splitlines()
        nfiles = len(json.loads(journal[-1])["files"])
        self.steps = 3 + 7 * nfiles  # locked, intent, commit; backup … journal-file per file

    def copy(self, name: str, src: Path | None = None) -> Path:
        dest = self.base / name
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(src or self.pristine, dest, symlinks=True)
        return dest

    def one(self, i: int) -> None:
        undoing = self.rng.random() < 0.3
        ws = self.copy("run", self.applied if undoing else None)
        how = killed(
            ["undo"] if undoing else self.apply_cmd, ws, self.rng, self.steps, self.duration
        )
        self.c[f"{'undo' if undoing else 'apply'} killed ({how})"] += 1
        self.run_no, self.how = i, f"{'undo' if undoing else 'apply'} {how}"
        self.look(ws)
        self.c["temp files left by the kill"] += len(temp_files(ws))
        self.note = self.agent_writes(ws, i) if self.rng.random() < 0.5 else None
        after_kill = self.copy("after-kill", ws)
        run(["scan", "--today", TODAY], ws)
        self.c["stray temp files after the next run"] += len(temp_files(ws))
        self.roll_back(self.copy("rollback", after_kill), undoing)
        self.finish(self.copy("finish", after_kill), undoing)

    def agent_writes(self, ws: Path, i: int) -> tuple[str, bytes]:
        """An agent appends a line to one of its Markdown files the batch writes, after the
        kill (files the batch creates, archives and skills, are memreview's)."""
        files = sorted(
            r
            for r in self.new_files
            if r.endswith(".md") and r in self.old_files and (ws / r).is_file()
        )
        rel = self.rng.choice(files)
        # no letters: a note in English would make a Chinese NOW.md English by the majority of
        # its letters, and the next apply would rightly write "Revisit" where it wrote "回顾"
        line = f"- ✎ {i:05d} ✎\n".encode()
        with (ws / rel).open("ab") as f:
            f.write(line)
        self.c["agent appends after the kill"] += 1
        return rel, line

    def without_note(self, files: dict[str, bytes]) -> dict[str, bytes]:
        """``files`` with the agent's note taken out (counted: kept once, or lost)."""
        if self.note is None:
            return files
        rel, line = self.note
        data = files.get(rel, b"")
        self.c["agent's note kept" if data.count(line) == 1 else "agent's note lost"] += 1
        return {**files, rel: data.replace(line, b"", 1)}

    def look(self, ws: Path) -> None:
        now = counted(ws)
        old = counted(self.pristine)
        kinds = set()
        for rel in set(now) | set(old) | set(self.new_files):
            if now.get(rel) == old.get(rel) and now.get(rel) == self.new_files.get(rel):
                continue
            if now.get(rel) == old.get(rel):
                kinds.add("old")
            elif now.get(rel) == self.new_files.get(rel):
                kinds.add("new")
            else:
                kinds.add("torn")
                self.c["torn files"] += 1
                self.c[f"torn: {rel}"] += 1
        state = "mixed" if {"old", "new"} <= kinds else ("new" if "new" in kinds else "old")
        self.c[f"workspace {state}"] += 1
        lost = (self.old_entries & self.new_entries) - entries(ws)
        self.c["entries in no live file"] += len(lost)

    def roll_back(self, ws: Path, undoing: bool) -> None:
        code, err = run(["undo"], ws)
        if code != 0 and "nothing to undo" not in err:
            self.c["undo refused"] += 1
            self.say("undo refused", err.strip().splitlines()[-1])
            return
        ok = {k: v for k, v in self.without_note(live_files(ws)).items() if "verdicts" not in k}
        want = {k: v for k, v in self.old_files.items() if "verdicts" not in k}
        self.c["undo ok" if ok == want else "undo ok but not back to old"] += 1
        if ok != want:
            self.say("not back to old", _differ(ok, want))

    def finish(self, ws: Path, undoing: bool) -> None:
        if undoing:
            run(["undo"], ws)
        else:
            run(["recover", "--finish"], ws)
        run(self.apply_cmd, ws)
        now = self.without_note(counted(ws))
        converged = now == self.new_files and not temp_files(ws)
        self.c["re-apply converges" if converged else "re-apply diverges"] += 1
        if not converged:
            self.say("re-apply diverges", _differ(now, self.new_files) or temp_files(ws))

    def say(self, what: str, detail) -> None:
        """With --verbose, one line per problem: the run, how it was killed, what differs."""
        if self.verbose:
            print(
                f"run {self.run_no} ({self.how}, note {self.note and self.note[0]}): {what}: "
                f"{detail}",
                file=sys.stderr,
            )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("n", type=int, help="how many kills")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--json", action="store_true", help="print the counts as JSON")
    ap.add_argument("--verbose", action="store_true", help="say what went wrong in each run")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="memreview-storm-") as tmp:
        storm = Storm(Path(tmp), args.seed, args.verbose)
        for i in range(args.n):
            storm.one(i)
            if (i + 1) % 20 == 0:
                print(f"{i + 1} kills", file=sys.stderr)
    c = storm.c
    for key in (
        "torn files",
        "entries in no live file",
        "stray temp files after the next run",
        "undo refused",
        "re-apply diverges",
        "agent's note lost",
    ):
        c.setdefault(key, 0)
    if args.json:
        print(json.dumps(dict(sorted(c.items())), ensure_ascii=False, indent=1))
    else:
        print(
            f"{args.n} kills of apply/undo on the sample ({len(storm.decisions)} decisions, "
            f"{storm.steps} write steps), seed {args.seed}"
        )
        for key, value in sorted(c.items()):
            print(f"  {key:<40}{value:>6}")
    bad = (
        c["torn files"]
        + c["entries in no live file"]
        + c["stray temp files after the next run"]
        + c["re-apply diverges"]
        + c["agent's note lost"]
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
