"""The floors of docs/architecture.md hold: lower floors never import higher ones, nothing below the app
loads Textual or Rich, the store is used through its interface, no module imports itself
back, and every module of the package is on a floor (else its imports go unchecked). The contracts are in pyproject.toml ([tool.importlinter]); `lint-imports` checks them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FLOORS_WITHOUT_UI = (
    "memreview.workspace.loader",
    "memreview.queues",
    "memreview.decisions",
    "memreview.store",
    "memreview.scan",
    "memreview.fleet",
    "memreview.report",
)


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_import_contracts_in_pyproject_are_kept():
    pytest.importorskip("importlinter", reason="import-linter comes with the dev extra")
    run = _python(
        "from importlinter.cli import lint_imports_command; lint_imports_command()", "--no-cache"
    )
    report = run.stdout[run.stdout.find("Contracts") :]  # without the banner
    assert run.returncode == 0, report[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def test_the_floors_below_the_app_load_neither_textual_nor_rich():
    # a fresh interpreter: the test session itself has long imported both
    code = (
        "import importlib, json, sys\n"
        f"for name in {FLOORS_WITHOUT_UI!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('textual', 'rich'))))\n"
    )
    run = _python(code)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == []


def test_every_module_of_the_package_is_on_a_floor():
    # a module the layers contract doesn't name escapes it: its imports go unchecked
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    layers = contracts["tool"]["importlinter"]["contracts"][0]["layers"]
    on_a_floor = {name.strip() for floor in layers for name in floor.split("|")}
    package = ROOT / "memreview"
    modules = {
        "memreview." + (p.stem if p.is_file() else p.name)
        for p in package.iterdir()
        if (p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").is_file()
    }
    assert modules - on_a_floor == set()
