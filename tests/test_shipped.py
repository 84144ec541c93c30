"""A normal install carries the sample workspace and the themes inside the package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

PROBE = """
from memreview.app.themes import load_themes, themes_dir
from memreview.cli.launch import sample_workspace
print(sample_workspace())
print(themes_dir())
print(len(load_themes().problems))
"""


def test_the_built_package_finds_its_sample_workspace_and_themes_inside_itself(tmp_path):
    lib = tmp_path / "lib"
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(lib)],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    env = {**os.environ, "PYTHONPATH": str(lib)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=tmp_path, env=env, check=True, capture_output=True
    ).stdout.decode()
    sample, themes, problems = out.splitlines()
    assert Path(sample) == lib / "memreview" / "sample_workspace"
    shipped = (Path(sample) / "MEMORY.md").read_bytes()
    assert shipped == (REPO / "sample_workspace/MEMORY.md").read_bytes()
    assert (Path(sample) / "memory/.dreams").is_dir()
    assert Path(themes) == lib / "memreview" / "themes"
    assert (Path(themes) / "dark.yaml").is_file() and problems == "0"


def test_run_from_the_repository_the_top_level_folders_are_used():
    from memreview.app.themes import themes_dir
    from memreview.cli.launch import sample_workspace

    assert sample_workspace() == REPO / "sample_workspace"
    assert themes_dir() == REPO / "themes"
