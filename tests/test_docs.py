"""The documentation holds together: the README stays short, every link lands, the
performance page's figures are the benchmark's, and every design citation names a section."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {_anchor(m) for m in re.findall(r"^#+ (.+)$", text, re.M)}


def test_the_readme_is_what_a_newcomer_reads_first():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 200
    text = "\n".join(lines)
    for needed in ("memreview demo", "python -m pytest", "docs/guide.md", "docs/cli.md"):
        assert needed in text


def test_every_link_between_the_pages_lands():
    broken = []
    for page in PAGES:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if "://" in target:
                continue
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                broken.append(f"{page.name}: {target}")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, broken


def test_every_design_citation_in_the_code_names_a_section_of_docs_design():
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^#+ (\d+(?:\.\d+)?)\.? ", design, re.M))
    missing = []
    for folder in ("memreview", "tests", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "DESIGN" + " §" not in text, f"{path}: cite docs/design.md, not DESIGN"
            for number in re.findall(r"design\.md §(\d+(?:\.\d+)?)", text):
                if number not in sections:
                    missing.append(f"{path.relative_to(ROOT)}: §{number}")
    assert not missing, missing


def test_the_performance_page_shows_the_last_benchmark_run():
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "perf_doc.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
