"""A repository the agent wrote: reading its history or committing to it runs none of its
programs (lazy fetch, fsmonitor, diff drivers, textconv, hooks, clean filters, signing)."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from hostile_helpers import run_cli

from memreview.store import run_git
from memreview.store.git import _git_env

IDENTITY = {
    "GIT_AUTHOR_NAME": "Owner",
    "GIT_AUTHOR_EMAIL": "owner@example.invalid",
    "GIT_COMMITTER_NAME": "Owner",
    "GIT_COMMITTER_EMAIL": "owner@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(root: Path, *args: str) -> str:
    """The test's own git (the attacker's setup), hooks and all."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | IDENTITY
    proc = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, env=env, check=True
    )
    return proc.stdout


@pytest.fixture(autouse=True)
def _identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for var, value in IDENTITY.items():
        monkeypatch.setenv(var, value)


def script(tmp_path: Path, name: str, marker: Path, tail: str = "exit 1") -> Path:
    """A program that leaves ``marker`` behind when anything runs it."""
    path = tmp_path / name
    path.write_text(f"#!/bin/sh\necho \"{name} $*\" >> '{marker}'\n{tail}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n## Rules\n\n- keep the backups for 90 days\n")
    (ws / "memory" / "2026-11-20.md").write_text("# 2026-11-20\n\n- moved the NAS\n")
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "start")
    (ws / "MEMORY.md").write_text(
        "# Memory\n\n## Rules\n\n- keep the backups for 90 days\n- keep the backups for 90 days\n"
    )
    git(ws, "commit", "-q", "-am", "more")
    return ws


def read_history(ws: Path) -> None:
    """Everything that reads the workspace's git history, as cron would run it."""
    for argv in (
        ("doctor", str(ws), "--today", "2026-11-29"),
        ("doctor", "--json", str(ws), "--today", "2026-11-29"),
        ("report", str(ws), "--today", "2026-11-29", "--out", str(ws.parent / "r.md")),
    ):
        run = run_cli(*argv)
        assert "Traceback" not in run.err, run.err


def test_a_promisor_remote_with_a_missing_blob_never_runs_its_upload_pack(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    marker = tmp_path / "lazy-fetch-ran"
    evil = script(tmp_path, "upload-pack", marker)
    first = git(ws, "rev-parse", "HEAD~1:MEMORY.md").strip()
    git(ws, "config", "core.repositoryformatversion", "1")
    git(ws, "config", "extensions.partialClone", "origin")
    git(ws, "config", "remote.origin.url", f"file://{tmp_path / 'nowhere'}")
    git(ws, "config", "remote.origin.promisor", "true")
    git(ws, "config", "remote.origin.uploadpack", str(evil))
    (ws / ".git" / "objects" / first[:2] / first[2:]).unlink()
    # the attack works: git alone (history read with a patch) runs the program
    subprocess.run(["git", "-C", str(ws), "log", "-p"], capture_output=True, env=os.environ)
    assert marker.exists()
    marker.unlink()
    read_history(ws)
    assert not marker.exists()


def test_an_fsmonitor_textconv_or_diff_driver_never_runs(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    marker = tmp_path / "ran"
    hook = script(tmp_path, "monitor", marker)
    driver = script(tmp_path, "driver", marker, tail='cat "$1"')
    git(ws, "config", "core.fsmonitor", str(hook))
    git(ws, "config", "diff.evil.textconv", str(driver))
    git(ws, "config", "diff.evil.command", str(driver))
    git(ws, "config", "diff.external", str(driver))
    git(ws, "config", "core.pager", str(driver))
    git(ws, "config", "pager.log", str(driver))
    git(ws, "config", "log.showSignature", "true")
    git(ws, "config", "gpg.program", str(driver))
    (ws / ".gitattributes").write_text("*.md diff=evil\n")
    git(ws, "add", ".gitattributes")
    git(ws, "commit", "-q", "--no-verify", "-m", "attributes")
    (ws / "MEMORY.md").write_text("# Memory\n\n- changed in the work tree\n")
    # the attack works: the owner's own `git diff` would run the driver
    subprocess.run(["git", "-C", str(ws), "diff"], capture_output=True, env=os.environ)
    assert marker.exists()
    marker.unlink()
    read_history(ws)
    for args in (("status",), ("diff",), ("log", "-p"), ("show", "HEAD")):
        assert run_git(ws, *args).returncode == 0
    assert not marker.exists()


def test_the_runner_keeps_the_owners_safety_variables_and_drops_redirections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    git(elsewhere, "init", "-q")
    monkeypatch.setenv("GIT_NO_LAZY_FETCH", "1")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path / "ceiling"))
    monkeypatch.setenv("GIT_DIR", str(elsewhere / ".git"))
    monkeypatch.setenv("GIT_EXEC_PATH", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='/bin/false'")
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", "/bin/false")
    assert run_git(ws, "log", "-1", "--format=%s").stdout == "more\n"  # not elsewhere's
    env = _git_env()
    assert env["GIT_NO_LAZY_FETCH"] == "1"
    assert env["GIT_CEILING_DIRECTORIES"] == str(tmp_path / "ceiling")
    assert env["GIT_AUTHOR_NAME"] == "Owner"
    for dropped in ("GIT_DIR", "GIT_EXEC_PATH", "GIT_CONFIG_PARAMETERS", "GIT_EXTERNAL_DIFF"):
        assert dropped not in env


def committing_workspace(tmp_path: Path, marker: Path) -> tuple[Path, Path]:
    """A repository whose hooks, fsmonitor, clean filter and signing all run ``marker``'s
    program, and a decisions file that supersedes nothing but writes memreview's journal."""
    ws = workspace(tmp_path)
    hook = script(tmp_path, "hook", marker, tail="exit 0")
    filt = script(tmp_path, "filter", marker, tail="cat")
    hooks = ws / ".git" / "hooks"
    for name in ("pre-commit", "commit-msg", "post-commit", "reference-transaction"):
        (hooks / name).write_text(hook.read_text())
        (hooks / name).chmod(0o755)
    elsewhere = tmp_path / "hooks-elsewhere"
    elsewhere.mkdir()
    (elsewhere / "post-commit").write_text(hook.read_text())
    (elsewhere / "post-commit").chmod(0o755)
    (ws / ".gitattributes").write_text("*.md filter=evil\n")
    git(ws, "add", ".gitattributes")
    git(ws, "commit", "-q", "--no-verify", "-m", "attributes")
    git(ws, "config", "core.fsmonitor", str(hook))
    git(ws, "config", "core.hooksPath", str(elsewhere))
    git(ws, "config", "filter.evil.clean", str(filt))
    git(ws, "config", "filter.evil.smudge", str(filt))
    git(ws, "config", "commit.gpgSign", "true")
    git(ws, "config", "gpg.program", str(hook))
    marker.unlink(missing_ok=True)  # the attacker's own commit above ran its hooks
    decisions = tmp_path / "decisions.yaml"
    scan = run_cli("scan", str(ws), "--json", "--today", "2026-11-29").json()
    item = scan["queues"]["duplicates"][0]["id"]
    assert not marker.exists(), "scan: " + marker.read_text()
    decisions.write_text(
        f"decisions:\n  - queue: duplicates\n    item: {item}\n    action: merge\n    text: '- keep the backups for 90 days'\n"
    )
    return ws, decisions


def test_apply_commit_runs_no_hook_filter_fsmonitor_or_signing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    ws, decisions = committing_workspace(tmp_path, marker)
    before = git(ws, "rev-parse", "HEAD").strip()
    run = run_cli("apply", str(ws), "--decisions", str(decisions), "--commit")
    assert "Traceback" not in run.err, run.err
    assert not marker.exists(), marker.read_text()
    assert git(ws, "rev-parse", "HEAD~1").strip() == before, run.out + run.err
    committed = git(ws, "show", "--name-only", "--format=", "HEAD").split()
    assert "MEMORY.md" in committed and ".memreview/journal.jsonl" in committed
    assert ".gitattributes" not in committed
    assert git(ws, "show", "HEAD:MEMORY.md") == (ws / "MEMORY.md").read_text()  # unfiltered
    assert "MEMORY.md" not in git(ws, "status", "--porcelain")


def test_commit_true_in_the_workspace_file_is_not_obeyed_but_in_the_owners_config_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    ws, decisions = committing_workspace(tmp_path, marker)
    (ws / "memreview.yaml").write_text("commit: true\n")
    before = git(ws, "rev-parse", "HEAD").strip()
    run = run_cli("apply", str(ws), "--decisions", str(decisions))
    assert git(ws, "rev-parse", "HEAD").strip() == before
    assert "not obeyed" in run.out + run.err
    user = Path(os.environ["MEMREVIEW_CONFIG"])
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text("commit: true\n")
    (ws / "memreview.yaml").unlink()
    git(ws, "checkout", "--", "MEMORY.md")  # the duplicate back, to merge again
    marker.unlink(missing_ok=True)
    before = git(ws, "rev-parse", "HEAD").strip()
    run = run_cli("apply", str(ws), "--decisions", str(decisions))
    assert git(ws, "rev-parse", "HEAD~1").strip() == before, run.out + run.err
    assert not marker.exists()
